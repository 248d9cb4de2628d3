"""Recall under write load, as users run it: `signet serve`, then `signet up` with the pipeline
draining what the clients write, each beside the same service unloaded, in one run.

    .venv/bin/python -m bench.write_load_bench                       # 8 clients x 300 remembers, ~6 min
    .venv/bin/python -m bench.write_load_bench --clients 4 --per-client 100 --modes serve

Each client remembers conversation turns one by one (as its own agent, or all clients as one agent:
`--agents`) and, every `--recall-every` remembers,
recalls the turn it remembered last, word for word: the recall must return that memory (read your
writes: the write-behind vector of a remember acknowledged a moment ago, or its keywords).
Unloaded: one client recalls the same kind of query on the same store when no one writes. At the
end every acknowledged memory must be in the store (nothing lost).

The goal (issue 26): under load recall p50 <= 2x remember p50, and recall p95 <= 250 ms.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import apsw
import httpx

from bench.report import machine, machine_lines, markdown
from bench.stats import summary
from evalsets.generate import remember_bodies
from signet_eval.server import ApiServer
from signet_pipeline.config import DB_RELATIVE_PATH


def log(message: str) -> None:
    print(message, flush=True)


MISSES: list[dict] = []  # the own writes a recall did not return, for the report


def timed_post(client: httpx.Client, path: str, body: dict) -> tuple[httpx.Response, float]:
    started = time.perf_counter()
    response = client.post(path, json=body)
    return response, (time.perf_counter() - started) * 1000


def recall_of(body: dict) -> dict:
    """The recall that must find `body`'s memory: its own words, as its agent."""
    return {"query": body["content"], "agentId": body.get("agentId"), "limit": 10}


def client_load(base_url: str, bodies: list[dict], recall_every: int) -> dict:
    """One client's remembers, with a recall of its latest memory every `recall_every`."""
    remembers, recalls, stages, ids, errors, missed = [], [], [], [], 0, 0
    with httpx.Client(base_url=base_url, timeout=60) as client:
        for i, body in enumerate(bodies, 1):
            response, ms = timed_post(client, "/api/memory/remember", body)
            remembers.append(ms)
            if response.status_code != 200:
                errors += 1
                continue
            ids.append(response.json()["id"])
            if i % recall_every == 0:
                answer, ms = timed_post(client, "/api/memory/recall", recall_of(body))
                recalls.append(ms)
                if answer.status_code != 200:
                    errors += 1
                    continue
                found = answer.json()
                if ids[-1] not in {r["id"] for r in found["results"]}:
                    missed += 1
                    MISSES.append({"id": ids[-1], "remembered": response.json(), "query": body["content"][:80],
                                   "top": [(r["id"], r.get("source"), round(r["score"], 3), r["content"][:60])
                                           for r in found["results"][:3]]})
                timings = found["meta"]["timings"]
                stages.append({"server_total": timings["totalMs"],
                               **{s["name"]: s["durationMs"] for s in timings["stages"]}})
    return {"remember": remembers, "recall": recalls, "stages": stages, "ids": ids, "errors": errors,
            "missed": missed}


def unloaded_recalls(base_url: str, bodies: list[dict]) -> list[float]:
    out = []
    with httpx.Client(base_url=base_url, timeout=60) as client:
        for body in bodies:
            response, ms = timed_post(client, "/api/memory/recall", recall_of(body))
            response.raise_for_status()
            out.append(ms)
    return out


def stored(workspace: Path, ids: list[str]) -> int:
    conn = apsw.Connection(str(workspace / DB_RELATIVE_PATH), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        found = 0
        for at in range(0, len(ids), 500):
            chunk = ids[at:at + 500]
            found += conn.execute(f"SELECT count(*) FROM memories WHERE id IN ({','.join('?' * len(chunk))})",
                                  chunk).fetchone()[0]
        return found
    finally:
        conn.close()


def run_mode(mode: str, root: Path, bodies: list[dict], clients: int, recall_every: int, agents: str) -> dict:
    workspace = root / f"{mode}-{agents}"
    workspace.mkdir(parents=True)
    per = len(bodies) // clients
    shares = [bodies[c * per:(c + 1) * per] for c in range(clients)]
    if agents != "conversation":  # one agent per client, or every client the same agent
        shares = [[{**b, "agentId": f"client-{c}" if agents == "client" else "shared"} for b in share]
                  for c, share in enumerate(shares)]
    with ApiServer(workspace, root / f"{mode}.log", with_dagster=mode == "up") as server:
        with ThreadPoolExecutor(clients) as pool:
            started = time.perf_counter()
            results = list(pool.map(lambda share: client_load(server.base_url, share, recall_every), shares))
            wall = time.perf_counter() - started
        sample = [b for share in shares for b in share[recall_every - 1::recall_every]][:200]
        quiet = unloaded_recalls(server.base_url, sample)
    ids = [i for r in results for i in r["ids"]]
    out = {"mode": mode, "agents": agents, "wall_s": round(wall, 1),
           "remember": summary(x for r in results for x in r["remember"]),
           "recall": summary(x for r in results for x in r["recall"]), "recall_unloaded": summary(quiet),
           "recall_stages_p50": {name: summary(st[name] for r in results for st in r["stages"] if name in st)["p50"]
                                 for name in dict.fromkeys(n for r in results for st in r["stages"] for n in st)},
           "errors": sum(r["errors"] for r in results), "missed_own_write": sum(r["missed"] for r in results),
           "acknowledged": len(set(ids)), "lost": len(set(ids)) - stored(workspace, sorted(set(ids)))}
    log(f"{mode}: {out}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--per-client", type=int, default=300)
    parser.add_argument("--recall-every", type=int, default=5)
    parser.add_argument("--modes", default="serve,up")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--agents", default="client,shared",
                        help="who writes: client (an agent per client), shared (one agent for all), conversation")
    args = parser.parse_args()
    info = machine()
    for line in machine_lines(info):
        log(line)
    bodies = remember_bodies(args.clients * args.per_client, args.seed)
    root = Path(tempfile.mkdtemp(prefix="signet-write-load-"))
    try:
        rows = [run_mode(m, root, bodies, args.clients, args.recall_every, a)
                for m in args.modes.split(",") for a in args.agents.split(",")]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    table = []
    for r in rows:
        rem, rec, quiet = r["remember"], r["recall"], r["recall_unloaded"]
        table.append([f"signet {r['mode']}", r["agents"], rem["p50"], rem["p95"], rec["p50"], rec["p95"],
                      round(rec["p50"] / rem["p50"], 2), quiet["p50"], quiet["p95"],
                      round(rec["p50"] / quiet["p50"], 2), r["errors"], r["missed_own_write"], r["lost"]])
    log("")
    log(markdown(["path", "agents", "remember p50", "p95", "recall p50", "p95", "recall/remember p50",
                  "unloaded recall p50", "p95", "loaded/unloaded p50", "errors", "own write missed", "lost"], table))
    for miss in MISSES[:5]:
        log(f"own write missed: {miss}")


if __name__ == "__main__":
    main()
