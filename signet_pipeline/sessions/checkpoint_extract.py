"""Mid-session checkpoint extraction (the reference's /api/hooks/session-checkpoint-extract):
long-lived sessions (OpenClaw, Hermes) that end rarely or never send their transcript every few
turns, and what is new in it becomes memories without waiting for a session-end.

The transcript sent (inline, or the file at transcriptPath for a trusted local caller, as at
session-end) is kept as the session's transcript when it is at least as long as the one kept (a
harness's trimmed window never replaces the fuller one). Then the conversation not yet summarized
is measured the way the session summary counts it (text/transcripts.py: turns, or a plain
transcript's paragraphs, after the prefix the last summary covered): under MIN_NEW_CHARS it is
`skipped`; else a `session_summary` job is queued (one per session: a job still pending covers
what came since, and its id is answered). The job summarizes from where the last one stopped, so
a later checkpoint or the session-end adds only what is new. A checkpoint digest of the session is
written with trigger `explicit`. A write: refused while mutations are frozen."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from signet_pipeline.errors import InvalidRequest
from signet_pipeline.limits import TranscriptText
from signet_pipeline.models import MAX_PROJECT_CHARS
from signet_pipeline.request_rules import required_in_schema
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import checkpoints
from signet_pipeline.sessions.hooks import (
    HARNESS,
    SessionEndRequest,
    _alias,
    _HookRequest,
    read_transcript,
    refuse_taken,
)
from signet_pipeline.sessions.prompt_hooks import NON_BLANK
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.queue import SESSION_SUMMARY
from signet_pipeline.text.transcripts import render, summarized, units
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import ensure_writable

MIN_NEW_CHARS = 500  # the reference's threshold: less new conversation is not worth a model call


class CheckpointExtractRequest(_HookRequest):
    # The session is required (its transcript is what is kept): else 400 missing_session_key.
    model_config = ConfigDict(json_schema_extra=required_in_schema(harness=HARNESS, sessionKey=NON_BLANK))

    project: str | None = Field(None, max_length=MAX_PROJECT_CHARS)
    transcript: TranscriptText | None = None
    transcript_path: str | None = _alias("transcriptPath", "transcript_path")


class CheckpointExtractResult(BaseModel):
    skipped: bool  # nothing queued (OpenClaw retries on its next turn)
    queued: bool  # a session_summary job covers what is new
    jobId: int | None = None  # GET /api/memory/jobs/{jobId}
    reason: str | None = None  # why it was skipped
    sessionKey: str | None = None
    transcriptSaved: bool = False  # the transcript sent is now the one kept


def _skipped(key: str, reason: str, saved: bool = False) -> CheckpointExtractResult:
    return CheckpointExtractResult(skipped=True, queued=False, reason=reason, sessionKey=key, transcriptSaved=saved)


def checkpoint_extract(svc: MemoryService, req: CheckpointExtractRequest, *,
                       read_files: bool = False) -> CheckpointExtractResult:
    ensure_writable(svc)
    harness = req.require_harness()
    key, agent = (req.session_key or "").strip(), req.agent_id
    if not key:
        raise InvalidRequest("sessionKey is required", code="missing_session_key")
    refuse_taken(svc, key, agent)
    # read_transcript applies session-end's rules to transcriptPath (trusted caller, roots, size).
    sent = read_transcript(SessionEndRequest.model_construct(transcript=req.transcript,
                                                             transcript_path=req.transcript_path),
                           svc.settings, read_files=read_files)  # before the write transaction
    pipeline, now = svc.settings.pipeline, now_iso()
    with svc.db.write() as conn:
        kept = sessions_store.transcripts(conn, [key], agent).get(key)
        project = next((p for p in (req.project, sessions_store.project_of(conn, key))
                        if p and len(p) <= MAX_PROJECT_CHARS), None)
        saved = bool(sent and (kept is None or len(sent) >= len(kept)) and sessions_store.save_transcript(
            conn, session_key=key, content=sent, harness=harness, project=project, agent_id=agent, now=now))
        transcript = sent if saved else kept
        if transcript is None:
            return _skipped(key, "the session's transcript belongs to another agent" if sent else "no transcript")
        if not pipeline.enabled:
            return _skipped(key, "the pipeline is disabled (memory.pipelineV2.enabled): nothing is summarized", saved)
        conversation = units(transcript)
        done, done_digest = sessions_store.summary_progress(conn, key, agent)
        new = conversation[summarized(conversation, done, done_digest):]
        if not new:
            return _skipped(key, "nothing new since the last summary", saved)
        size = sum(len(render(turn)) for turn in new)
        if size < MIN_NEW_CHARS:
            return _skipped(key, f"too little new conversation ({size} < {MIN_NEW_CHARS} characters)", saved)
        job_id, _ = job_store.enqueue(conn, job_type=SESSION_SUMMARY, session_key=key, now=now,
                                      max_attempts=pipeline.worker.max_retries,
                                      payload={"agent_id": agent, "harness": harness, "project": project,
                                               "visibility": "global"})
    checkpoints.checkpoint(svc, session_key=key, agent_id=agent, trigger="explicit", harness=harness, project=project)
    return CheckpointExtractResult(skipped=False, queued=True, jobId=job_id, sessionKey=key, transcriptSaved=saved)
