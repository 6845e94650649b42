"""Two builds of the wheel side by side (issue 36): the same evaluate_batch and exact equity
calls, each wheel in a virtual environment of its own, the two taking turns round after round
so that the machine's drift falls on both alike.

    python benches/wheel_speed.py OLD.whl NEW.whl [--rounds 7]

Prints each round, then per measure the median of the rounds for each wheel and NEW/OLD.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# One round's measures in one process: the best of a few calls each, one thread.
MEASURE = """
import json, time
import doubleholdem as dh
from doubleholdem.equity import calculate

def best(call, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)

hands = dh.random_hands(2_000_000, 7, seed=36)
batch = best(lambda: dh.evaluate_batch(hands, threads=1), 20)
heads_up = best(lambda: calculate(["AhKh", "QsQd"], exact=True, threads=1), 15)
ranges = best(lambda: calculate(["QQ+,AKs", "JJ-88,AQs+"], exact=True, threads=1), 5)
print(json.dumps({
    "evaluate_batch, M hands/s": len(hands) / batch / 1e6,
    "exact heads-up pre-flop, ms": heads_up * 1e3,
    "exact QQ+,AKs vs JJ-88,AQs+, ms": ranges * 1e3,
}))
"""


def environment(wheel: Path, into: Path) -> Path:
    """A fresh virtual environment with the wheel and numpy; its python."""
    subprocess.run([sys.executable, "-m", "venv", str(into)], check=True)
    python = into / "bin" / "python"
    install = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*install, str(wheel), "numpy"], check=True)
    return python


def measure(python: Path) -> dict[str, float]:
    done = subprocess.run([str(python), "-c", MEASURE], capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        pythons = {
            "old": environment(args.old, Path(scratch) / "old"),
            "new": environment(args.new, Path(scratch) / "new"),
        }
        runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for round_ in range(args.rounds):
            order = ["old", "new"] if round_ % 2 == 0 else ["new", "old"]
            for side in order:
                runs[side].append(measure(pythons[side]))
                print(f"round {round_ + 1}/{args.rounds} {side}: {runs[side][-1]}", flush=True)
    print(f"old: {args.old.name}\nnew: {args.new.name}")
    for key in runs["old"][0]:
        old = statistics.median(run[key] for run in runs["old"])
        new = statistics.median(run[key] for run in runs["new"])
        print(f"{key}: old {old:.3f}, new {new:.3f}, new/old {new / old:.3f}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
