"""Session transcripts as conversation turns, for the session summary stage.

Harnesses hand over their native transcript: Claude Code and Codex write JSON lines (one event per
line, the message under `message` or `payload`, content as a string or a list of typed parts),
others send a JSON array of messages or plain text. What matters for memory is what the user and
the assistant said, so tool calls, tool output, reasoning, images and the harness's own wrapper
blocks (system reminders, environment context, command echoes) are dropped. Anything that does not
parse as such a transcript is taken as plain text, never rejected.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

ROLES = {"user": "User", "human": "User", "assistant": "Assistant", "ai": "Assistant", "model": "Assistant"}
TEXT_PARTS = {"text", "input_text", "output_text"}
MAX_TURN_CHARS = 4000  # a pasted log or file says little per character; its head is kept
# Blocks harnesses wrap around user turns that are not the user speaking.
WRAPPER_TAGS = ("system-reminder", "environment_context", "user_instructions", "command-name", "command-message",
                "command-args", "local-command-stdout", "local-command-stderr", "local-command-caveat", "ide_selection",
                "ide_opened_file")
_BLANK_LINES = re.compile(r"\n{3,}")
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Turn:
    role: str  # "User" | "Assistant"
    text: str


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content
                         if isinstance(part, dict) and part.get("type") in TEXT_PARTS
                         and isinstance(part.get("text"), str))
    return ""


def _turn(event: Any, max_chars: int | None = MAX_TURN_CHARS) -> Turn | None:
    """One message event in any of the shapes harnesses write, or None for everything else."""
    if not isinstance(event, dict) or event.get("isMeta"):  # Claude Code's own notes in the user's place
        return None
    for key in ("message", "payload"):  # Claude Code: {"type", "message"}; Codex: {"type", "payload"}
        if isinstance(event.get(key), dict):
            event = event[key]
            break
    role = ROLES.get(str(event.get("role") or "").lower())
    if role is None:
        return None
    text = _BLANK_LINES.sub("\n\n", _strip_wrappers(_text(event.get("content", event.get("text"))))).strip()
    if not text:
        return None
    if max_chars is not None and len(text) > max_chars:
        text = text[:max_chars].rstrip() + " [...]"
    return Turn(role, text)


def _strip_wrappers(text: str) -> str:
    """Remove each `<tag>...</tag>` block, left to right, in linear time (a regex with a lazy span
    rescans the rest of the text for every unclosed tag: quadratic on hostile input)."""
    for tag in WRAPPER_TAGS:
        opening, closing = f"<{tag}>", f"</{tag}>"
        kept, pos = [], 0
        while (start := text.find(opening, pos)) >= 0:
            end = text.find(closing, start + len(opening))
            if end < 0:  # no later opening can be closed either
                break
            kept.append(text[pos:start])
            pos = end + len(closing)
        if kept:
            text = "".join(kept) + text[pos:]
    return text


def _events(raw: str) -> list[Any] | None:
    """The transcript's events: a JSON array, or JSON lines; None when it is neither."""
    stripped = raw.strip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
            return data if isinstance(data, list) else None
        except (ValueError, RecursionError):  # RecursionError: hostile nesting
            return None
    events, bad = [], 0
    for line in stripped.splitlines():
        if not line.strip():
            continue
        try:
            events.append(json.loads(line))
        except (ValueError, RecursionError):
            bad += 1
    # A text with a stray JSON-looking line is still text; a JSONL file with a torn last line is JSONL.
    return events if events and bad <= max(1, len(events) // 10) and all(isinstance(e, dict) for e in events) else None


def turns(raw: str) -> list[Turn]:
    """The conversation in order. Plain text comes back as one turn of unknown speaker ("")."""
    events = _events(raw)
    if events is None:
        text = raw.strip()
        return [Turn("", text)] if text else []
    return [t for t in (_turn(e) for e in events) if t is not None]


def conversation(raw: str) -> str:
    """What a session kept says: a harness's transcript (JSON lines or an array of messages) as
    its conversation, each turn whole as "User: ..." / "Assistant: ..." between blank lines.
    A text transcript, or one with no message this module can read, comes back as it was."""
    events = _events(raw)
    said = [t for t in (_turn(e, None) for e in events or []) if t is not None]
    return as_text("\n\n".join(render(t) for t in said)) if said else raw


def as_text(text: str) -> str:
    """`text` with each lone UTF-16 surrogate (a JSON escape like \\ud83d left half) as U+FFFD: no
    UTF-8 store can keep one."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def newest(text: str, max_chars: int) -> str:
    """The end of a conversation within `max_chars`, from a paragraph's start when one is in reach."""
    if len(text) <= max_chars:
        return text
    start = len(text) - max_chars
    tail = text[start:]
    if text[start - 2:start] == "\n\n":  # the cut falls on a paragraph's start
        return tail
    cut = tail.find("\n\n")
    return tail[cut + 2:] if cut >= 0 else tail


def compaction_summary(raw: str) -> str | None:
    """The summary a harness wrote at its newest compaction: Codex's `compacted` record, or Claude
    Code's compact-summary message (the session's new first turn)."""
    for event in reversed(_events(raw) or []):
        if event.get("type") == "compacted" and isinstance(event.get("payload"), dict):
            text = event["payload"].get("message")
        elif event.get("isCompactSummary") and isinstance(event.get("message"), dict):
            text = _text(event["message"].get("content"))
        else:
            continue
        if isinstance(text, str) and text.strip():
            return text.strip()
    return None


_PARAGRAPHS = re.compile(r"\n[ \t]*\n")


def units(raw: str) -> list[Turn]:
    """What a summary's progress is counted in: the turns, or a plain-text transcript's paragraphs
    (as one turn, a plain transcript that grew would hash differently from the start and be
    summarized again whole; harnesses that send text, such as Hermes, put one message a paragraph)."""
    found = turns(raw)
    if len(found) != 1 or found[0].role:
        return found
    return [Turn("", p.strip()) for p in _PARAGRAPHS.split(found[0].text) if p.strip()]


def summarized(conversation: list[Turn], done: int, done_digest: str | None) -> int:
    """How many of the first turns a summary covered already: `done`, when they still hash as
    they did then (the transcript only grew), else 0 (it was rewritten: summarize it all)."""
    return done if 0 < done <= len(conversation) and digest(conversation[:done]) == done_digest else 0


def digest(conversation: list[Turn]) -> str:
    """What a summary covered: a transcript whose first turns still hash to this only grew."""
    h = hashlib.sha256()
    for turn in conversation:
        h.update(render(turn).encode("utf-8", "surrogatepass") + b"\x00")
    return h.hexdigest()


def render(turn: Turn) -> str:
    return f"{turn.role}: {turn.text}" if turn.role else turn.text


def windows(conversation: list[Turn], max_chars: int) -> list[str]:
    """Consecutive turns packed into windows of at most `max_chars` (a window never splits a turn,
    except a plain-text transcript, which is cut at paragraph then line boundaries)."""
    pieces: list[str] = []
    for turn in conversation:
        text = render(turn)
        if len(text) <= max_chars:
            pieces.append(text)
            continue
        pieces.extend(_split(text, max_chars))
    out: list[str] = []
    current = ""
    for piece in pieces:
        joined = f"{current}\n\n{piece}" if current else piece
        if len(joined) <= max_chars:
            current = joined
            continue
        if current:
            out.append(current)
        current = piece
    if current:
        out.append(current)
    return out


def _split(text: str, max_chars: int) -> list[str]:
    parts: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > max_chars:  # one enormous line: hard cut
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:max_chars])
            line = line[max_chars:]
        if len(current) + len(line) > max_chars:
            parts.append(current)
            current = ""
        current += line
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts if p.strip()]


SCRUB_MIN_CHARS = 20  # shorter texts ("ok, thanks") are too common to cut from a conversation
FORGOTTEN = "[forgotten]"
_GAP = r"(?:\s|\\[nrt])+"  # whitespace, also as a JSON string escapes it inside a JSON-lines transcript


def scrub(transcript: str, contents: list[str]) -> tuple[str, int]:
    """The transcript with every verbatim occurrence of these memory texts replaced by FORGOTTEN
    (whitespace and JSON newline escapes between words may differ); returns (text, occurrences).
    What a memory paraphrased stays: only its own words can be found."""
    texts = {" ".join(c.split()) for c in contents if len(c.strip()) >= SCRUB_MIN_CHARS}
    # As written, and as a JSON string holds it (quotes, backslashes, non-ASCII escaped or not).
    forms = texts | {json.dumps(t, ensure_ascii=a)[1:-1] for t in texts for a in (True, False)}
    if not forms:
        return transcript, 0
    alternatives = ("|".join(_GAP.join(re.escape(w) for w in form.split())
                             for form in sorted(forms, key=len, reverse=True)))
    return re.compile(alternatives, re.IGNORECASE).subn(FORGOTTEN, transcript)
