"""Entity precision of the inline linker on a labelled sample of conversational turns.

    .venv/bin/python -m bench.entity_precision_bench [--sample a|b] [--conversation] [--show]

Each turn of a labelled sample (evalsets/entity_sample.py, or `--sample b`: entity_sample_b.py)
goes through what the linker does at remember time (graph/linker.py: the speaker label, then every
sentence's names), through the service's remember on a real store, and the entity types it writes.
Precision: the names found that a person would name; recall: the labelled names found (the linker
names a speaker only in a turn that talks about them, so speakers count against recall in the
others); speakers typed person: of the speakers it wrote as entities; and the type each other
labelled name found was given: its label, another, or none (left to the pipeline). Run it under
another source tree (PYTHONPATH) for a before/after.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from bench.report import markdown
from evalsets import entity_sample, entity_sample_b
from signet_pipeline.config import load_settings
from signet_pipeline.models import RememberRequest
from signet_pipeline.service import MemoryService
from signet_pipeline.store import graph as graph_store
from signet_pipeline.text.entities import canonical_name, split_label
from signet_pipeline.write.remember import remember

UNTYPED = {"extracted", "unknown"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print every wrong and missed name")
    parser.add_argument("--sample", choices=["a", "b"], default="a",
                        help="a: evalsets/entity_sample.py; b: entity_sample_b.py, "
                             "written apart from a and the rules")
    parser.add_argument("--conversation", action="store_true",
                        help="the sample's turns in order as one agent (a name met before is known), "
                             "not one agent a turn")
    args = parser.parse_args()
    SAMPLE = (entity_sample if args.sample == "a" else entity_sample_b).SAMPLE
    found_total = correct = gold_total = 0
    wrong: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    speaker_types: Counter[str] = Counter()
    # labelled kind -> (found and typed so, found and typed otherwise but not left untyped, found untyped)
    typed: dict[str, Counter[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        svc = MemoryService(load_settings(Path(tmp)))
        try:
            for i, turn in enumerate(SAMPLE):
                # one agent per turn (each turn's entities on their own), or the sample's conversations
                # in order as one agent, as a store meets them
                agent = "sample" if args.conversation else f"sample-{i}"
                memory = remember(svc, RememberRequest(content=turn.text, agentId=agent))
                conn = svc.db.reader()
                linked = graph_store.linked_entities(conn, [memory.id]).get(memory.id, [])
                entities = [graph_store.entity_row(conn, entity_id) for entity_id, _ in linked]
                found = {e["canonical_name"] for e in entities}
                gold = set(turn.entities)
                found_total, gold_total = found_total + len(found), gold_total + len(gold)
                correct += len(found & gold)
                wrong.update(found - gold)
                missed.update(gold - found)
                speaker = canonical_name(split_label(turn.text)[0] or "")
                speaker_types.update(e["entity_type"] for e in entities if e["canonical_name"] == speaker)
                for e in entities:
                    if e["canonical_name"] in gold and e["canonical_name"] != speaker:
                        label, given = turn.entities[e["canonical_name"]], e["entity_type"]
                        outcome = "untyped" if given in UNTYPED else "right" if given == label else f"as {given}"
                        typed.setdefault(label, Counter())[outcome] += 1
                    elif e["canonical_name"] not in gold and e["entity_type"] not in UNTYPED:
                        typed.setdefault("not an entity", Counter())[f"as {e['entity_type']}"] += 1
        finally:
            svc.close()
    precision, recall = correct / max(found_total, 1), correct / max(gold_total, 1)
    print(markdown(["turns", "names found", "correct", "labelled", "precision", "recall", "speaker entities typed"],
                   [[len(SAMPLE), found_total, correct, gold_total, round(precision, 3), round(recall, 3),
                     ", ".join(f"{k} {v}" for k, v in speaker_types.most_common())]]))
    print("\nTypes the linker gave the names it found (speakers aside), by the label a person gave them:")
    print(markdown(["label", "found", "typed so", "typed otherwise", "left untyped"],
                   [[label, sum(c.values()), c["right"],
                     ", ".join(f"{k[3:]} {v}" for k, v in c.items() if k.startswith("as ")),
                     c["untyped"]] for label, c in sorted(typed.items())]))
    if args.show:
        print("\nnot entities:", ", ".join(f"{n} ({c})" for n, c in wrong.most_common()))
        print("missed:", ", ".join(f"{n} ({c})" for n, c in missed.most_common()))


if __name__ == "__main__":
    main()
