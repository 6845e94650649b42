"""Money through ``kill -9`` (issue 19): 200 cycles of the room killed with SIGKILL
while clients buy in, play, top up and leave and the cashier deposits and withdraws
(``tests/money_crash.py``); after every kill the audit holds and every movement a client
was told about is in the ledger, once."""

from __future__ import annotations

from pathlib import Path

from money_crash import crash_cycles

CYCLES = 200


def test_no_chip_is_created_or_lost_through_kill_9(tmp_path: Path) -> None:
    outcome = crash_cycles(str(tmp_path / "room.db"), CYCLES, seed=19)
    assert outcome.problems == []
    assert outcome.cycles == CYCLES
    assert outcome.created == 0
    assert outcome.told > CYCLES // 2  # movements were told about (the test tests something)
