"""`signet remember | recall | list | forget | status`: the API from a terminal, through signet_sdk,
against SIGNET_DAEMON_URL (else SIGNET_HOST:SIGNET_PORT, else localhost:3850) with the token in
SIGNET_API_KEY / SIGNET_TOKEN. Readable tables by default, `--json` for scripts."""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
from typing import Any

import httpx

from signet_sdk import Client, SignetError

DAGSTER_URL = "http://127.0.0.1:3000"


def _client(args: argparse.Namespace) -> Client:
    return Client(args.url, agent_id=args.agent)


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, default=str))


def _table(headers: list[str], rows: list[list[Any]]) -> None:
    """Columns sized to their content; the last column takes what the terminal has left."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    room = shutil.get_terminal_size((120, 20)).columns - sum(widths[:-1]) - 2 * (len(headers) - 1)
    widths[-1] = max(20, min(widths[-1], room))

    def line(values: list[str]) -> str:
        out = []
        for value, width in zip(values, widths):
            out.append(value if len(value) <= width else value[: width - 1] + "…")
        return "  ".join(v.ljust(w) for v, w in zip(out, widths)).rstrip()

    print(line(headers))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print(line(row))


def remember(args: argparse.Namespace) -> int:
    fields = {"tags": args.tags, "importance": args.importance, "pinned": args.pin or None, "type": args.type}
    with _client(args) as signet:
        saved = signet.remember(" ".join(args.text), **fields)
    if args.json:
        _print_json(saved.model_dump())
    else:
        print(f"{'already remembered' if saved.deduped else 'remembered'} {saved.id}")
    return 0


def recall(args: argparse.Namespace) -> int:
    with _client(args) as signet:
        found = signet.recall(" ".join(args.query), limit=args.limit)
    if args.json:
        _print_json(found.model_dump())
    elif not found.results:
        print("nothing found")
    else:
        _table(["score", "id", "type", "content"],
               [[f"{h.score:.3f}", h.id[:8], h.type or "", " ".join(h.content.split())] for h in found.results])
    return 0


def listing(args: argparse.Namespace) -> int:
    with _client(args) as signet:
        page = signet.list(limit=args.limit, offset=args.offset, type=args.type, tags=args.tags)
    if args.json:
        _print_json(page.model_dump())
        return 0
    _table(["created", "id", "type", "pin", "content"],
           [[(m.created_at or "")[:16].replace("T", " "), m.id[:8], m.type or "", "*" if m.pinned else "",
             " ".join(m.content.split())] for m in page.memories])
    total = page.stats.get("total")
    print(f"\n{len(page.memories)} shown" + (f" of {total}" if total is not None else ""))
    return 0


def forget(args: argparse.Namespace) -> int:
    with _client(args) as signet:
        result = signet.forget(args.id, reason=args.reason, force=args.force)
    if args.json:
        _print_json(result.model_dump())
    else:
        print(f"forgot {args.id} (recoverable for 30 days: POST /api/memory/{args.id}/recover)")
    return 0


def _dagster(url: str) -> str:
    try:
        response = httpx.get(f"{url}/server_info", timeout=3)
        return f"up ({url})" if response.status_code == 200 else f"answers {response.status_code} ({url})"
    except httpx.HTTPError:
        return f"not reachable ({url}; `signet up` starts it)"


def status(args: argparse.Namespace) -> int:
    with _client(args) as signet:
        api = signet.status()
        pipeline = signet.pipeline_status()
    # The API started by `signet up` knows its Dagster UI's port (--dagster-port).
    dagster_url = (args.dagster_url or os.environ.get("SIGNET_DAGSTER_URL") or pipeline.get("dagsterUrl")
                   or DAGSTER_URL).rstrip("/")
    dagster = _dagster(dagster_url)
    if args.json:
        _print_json({"api": api.model_dump(), "pipeline": pipeline, "dagster": dagster})
        return 0
    backlog = pipeline.get("backlog", {})
    total = backlog.get("total", {})
    health = pipeline.get("health", {})
    memories = api.memories if isinstance(api.memories, dict) else {}
    print(f"API       {signet.base_url}  version {api.version}, up {api.uptime:.0f} s")
    print(f"memories  {memories.get('live', '?')} live, {memories.get('embeddings', {}).get('currentModel', '?')} "
          "with a vector")
    print(f"health    {health.get('status', '?')} ({health.get('score', '?')})")
    drain = pipeline.get("drain", {})
    print(f"pipeline  {str(drain.get('status', '?')).upper()}: {drain.get('message', '')}")
    print(f"Dagster   {dagster}")
    print(f"backlog   {total.get('depth', 0)} jobs ({total.get('due', 0)} due, {total.get('leased', 0)} leased, "
          f"{total.get('dead', 0)} dead), {total.get('ratePerS', 0)} jobs/s")
    queues = backlog.get("queues", {})
    if queues:
        _table(["queue", "depth", "due", "leased", "dead", "jobs/s", "ETA s"],
               [[name, q.get("depth"), q.get("due"), q.get("leased"), q.get("dead"), q.get("ratePerS"),
                 q.get("etaS") if q.get("etaS") is not None else "-"] for name, q in queues.items()])
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", help="the API (default $SIGNET_DAEMON_URL, else http://$SIGNET_HOST:$SIGNET_PORT, "
                                      "else http://localhost:3850)")
    common.add_argument("--agent", help="act as this agent (x-signet-agent-id)")
    common.add_argument("--json", action="store_true", help="print the API's answer as JSON")

    p = sub.add_parser("remember", parents=[common], help="remember a text")
    p.add_argument("text", nargs="+")
    p.add_argument("--tags", help="comma-separated")
    p.add_argument("--importance", type=float)
    p.add_argument("--type")
    p.add_argument("--pin", action="store_true", help="pin it (never decays)")
    p.set_defaults(func=_run(remember))

    p = sub.add_parser("recall", parents=[common], help="search memories")
    p.add_argument("query", nargs="+")
    p.add_argument("--limit", type=int, default=10)
    p.set_defaults(func=_run(recall))

    p = sub.add_parser("list", parents=[common], help="list memories, newest first")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--offset", type=int, default=0)
    p.add_argument("--type")
    p.add_argument("--tags", help="comma-separated; all must match")
    p.set_defaults(func=_run(listing))

    p = sub.add_parser("forget", parents=[common], help="forget a memory (recoverable for 30 days)")
    p.add_argument("id")
    p.add_argument("--reason", default="forgotten from the signet CLI")
    p.add_argument("--force", action="store_true", help="also a pinned memory")
    p.set_defaults(func=_run(forget))

    p = sub.add_parser("status", parents=[common], help="API, Dagster and queues")
    p.add_argument("--dagster-url", help="the Dagster UI (default $SIGNET_DAGSTER_URL, else the one the API's "
                                         f"`signet up` started, else {DAGSTER_URL})")
    p.set_defaults(func=_run(status))


def _run(command):
    """API errors as one readable line and exit code 1 (2 for bad requests), never a traceback."""
    def run(args: argparse.Namespace) -> int:
        logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request would bury the answer
        try:
            return command(args)
        except SignetError as exc:
            print(f"signet: {exc}", file=sys.stderr)
            return 2 if exc.status in (400, 422) else 1
    return run
