"""`python -m evalsets.convgen --seed 13 --conversations 10 --out FILE`: write a LoCoMo
JSON file and print a one-line summary."""

from __future__ import annotations

import argparse

from evalsets.convgen import generate, summary, write


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evalsets.convgen", description=__doc__)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--out", required=True, help="the LoCoMo JSON file to write")
    args = parser.parse_args(argv)
    samples = generate(args.seed, args.conversations)
    write(args.out, samples)
    print(f"{args.out}: seed {args.seed}: {summary(samples)}")


if __name__ == "__main__":
    main()
