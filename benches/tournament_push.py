"""What watching a tournament over the WebSocket costs the room (issue 34 item 3): a
sit-and-go of ENTRANTS bots on tables of 9 played step by step (no event loop: each
change committed at once, SQLite), without watchers and with WATCHERS connections
watching it (each sent the patch of its view after every change), side by side in one
run, alternated (none, one, WATCHERS); prints the wall time per change, what the first
watcher adds (the view every watcher shares, made once a change) and each further one.

    PYTHONPATH=python python3 benches/tournament_push.py [ENTRANTS] [WATCHERS] [CHANGES]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import Passwords, create_account
from doubleholdem.errors import DatabaseBusy
from doubleholdem.server.http.tournament_sockets import TournamentSockets
from doubleholdem.server.protocol import TournamentWatch
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments.room import Tournaments
from doubleholdem.server.tournaments.spec import spec_from_entry

FAST = Passwords(time_cost=1, memory_cost=8, insecure=True)  # a bench's account


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def watched_room(
    path: str, entry: dict[str, object], clock: Clock
) -> tuple[Room, Tournaments, TournamentSockets]:
    """The room at ``path`` running the tournament of the ``[[tournament]]`` ``entry``
    (opened: its bots registered) with its sockets, and the account ann holding 1000."""
    settings = RoomSettings(tables=0, bots=0, bot_delay=0.0, pause=0.0, seed=1, clock=clock)
    room = Room.open(path, settings)
    tournaments = Tournaments(room.store, settings, room.commit, [spec_from_entry(entry)])
    tournaments.open()
    sockets = TournamentSockets(tournaments)
    with room.store.transaction():
        create_account(room.store.db, "ann", "password-ann", passwords=FAST)
        ledger.transfer(room.store.db, "cashier:ann", "deposit", ledger.CASHIER,
                        ledger.player("ann"), 1000)  # fmt: skip
    return room, tournaments, sockets


def one_run(folder: Path, entrants: int, watchers: int, changes: int) -> float:
    """Seconds per change over ``changes`` changes with ``watchers`` watching."""
    clock = Clock()
    path = str(folder / f"room-{watchers}-{time.monotonic_ns()}.db")
    room, tournaments, sockets = watched_room(path, {
        "name": "sng", "kind": "sit-and-go", "capacity": entrants, "seats": 9,
        "starting_stack": 5000, "buy_in": 10, "fee": 1, "bots": entrants - 1,
        "level_by": "hands", "level_length": 10, "pause": 0}, clock)  # fmt: skip
    tournaments.register(0, "ann")
    runner = tournaments.runner(0)
    for n in range(watchers):
        sockets.handle(room.connect(account="ann" if n == 0 else None), TournamentWatch(0))
    done = 0
    started = time.perf_counter()
    while done < changes and runner.stored.status == "running":
        version = runner.version
        wait = runner.step(clock.now)
        if runner.version == version:
            clock.now += 0.01 if wait is None else max(0.01, min(wait, 5.0))
        done += runner.version - version
        for connection in room.connections:  # the clients read what they were sent
            while not connection.outbox.empty():
                connection.outbox.get_nowait()
    seconds = time.perf_counter() - started
    room.store.close()
    return seconds / max(1, done)


def measured(folder: Path, entrants: int, watchers: int, changes: int) -> float:
    """:func:`one_run`, tried again when the next sit-and-go's bots found the database
    busy (its checkpoint, on a loaded machine) while registering."""
    for _ in range(4):
        try:
            return one_run(folder, entrants, watchers, changes)
        except DatabaseBusy:
            continue
    raise RuntimeError("the database stayed busy")


def main() -> None:
    given = [int(a) for a in sys.argv[1:4]]
    entrants, watchers, changes = given + [100, 10, 300][len(given) :]
    with tempfile.TemporaryDirectory() as folder:
        best: dict[int, float] = {}
        for _ in range(3):  # alternated, best of three
            for count in (0, 1, watchers):
                per = measured(Path(folder), entrants, count, changes)
                best[count] = min(best.get(count, per), per)
    alone, one, many = best[0], best[1], best[watchers]
    print(f"{entrants} entrants, {changes} changes: {alone * 1000:.2f} ms a change without "
          f"watchers, {one * 1000:.2f} ms with one, {many * 1000:.2f} ms with {watchers} "
          f"({(many - one) / (watchers - 1) * 1000:.3f} ms each further watcher)")  # fmt: skip


if __name__ == "__main__":
    main()
