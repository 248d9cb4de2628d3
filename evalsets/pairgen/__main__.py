"""python -m evalsets.pairgen --seed N --conversations K --out FILE.json"""

from __future__ import annotations

import argparse
from collections import Counter

from . import write


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evalsets.pairgen",
                                     description="Write LoCoMo-format two-person conversations with cross-speaker QA.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    samples = write(args.out, args.seed, args.conversations)
    turns = sum(len(v) for s in samples for k, v in s["conversation"].items()
                if k.startswith("session_") and not k.endswith("date_time"))
    cats = Counter(q["category"] for s in samples for q in s["qa"])
    print(f"wrote {args.out}: {len(samples)} conversations, {turns} turns, "
          f"{sum(cats.values())} questions by category {dict(sorted(cats.items()))}")


if __name__ == "__main__":
    main()
