"""A room paying through a wallet of its own (:class:`wallets.FileWallet`) killed with
SIGKILL at the bad moments: just before or just after the wallet applies a buy-in, a
top-up, a cash-out, a hand's rake or the buy-in of a new table's bot. Run as a script,
it is the child that plays a scenario until the wallet kills it; :func:`killed_at` runs
it and returns what the room and the wallet hold after a restart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.table import Decision
from money_room import RAKED
from wallets import FileWallet

PLAYERS = {"ann": 1000, "bob": 1000}
BOTS = {"bot-0-0": 1000, "bot-0-1": 1000}  # the bots of the scenario "bots"
SCENARIOS = ("sit", "top_up", "leave", "rake", "bots")


def settings(scenario: str = "") -> RoomSettings:
    """The room: one table, with two bots in the scenario ``bots``."""
    bots = 2 if scenario == "bots" else 0
    return RoomSettings(
        tables=1, bots=bots, pause=0.0, configs=[RAKED], seed=5, guests=False, clock=lambda: 100.0
    )


def _send(room: Room, connection: Connection, **fields: object) -> None:
    room.handle(connection, json.dumps({"v": 2, **fields}))


def _play_hand(room: Room) -> None:
    runner = room.runners[0]
    with runner.change():
        runner.table.start_hand(now=100.0)
    while runner.table.in_hand:
        legal = runner.table.legal_actions()
        assert legal is not None
        with runner.change(moves=True):
            runner.decide(legal.seat, Decision("call" if legal.can_call else "check"), 100.0)


def play(path: str, wallet: FileWallet, scenario: str) -> None:
    """The scenario: ann sits (``sit``), then tops up (``top_up``) or leaves
    (``leave``); or ann and bob sit and play a hand with rake (``rake``); or the room
    is made, its table's bots buying in from the wallet (``bots``)."""
    room = Room.open(path, settings(scenario), wallet=wallet)
    ann = room.connect(account="ann")
    _send(room, ann, type="sit", table=0, seat=0, buy_in=300)
    if scenario == "top_up":
        _send(room, ann, type="top_up", amount=100)
    elif scenario == "leave":
        _send(room, ann, type="leave")
    elif scenario == "rake":
        bob = room.connect(account="bob")
        _send(room, bob, type="sit", table=0, seat=1, buy_in=300)
        _play_hand(room)
    room.store.close()


@dataclass
class AfterRestart:
    killed: bool  # the child was killed by its wallet (else the test tests nothing)
    wallet: int  # the chips the wallet holds (balances and house)
    tables: int  # the chips at the room's tables after the restart
    seated: list[str]  # who sits at table 0 after the restart
    keys: list[str]  # the keys the wallet applied


def killed_at(path: str, tmp: Path, scenario: str, moment: str, prefix: str) -> AfterRestart:
    """Plays ``scenario`` on the room's database at ``path`` (a SQLite file or a
    PostgreSQL URL) in a child process killed ``moment`` (before or after) its wallet
    (a file in ``tmp``) applies the first call whose key starts with ``prefix``; then
    opens the room again on the same database and wallet (twice: a restart after a
    restart changes nothing) and returns what they hold."""
    wallet_path = str(tmp / "wallet.db")
    FileWallet(wallet_path, {**PLAYERS, **(BOTS if scenario == "bots" else {})}).db.close()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.run(
        [sys.executable, __file__, path, wallet_path, scenario, moment, prefix],
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert child.returncode in (0, -9), child.stderr.decode()
    for _ in range(2):
        wallet = FileWallet(wallet_path)
        room = Room.open(path, settings(scenario), wallet=wallet)
        table = room.runners[0].table
        seated = [s["player"] for s in table.seats() if s is not None]
        after = AfterRestart(child.returncode == -9, wallet.total(), table.chips(), seated, [])
        room.store.close()
    after.keys = wallet.keys()
    return after


if __name__ == "__main__":
    room_path, wallet_file, name, when, key_prefix = sys.argv[1:]
    play(room_path, FileWallet(wallet_file, kill=(when, key_prefix)), name)
