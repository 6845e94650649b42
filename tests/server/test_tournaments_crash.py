"""A tournament through ``kill -9`` (issue 34 item 3): a room of accounts runs a
sit-and-go of four bots and two people on two tables (levels of two hands, so levels
change often; hand-for-hand on the bubble) in a forked child, whose clients register
and play; this process kills the child with SIGKILL at random moments (during
registration, hands, level changes, hand-for-hand) and, before each restart, checks the
audit of the database (the ledger, and the pool of every tournament against its stored
state). At the end the tournament is over, its pool paid out exactly once."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import time
from pathlib import Path

from doubleholdem.accounts import ledger
from doubleholdem.accounts.bank import Bank
from doubleholdem.errors import DoubleHoldemError
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments.room import Tournaments
from doubleholdem.server.tournaments.stored import Stored
from passwords_double import FAST
from tournaments_room import BUY_IN, FEE, people_act, sit_and_go

PEOPLE = ("ann", "bob")
MOST_CYCLES = 400


def _child(path: str, seed: int) -> None:
    spec = sit_and_go(6, bots=4, seats=3, level_length=2)
    settings = RoomSettings(tables=0, bots=0, bot_delay=0.01, pause=0.0, seed=seed)
    room = Room.open(path, settings)
    tournaments = Tournaments(room.store, settings, room.commit, [spec])
    tournaments.open()

    async def main() -> None:
        await room.start()
        await tournaments.start()
        runner = tournaments.runner(0)
        while True:
            for name in PEOPLE:
                if runner.stored.status == "registering" and not runner.tournament.entries_of(name):
                    with contextlib.suppress(DoubleHoldemError):
                        tournaments.register(0, name)
                await asyncio.sleep(0.002)
            with contextlib.suppress(DoubleHoldemError):
                people_act(runner, PEOPLE)
            await asyncio.sleep(0.001)

    asyncio.run(main())


def _stored(path: str) -> Stored | None:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT state FROM tournaments WHERE id = 0").fetchone()
    return None if row is None else Stored.from_text(0, row[0], None)[0]


def test_a_tournament_survives_kill_9_with_its_money_audited_at_every_step(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "room.db")
    with Bank(path, passwords=FAST, create=True) as bank:
        for name in PEOPLE:
            bank.create(name, "password-" + name)
            bank.deposit(name, 1000, ref=f"first-{name}")
    rng = random.Random(34)
    killed_in: set[str] = set()
    for cycle in range(MOST_CYCLES):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            try:
                _child(path, cycle)
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0.05, 0.25))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            found = audit_room(db)
        assert found["problems"] == [], f"after kill {cycle + 1}"
        stored = _stored(path)
        if stored is not None:
            killed_in.add(stored.status)
            if stored.status == "finished":
                break
    else:
        raise AssertionError("the tournament did not finish")
    assert {"running", "finished"} <= killed_in
    assert stored is not None and sum(stored.paid.values()) == 6 * BUY_IN
    with sqlite3.connect(path) as db:
        assert ledger.balance(db, ledger.tournament(0)) == 0
        for name in PEOPLE:
            won = sum(
                int(a)
                for (a,) in db.execute(
                    "SELECT e.amount FROM ledger_transactions t JOIN ledger_entries e "
                    "ON e.seq = t.seq JOIN ledger_accounts a ON a.id = e.account_id "
                    "WHERE t.kind = 'prize' AND a.name = ?",
                    (name,),
                )
            )
            assert ledger.balance(db, ledger.player(name)) == 1000 - BUY_IN - FEE + won
