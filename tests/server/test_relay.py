"""Any process of a room answers any client (issue 33 item 3): the lobby lists every
table of the room with the process serving it, a client asking for a table another
process serves is told where it is (``elsewhere``, docs/PROTOCOL.md), each table's
summary is stored for the others with its snapshots and announced by PostgreSQL's
NOTIFY, and a page of another process of the room may open a socket here."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

import psycopg
import pytest
import websockets

from doubleholdem.database.connection import Connection
from doubleholdem.database.url import connect, sqlite
from doubleholdem.server.cluster import leases
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.protocol import LOBBY_PAGE
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.lobby_rows import channel, put_summary, read_summaries
from doubleholdem.server.storage.storage import token_hash
from doubleholdem.server.tables.directory import NOWHERE, Place
from doubleholdem.server.tables.directory_reader import Leases
from doubleholdem.server.tables.room import Room
from http_harness import Browser
from money_room import send, sign_up
from passwords_double import FAST
from server_harness import DOUBLE_THREE, Client, ServerThread

HERE = Place("p1", "http://127.0.0.1:8001")
THERE = Place("p2", "http://127.0.0.1:8002")


def _room(path: str, *, guests: bool = True, tables: int = 3) -> Room:
    settings = RoomSettings(
        tables=tables,
        bots=0,
        bot_delay=0.0,
        pause=600.0,
        configs=[DOUBLE_THREE],
        guests=guests,
        clock=lambda: 100.0,
        process=HERE.process,
        address=HERE.address,
    )
    return Room.open(path, settings)


def _summary(table_id: int, hand: int = 0) -> dict[str, Any]:
    return {"id": table_id, "seats": [None, None, None], "hand_number": hand}


def test_the_lobby_lists_every_table_of_the_room_with_its_process(room_db: str) -> None:
    room = _room(room_db)
    here = room.tables.directory.here
    room.tables.directory.replace(
        {5: (THERE, _summary(5)), 7: (NOWHERE, _summary(7)), 8: (here, _summary(8))}
    )
    tables, after = room.lobby()
    assert [t["id"] for t in tables] == [0, 1, 2, 5, 7, 8] and after is None
    assert [(t["process"], t["address"]) for t in tables] == [
        *[(here.process, HERE.address)] * 3,
        ("p2", THERE.address),
        (None, None),  # its owner died, nobody took it over yet
        # its lease names this process as last read, but it runs nowhere here: taken
        # over and not yet restored, or handed over (its new owner lists it as its own:
        # never two processes for one table)
        (None, None),
    ]
    assert tables[0]["seats"] == [None, None, None]  # the live summary of a table here
    assert room.lobby(3) == (tables[3:], None)
    room.store.close()


def test_a_lobby_page_is_bounded_whatever_the_room_holds(room_db: str) -> None:
    room = _room(room_db)
    room.tables.directory.replace({i: (THERE, _summary(i)) for i in range(1, 300, 2)})
    ids: list[int] = []
    first: int | None = 0
    while first is not None:
        page, first = room.lobby(first)
        assert len(page) <= LOBBY_PAGE
        ids += [t["id"] for t in page]
    assert ids == sorted({0, 1, 2, *range(1, 300, 2)})
    room.store.close()


def _elsewhere(replies: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["type"], r.get("table"), r.get("address")) for r in replies if r["type"] != "pong"]


def test_a_client_asking_for_a_table_served_elsewhere_is_told_where(room_db: str) -> None:
    room = _room(room_db, guests=False)
    room.tables.directory.replace(
        {
            5: (THERE, _summary(5)),
            7: (NOWHERE, _summary(7)),
            8: (room.tables.directory.here, _summary(8)),
        }
    )
    ann = sign_up(room, "ann", 1000)
    send(room, ann, type="ping")  # reads the welcome
    told = [("elsewhere", 5, THERE.address)]
    assert _elsewhere(send(room, ann, type="watch", table=5)) == told
    assert _elsewhere(send(room, ann, type="sit", table=5, seat=None, buy_in=400)) == told
    assert _elsewhere(send(room, ann, type="resume", table=5)) == told
    assert _elsewhere(send(room, ann, type="watch", table=7)) == [("elsewhere", 7, None)]
    # leased to this process, not yet restored here (a takeover under way): ask again
    assert _elsewhere(send(room, ann, type="watch", table=8)) == [("elsewhere", 8, None)]
    assert send(room, ann, type="watch", table=5)[0]["process"] == "p2"
    assert ann.table is None and ann.seat is None  # nothing changed here
    # a seat's token names its table in the room's database, whoever serves it
    token = "a-token-of-a-seat-at-table-5"
    room.store.db.execute(  # as the process serving table 5 committed it
        "INSERT INTO tokens VALUES (?, 5, 2, 'ann')", (token_hash(token),)
    )
    assert _elsewhere(send(room, ann, type="resume", token=token)) == told
    # a table of no process is no table; a bad token is still one
    assert send(room, ann, type="watch", table=9)[0]["code"] == "no_table"
    assert send(room, ann, type="resume", token="nothing-here")[0]["code"] == "bad_token"
    # a table served here is served here
    assert send(room, ann, type="watch", table=1)[0]["type"] == "state"
    room.store.close()


def test_a_process_that_has_not_read_the_room_yet_says_ask_again(room_db: str) -> None:
    """A process just started (or started again after ``kill -9``, on the port of the
    one killed) serves its own tables before its directory's reader first read where
    the room's others are: a client resuming a seat it does not serve is told
    ``elsewhere`` with no address (ask again after a moment), not that its token holds
    no seat (seen after the failover tests' restarts: a following client refused there
    kept its seat, never left)."""
    room = _room(room_db, guests=False)
    room.tables.directory.unread = True  # its reader started, nothing read yet
    ann = sign_up(room, "ann", 1000)
    send(room, ann, type="ping")  # reads the welcome
    token = "a-token-of-a-seat-at-table-5"
    room.store.db.execute(  # as the process serving table 5 committed it
        "INSERT INTO tokens VALUES (?, 5, 2, 'ann')", (token_hash(token),)
    )
    assert _elsewhere(send(room, ann, type="resume", token=token)) == [("elsewhere", 5, None)]
    assert _elsewhere(send(room, ann, type="watch", table=5)) == [("elsewhere", 5, None)]
    assert send(room, ann, type="watch", table=1)[0]["type"] == "state"  # its own: served
    room.tables.directory.replace({5: (THERE, _summary(5))})  # read: known from now on
    assert not room.tables.directory.unread
    assert _elsewhere(send(room, ann, type="resume", token=token)) == [
        ("elsewhere", 5, THERE.address)
    ]
    assert send(room, ann, type="watch", table=9)[0]["code"] == "no_table"
    room.store.close()


def test_a_table_stores_its_summary_with_its_snapshots_for_the_other_processes(
    postgres_url: str,
) -> None:
    room = _room(postgres_url, tables=2)
    db = connect(postgres_url)
    try:
        stored = read_summaries(db, [0, 1])
        assert stored == {i: room.runners[i].summary() for i in (0, 1)}  # written at load
        ann = room.connect()
        assert send(room, ann, type="sit", table=1, seat=0, name="ann", buy_in=400)
        assert read_summaries(db, [1])[1] == room.runners[1].summary()
        assert read_summaries(db, [1])[1]["seats"][0]["player"] == "ann"
    finally:
        db.close()
        room.store.close()


def test_a_room_in_sqlite_stores_no_summary(tmp_path: Any) -> None:
    room = _room(str(tmp_path / "tables.db"))
    ann = room.connect()
    assert send(room, ann, type="sit", table=1, seat=0, name="ann", buy_in=400)
    assert room.tables.channel is None
    assert read_summaries(room.store.db, [0, 1, 2]) == {}
    room.store.close()


def test_a_summary_committed_is_announced_on_the_rooms_channel(postgres_url: str) -> None:
    room = _room(postgres_url, tables=1)
    listener = psycopg.connect(postgres_url, autocommit=True)
    try:
        assert room.tables.channel is not None
        listener.execute(f'LISTEN "{room.tables.channel}"')
        ann = room.connect()
        send(room, ann, type="sit", table=0, seat=0, name="ann", buy_in=400)
        heard = next(listener.notifies(stop_after=1))
        assert (heard.channel, heard.payload) == (room.tables.channel, "0")
    finally:
        listener.close()
        room.store.close()


class _Whereabouts:
    """Who owns what, as a test says (the leases' side)."""

    def __init__(self) -> None:
        self.owned: dict[int, Place | None] = {}
        self.live: list[Place] = [THERE]

    def owners(self, db: Connection) -> Mapping[int, Place | None]:
        return dict(self.owned)

    def processes(self, db: Connection) -> Iterable[Place]:
        return list(self.live)


def test_the_directory_follows_the_database_woken_by_its_notifications(
    postgres_url: str,
) -> None:
    room = _room(postgres_url, tables=2)
    whereabouts = _Whereabouts()
    here = room.tables.directory.here  # this process, as the room knows it
    whereabouts.live.append(here)
    whereabouts.owned = {0: here, 1: here, 5: THERE}
    room.tables.whereabouts = whereabouts
    directory = room.tables.directory

    async def scenario() -> None:
        readings: asyncio.Queue[None] = asyncio.Queue()
        replace = directory.replace

        def replaced(*args: Any) -> None:
            replace(*args)
            readings.put_nowait(None)

        directory.replace = replaced  # type: ignore[method-assign]
        await room.start()
        await readings.get()  # the first reading: the room's tables are all here
        assert [t["id"] for t in room.lobby()[0]] == [0, 1]
        assert directory.origins() == {THERE.address}
        other = connect(postgres_url)  # the process serving table 5 commits its summary
        try:
            other.execute("BEGIN")
            put_summary(other, 5, '{"id": 5, "hand_number": 3}', channel(other))
            other.execute("COMMIT")
            while directory.where(5) is None:
                await readings.get()
            assert room.lobby()[0][-1] == {
                "id": 5,
                "hand_number": 3,
                "process": "p2",
                "address": THERE.address,
            }
            # a row that is no summary and a payload that names no table are left out
            whereabouts.owned[6] = THERE
            other.execute("BEGIN")
            put_summary(other, 6, "not a summary", channel(other))
            other.execute("SELECT pg_notify(?, 'not a table')", (channel(other),))
            put_summary(other, 5, '{"id": 5, "hand_number": 4}', channel(other))
            other.execute("COMMIT")
            while room.lobby(5)[0][0]["hand_number"] != 4:
                await readings.get()
            assert directory.where(6) is None and [t["id"] for t in room.lobby(5)[0]] == [5]
            whereabouts.owned[5] = None  # its owner died: the next reading says nowhere
            while directory.where(5) != NOWHERE:
                await readings.get()
        finally:
            other.close()
            await room.stop()

    asyncio.run(scenario())


def test_a_page_of_another_process_of_the_room_may_open_the_socket(tmp_path: Any) -> None:
    room = _room(str(tmp_path / "tables.db"))
    room.settings.origins = ("https://room.example",)
    room.tables.directory.replace({}, [THERE])

    async def scenario(server: ServerThread) -> None:
        for origin in (THERE.address, "https://room.example", server.url):
            client = await Client.connect(server.ws_url, origin=origin)
            await client.close()
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            await websockets.connect(server.ws_url, origin="http://127.0.0.1:8003")
        assert refused.value.response.status_code == 403

    with ServerThread(room) as server:
        asyncio.run(scenario(server))


def test_a_page_of_a_process_of_the_room_that_died_may_open_the_socket(tmp_path: Any) -> None:
    """A page (the browser's) loaded from a process that was then killed follows its
    table to the process that took it over: its socket's ``Origin`` is the dead
    process's address, which the room still trusts (every process of the room that
    has a row, live or not, and every origin this process once trusted), rather than
    refusing it (403) until a process is started again at that address (seen in the
    failover tests: a client of the killed process refused for 26 s)."""
    db = sqlite(":memory:")
    for statement in leases.SCHEMA:
        db.execute(statement)
    leases.register(db, "p2", THERE.address, lock=None, seconds=0.0)  # expired: dead
    assert leases.live_processes(db) == [] and Leases().processes(db) == [THERE]
    room = _room(str(tmp_path / "tables.db"))
    room.tables.directory.replace({}, [THERE])
    room.tables.directory.replace({}, [])  # its row swept: trusted all the same

    async def scenario(server: ServerThread) -> None:
        client = await Client.connect(server.ws_url, origin=THERE.address)
        await client.close()
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            await websockets.connect(server.ws_url, origin="http://127.0.0.1:8003")
        assert refused.value.response.status_code == 403

    with ServerThread(room) as server:
        asyncio.run(scenario(server))


def test_a_session_signed_in_at_one_process_is_the_rooms(postgres_url: str) -> None:
    """Sessions, balances and statements are rows of the room's database: a sign-in at
    one process's desk is known to another's (each process has a desk of its own)."""
    settings = RoomSettings(tables=1, bots=0, signup=True, welcome_chips=700)
    room = Room.open(postgres_url, settings)
    here = Desk(postgres_url, settings, passwords=FAST)
    there = Desk(postgres_url, settings, passwords=FAST)  # another process's
    try:
        account, token = here.sign_up("ann", "correct horse battery", address="10.0.0.1")
        seen = there.session(token)
        assert seen is not None and seen.name == account.name == "ann"
        assert there.me("ann")["balance"] == 700
        assert [line["amount"] for line in there.statement("ann")["lines"]] == [700]
        here.sign_out(token)
        assert there.session(token) is None  # revoked for every process
    finally:
        here.close()
        there.close()
        room.store.close()


def test_the_rooms_public_origin_may_sign_in(tmp_path: Any) -> None:
    """Behind a reverse proxy that gives each process another Host than the page's, the
    room's public origin (serve --origin) signs in; any other is refused."""
    settings = RoomSettings(tables=1, bots=0, signup=True, origins=("https://room.example",))
    room = Room.open(str(tmp_path / "tables.db"), settings)
    desk = Desk(room.store.path, room.settings, passwords=FAST)
    with ServerThread(room, desk=desk) as server:
        browser = Browser(server.port)
        proxied = {"Origin": "https://room.example", "Host": "10.0.0.5:8000"}
        assert browser.sign_up("ann", headers=proxied).status == 201
        other = {"Origin": "https://other.example", "Host": "10.0.0.5:8000"}
        refused = browser.sign_in("ann", headers=other)
        assert refused.status == 403 and refused.body["error"] == "cross_origin"
