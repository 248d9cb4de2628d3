"""`python -m bench.session_bench [--turns 2000,20000]`: what a session summary job costs.

A synthetic Claude Code transcript (JSON lines: user turns with harness reminders, assistant turns
with text, tool calls and large tool results) of N turn pairs is stored through the session-end
hook of a fresh store; then, side by side:

- floor: `json.loads` of every line (any reader of the file pays this);
- turns: the transcript read as user/assistant turns and packed into windows;
- job: the whole `session_summary` job with the offline rules provider (read transcript, turns,
  windows, redaction, statements, one remember_many with its embedding call).

Each row is the median of 3 runs (the job is re-run on a re-queued job; its memories dedupe).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time

from signet_pipeline.config import load_settings
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.hooks import SessionEndRequest, session_end
from signet_pipeline.stages.session_summary import WINDOW_CHARS, run_session_jobs
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.text.transcripts import turns, windows

RUNS = 3


def transcript(pairs: int) -> str:
    lines = []
    for i in range(pairs):
        lines.append(json.dumps({"type": "user", "message": {"role": "user", "content": (
            f"<system-reminder>Context note {i}.</system-reminder>The billing service {i % 50} deploys with Helm "
            f"on cluster {i % 7}. Can you check step {i}?")}}))
        lines.append(json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": f"We decided to pin chart {i % 13} to version 4.{i % 9}. Checking the logs now."},
            {"type": "tool_use", "id": f"t{i}", "name": "Bash",
             "input": {"command": "kubectl logs deploy/billing"}}]}}))
        lines.append(json.dumps({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{i}", "content": "log line\n" * 100}]}}))
    return "\n".join(lines)


def _median_ms(fn) -> float:
    samples = []
    for _ in range(RUNS):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def run(pairs: int) -> list:
    raw = transcript(pairs)
    with tempfile.TemporaryDirectory() as ws:
        svc = MemoryService(load_settings(ws))
        try:
            session_end(svc, SessionEndRequest(harness="bench", sessionKey="bench-1", transcript=raw))
            floor = _median_ms(lambda: [json.loads(line) for line in raw.splitlines()])
            packed = _median_ms(lambda: windows(turns(raw), WINDOW_CHARS))
            queue, llm, reports = JobQueue(svc.db), RulesLlm(), []

            def job() -> None:
                with svc.db.write() as conn:  # the same job again (its first run completed it)
                    conn.execute("UPDATE memory_jobs SET status = 'pending', attempts = 0 "
                                 "WHERE session_key = 'bench-1'")
                reports.extend(run_session_jobs(svc, queue, llm, 1).reports)

            job_ms = _median_ms(job)
        finally:
            svc.close()
    report = reports[0]
    return [pairs * 3, f"{len(raw) / 1e6:.1f}", report.windows + report.windows_dropped, report.windows,
            report.statements, f"{floor:.0f}", f"{packed:.0f}", f"{job_ms:.0f}", f"{packed / floor:.2f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", default="1000,10000", help="turn pairs per transcript, comma separated")
    args = parser.parse_args()
    print("| events | MB | windows | summarized | statements | json.loads ms (floor) | turns+windows ms "
          "| job ms (rules) | turns / floor |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in args.turns.split(","):
        print("| " + " | ".join(str(c) for c in run(int(n))) + " |", flush=True)


if __name__ == "__main__":
    main()
