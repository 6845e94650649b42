"""``python -m doubleholdem.cli.preflop_table --write``: estimates the pre-flop share
tables that the equity bot ships with (:mod:`doubleholdem.table.preflop_equity`)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from doubleholdem.cli.base import DefaultsFormatter, thread_count
from doubleholdem.table.preflop_equity import GAMES, SAMPLES, dumps, generate


def resources_dir() -> Path:
    """The package's data directory, where the shipped tables live."""
    return Path(__file__).resolve().parent.parent / "data"


def main(argv: Sequence[str] | None = None) -> int:
    """The generator's command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        formatter_class=DefaultsFormatter,
        prog="python -m doubleholdem.cli.preflop_table",
        description="Estimate the pre-flop share tables the equity bot ships with.",
    )
    parser.add_argument("--write", action="store_true", help="write the package's data files")
    parser.add_argument(
        "--out",
        type=Path,
        help="write into this directory instead (default: the package's data directory)",
    )
    parser.add_argument("--samples", type=int, default=SAMPLES, help="deals per estimate")
    parser.add_argument("--threads", type=thread_count, help="threads (default: one per core)")
    parser.add_argument(
        "--variant", choices=sorted(GAMES), action="append", help="a game (default: every game)"
    )
    args = parser.parse_args(argv)
    if not args.write and args.out is None:
        parser.error("nothing to do: give --write (or --out DIR)")
    if args.samples < 1:
        parser.error("--samples must be at least 1")
    out: Path = args.out or resources_dir()
    try:
        for variant in args.variant or list(GAMES):
            started = time.monotonic()
            table = generate(variant, args.samples, args.threads)
            seconds = time.monotonic() - started
            path = out / f"preflop_equity_{variant}.json"
            partial = path.with_suffix(".json.part")
            partial.write_text(dumps(table), encoding="utf-8")
            os.replace(partial, path)
            print(f"{path}: {len(table['classes'])} classes in {seconds:.1f} s", file=sys.stderr)
    except KeyboardInterrupt:
        print("interrupted: nothing more written", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
