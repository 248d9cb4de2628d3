"""Session checkpoints (spec "Session Checkpoints"), each its agent's own: a markdown digest of where a session stands —
project, prompt count, recent prompts, what it remembered — written every N prompts, before
compaction and at session end, so a later session can recover the thread. Secrets are scrubbed
before anything is stored; writes within 2.5 s for the same session and trigger merge into one
row; each session keeps its newest `hooks.maxCheckpointsPerSession`."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

from signet_pipeline.service import MemoryService
from signet_pipeline.store import checkpoints as checkpoint_store
from signet_pipeline.timeutil import now_iso, parse_iso, to_iso

MERGE_WINDOW_S = 2.5
PROMPT_CHARS = 200
REDACTED = "[redacted]"
_SECRETS = [
    re.compile(r"(?i)\b(?:bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}"),
    re.compile(r"\b[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]{10,})?\b"),  # JWTs, Signet tokens
    re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}"),  # OpenAI-style keys
    re.compile(r"\b(?:ghp|gho|ghs|ghu|github_pat)_[A-Za-z0-9_]{12,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),  # AWS access key ids
    re.compile(r"\bAIza[0-9A-Za-z_-]{20,}"),  # Google API keys
    re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}"),  # Slack tokens
    re.compile(r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)"),  # credentials in a URL
    re.compile(r'(?i)"([a-z0-9_-]*(?:key|secret|token|password|passwd)[a-z0-9_-]*)"\s*:\s*"[^"]*"'),  # JSON fields
    re.compile(r"\b([A-Z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD)[A-Z0-9_]*)\s*[=:]\s*\S+"),  # ENV_NAME=value
    re.compile(r"\b([a-z0-9]+[_-](?:key|secret|token|password|passwd)|password|passwd|secret)\s*[=:]\s*\S+"),
    re.compile(r"[A-Za-z0-9+/_-]{40,}={0,2}"),  # long base64 blobs (credentials, keys)
]


def _masked(match: re.Match) -> str:
    """A named secret keeps its name (`API_KEY=[redacted]`, `"token": "[redacted]"`)."""
    if not match.re.groups:
        return REDACTED
    if match.group(0).startswith('"'):
        return f'"{match.group(1)}": "{REDACTED}"'
    return f"{match.group(1)}={REDACTED}"


def redact(text: str) -> str:
    for pattern in _SECRETS:
        text = pattern.sub(_masked, text)
    return text


def normalize_project(project: str | None) -> str | None:
    if not project:
        return None
    parts = [p for p in re.split(r"[\\/]+", project.strip().lower()) if p]
    return parts[-1] if parts else None


def digest(trigger: str, *, project: str | None, prompts: int, queries: list[str], remembers: list[str],
           context: str | None = None) -> str:
    lines = [f"## Session checkpoint ({trigger.replace('_', ' ')})", f"- project: {project or 'none'}",
             f"- prompts: {prompts}"]
    if queries:
        lines += ["- recent prompts:", *(f"  - {q}" for q in queries[-5:])]
    if remembers:
        lines += [f"- remembered ({len(remembers)}):", *(f"  - {redact(m)[:160]}" for m in remembers[:5])]
    if context:
        lines += ["- context:", redact(context)[:2000]]
    return redact("\n".join(lines))


def note_prompt(svc: MemoryService, *, session_key: str, agent_id: str, harness: str | None,
                project: str | None, prompt: str) -> dict[str, Any] | None:
    """Count a prompt; every `hooks.checkpointEveryPrompts` prompts, a periodic checkpoint."""
    with svc.db.write() as conn:
        count = checkpoint_store.note_prompt(conn, session_key=session_key, agent_id=agent_id, harness=harness,
                                             project=project, prompt=redact(" ".join(prompt.split()))[:PROMPT_CHARS],
                                             now=now_iso())
    if count and count % svc.settings.hooks.checkpoint_every_prompts == 0:
        return checkpoint(svc, session_key=session_key, agent_id=agent_id, trigger="periodic", harness=harness,
                          project=project)
    return None


def checkpoint(svc: MemoryService, *, session_key: str, agent_id: str, trigger: str, harness: str | None = None,
               project: str | None = None, context: str | None = None) -> dict[str, Any]:
    with svc.db.write() as conn:
        now = now_iso()
        state = checkpoint_store.activity(conn, session_key, agent_id)
        project = project or (state["project"] if state else None)
        queries = json.loads(state["recent_queries"]) if state else []
        prompts = state["prompt_count"] if state else 0
        remembers = checkpoint_store.recent_remembers(conn, session_key, agent_id)
        values = {"session_key": session_key, "agent_id": agent_id,
                  "harness": harness or (state["harness"] if state else None),
                  "project": project, "project_normalized": normalize_project(project), "trigger": trigger,
                  "digest": digest(trigger, project=project, prompts=prompts, queries=queries, remembers=remembers,
                                   context=context),
                  "prompt_count": prompts, "memory_queries": json.dumps(queries),
                  "recent_remembers": json.dumps([redact(m) for m in remembers]), "created_at": now}
        last = checkpoint_store.latest(conn, session_key, agent_id, trigger)
        merge_since = to_iso(parse_iso(now) - timedelta(seconds=MERGE_WINDOW_S))
        replace_id = last["id"] if last is not None and last["created_at"] >= merge_since else None
        checkpoint_id = checkpoint_store.write(conn, values, replace_id=replace_id)
        checkpoint_store.cap(conn, session_key, svc.settings.hooks.max_checkpoints_per_session)
    return {"id": checkpoint_id, **values, "memory_queries": queries}


def _view(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "sessionKey": row["session_key"], "harness": row["harness"], "project": row["project"],
            "trigger": row["trigger"], "digest": row["digest"], "promptCount": row["prompt_count"],
            "memoryQueries": json.loads(row["memory_queries"]), "recentRemembers": json.loads(row["recent_remembers"]),
            "createdAt": row["created_at"]}


def list_for_session(svc: MemoryService, session_key: str, agent_id: str, limit: int) -> dict[str, Any]:
    found = checkpoint_store.for_session(svc.db.reader(), session_key, agent_id, limit)
    return {"checkpoints": [_view(r) for r in found]}


def list_for_project(svc: MemoryService, project: str | None, agent_id: str, limit: int) -> dict[str, Any]:
    """The reading agent's own checkpoints (they hold its prompts and what it remembered)."""
    found = checkpoint_store.for_project(svc.db.reader(), agent_id, normalize_project(project), limit)
    return {"checkpoints": [_view(r) for r in found]}
