"""Codex native memory notes (memory-api POST /api/memory/codex-native-note): a small scoped note
written as a Markdown file where Codex's memory extension reads ad-hoc notes,
<codex home>/memories/extensions/ad_hoc/notes/. The server writes into the user's home, so only
trusted local callers may (the route checks), and `mutationsFrozen` stops it like any write."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field

from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import ensure_writable

NOTES_DIR = Path("memories") / "extensions" / "ad_hoc" / "notes"
MAX_NOTE_CHARS = 8000
_SLUG = re.compile(r"[^a-z0-9]+")


class CodexNoteRequest(BaseModel):
    content: str = Field(..., min_length=1, max_length=MAX_NOTE_CHARS)
    title: str | None = Field(None, max_length=200)
    tags: str | None = Field(None, max_length=500)


class CodexNoteResult(BaseModel):
    ok: bool = True
    path: str


def codex_home(svc: MemoryService) -> Path:
    configured = svc.settings.hooks.codex_home or os.environ.get("CODEX_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".codex"


def write_note(svc: MemoryService, req: CodexNoteRequest) -> CodexNoteResult:
    ensure_writable(svc)
    now = datetime.now(UTC)
    slug = _SLUG.sub("-", (req.title or req.content)[:60].lower()).strip("-") or "note"
    folder = codex_home(svc) / NOTES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{now:%Y%m%d-%H%M%S-%f}-{slug}.md"
    lines = [f"# {' '.join(req.title.split())}" if req.title else None,
             f"tags: {req.tags.strip()}" if req.tags and req.tags.strip() else None,
             f"created: {now.isoformat(timespec='seconds')}", "", req.content.strip(), ""]
    # Exclusive create: a name clash (same microsecond and slug) fails rather than overwriting a note.
    with path.open("x", encoding="utf-8") as handle:
        handle.write("\n".join(line for line in lines if line is not None))
    return CodexNoteResult(path=str(path))
