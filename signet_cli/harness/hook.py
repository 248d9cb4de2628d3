"""`signet hook EVENT -H HARNESS`: what a harness runs on its lifecycle hooks (Claude Code, Codex).

It reads the harness's hook payload (JSON on stdin: session_id, transcript_path, cwd, prompt,
source, reason, ...), calls the API's hook route for the event, and prints what the harness adds
to the model's context: Claude Code's and Codex's JSON form (`hookSpecificOutput.additionalContext`),
plain text for any other harness. A hook must never hurt the agent: the API down, slow or
refusing ends it within its budget with exit 0, nothing on stdout and one line on stderr.

It starts on every prompt, so it imports little of the standard library and nothing else (no
pydantic, httpx, numpy or Dagster; not even http.client, whose email parser doubles the start-up:
http_post.py); session-end and compaction-complete also load text/transcripts.py.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys

from signet_cli.harness.http_post import HttpError, Refused, post
from signet_sdk.connection import daemon_headers, daemon_url

TYPE_CHECKING = False  # typing's import alone costs the hook a tenth of its budget
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Payload = dict[str, Any]  # the harness's JSON object, and the API's

MAX_STDIN_BYTES = 8 * 1024 * 1024  # a hook payload is small; a pasted prompt is the largest part
MAX_PROMPT_CHARS = 100_000  # the API's bound on a prompt (PromptSubmitRequest)
MAX_TRANSCRIPT_FILE_BYTES = 256 * 1024 * 1024
MAX_TRANSCRIPT_CHARS = 4_000_000  # what session-end sends: the newest turns, well inside limits.maxTranscriptChars
# Headers every hook call sends (wire contract "Headers clients send"); the actor is the harness.
RUNTIME_PATH = "cli-hook"


class Late(Exception):
    """The hook's budget ran out."""


class Event:
    __slots__ = ("route", "budget_s", "body", "context_name", "text")

    def __init__(self, route: str, budget_s: float, body: Callable[[Payload, argparse.Namespace], Payload],
                 context_name: str | None = None, text: str | None = None) -> None:
        self.route = route
        self.budget_s = budget_s  # the whole call; the harness's own timeout for the hook is this plus a grace
        self.body = body
        self.context_name = context_name  # the harness's event whose context the answer's `inject` joins
        self.text = text  # else: the answer's field printed as text (pre-compaction's instructions)


def _first(payload: Payload, *names: str) -> str | None:
    for name in names:
        value = payload.get(name)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _session(payload: Payload, args: argparse.Namespace) -> Payload:
    """What every hook body carries: the harness, the session and the project (its working directory)."""
    body: Payload = {"harness": args.harness, "runtimePath": RUNTIME_PATH}
    key = _first(payload, "session_id", "sessionId", "session_key", "sessionKey")
    project = args.project or _first(payload, "cwd")
    if key:
        body["sessionKey"] = key
    if project:
        body["project"] = project
    return body


def _session_start(payload: Payload, args: argparse.Namespace) -> Payload:
    body = _session(payload, args)
    if args.harness in CONTEXT_LIMIT:  # composed to fit what the harness shows whole
        body["budgetChars"] = CONTEXT_LIMIT[args.harness]
    source = _first(payload, "source")  # startup | resume | clear | compact
    # Claude Code names a subagent's own id agent_id: the harness's agent, not a Signet agent.
    harness_agent = _first(payload, "agent_id", "agent_type")
    return {**body, **({"source": source} if source else {}),
            **({"harnessAgentId": harness_agent} if harness_agent else {})}


def _prompt(payload: Payload, args: argparse.Namespace) -> Payload:
    prompt = (_first(payload, "prompt", "user_prompt", "userPrompt") or "")[:MAX_PROMPT_CHARS]
    return {**_session(payload, args), "userMessage": prompt}


def _pre_compaction(payload: Payload, args: argparse.Namespace) -> Payload:
    return _session(payload, args)


def _compaction_complete(payload: Payload, args: argparse.Namespace) -> Payload:
    """Claude Code's PostCompact carries the summary (compact_summary); Codex's does not, so it is
    read from the transcript's newest compaction record."""
    summary = args.summary or _first(payload, "compact_summary", "summary")
    if not summary:
        from signet_pipeline.text.transcripts import compaction_summary

        raw = _transcript_text(payload)
        summary = compaction_summary(raw) if raw else None
    if not summary:
        raise Refused("no compaction summary in the payload or the transcript")
    return {**_session(payload, args), "summary": summary}


def _session_end(payload: Payload, args: argparse.Namespace) -> Payload:
    """The conversation read from the transcript file the harness names (this machine's file, so a
    service elsewhere gets it too), sent as turns: the raw records carry tool output and the harness's
    bookkeeping, which memory has no use for."""
    body = {**_session(payload, args), "reason": _first(payload, "reason"), "cwd": _first(payload, "cwd"),
            "transcriptPath": _first(payload, "transcript_path", "transcriptPath")}
    raw = _transcript_text(payload)
    if raw:
        from signet_pipeline.text.transcripts import conversation, newest

        body["transcript"] = newest(conversation(raw), MAX_TRANSCRIPT_CHARS)
    return {k: v for k, v in body.items() if v}


def _transcript_text(payload: Payload) -> str | None:
    path = _first(payload, "transcript_path", "transcriptPath")
    if not path:
        return None
    try:
        with open(os.path.expanduser(path), "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_TRANSCRIPT_FILE_BYTES:  # the newest part: the end of the session
                f.seek(size - MAX_TRANSCRIPT_FILE_BYTES)
                f.readline()  # from the first whole line on
            data = f.read(MAX_TRANSCRIPT_FILE_BYTES)
    except OSError as exc:
        print(f"signet: transcript {path} not read: {exc.strerror or exc}", file=sys.stderr)
        return None
    return data.decode("utf-8", errors="replace") or None


EVENTS: dict[str, Event] = {
    "session-start": Event("/api/hooks/session-start", 8.0, _session_start, context_name="SessionStart"),
    "user-prompt-submit": Event("/api/hooks/user-prompt-submit", 4.0, _prompt, context_name="UserPromptSubmit"),
    "pre-compaction": Event("/api/hooks/pre-compaction", 5.0, _pre_compaction, text="summaryPrompt"),
    "compaction-complete": Event("/api/hooks/compaction-complete", 10.0, _compaction_complete),
    "session-end": Event("/api/hooks/session-end", 25.0, _session_end),
    # A turn of a session that goes on (Codex's Stop): its transcript so far, summarized from where the
    # last summary stopped; the session is not ended.
    "checkpoint": Event("/api/hooks/session-checkpoint-extract", 25.0, _session_end),
}
JSON_OUTPUT_HARNESSES = frozenset({"claude-code", "codex"})  # both read hookSpecificOutput.additionalContext
# A hook's context longer than this reaches the model as a 2 KB preview and a file path: Claude Code
# 2.1 keeps 10,000 characters, Codex 2,500 tokens counted as 4 bytes each (measured and read:
# docs/connect.md). Session-start asks for an inject that fits; any context is cut to fit.
CONTEXT_LIMIT = {"claude-code": 10_000, "codex": 10_000}


def output(event: Event, harness: str, answer: Any) -> str | None:
    """What the hook prints for the API's answer: context in the harness's form, or nothing."""
    if not isinstance(answer, dict):
        return None
    if event.text:  # Claude Code takes a PreCompact hook's text as the compaction's instructions; Codex has none
        text = answer.get(event.text)
        return text if isinstance(text, str) and text.strip() and harness != "codex" else None
    inject = answer.get("inject")
    if event.context_name is None or not isinstance(inject, str) or not inject.strip():
        return None
    if harness not in JSON_OUTPUT_HARNESSES:
        return inject
    context = fit(inject, CONTEXT_LIMIT[harness], count_bytes=harness == "codex")
    return json.dumps({"hookSpecificOutput": {"hookEventName": event.context_name, "additionalContext": context}},
                      ensure_ascii=False)


def fit(text: str, limit: int, *, count_bytes: bool = False) -> str:
    """`text` within `limit` characters (or UTF-8 bytes), cut after its last whole line that fits."""
    size = len(text.encode("utf-8")) if count_bytes else len(text)
    if size <= limit:
        return text
    head = text.encode("utf-8")[:limit].decode("utf-8", errors="ignore") if count_bytes else text[:limit]
    line_end = head.rfind("\n")
    return head[:line_end] if line_end > 0 else head


def read_payload(stdin: Any) -> Payload:
    """The harness's JSON on stdin; {} when there is none (a terminal) or it is not a JSON object."""
    if stdin is None or stdin.isatty():
        return {}
    raw = stdin.buffer.read(MAX_STDIN_BYTES)
    try:
        payload = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        print("signet: the hook payload on stdin is not JSON; going on without it", file=sys.stderr)
        return {}
    return payload if isinstance(payload, dict) else {}


def _on_alarm(signum: int, frame: Any) -> None:
    raise Late()


def run(args: argparse.Namespace, stdin: Any = sys.stdin, stdout: Any = sys.stdout) -> int:
    if os.environ.get("SIGNET_NO_HOOKS") == "1" or os.environ.get("SIGNET_BYPASS") == "1":
        return 0  # an agent a hook spawned must not run hooks in turn (the reference's guard)
    event = EVENTS[args.event]
    budget = args.timeout if args.timeout is not None else event.budget_s
    url = (args.url or daemon_url()).rstrip("/")
    headers = daemon_headers(base={"x-signet-runtime-path": RUNTIME_PATH, "x-signet-actor": args.harness,
                                   "x-signet-actor-type": "harness"})
    # One deadline for the whole hook (a socket timeout bounds each read, not their sum).
    timer = hasattr(signal, "setitimer")
    if timer:
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        body = event.body(read_payload(stdin), args)
        printed = output(event, args.harness, post(url, event.route, body, headers, budget))
    except Late:
        return _skipped(args.event, f"no answer from {url} within {budget:g} s")
    except (OSError, HttpError) as exc:
        return _skipped(args.event, f"the API at {url} is not reachable ({exc.__class__.__name__}: {exc})")
    except Refused as exc:
        return _skipped(args.event, str(exc))
    except Exception as exc:  # a hook never fails the agent, not even on a bug of ours: said, not raised
        return _skipped(args.event, f"{exc.__class__.__name__}: {exc}")
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
    if printed:
        stdout.write(printed + "\n")
        stdout.flush()
    return 0


def _skipped(event: str, why: str) -> int:
    print(f"signet: hook {event} skipped: {why}", file=sys.stderr)
    return 0


def add_parser(sub: Any) -> None:
    hook = sub.add_parser("hook", help="run a harness lifecycle hook (what `signet connect` wires)",
                          description="Reads the harness's hook JSON on stdin, calls the API and prints the context "
                                      "the harness adds to the model. Never fails the harness: on any error it "
                                      "exits 0 with one line on stderr.")
    configure(hook)
    hook.set_defaults(func=run)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("event", choices=sorted(EVENTS))
    parser.add_argument("-H", "--harness", required=True, help="claude-code, codex, or another harness's name")
    parser.add_argument("--url", help="the API (default $SIGNET_DAEMON_URL, else http://$SIGNET_HOST:$SIGNET_PORT, "
                                      "else http://localhost:3850); token from $SIGNET_API_KEY or $SIGNET_TOKEN")
    parser.add_argument("--project", help="the project (default: the payload's cwd)")
    parser.add_argument("--summary", help="compaction-complete: the summary (default: from the payload or transcript)")
    parser.add_argument("--timeout", type=float, help="seconds for the whole hook (default: per event, 4-25 s)")
    # The reference CLI's flags, in hook commands it wrote: Codex's JSON is our form anyway.
    parser.add_argument("--codex-json", action="store_true", help=argparse.SUPPRESS)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(message)


def main(argv: list[str]) -> int:
    """A wrong hook command must not hurt the agent either: argparse's exit status 2 is the one
    Claude Code reads as "block this prompt", so a bad argument is one line on stderr and exit 0."""
    parser = _Parser(prog="signet hook")
    configure(parser)
    try:
        args, unknown = parser.parse_known_args(argv)
    except ValueError as exc:
        print(f"signet: hook not run: {exc} (signet hook --help)", file=sys.stderr)
        return 0
    if unknown:
        print(f"signet: hook {args.event}: ignored {' '.join(unknown)}", file=sys.stderr)
    return run(args)
