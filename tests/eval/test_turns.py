"""evalsets/turns.py: conversational turns as long as real ones, for the pipeline benchmark."""

from collections import Counter

from evalsets import turn_pools
from evalsets.turns import remember_bodies, stats, turns
from signet_pipeline.text.entities import sentences


def test_the_same_seed_gives_the_same_turns_and_another_seed_others():
    assert remember_bodies(300, 5) == remember_bodies(300, 5)
    assert remember_bodies(300, 5) != remember_bodies(300, 6)


def test_turns_are_as_long_as_real_ones_and_mostly_of_several_clauses():
    found = turns(3000, 5)
    summary = stats(found)
    assert summary["turns"] == 3000 and summary["agents"] == 10
    assert 8 <= summary["words_min"] and summary["words_max"] <= 60
    assert 21 <= summary["words_mean"] <= 25  # held-out real turns: ~23 words
    assert summary["two_plus_clauses"] >= 0.6 and 0.15 <= summary["questions"] <= 0.4


def test_statements_rarely_repeat_within_a_conversation():
    said = Counter((t.agent_id, s) for t in turns(3000, 5) for s in sentences(t.text)
                   if not s.endswith("?") and s not in turn_pools.REACTIONS)
    assert len(said) / sum(said.values()) >= 0.95


def test_remember_bodies_interleave_the_agents_in_time_with_a_speaker_label():
    bodies = remember_bodies(500, 5, conversations=4)
    assert [b["createdAt"] for b in bodies] == sorted(b["createdAt"] for b in bodies)
    first_half = Counter(b["agentId"] for b in bodies[:250])  # all four write from the start (session by
    assert len(first_half) == 4 and min(first_half.values()) >= 25  # session), not one after another
    first = bodies[0]
    assert first["content"].startswith(first["who"] + ": ") and first["visibility"] == "private"
