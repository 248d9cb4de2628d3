"""Where a drain's time went, read after the run from what it left behind, so the in-process floor
and `signet up` are measured the same way:

- the store: every completed job's `completed_at` and type (memory_jobs), every memory's `created`
  history row (how big the store was at that moment);
- for `signet up`, the extraction stage timings each drain run reports in its materializations
  (memory_extractions extract_ms, memory_decisions embed_ms / candidates_ms / decide_ms, derived_facts
  write_ms; decide includes candidates).

`blocks`: jobs/s over each run of 1,000 completed jobs, with the extraction rate inside it (extract
jobs over the time attributed to them) and the store's size at its end: flat rates mean per-job
work does not grow with the store. `by_type`: the time between one completion and the next is
charged to the job that completed (a batch's shared steps land on its first job), gaps longer than
IDLE_GAP_S to `idle` (nothing due, a run launching).
"""

from __future__ import annotations

import bisect
import os
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import apsw
import httpx

from signet_pipeline.config import DB_RELATIVE_PATH
from signet_pipeline.timeutil import parse_iso

IDLE_GAP_S = 10.0
# What each process of a `signet up` stack is, from its command line (first match wins).
ROLES = [("serve", "api"), ("dagster-daemon", "daemon"), ("dagster_web", "webserver"),
         ("spawn_main", "runs"), ("api grpc", "code servers"), ("", "other")]
BLOCK = 1000
STAGE_LABELS = {"memory_extractions": ["extract_ms"], "memory_decisions": ["embed_ms", "candidates_ms", "decide_ms"],
                "derived_facts": ["write_ms"]}


@dataclass
class Timeline:
    jobs: list[tuple[float, str]]  # (completed, epoch s; job type), in completion order
    created: list[float]  # when each memory row was written (epoch s), sorted


def _epoch(text: str) -> float:
    return parse_iso(text).timestamp()


def read(workspace: Path) -> Timeline:
    conn = apsw.Connection(str(workspace / DB_RELATIVE_PATH), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        jobs = sorted((_epoch(at), t) for at, t in conn.execute(
            "SELECT completed_at, job_type FROM memory_jobs WHERE status = 'completed' AND completed_at IS NOT NULL"))
        created = sorted(_epoch(at) for (at,) in conn.execute(
            "SELECT created_at FROM memory_history WHERE event = 'created'"))
    finally:
        conn.close()
    return Timeline(jobs, created)


def _charged(tl: Timeline, start: float) -> list[tuple[float, str]]:
    """(seconds charged, job type or idle) per completed job, in order."""
    out, last = [], start
    for at, job_type in tl.jobs:
        gap = max(0.0, at - last)
        out.append((min(gap, IDLE_GAP_S), job_type))
        if gap > IDLE_GAP_S:
            out.append((gap - IDLE_GAP_S, "idle"))
        last = at
    return out


def by_type(tl: Timeline, start: float) -> dict[str, dict[str, float]]:
    """job type -> jobs, seconds charged, ms per job (and `idle` seconds)."""
    seconds: Counter = Counter()
    jobs: Counter = Counter(t for _, t in tl.jobs)
    for s, job_type in _charged(tl, start):
        seconds[job_type] += s
    return {t: {"jobs": jobs[t], "s": round(seconds[t], 1),
                **({"ms_per_job": round(1000 * seconds[t] / jobs[t], 2)} if jobs[t] else {})}
            for t in sorted(seconds, key=lambda t: -seconds[t])}


def blocks(tl: Timeline, start: float, size: int = BLOCK) -> list[dict[str, float]]:
    """Per run of `size` completed jobs: jobs/s, extract jobs/s (over their charged time), memories in the store."""
    out, last, count, extract, extract_s = [], start, 0, 0, 0.0
    charged = [(s, t) for s, t in _charged(tl, start) if t != "idle"]
    for i, ((at, job_type), (s, _)) in enumerate(zip(tl.jobs, charged)):
        count += 1
        if job_type == "extract":
            extract, extract_s = extract + 1, extract_s + s
        if count == size or i == len(tl.jobs) - 1:
            out.append({"jobs": count, "jobs_per_s": round(count / max(at - last, 1e-9), 1),
                        "extract_jobs": extract,
                        "extract_per_s": round(extract / extract_s, 1) if extract and extract_s else None,
                        "store_memories": bisect.bisect_right(tl.created, at)})
            last, count, extract, extract_s = at, 0, 0, 0.0
    return out


_MATERIALIZATIONS = """query($path: [String!]!) { assetOrError(assetKey: {path: $path}) { ... on Asset {
    assetMaterializations(limit: 10000) { metadataEntries { label
        ... on FloatMetadataEntry { floatValue } ... on IntMetadataEntry { intValue } } } } } }"""


def _summed(dagster_url: str, asset: str, labels: list[str]) -> dict[str, float]:
    """Each metadata label summed over every materialization of `asset`."""
    reply = httpx.post(dagster_url + "/graphql", json={"query": _MATERIALIZATIONS, "variables": {"path": [asset]}},
                       timeout=60).json()
    if reply.get("errors"):
        raise RuntimeError(f"Dagster GraphQL: {reply['errors']}")
    out: dict[str, float] = {}
    for event in reply["data"]["assetOrError"].get("assetMaterializations", []):
        for entry in event["metadataEntries"]:
            if entry["label"] in labels:
                out[entry["label"]] = out.get(entry["label"], 0) + (entry.get("floatValue", entry.get("intValue")) or 0)
    return out


def stage_seconds(dagster_url: str) -> dict[str, float]:
    """The extraction stages' seconds summed over every drain run's materializations."""
    return {label.removesuffix("_ms"): round(ms / 1000, 1) for asset, labels in STAGE_LABELS.items()
            for label, ms in _summed(dagster_url, asset, labels).items()}


def refreshed(dagster_url: str) -> int:
    """Vectors the embedding refresh wrote: during a backlog, memories whose vector the API's
    write-behind had not written yet, embedded a second time."""
    return int(_summed(dagster_url, "embedding_refresh", ["refreshed"]).get("refreshed", 0))


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for task in os.listdir(f"/proc/{pid}/task")
                for c in open(f"/proc/{pid}/task/{task}/children").read().split()]
    except OSError:
        return []


def _tree(pid: int) -> dict[int, tuple[str, float]]:
    """pid -> (role, its own CPU seconds so far) for the process tree under `pid`."""
    tick = os.sysconf("SC_CLK_TCK")
    out, todo = {}, [pid]
    while todo:
        p = todo.pop()
        todo += _children(p)
        try:
            fields = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
            cmd = open(f"/proc/{p}/cmdline").read().replace("\0", " ")
        except OSError:
            continue
        out[p] = (next(r for key, r in ROLES if key in cmd), (int(fields[11]) + int(fields[12])) / tick)
    return out


class StackCpu:
    """CPU seconds each role of a `signet up` stack (ROLES) used while it ran, sampled every
    SAMPLE_S from /proc: a process's own time is read while it lives (a run worker's before it
    exits), so short-lived processes are undercounted by at most one sample. External load does not
    change these figures, unlike wall time. Use as a context manager."""

    SAMPLE_S = 1.0

    def __init__(self, pid: int):
        self.pid = pid
        self._start = {p: cpu for p, (_, cpu) in _tree(pid).items()}
        self._last: dict[int, tuple[str, float]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while True:
            for p, (role, cpu) in _tree(self.pid).items():
                # An exited process not yet reaped has no command line: it keeps the role it had.
                self._last[p] = (self._last[p][0] if p in self._last else role, cpu)
            if self._stop.wait(self.SAMPLE_S):
                return

    def __enter__(self) -> StackCpu:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def by_role(self) -> dict[str, float]:
        out: Counter = Counter()
        for p, (role, cpu) in self._last.items():
            out[role] += cpu - self._start.get(p, 0.0)
        return {role: round(cpu, 1) for role, cpu in sorted(out.items())}
