"""A player's hands are found through the hand index and read off the event loop (issue
30, item 1): the ``hands`` request over a WebSocket and ``GET /api/me/hands`` over HTTP
run their SQL on a thread other than the loop's, through the index (EXPLAIN QUERY PLAN),
and the work of each statement does not grow with the hands other players stored (SQLite
virtual machine instructions counted, not time). The retention forgets by count and by
age, never the last hands of a seat a person holds; a database of schema 4 is upgraded
with its index built."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from databases import fresh_database
from doubleholdem.database.url import connect
from doubleholdem.errors import InvalidConfig
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.protocol import MAX_HANDS
from doubleholdem.server.settings import RoomSettings, load_room
from doubleholdem.server.storage.database import SCHEMA_VERSION, pending_upgrade
from doubleholdem.server.storage.storage import FORGET_BATCH, Storage
from doubleholdem.server.tables.room import Room
from doubleholdem.table import Table
from doubleholdem.table.bots import CallingStation
from doubleholdem.table.history import RECORD, hand_record, seat_hands
from passwords_double import FAST
from postgres_cluster import Cluster
from server_harness import DOUBLE_THREE, Client, ServerThread, get_json, play_seat, until_hands

DATA = Path(__file__).parent / "data"
PASSWORD = "correct horse battery"
DAY = 86_400.0


@functools.cache
def _template() -> str:
    """The log of a real hand of three calling stations (a table of DOUBLE_THREE)."""
    table = Table(DOUBLE_THREE, seed=5)
    for seat, name in enumerate(("x", "y", "z")):
        table.join(seat, name, 1000)
    table.start_hand(now=1.0)
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        table.decide(seat, CallingStation().choose(table.observe(seat)), now=1.0)
    return json.dumps([*table.release_history(), hand_record(table, table_id=0)])


NAMES = ("ann", "bob", "cy", "dan")


def _occupancy(name: str, seat: int) -> int:
    """The occupancy of ``name`` in ``seat`` in the stored hands made here, unless said:
    one seating of each name in each seat (ann's in seat 0 is 0)."""
    return 10 * seat + NAMES.index(name)


def _log(
    number: int,
    names: tuple[str, str, str],
    at: float,
    table: int = 0,
    occupancies: tuple[int, int, int] | None = None,
) -> list[Any]:
    """A stored hand's log: number ``number`` at ``table``, ``names`` seat by seat (with
    ``occupancies``, else :func:`_occupancy`), over at ``at``."""
    log: list[Any] = json.loads(_template())
    record = log[-1]
    assert record["kind"] == RECORD
    record.update(hand_number=number, table=table)
    record["players"] = [names[s - 1] for s in record["seats"]]
    if occupancies is None:
        occupancies = (_occupancy(names[0], 0), _occupancy(names[1], 1), _occupancy(names[2], 2))
    record["occupancies"] = [occupancies[s - 1] for s in record["seats"]]
    for entry in log:
        if entry["kind"] == "hand_end":
            entry["at"] = at
    return log


def _store(store: Storage, hands: list[tuple[Any, ...]]) -> None:
    """Stores ``hands``, each (table, number, names by seat, time over[, occupancies by
    seat]), as a room does."""
    with store.transaction():
        for table, number, names, at, *occupancies in hands:
            store.put_hand(table, number, _log(number, names, at, table, *occupancies))


class Trace:
    """Every SQL statement run on a connection opened while it is installed, with the
    thread that ran it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.statements: list[tuple[int, str]] = []
        connect = sqlite3.connect

        def traced(*args: Any, **options: Any) -> sqlite3.Connection:
            db = connect(*args, **options)
            db.set_trace_callback(lambda sql: self.statements.append((threading.get_ident(), sql)))
            return db

        monkeypatch.setattr(sqlite3, "connect", traced)

    def reads_of_hands(self) -> list[tuple[int, str]]:
        """The statements that read stored hands (their logs or their index)."""
        return [
            (thread, sql)
            for thread, sql in self.statements
            if sql.lstrip().upper().startswith("SELECT") and ("hands" in sql or "hand_" in sql)
        ]


def _plan(path: Path, sql: str) -> list[str]:
    with sqlite3.connect(path) as db:
        return [row[3] for row in db.execute("EXPLAIN QUERY PLAN " + sql)]


def _steps(path: Path, sql: str) -> int:
    """The virtual machine instructions SQLite runs for ``sql`` (the work it does)."""
    count = [0]

    def step() -> int:
        count[0] += 1
        return 0

    with sqlite3.connect(path) as db:
        db.set_progress_handler(step, 1)
        db.execute(sql).fetchall()
    return count[0]


def _check_reads(reads: list[tuple[int, str]], loop: int | None, path: Path) -> dict[str, int]:
    """Every read ran off the event loop's thread ``loop``, through the hand index and
    without a scan of a whole table; the instructions each ran, by statement."""
    assert reads, "no statement read the stored hands"
    steps, plans = {}, []
    for thread, sql in reads:
        assert thread != loop, f"run on the event loop: {sql}"
        plan = _plan(path, sql)
        assert not any(line.startswith("SCAN") for line in plan), (sql, plan)
        plans += plan
        steps[sql] = _steps(path, sql)
    assert any("INDEX hand_players_" in line for line in plans), plans
    return steps


def _bounded(path: Path, steps: dict[str, int], more: Callable[[], None]) -> None:
    """After ``more`` stores many other hands, each statement does the same work."""
    more()
    assert {sql: _steps(path, sql) for sql in steps} == steps


def _room(db: Path | str, **fields: Any) -> Room:
    """A room of DOUBLE_THREE tables on ``db``: a folder (its tables.db) or a room_db."""
    base: dict[str, Any] = dict(tables=1, bots=0, bot_delay=0.0, pause=0.05, guests=True)
    base["configs"] = [DOUBLE_THREE]
    base.update(fields)
    path = str(db / "tables.db") if isinstance(db, Path) else db
    return Room.open(path, RoomSettings(seed=7, **base))


def _others(first: int, count: int, table: int = 0) -> list[Any]:
    return [(table, n, ("bob", "cy", "dan"), 1e9 + n) for n in range(first, first + count)]


# ------------------------------------------------------------------ reads


def test_a_seats_hands_come_through_the_index_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = Trace(monkeypatch)
    room = _room(tmp_path, pause=600.0)
    assert room.runners[0].table.next_occupancy == 0  # ann's seating to come
    hands: list[tuple[Any, ...]] = []
    for n in range(1, 201):  # ann in seat 0 every 5th hand, in seat 1 every 7th else,
        if n % 5 == 0:  # and in seat 0 in an earlier seating (another person?) every 11th
            hands.append((0, n, ("ann", "bob", "cy"), 1e9))
        elif n % 7 == 0:
            hands.append((0, n, ("bob", "ann", "cy"), 1e9))
        elif n % 11 == 0:
            hands.append((0, n, ("ann", "bob", "cy"), 1e9, (7, 11, 12)))
        else:
            hands.append((0, n, ("bob", "cy", "dan"), 1e9))
    _store(room.store, hands)

    async def scenario(server: ServerThread) -> Any:
        ann = await Client.connect(server.ws_url)
        await ann.send(type="sit", table=0, seat=0, name="ann", buy_in=1000)
        await ann.next("seated")
        trace.statements.clear()
        await ann.send(type="hands", last=MAX_HANDS)
        return await ann.next("hands", timeout=30)

    with ServerThread(room) as server:
        reply = asyncio.run(scenario(server))
        loop = server.thread.ident
    assert [h["number"] for h in reply["hands"]] == list(range(105, 201, 5))
    path = tmp_path / "tables.db"
    steps = _check_reads(trace.reads_of_hands(), loop, path)
    store = Storage(str(path))
    _bounded(path, steps, lambda: _store(store, _others(201, 2000) + _others(1, 500, table=1)))
    store.close()


def _account_room(tmp_path: Path, **fields: Any) -> tuple[Room, Desk, str]:
    """A room with accounts, its desk, and the session token of ann, signed up."""
    settings = RoomSettings(bots=0, pause=600.0, configs=[DOUBLE_THREE], **fields)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    desk = Desk(room.store.path, settings, passwords=FAST)
    return room, desk, desk.sign_up("ann", PASSWORD, address="192.0.2.1")[1]


def test_api_me_hands_comes_through_the_index_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = Trace(monkeypatch)
    room, desk, token = _account_room(tmp_path, tables=2)
    hands = []
    for n in range(1, 301):  # every 6th hand ann's, at either table in turn
        names = ("cy", "ann", "bob") if n % 6 == 0 else ("bob", "cy", "dan")
        hands.append((n % 2, n, names, 1e9 + n))
    _store(room.store, hands)
    with ServerThread(room, desk=desk) as server:
        trace.statements.clear()
        status, body = get_json(server.port, "/api/me/hands", token)
        loop = server.thread.ident
        reads = trace.reads_of_hands()
    assert status == 200
    assert [(h["table"], h["number"]) for h in body["hands"]] == [
        (n % 2 + 1, n) for n in range(300, 300 - 6 * 20, -6)
    ]
    path = tmp_path / "tables.db"
    steps = _check_reads(reads, loop, path)
    store = Storage(str(path))
    _bounded(path, steps, lambda: _store(store, _others(301, 2000) + _others(301, 500, 1)))
    store.close()


@pytest.mark.parametrize("path", ["/api/me/statement", "/api/me/statement?before=2", "/api/me"])
def test_the_statement_and_the_account_are_read_through_indexes_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    trace = Trace(monkeypatch)
    room, desk, token = _account_room(tmp_path, tables=1, welcome_chips=500)
    for n in range(30):
        desk.sign_up(f"other{n}", PASSWORD, address=f"192.0.2.{n + 2}")
    with ServerThread(room, desk=desk) as server:
        trace.statements.clear()
        status, body = get_json(server.port, path, token)
        loop = server.thread.ident
    assert status == 200 and ("lines" in body or body["balance"] == 500)
    reads = [(t, s) for t, s in trace.statements if s.lstrip().upper().startswith("SELECT")]
    assert any("ledger_" in s for _, s in reads)
    for thread, sql in reads:
        assert thread != loop
        plan = _plan(tmp_path / "tables.db", sql)
        assert not any(line.startswith("SCAN") for line in plan), (sql, plan)


# ------------------------------------------------------------------ retention


def _stored(path: str, table: int = 0) -> list[int]:
    with contextlib.closing(connect(path)) as db:
        rows = db.execute("SELECT number FROM hands WHERE table_id = ? ORDER BY 1", (table,))
        return [n for (n,) in rows.fetchall()]


def _indexed(path: str) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """The (table, number) of the stored hands and of the hands in the index."""
    with contextlib.closing(connect(path)) as db:
        hands = set(db.execute("SELECT table_id, number FROM hands").fetchall())
        index = set(db.execute("SELECT table_id, number FROM hand_index").fetchall())
    return hands, index


def test_retention_by_count_keeps_the_hands_a_seated_person_can_ask_for(room_db: str) -> None:
    room = _room(room_db, tables=2, bots=2, keep_hands=2)

    async def scenario(server: ServerThread) -> Any:
        await until_hands(room, 3)  # the bots played without ann
        ann = await Client.connect(server.ws_url)
        await ann.send(type="sit", table=0, seat=2, name="ann", buy_in=1000)
        await ann.next("seated")
        state = await ann.state_where(lambda m: True, current=True)
        await play_seat(ann, 2, state["view"]["hand_number"] + 5)
        await ann.send(type="hands", last=MAX_HANDS)
        return await ann.next("hands", timeout=30)

    with ServerThread(room) as server:
        reply = asyncio.run(scenario(server))
    mine = [h["number"] for h in reply["hands"]]
    assert len(mine) >= 4 and mine == list(range(mine[0], mine[-1] + 1))
    stored = _stored(room_db)
    anns = {n for n, players in _players(room_db, 0) if "ann" in players}
    assert set(mine) <= anns <= set(stored)  # every hand of ann's kept (fewer than 20)
    assert all(n > stored[-1] - 2 for n in set(stored) - anns)  # the others: the last 2
    assert 1 not in stored  # the bots' hands before ann sat down are forgotten
    assert len(_stored(room_db, 1)) == 2  # bots only: nobody's hands are kept
    hands, index = _indexed(room_db)
    assert hands == index


def test_retention_by_age_forgets_old_hands_as_hands_end(room_db: str) -> None:
    room = _room(room_db, bots=3, keep_hands_days=1.0)
    now = room.settings.clock()
    old = [(0, n, ("bob", "cy", "dan"), now - 2 * DAY - n) for n in range(1, 151)]
    _store(room.store, old)

    async def play() -> None:
        await room.start()
        try:
            await until_hands(room, 3)
        finally:
            await room.stop()

    asyncio.run(play())
    store = Storage(room_db)
    times = {n: log for n, log in store.hands(0, last=1000)}
    store.close()
    assert len(times) >= 3 and sorted(times) == list(range(1, len(times) + 1))  # 150 gone
    played = [e["at"] for log in times.values() for e in log if e["kind"] == "hand_end"]
    assert all(at > now - DAY for at in played)
    hands, index = _indexed(room_db)
    assert hands == index


def test_retention_by_age_reaches_a_table_without_hands(room_db: str) -> None:
    room = _room(room_db, tables=2, keep_hands_days=1.0)
    now = room.settings.clock()
    old = [(t, n, ("bob", "cy", "dan"), now - 2 * DAY) for t in (0, 1) for n in range(1, 4)]
    _store(room.store, [*old, (0, 4, ("bob", "cy", "dan"), now - DAY / 2)])

    async def idle() -> None:
        await room.start()
        try:
            for _ in range(3000):
                if _stored(room_db, 0) == [4] and _stored(room_db, 1) == []:
                    return
                await asyncio.sleep(0.01)
        finally:
            await room.stop()

    asyncio.run(idle())
    assert (_stored(room_db, 0), _stored(room_db, 1)) == ([4], [])


Hand = tuple[int, str, float]  # number, who sat in seat 0, time over


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["ann", "bob"]), st.integers(0, 10)), max_size=60),
    st.one_of(st.none(), st.integers(0, 30)),
    st.one_of(st.none(), st.integers(1, 10)),
    st.lists(st.sampled_from([("ann", 0), ("bob", 0), ("ann", 1)]), max_size=2),
)
def test_retention_forgets_exactly_what_its_rule_says(
    played: list[tuple[str, int]],
    keep: int | None,
    age: int | None,
    people: list[tuple[str, int]],
) -> None:
    """Against a reference: a hand is forgotten when it is older than the last ``keep``
    of its table or ended more than ``age`` before now, unless it is among the last
    MAX_HANDS (shrunk here to 3) a seating held by a person now played."""
    _forgets_exactly(":memory:", played, keep, age, people)


@settings(max_examples=10, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["ann", "bob"]), st.integers(0, 10)), max_size=60),
    st.one_of(st.none(), st.integers(0, 30)),
    st.one_of(st.none(), st.integers(1, 10)),
    st.lists(st.sampled_from([("ann", 0), ("bob", 0), ("ann", 1)]), max_size=2),
)
def test_retention_forgets_exactly_what_its_rule_says_on_postgresql(
    postgres: Cluster,
    played: list[tuple[str, int]],
    keep: int | None,
    age: int | None,
    people: list[tuple[str, int]],
) -> None:
    """The same on PostgreSQL (its own statements for the retention), fewer examples."""
    with fresh_database(postgres) as url:
        _forgets_exactly(url, played, keep, age, people)


def _forgets_exactly(
    path: str,
    played: list[tuple[str, int]],
    keep: int | None,
    age: int | None,
    people: list[tuple[str, int]],
) -> None:
    store = Storage(path)
    hands = [(0, n + 1, (who, "cy", "dan"), float(t)) for n, (who, t) in enumerate(played)]
    _store(store, [*hands, (1, 1, ("ann", "cy", "dan"), 0.0)])
    last, now = len(played), 10.0
    cutoff = None if age is None else now - age
    for _ in range(len(played) // FORGET_BATCH + 1):
        with store.transaction():
            open_seats = [(_occupancy(who, seat), who, seat) for who, seat in people]
            store.forget_hands(0, last, keep, older_than=cutoff, open_seats=open_seats, protect=3)
    kept = [n for n, _ in store.hands(0, last=1000)]
    protected: set[int] = set().union(
        *(
            sorted(n for _, n, names, _ in hands if (who, seat) == (names[0], 0))[-3:]
            for who, seat in people
        )
    )
    expected = [
        n
        for _, n, _, at in hands
        if n in protected
        or ((keep is None or n > last - keep) and (cutoff is None or at >= cutoff))
    ]
    assert kept == expected
    assert len(store.hands(1, last=10)) == 1  # another table's hands are its own
    rows = store.db.execute("SELECT COUNT(*) FROM hand_players WHERE table_id = 0").fetchone()
    assert rows == (3 * len(expected),)
    store.close()


def test_storing_and_forgetting_hands_read_through_indexes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The retention and the storing of a hand run in the event loop's commits: each of
    their statements finds its rows through an index, never by a scan."""
    trace = Trace(monkeypatch)
    store = Storage(str(tmp_path / "tables.db"))
    _store(store, _others(1, 300) + _others(1, 300, table=1))
    trace.statements.clear()
    _store(store, [(0, 301, ("ann", "cy", "dan"), 2e9)])
    with store.transaction():
        store.forget_hands(0, 301, 50, older_than=1e9 + 100, open_seats=[(0, "ann", 0)], protect=20)
    store.close()
    statements = [
        sql
        for _, sql in trace.statements
        if sql.split()[0].upper() in ("SELECT", "DELETE", "INSERT") and "hand" in sql
    ]
    assert any(s.startswith("DELETE FROM hand_players") for s in statements)
    for sql in statements:
        plan = _plan(tmp_path / "tables.db", sql)
        assert not any(line.startswith("SCAN") for line in plan), (sql, plan)


def test_the_retention_settings_in_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "room.toml"
    path.write_text("[room]\nkeep_hands = 100000\nkeep_hands_days = 30\n")
    room = RoomSettings()
    load_room(str(path), room)
    assert (room.keep_hands, room.keep_hands_days) == (100000, 30.0)
    for bad, message in (
        ("keep_hands = -1", "keep_hands must be in 0.."),
        ("keep_hands = 1.5", "keep_hands must be a int"),
        ("keep_hands_days = 0", "keep_hands_days must be a number of days in"),
        ('keep_hands_days = "a month"', "keep_hands_days must be a number of days in"),
    ):
        path.write_text(f"[room]\n{bad}\n")
        with pytest.raises(InvalidConfig, match=message):
            load_room(str(path), RoomSettings())


# ------------------------------------------------------------------ upgrade


def _scanned(path: Path, player: str) -> list[tuple[int, int, str]]:
    """A player's hands as the index-less server found them: every stored hand whose
    log names the player, newest stored first, then kept by seat_hands."""
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT log FROM hands WHERE instr(log, ?) > 0 ORDER BY rowid DESC",
            (json.dumps(player),),
        ).fetchall()
    found = seat_hands([json.loads(log) for (log,) in rows], player=player)
    return [(h.table, h.number, h.phh) for h in found]


def _players(path: Path | str, table: int | None = None) -> Iterator[tuple[int, list[str]]]:
    """(number, players) of each stored hand (at ``table``, or any)."""
    with contextlib.closing(connect(str(path))) as db:
        where, values = ("WHERE table_id = ?", (table,)) if table is not None else ("", ())
        for number, log in db.execute(f"SELECT number, log FROM hands {where}", values).fetchall():
            yield number, json.loads(log)[-1]["players"]


def test_a_database_of_schema_4_is_upgraded_with_its_hand_index(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    shutil.copy(DATA / "schema4.db", path)  # written by main's code (make_schema4.py)
    players = sorted({name for _, names in _players(path) for name in names})
    assert {"ann", "bob", "cy", "bot-0-0", "bot-1-1"} <= set(players)
    before = {name: _scanned(path, name) for name in players}
    assert pending_upgrade(str(path)) == (4, 18)
    room = _room(tmp_path, tables=2, guests=True)
    assert pending_upgrade(str(path)) is None
    logs = room.store.seat_hands(0, (99, "ann", 0), last=20)  # ann's seating now: 99
    assert [log[-1]["hand_number"] for log in logs] == [4, 3, 2, 1]  # as before (101 to 104)
    try:
        for name in players:
            logs = [[record] for record in room.store.player_hands(name, last=1000)]
            found = [(h.table, h.number, h.phh) for h in seat_hands(logs, player=name)]
            assert found == before[name] and found
    finally:
        room.store.close()
    hands, index = _indexed(str(tmp_path / "tables.db"))
    assert hands == index and len(hands) > 10
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
            str(SCHEMA_VERSION),
        )
        times = dict(
            db.execute("SELECT number, ended FROM hand_index WHERE table_id = 0 AND number > 100")
        )
    assert times == {101: 1101.0, 102: 1102.0, 103: 1103.0, 104: 1104.0}  # hand_end's time


def test_an_upgrade_that_fails_leaves_schema_4(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    shutil.copy(DATA / "schema4.db", path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE hands SET log = 'not json' WHERE number = 102")
    with pytest.raises(Exception, match="hand 102"):
        _room(tmp_path, tables=2)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("4",)
        tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master")}
    assert "hand_index" not in tables


def test_a_first_schema_5_database_gets_its_occupancies(tmp_path: Path) -> None:
    """A database of the first schema 5 (``hand_players`` without occupancies, indexed
    by player, table and seat) gets the column, NULL in its rows, and its index."""
    path = tmp_path / "tables.db"
    store = Storage(str(path))
    _store(store, _others(1, 5))
    store.close()
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE first (seq INTEGER NOT NULL, seat INTEGER NOT NULL, table_id INTEGER"
            " NOT NULL, player TEXT NOT NULL, PRIMARY KEY (seq, seat)) WITHOUT ROWID"
        )
        db.execute("INSERT INTO first SELECT seq, seat, table_id, player FROM hand_players")
        db.execute("DROP TABLE hand_players")
        db.execute("ALTER TABLE first RENAME TO hand_players")
        db.execute("CREATE INDEX hand_players_by_player ON hand_players (player, seq)")
        db.execute(
            "CREATE INDEX hand_players_by_seat ON hand_players (player, table_id, seat, seq)"
        )
    store = Storage(str(path))
    rows = store.db.execute("SELECT player, occupancy FROM hand_players ORDER BY 1").fetchall()
    indexes = {
        n for (n,) in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
    }
    _store(store, _others(6, 1))
    bob = store.seat_hands(0, (_occupancy("bob", 0), "bob", 0), last=5)
    assert [log[-1]["hand_number"] for log in bob] == [6, 5, 4, 3, 2]  # 1 to 5: no occupancy
    store.close()
    assert rows == sorted([(name, None) for name in ("bob", "cy", "dan")] * 5)
    assert "hand_players_by_seating" in indexes and "hand_players_by_seat" not in indexes
