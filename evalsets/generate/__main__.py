"""CLI: python -m evalsets.generate --seed 7 --conversations 10 --out PATH.json"""

from __future__ import annotations

import argparse
import json
import sys

from . import generate
from .check import grounding_warnings, self_check, stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evalsets.generate", description=__doc__)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--conversations", type=int, default=10)
    ap.add_argument("--out", required=True, help="output JSON path")
    args = ap.parse_args(argv)
    samples = generate(args.seed, args.conversations)
    errors = self_check(samples)
    if errors:
        print("\n".join(errors[:50]), file=sys.stderr)
        print(f"self-check failed: {len(errors)} problem(s)", file=sys.stderr)
        return 1
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(samples, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(json.dumps(stats(samples), indent=1))
    warn = grounding_warnings(samples)
    if warn:
        print(f"{len(warn)} single/multi-hop answers share no word with their evidence", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
