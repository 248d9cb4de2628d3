"""Evidence recall per question and per category, and the report table."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from signet_eval.locomo import CATEGORIES

KS = (5, 10, 25)


@dataclass(frozen=True)
class Scored:
    category: int
    recall: dict[int, float]  # k -> share of the gold turns in the top k
    all10: float
    any10: float


def score(ranked_dia_ids: list[list[str]], gold: frozenset[str], category: int) -> Scored:
    """`ranked_dia_ids[i]` holds the turns behind the i-th result (a deduped memory may stand
    for several turns)."""
    def found(k: int) -> set[str]:
        return {d for ids in ranked_dia_ids[:k] for d in ids} & gold

    recall = {k: len(found(k)) / len(gold) for k in KS}
    return Scored(category, recall, float(found(10) == gold), float(bool(found(10))))


def aggregate(scored: list[Scored]) -> dict[str, dict[str, float]]:
    """Means per category name, plus `overall` over categories 1-4 (adversarial kept apart)."""
    groups: dict[str, list[Scored]] = defaultdict(list)
    for s in scored:
        groups[CATEGORIES.get(s.category, f"category-{s.category}")].append(s)
        if s.category in (1, 2, 3, 4):
            groups["overall"].append(s)
    out = {}
    for name, items in groups.items():
        row = {f"R@{k}": float(np.mean([s.recall[k] for s in items])) for k in KS}
        row.update({"all@10": float(np.mean([s.all10 for s in items])),
                    "any@10": float(np.mean([s.any10 for s in items])), "n": len(items)})
        out[name] = row
    return out


def table(results: dict[str, dict[str, dict[str, float]]]) -> str:
    """One block per category, one line per method; the last column is R@10 / the blend's."""
    order = ["overall", *CATEGORIES.values()]
    columns = ("R@5", "R@10", "R@25", "all@10", "any@10")
    head = f"{'category':<12} {'method':<14} {'n':>5} " + " ".join(f"{c:>7}" for c in columns) + "  vs blend"
    lines = [head, "-" * len(head)]
    for cat in order:
        base = results.get("blend", {}).get(cat, {}).get("R@10")
        for method, by_cat in results.items():
            row = by_cat.get(cat)
            if row is None:
                continue
            ratio = f"{row['R@10'] / base:8.2f}x" if base else "        -"
            lines.append(f"{cat:<12} {method:<14} {row['n']:>5} " +
                         " ".join(f"{row[c]:7.3f}" for c in ("R@5", "R@10", "R@25", "all@10", "any@10")) + "  " + ratio)
        lines.append("")
    return "\n".join(lines)
