"""`signet connect HARNESS` writes the harness's own configuration so that it runs `signet hook` on
its lifecycle events and starts `signet-mcp`; `signet disconnect HARNESS` removes only those entries.
The person's own entries stay as they were and in order; a run that changes nothing writes nothing;
each file written is backed up beside itself first (`NAME.signet-<time>.bak`); `--dry-run` prints
the diff instead; a file that does not parse is refused, never overwritten."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from signet_cli.harness import claude_code, codex
from signet_cli.harness.config_files import Edit, Unparseable, apply
from signet_cli.harness.hook_entries import Wiring

HARNESSES: dict[str, Callable[[Wiring, bool], list[Edit]]] = {"claude-code": claude_code.plan, "codex": codex.plan}
NEXT = {
    "claude-code": "A new Claude Code session now starts with your memories, gets the relevant ones with each prompt, "
                   "and hands its transcript to Signet when it ends; its model has the memory_* tools (`/mcp` lists "
                   "them).",
    "codex": "A new Codex session now starts with your memories, gets the relevant ones with each prompt, and hands "
             "its transcript to Signet after each turn; its model has the memory_* tools.",
}


def executable(name: str) -> Path:
    """The command installed beside this Python (the venv `./scripts/up` made), else on PATH: written
    as an absolute path, since a harness's PATH may not hold the venv."""
    beside = Path(sys.executable).parent / name
    if beside.is_file():
        return beside.absolute()
    found = shutil.which(name)
    if found is None:
        raise Unparseable(f"cannot find the `{name}` command beside {sys.executable} or on PATH: install signet "
                          "(./scripts/up does) and run this from its environment")
    return Path(found).absolute()


def run(args: argparse.Namespace) -> int:
    connect = args.command == "connect"
    try:
        wiring = Wiring(signet=executable("signet"), signet_mcp=executable("signet-mcp"), url=args.url,
                        project=Path(args.project).expanduser().resolve() if args.project else None, env=os.environ)
        if wiring.project is not None and not wiring.project.is_dir():
            raise Unparseable(f"--project {args.project}: no such directory")
        edits = HARNESSES[args.harness](wiring, connect)
    except Unparseable as exc:
        print(f"signet: {exc}", file=sys.stderr)
        return 2
    changed = [e for e in edits if e.changes]
    state = "connected" if connect else "not connected"
    if not changed:
        print(f"{args.harness} is {state} already; nothing changed ({', '.join(str(e.path) for e in edits)})")
        return 0
    if args.dry_run:
        for edit in changed:
            sys.stdout.write(edit.diff())
        print(f"dry run: {len(changed)} file(s) would change; nothing was written")
        return 0
    stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
    for edit in changed:
        backup = apply(edit, stamp)
        print(f"updated {edit.path}" + (f" (was: {backup})" if backup else " (new file)"))
    print(f"{args.harness} is {state}.", NEXT[args.harness] if connect else "Its own entries are as they were.")
    if connect and args.harness == "codex" and wiring.project is not None:
        print(f"Codex reads {wiring.project / '.codex'} only for a project you trust (Codex asks on its first start "
              "there, or `codex --trust`).")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    for command, text in (("connect", "wire an agent harness to Signet: its hooks and the MCP server"),
                          ("disconnect", "remove what `signet connect` wrote (nothing else)")):
        p = sub.add_parser(command, help=text, description=f"{text}. Your own entries stay as they are; each file "
                                                             "written is backed up beside itself first.")
        p.add_argument("harness", choices=sorted(HARNESSES))
        p.add_argument("--project", metavar="DIR",
                       help="the project's configuration (DIR/.claude/settings.json and DIR/.mcp.json, or "
                            "DIR/.codex/) instead of yours")
        p.add_argument("--dry-run", action="store_true", help="print the diff; write nothing")
        if command == "connect":
            p.add_argument("--url", help="the API the hooks and MCP server call, when not the default "
                                         "($SIGNET_DAEMON_URL in the harness's environment, else localhost:3850)")
        else:
            p.set_defaults(url=None)
        p.set_defaults(func=run)
