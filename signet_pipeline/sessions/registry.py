"""Sessions through the API (the reference SDK's listSessions, getSession, setSessionBypass): the
sessions session-start registered, each its agent's own, and their bypass.

A bypassed session is one the user took out of Signet's hands: its hooks answer nothing (no
context injected, nothing recorded), as under `x-signet-no-hooks: 1`, until the bypass is lifted.
The flag is kept in the store, so every process serving hooks sees it. `bypassed` is what a hook
checks before doing anything else."""

from __future__ import annotations

from pydantic import BaseModel

from signet_pipeline.errors import NotFound
from signet_pipeline.service import MemoryService
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.db import Row
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import ensure_writable


class SessionInfo(BaseModel):
    key: str
    runtimePath: str  # plugin | legacy, as the session started; unknown when it did not say
    claimedAt: str  # when session-start registered it
    bypassed: bool
    bypassedAt: str | None
    agentId: str
    harness: str | None
    project: str | None
    endedAt: str | None


class SessionList(BaseModel):
    sessions: list[SessionInfo]
    count: int


class BypassResult(BaseModel):
    key: str
    bypassed: bool


def _info(row: Row) -> SessionInfo:
    return SessionInfo(key=row["session_key"], runtimePath=row["runtime_path"] or "unknown",
                       claimedAt=row["started_at"], bypassed=row["bypassed_at"] is not None,
                       bypassedAt=row["bypassed_at"], agentId=row["agent_id"], harness=row["harness"],
                       project=row["project"], endedAt=row["ended_at"])


def sessions(svc: MemoryService, agent_id: str, *, ended: bool = False, limit: int = 100) -> SessionList:
    """The agent's sessions, newest first: the open ones (not ended by session-end), or all."""
    found = [_info(r) for r in sessions_store.sessions_of(svc.db.reader(), agent_id, ended=ended, limit=limit)]
    return SessionList(sessions=found, count=len(found))


def session(svc: MemoryService, session_key: str, agent_id: str) -> SessionInfo:
    """The agent's session; another agent's is not found, as one that does not exist."""
    row = sessions_store.session_of(svc.db.reader(), session_key, agent_id)
    if row is None:
        raise NotFound(f"session {session_key} not found")
    return _info(row)


def set_bypass(svc: MemoryService, session_key: str, agent_id: str, enabled: bool) -> BypassResult:
    ensure_writable(svc)
    with svc.db.write() as conn:
        if not sessions_store.set_bypass(conn, session_key, agent_id, now_iso() if enabled else None):
            raise NotFound(f"session {session_key} not found")
    return BypassResult(key=session_key, bypassed=enabled)


def bypassed(svc: MemoryService, session_key: str | None, agent_id: str) -> bool:
    """Whether a hook of this session must answer nothing (False without a session key)."""
    if not session_key:
        return False
    return sessions_store.bypassed(svc.db.reader(), session_key, agent_id)
