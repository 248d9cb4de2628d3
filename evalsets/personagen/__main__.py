"""python -m evalsets.personagen --seed 29 --conversations 10 --out FILE"""

from __future__ import annotations

import argparse

from . import generate, summary, write


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evalsets.personagen",
                                     description="Generate LoCoMo-format conversations from simulated lives.")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--out", required=True, help="where to write the JSON")
    args = parser.parse_args(argv)
    samples = generate(args.seed, args.conversations)
    write(args.out, samples)
    print(summary(samples))


if __name__ == "__main__":
    main()
