"""Money through ``kill -9`` (issue 19): 200 cycles of the room killed with SIGKILL
while clients buy in, play, top up and leave and the cashier deposits and withdraws
(``tests/money_crash.py``); after every kill the audit holds and every movement a client
was told about is in the ledger, once."""

from __future__ import annotations

from money_crash import crash_cycles

CYCLES = 200


def test_no_chip_is_created_or_lost_through_kill_9(room_db: str) -> None:
    """On either database (PostgreSQL: fewer cycles, each room's opening dearer; the
    killed room's session and its lock end with it)."""
    cycles = CYCLES if not room_db.startswith("postgresql") else CYCLES // 5
    outcome = crash_cycles(room_db, cycles, seed=19)
    assert outcome.problems == []
    assert outcome.cycles == cycles
    assert outcome.created == 0
    assert outcome.told > cycles // 2  # movements were told about (the test tests something)
