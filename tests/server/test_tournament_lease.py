"""The lease of a room's tournaments (:mod:`doubleholdem.server.tournaments.host`), in
one process: on PostgreSQL the process that holds it runs them, and once another holds
it (a takeover while this one was frozen), this one's changes of them are written
nowhere: a payment is refused at once (its ledger entries never written), a change is
left out of its commit, and the process stops running them. On SQLite (one process)
nothing is leased and the tournaments run as before. A table's acquisition never takes
the tournaments' lease, nor counts it among the tables; a repair (the room held alone)
takes it whoever it names."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from doubleholdem.database.url import connect, is_postgres
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.leases import TOURNAMENTS, LeaseLost
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage import tournament_rows
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments.host import TournamentsHost
from doubleholdem.server.tournaments.room import Tournaments
from tournaments_room import balance, sign_up, sit_and_go


def _room(target: str, process: str) -> tuple[Room, TournamentsHost]:
    settings = RoomSettings(tables=2, bots=0, bot_delay=0.0, pause=0.0, seed=3)
    settings.process, settings.address = process, f"http://{process}"
    room = Room.open(target, settings)
    member = room.tables.membership
    made = Tournaments(room.store, settings, room.commit, [sit_and_go(4, bots=2)])
    host = TournamentsHost(made, member)
    return room, host


def test_the_tournaments_are_leased_apart_from_the_tables(postgres_url: str) -> None:
    """One process holds them; another takes neither them nor a table while it is
    live, and a table's acquisition, the lobby's owners and a process's share count
    the tables alone."""
    room, host = _room(postgres_url, "p1")
    try:
        host.open()
        assert room.store.fencing.epochs == {0: 1, 1: 1, TOURNAMENTS: 1}
        with contextlib.closing(connect(postgres_url)) as other:
            leases.register(other, "p2", "http://p2", lock=None)
            assert leases.acquire_part(other, "p2", TOURNAMENTS) is None  # p1 is live
            assert leases.acquire(other, "p2", want=5) == {}
            assert set(leases.owners(other)) == {0, 1}
            p1 = leases.Owner("p1", "http://p1")
            assert leases.part_owner(other, TOURNAMENTS) == (p1, "p1", 1)
            member = room.tables.membership
            assert member is not None and member.share() == 2  # two tables, p1 alone live
            leases.release(other, "p1")  # p1 gone (as a clean stop releases)
            assert leases.acquire(other, "p2", want=5) == {0: 2, 1: 2}
            assert leases.acquire_part(other, "p2", TOURNAMENTS) == 2
    finally:
        room.store.close()


def test_a_process_whose_tournaments_were_taken_over_writes_nothing_of_them(
    postgres_url: str,
) -> None:
    room, host = _room(postgres_url, "a")
    lost: list[object] = []
    host.listeners.append(lost.append)
    try:
        sign_up(room, "ann", 1000)
        host.open()
        assert host.leased and host.run is not None
        with contextlib.closing(connect(postgres_url)) as other:  # another took them over
            other.execute(
                "UPDATE leases SET owner = 'b', epoch = epoch + 1 WHERE table_id = ?",
                (TOURNAMENTS,),
            )
        row = tournament_rows.state(room.store.db, 0)
        run = host.run

        async def late() -> None:
            with pytest.raises(LeaseLost):  # refused before the ledger is written
                run.register(0, "ann")
            runner = run.runner(0)
            with runner.change():  # a change of its row: left out of the commit
                runner.stored.moves.append({"late": True})
            ended = asyncio.Event()
            room.commit.after(ended.set)  # (the commit runs on its thread: it ends first)
            await ended.wait()
            await asyncio.sleep(0)  # the tournaments' tasks end

        asyncio.run(late())
        assert balance(room, "ann") == 1000
        assert tournament_rows.state(room.store.db, 0) == row
        assert host.run is None and lost == [run, None]  # it runs them no more
        assert TOURNAMENTS not in room.store.fencing.epochs
    finally:
        room.store.close()


def test_a_room_of_one_process_runs_its_tournaments_unleased(room_db: str) -> None:
    room, host = _room(room_db, "alone")
    try:
        sign_up(room, "ann", 1000)
        host.open()
        assert host.run is not None
        assert host.leased is is_postgres(room_db)  # (PostgreSQL: leased, held here)
        host.run.register(0, "ann")
        room.commit.flush()
        assert balance(room, "ann") == 1000 - 110
        assert host.run.runner(0).tournament.entries_of("ann")
    finally:
        room.store.close()


def _killed(target: str) -> None:
    """Every lease of the room names a process killed with ``kill -9`` (as its rows
    were left: owners that no longer run)."""
    with contextlib.closing(connect(target)) as db:
        db.execute("UPDATE leases SET owner = 'killed'").close()


def test_a_repair_runs_the_tournaments_under_their_lease(postgres_url: str) -> None:
    """``serve --repair`` holds the room alone and fences its writes (PostgreSQL): it
    takes the tournaments' lease too, whoever the row names, and its changes of them
    are written (a registration: paid and stored)."""
    room, host = _room(postgres_url, "before")
    sign_up(room, "ann", 1000)
    host.open()
    room.store.close()
    _killed(postgres_url)
    settings = RoomSettings(tables=2, bots=0, bot_delay=0.0, pause=0.0, seed=3)
    room = Room.open(postgres_url, settings, repair=True)
    try:
        made = Tournaments(room.store, settings, room.commit, [sit_and_go(4, bots=2)])
        repair = TournamentsHost(made, room.tables.membership)
        repair.open()
        assert not repair.leased and repair.run is not None
        repair.run.register(0, "ann")
        room.commit.flush()
        assert balance(room, "ann") == 1000 - 110
        stored = "SELECT COUNT(*) FROM tournament_parts WHERE part LIKE '%\"ann\"%'"
        assert room.store.db.execute(stored).fetchone()[0] >= 1  # her entry, stored
    finally:
        room.store.close()
