"""Instructions a PHH file costs to replay, counted by callgrind (issue 18's speed guard:
the VM's speed drifts too much for a 3% comparison by the clock, instruction counts do
not).

A file's cost is (total at N = 201 - total at N = 1) / 200, where a run replays the
first N files of ``tests/data/phh/pluribus`` with :func:`doubleholdem.game.phh.load`
and :func:`~doubleholdem.game.phh.replay`; imports and start-up cancel out. The hash
seed moves the count by up to 2%, so each tree is compared with itself seed by seed.

Compare two source trees (each a checkout with its ``python/doubleholdem/_core*.so``):

    python3 benches/replay_instructions.py compare BEFORE AFTER --seeds 0 1 2 3

which runs, for each tree, seed and N, ``PYTHONHASHSEED=S PYTHONPATH=TREE/python
valgrind --tool=callgrind PYTHON benches/replay_instructions.py replay N`` (the real
interpreter binary, ``sys.executable`` resolved, not a pyenv shim). ``replay N`` alone
replays the first N files; ``measure TREE`` gives one tree's figures.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

PLURIBUS = Path(__file__).resolve().parent.parent / "tests/data/phh/pluribus"
FEW, MANY = 1, 201


def replay_files(count: int) -> None:
    """Replays the first ``count`` Pluribus files."""
    from doubleholdem.game.phh import load, replay

    for path in sorted(PLURIBUS.glob("*.phh"))[:count]:
        replay(load(path))


def instructions(tree: Path, seed: int, count: int) -> int:
    """Callgrind's total instructions of ``replay count`` run on ``tree``'s package."""
    env = {
        **os.environ,
        "PYTHONHASHSEED": str(seed),
        "PYTHONPATH": str(tree / "python"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                os.path.realpath(sys.executable),
                __file__,
                "replay",
                str(count),
            ],
            env=env,
            check=True,
            capture_output=True,
        )
        found = re.search(r"^totals: (\d+)", out.read_text(), re.MULTILINE)
        assert found is not None, "callgrind wrote no totals"
        return int(found.group(1))


def per_file(tree: Path, seed: int) -> float:
    """Instructions a file costs to replay on ``tree`` under hash seed ``seed``."""
    return (instructions(tree, seed, MANY) - instructions(tree, seed, FEW)) / (MANY - FEW)


def compare(before: Path, after: Path, seeds: list[int]) -> None:
    """Prints a Markdown table of the cost of a file before and after, seed by seed."""
    print("| PYTHONHASHSEED | before | after | after / before |")
    print("| --- | ---: | ---: | ---: |")
    for seed in seeds:
        old, new = per_file(before, seed), per_file(after, seed)
        print(f"| {seed} | {old:,.0f} | {new:,.0f} | {100 * (new / old - 1):+.1f}% |", flush=True)


def measure(tree: Path, seeds: list[int]) -> None:
    """Prints the cost of a file on one tree, seed by seed."""
    for seed in seeds:
        print(f"PYTHONHASHSEED={seed}: {per_file(tree, seed):,.0f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("replay", help="replay the first N Pluribus files")
    run.add_argument("count", type=int)
    both = commands.add_parser("compare", help="instructions a file, tree against tree")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    both.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    one = commands.add_parser("measure", help="instructions a file on one tree")
    one.add_argument("tree", type=Path)
    one.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    args = parser.parse_args()
    if args.command == "replay":
        replay_files(args.count)
    elif args.command == "measure":
        measure(args.tree.resolve(), args.seeds)
    else:
        compare(args.before.resolve(), args.after.resolve(), args.seeds)


if __name__ == "__main__":
    main()
