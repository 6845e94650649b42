"""Money through ``kill -9``, 1,000 times (issue 19): the crash test's cycles
(``tests/money_crash.py``) run 1,000 times on one database; prints the cycles, the
movements clients were told about, the chips created or lost (must be 0) and the
problems found (must be none).

Run: ``PYTHONPATH=python python benches/bench_money_crash.py [CYCLES] [--json]``."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from money_crash import crash_cycles


def main(argv: list[str]) -> int:
    cycles = int(next((a for a in argv if a.isdigit()), "1000"))
    with tempfile.TemporaryDirectory() as folder:
        start = time.monotonic()
        outcome = crash_cycles(str(Path(folder) / "room.db"), cycles, seed=1)
        seconds = time.monotonic() - start
    result = {
        "cycles": outcome.cycles,
        "told": outcome.told,
        "chips_created_or_lost": outcome.created,
        "problems": outcome.problems[:10],
        "seconds": round(seconds, 1),
    }
    if "--json" in argv:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0 if outcome.created == 0 and not outcome.problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
