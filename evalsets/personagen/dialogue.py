"""One session as alternating turns: a greeting, each speaker's facts for the session with the
other's reactions and follow-ups, small talk in between, and a goodbye."""

from __future__ import annotations

import random
from datetime import datetime

from .chatter import Chatter
from .facts import Fact
from .reactions import topic_of
from .timeline import gap_phrase


def session_turns(rng: random.Random, chat: Chatter, n: int, at: datetime, prev: datetime | None,
                  starter: str, other: str, facts: dict[str, list[Fact]]) -> list[dict]:
    """The turns of session `n`; every fact in `facts` (speaker -> facts) gets a turn and its dia_id."""
    pending = {name: list(fs) for name, fs in facts.items()}
    for fs in pending.values():
        rng.shuffle(fs)
    speakers = (starter, other)
    most = max(len(fs) for fs in pending.values())
    target = max(rng.randint(15, 23), 2 * most + 5)
    turns: list[dict] = []
    # The previous turn: its kind, its fact, the answers it invites.
    last_kind, last_fact = "", None
    answers: list[str] = []

    def reveal(speaker: str, before: str = "") -> str:
        nonlocal last_fact
        fact = pending[speaker].pop(0)
        fact.dia_id = f"D{n}:{len(turns) + 1}"
        last_fact = fact
        return f"{before} {fact.text}".strip()

    i = 0
    while True:
        me, you = speakers[i % 2], speakers[(i + 1) % 2]
        left_for_me = (target - 2 - i + 1) // 2           # my turns before the goodbye
        must = bool(pending[me]) and len(pending[me]) >= left_for_me
        go = bool(pending[me]) and must
        if i >= target - 2 and not pending[me] and not pending[you] and last_kind not in ("ask", "fact", "smallq"):
            ref = last_fact.ref if last_fact is not None and last_fact.mood != "neu" else "everything"
            for speaker, text in ((me, chat.closing(you)), (you, chat.closing_reply(me, ref))):
                turns.append({"speaker": speaker, "dia_id": f"D{n}:{len(turns) + 1}", "text": text})
            break
        if i == 0:
            gap = None if prev is None else gap_phrase((at.date() - prev.date()).days)
            text, kind = chat.opener(at.hour, you, gap), "greet"
        elif i == 1:
            hi = chat.reply(at.hour, you)
            if pending[me] and rng.random() < 0.7:
                text, kind = reveal(me, hi), "fact"
            else:
                text, answers = chat.small_question(hi)
                kind = "smallq"
        elif last_kind == "fact":
            assert last_fact is not None
            topic = topic_of(last_fact.key)
            if pending[me] and (go or rng.random() < 0.4):
                reaction, _ = chat.react(topic, last_fact.mood, last_fact.ref, ask=False)
                text, kind = reveal(me, reaction), "fact"
            else:
                text, answers = chat.react(topic, last_fact.mood, last_fact.ref, ask=True)
                kind = "ask"
        elif last_kind in ("ask", "smallq"):
            mood = last_fact.mood if last_kind == "ask" and last_fact is not None else "neu"
            if pending[me] and (go or rng.random() < 0.35):
                reply = chat.answer(answers, mood, False) if last_kind == "ask" else chat.small_answer(answers, False)
                text, kind = reveal(me, reply), "fact"
            else:
                back = rng.random() < 0.4
                reply = chat.answer(answers, mood, back) if last_kind == "ask" else chat.small_answer(answers, back)
                text, kind = reply, "answer"
        else:
            lead = chat.ack() if last_kind in ("answer", "filler") and rng.random() < 0.6 else ""
            if pending[me] and (go or rng.random() < 0.75):
                if not lead and rng.random() < 0.3:
                    lead = chat.transition()
                text, kind = reveal(me, lead), "fact"
            elif rng.random() < 0.5:
                text, answers = chat.small_question(lead)
                kind = "smallq"
            else:
                text, kind = chat.filler(lead, ask=rng.random() < 0.3), "filler"
        turns.append({"speaker": me, "dia_id": f"D{n}:{len(turns) + 1}", "text": text})
        last_kind = kind
        i += 1
    return turns
