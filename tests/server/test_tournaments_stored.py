"""A room's tournament stored per table (schema 6, issue 34 item 3,
docs/room-tournaments.md "Storage"): after every change the rows read back are the
tournament the room holds; a decision writes a move row of its table, not the
tournament nor the table; a hand's end writes the tables it changed and the
tournament's row; an edited, cut-off or foreign move row is refused; a failed commit
takes the tournament back to its rows; a snapshot key signs every row; a room of schema
5 (one row per tournament, every table in it) is upgraded and its tournament stored
apart. Each test of a room runs on SQLite and on PostgreSQL (``room_db``)."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from doubleholdem.database.connection import begin
from doubleholdem.database.url import connect, is_postgres
from doubleholdem.errors import InvalidSnapshot
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.copy import copy_room
from doubleholdem.server.storage.database import SCHEMA_VERSION
from doubleholdem.server.storage.tournament_rows import pool_problems
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments import runner as tournament_runner
from doubleholdem.server.tournaments.stored import Stored, load, load_all
from doubleholdem.tournament import Tournament
from faults import disarm, fail_next_commit_statement
from server_harness import waits_for_commits
from tournaments_room import (
    Clock,
    audit,
    open_room,
    passive,
    people_act,
    play,
    registered,
    run_here,
    sign_up,
    sit_and_go,
)

DATA = Path(__file__).parent / "data"


def _load(db: object, key: bytes | None) -> tuple[Stored, Tournament]:
    """Tournament 1 read from its rows."""
    found = load(db, 0, key)  # type: ignore[arg-type]
    assert found is not None
    return found


def _rows(db: object) -> dict[str, list[tuple[object, ...]]]:
    """Every tournament row, by table."""
    found = {}
    for name, order in (("tournaments", "id"), ("tournament_parts", "tournament_id, name"),
                        ("tournament_tables", "number"), ("tournament_heads", "number"),
                        ("tournament_moves", "table_number, number")):  # fmt: skip
        query = f"SELECT * FROM {name} ORDER BY {order}"
        found[name] = [tuple(row) for row in db.execute(query).fetchall()]  # type: ignore[attr-defined]
    return found


def test_the_rows_read_back_are_the_tournament_after_every_change(room_db: str) -> None:
    """Three tables of bots and people (one who never acts: his deadlines pass and he is
    away), played to the end: after every step the tournament read from the rows (each
    table's snapshot with its moves replayed) is the room's, to the byte."""
    room, _, runner, clock = registered(room_db, sit_and_go(10, bots=7), ("ann", "bob", "cy"))
    assert len(runner.tournament.tables) == 3
    db = room.store.db
    seen = {"moves": 0, "steps": 0}

    def same() -> None:
        stored, tournament = _load(db, None)
        assert tournament.to_json() == runner.tournament.to_json()
        assert stored.to_text(tournament, None) == runner.stored.to_text(runner.tournament, None)
        (moves,) = db.execute("SELECT COUNT(*) FROM tournament_moves").fetchone()
        seen["moves"] = max(seen["moves"], int(moves))
        seen["steps"] += 1

    play(runner, clock, ("ann", "bob"), until=lambda: runner.stored.status == "finished",
         each=same)  # fmt: skip
    assert seen["moves"] > 0  # decisions were stored as moves
    stored_tables = [row[1] for row in _rows(db)["tournament_tables"]]
    assert stored_tables == list(runner.tournament.tables) and len(stored_tables) == 1  # broken
    assert audit(room) == []
    room.store.close()


def test_a_decision_writes_one_move_row_and_a_hands_end_the_tables_it_changed(
    room_db: str,
) -> None:
    room, _, runner, clock = registered(room_db, sit_and_go(7, bots=5))
    db = room.store.db
    tournament = runner.tournament
    play(runner, clock, (), until=lambda: tournament.hands >= 3 and _ann_to_act(runner))
    before = _rows(db)
    (entry,) = tournament.entries_of("ann")
    assert entry.table is not None
    table = tournament.tables[entry.table]
    assert people_act(runner, ("ann",), passive)
    after = _rows(db)
    for name in ("tournaments", "tournament_parts", "tournament_tables"):
        assert after[name] == before[name]  # neither the tournament nor a table rewritten
    new = [row for row in after["tournament_moves"] if row not in before["tournament_moves"]]
    assert [row[:2] for row in new] == [(0, entry.table)]
    assert len(str(new[0][3])) < 60 and json.loads(str(new[0][3]))[0] == "decide"
    heads = {row[1]: row for row in after["tournament_heads"]}
    assert heads[entry.table][3] == len(
        [r for r in after["tournament_moves"] if r[1] == entry.table]
    )
    # to the hand's end: the tournament's parts and the hand's table written, its moves gone
    play(runner, clock, ("ann",), until=lambda: not table.in_hand)
    ended = _rows(db)
    assert ended["tournament_parts"] != before["tournament_parts"]
    assert not [row for row in ended["tournament_moves"] if row[1] == entry.table]
    snapshots = dict((row[1], row[2]) for row in ended["tournament_tables"])
    assert snapshots[entry.table] == table.to_json()
    room.store.close()


def test_a_hand_writes_the_parts_it_changed_a_small_share_of_the_tournament(
    room_db: str,
) -> None:
    """Forty entrants on ten tables, played until a third are out: after the draw, no
    step writes more than a quarter of the tournament's parts (their rows, in bytes:
    one that broke a table and moved its players) and most write a few: the counters,
    the tables whose hands started or ended, the entries busted or moved, a move
    between tables (schema 6 wrote every entry's at every hand's start and end), and
    the random generator's state when the step drew (a move, a colour-up's race): a
    fixed size (about 7 KB) whatever the field, left out of the count."""
    room, _, runner, clock = registered(room_db, sit_and_go(40, bots=39), ("ann",))
    db = room.store.db
    assert len(runner.tournament.tables) == 10
    written: list[int] = []
    before = _parts(db)

    def measure() -> None:
        nonlocal before
        now = _parts(db)
        written.append(sum(len(text) for name, text in now.items() if before.get(name) != text))
        before = now

    play(runner, clock, ("ann",), until=lambda: runner.tournament.remaining <= 26, each=measure)
    whole = sum(len(text) for text in before.values())
    assert len(written) > 50 and max(written) < whole / 4, (max(written), whole)
    assert sorted(written)[len(written) // 2] < whole / 20
    room.store.close()


def _parts(db: object) -> dict[str, str]:
    """Tournament 1's parts but its random generator's state, by name."""
    query = "SELECT name, part FROM tournament_parts WHERE tournament_id = 0 AND name != 'rng'"
    return {str(n): str(text) for n, text in db.execute(query).fetchall()}  # type: ignore[attr-defined]


@pytest.mark.parametrize("damage", ["edited", "moved", "missing"])
def test_a_damaged_part_is_refused(room_db: str, damage: str) -> None:
    """A part edited (an entry's prize raised), moved to another entry's name, or
    deleted: the tournament is refused, and the audit says so."""
    room, _, runner, clock = registered(room_db, sit_and_go(7, bots=5))
    play(runner, clock, ("ann", "bob"), until=lambda: runner.tournament.hands >= 2)
    db = room.store.db
    (text,) = db.execute(
        "SELECT part FROM tournament_parts WHERE tournament_id = 0 AND name = 'entry/1'"
    ).fetchone()
    where = " WHERE tournament_id = 0 AND name = ?"
    begin(db)
    room.store.fencing.writes(db, TOURNAMENTS)  # under the lease the room holds
    if damage == "edited":
        entry = json.loads(str(text))
        entry[6] = 10**6
        db.execute("UPDATE tournament_parts SET part = ?" + where, (json.dumps(entry), "entry/1"))
    elif damage == "moved":
        db.execute("DELETE FROM tournament_parts" + where, ("entry/2",))
        db.execute("UPDATE tournament_parts SET name = 'entry/2'" + where, ("entry/1",))
    else:
        db.execute("DELETE FROM tournament_parts" + where, ("entry/1",))
    db.execute("COMMIT")
    with pytest.raises(InvalidSnapshot, match="tournament 1"):
        load(db, 0, None)  # type: ignore[arg-type]
    assert [p for p in pool_problems(db) if p.startswith("tournament 1: its row cannot be read")]
    room.store.close()


def _ann_to_act(runner: object) -> bool:
    tournament = runner.tournament  # type: ignore[attr-defined]
    (entry,) = tournament.entries_of("ann")
    table = tournament.tables.get(entry.table)
    return table is not None and table.in_hand and table.to_act == entry.seat


@pytest.mark.parametrize("damage", ["edited", "cut off", "foreign"])
def test_a_damaged_move_row_is_refused(room_db: str, damage: str) -> None:
    """A move row edited (its time moved on), the last one deleted, or one moved to a
    table that is not there: the tournament is refused, and the audit says so."""
    room, _, runner, clock = registered(room_db, sit_and_go(7, bots=5))
    play(runner, clock, ("ann", "bob"), until=lambda: _moves(room.store.db) >= 1)
    db = room.store.db
    table, number, move = db.execute(
        "SELECT table_number, number, move FROM tournament_moves ORDER BY table_number, number DESC"
    ).fetchone()
    where = " WHERE table_number = ? AND number = ?"
    begin(db)
    room.store.fencing.writes(db, TOURNAMENTS)  # under the lease the room holds
    if damage == "edited":
        edited = str(move)[:-1] + "1]"  # a later time
        db.execute("UPDATE tournament_moves SET move = ?" + where, (edited, table, number))
    elif damage == "cut off":
        db.execute("DELETE FROM tournament_moves" + where, (table, number))
    else:
        db.execute("UPDATE tournament_moves SET table_number = 99" + where, (table, number))
    db.execute("COMMIT")
    with pytest.raises(InvalidSnapshot, match="tournament 1"):
        load_all(db, None)
    assert [p for p in pool_problems(db) if p.startswith("tournament 1: its row cannot be read")]
    room.store.close()


def _moves(db: object) -> int:
    (count,) = db.execute("SELECT COUNT(*) FROM tournament_moves").fetchone()  # type: ignore[attr-defined]
    return int(count)


def _schema5(target: str, tmp_path: Path) -> str:
    """The room of schema 5 written by main's code (``make_schema5_tournaments.py``) at
    ``target``: a copy of that file, or on PostgreSQL its rows copied there (``db copy``
    of today's tables) and made schema 5 again (the tables of a tournament's tables and
    parts and the tournaments' columns of schema 8 dropped: that schema's room in
    PostgreSQL)."""
    path = str(tmp_path / "room.db")
    shutil.copy(DATA / "schema5_tournaments.db", path)
    if not is_postgres(target):
        return path
    source = sqlite3.connect(path, isolation_level=None)
    source.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
    db = connect(target, mode="rw")
    begin(db)
    copy_room(source, db)
    for name in ("tournament_moves", "tournament_heads", "tournament_tables", "tournament_parts"):
        db.execute(f"DROP TABLE {name}")
    db.execute("DROP INDEX tournaments_by_status")
    db.execute("ALTER TABLE tournaments DROP COLUMN status, DROP COLUMN name, DROP COLUMN summary")
    db.execute("UPDATE meta SET value = '5' WHERE key = 'schema'")
    db.execute("COMMIT")
    db.close()
    source.close()
    return target


def test_a_room_of_schema_5_is_upgraded_and_its_tournament_stored_apart(
    room_db: str, tmp_path: Path
) -> None:
    """Its tournament, one row holding every table (keyed by nothing, written by main's
    code before this schema), is read as it was, stored apart at once, and plays on."""
    expected = json.loads((DATA / "schema5_tournaments.json").read_text())
    path = _schema5(room_db, tmp_path)
    clock = Clock()
    clock.now = expected["clock"]
    room, tournaments = open_room(path, sit_and_go(7, bots=5), clock)
    db = room.store.db
    (version,) = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    assert version == str(SCHEMA_VERSION) == "9"
    runner = tournaments.runner(0)
    assert runner.tournament.to_json() == expected["tournament"]  # read as it was
    rows = _rows(db)
    assert [row[1] for row in rows["tournament_tables"]] == [1, 2]  # stored apart
    assert rows["tournaments"][0][1:3] == ("", "running")  # its state in parts
    parts = {row[1]: json.loads(str(row[2])) for row in rows["tournament_parts"] if row[0] == 0}
    assert parts["tournament"]["tables"] == [1, 2] and parts["room"]["status"] == "running"
    _, again = _load(db, None)
    assert again.to_json() == expected["tournament"]
    assert audit(room) == []
    play(runner, clock, ("ann",), until=lambda: runner.stored.status == "finished")
    assert audit(room) == []
    room.store.close()


def test_a_failed_commit_takes_the_tournament_back_and_play_goes_on(room_db: str) -> None:
    """A decision whose commit fails is undone (the room reloads the tournament from its
    rows: the moves stored before it replayed); the moves stored after it are numbered
    on from the rows, and the rows read back are the tournament to the end."""
    room, _, runner, clock = registered(room_db, sit_and_go(7, bots=5))
    db = room.store.db
    play(runner, clock, (), until=lambda: _moves(db) >= 2 and _ann_to_act(runner))
    before = runner.tournament.to_json()
    left = fail_next_commit_statement(room)
    assert people_act(runner, ("ann",), passive)  # its commit fails
    assert left() == 0 and room.commit.refusing is not None
    assert runner.tournament.to_json() == before  # back to the rows
    disarm(room)

    def same() -> None:
        _, tournament = _load(db, None)
        assert tournament.to_json() == runner.tournament.to_json()

    play(runner, clock, ("ann",), until=lambda: runner.stored.status == "finished", each=same)
    assert room.commit.refusing is None
    assert audit(room) == []
    room.store.close()


def test_a_tournament_that_cannot_be_read_back_is_read_before_its_next_change(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decision whose commit fails, and the tournament's rows cannot be read back then
    (the database failing still): the failed commit lands all the same (raising, the
    undo stopped it there and the room refused writes for good); the tournament is
    read back before its next change, and play goes on from its rows."""
    room, _, runner, clock = registered(room_db, sit_and_go(7, bots=5))
    db = room.store.db
    play(runner, clock, (), until=lambda: _moves(db) >= 2 and _ann_to_act(runner))
    before = runner.tournament.to_json()
    real, unreadable = tournament_runner.load, [1]

    def load_failing(*args: object) -> object:
        if unreadable[0]:
            unreadable[0] -= 1
            raise sqlite3.OperationalError("disk I/O error")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament_runner, "load", load_failing)
    left = fail_next_commit_statement(room)
    assert people_act(runner, ("ann",), passive)  # its commit fails, its undo too
    assert left() == 0 and unreadable == [0] and runner.reload.unread
    disarm(room)
    assert room.commit.writable()
    assert runner.tournament.to_json() != before  # (the failed decision's state)
    runner.step(clock.now)  # read back first, then what is due done and committed
    assert not runner.reload.unread
    assert _load(db, None)[1].to_json() == runner.tournament.to_json()
    play(runner, clock, ("ann",), until=lambda: runner.stored.status == "finished")
    _, tournament = _load(db, None)
    assert tournament.to_json() == runner.tournament.to_json()
    assert audit(room) == []
    room.store.close()


def test_a_tournaments_task_changes_nothing_while_a_commit_is_in_flight(room_db: str) -> None:
    """The tournament's task waits while the group commit is not ready (a commit in
    flight): woken as one lands, it waits again if the next took off before it ran (as
    a table's task does)."""
    room, _, runner, _ = registered(room_db, sit_and_go(4, bots=2))
    version = runner.version

    def changed() -> bool:
        return runner.version != version

    asyncio.run(asyncio.wait_for(waits_for_commits(room.commit, runner.run(), changed), 60))
    room.store.close()


def test_with_a_snapshot_key_every_row_is_read_with_it_only(room_db: str) -> None:
    """A room's snapshot key signs the tournament's row and each table's (HMAC): the
    rows read back with it are the tournament; without it, or with another, refused."""
    key = b"the room's snapshot key"
    clock = Clock()
    settings = RoomSettings(tables=0, bots=0, bot_delay=0.0, pause=0.0, seed=7, clock=clock,
                            snapshot_key=key)  # fmt: skip
    room = Room.open(room_db, settings)
    tournaments = run_here(room, settings, [sit_and_go(7, bots=5)])
    for name in ("ann", "bob"):
        sign_up(room, name, 1000)
        tournaments.register(0, name)
    runner = tournaments.runner(0)
    db = room.store.db
    play(runner, clock, ("ann",), until=lambda: runner.tournament.hands >= 4 and _moves(db) > 0)
    _, tournament = _load(db, key)
    assert tournament.to_json(key) == runner.tournament.to_json(key)
    snapshots = [str(row[2]) for row in _rows(db)["tournament_tables"]]
    assert snapshots and all('"hmac"' in text for text in snapshots)
    for wrong in (None, b"another key"):
        with pytest.raises(InvalidSnapshot, match="tournament 1"):
            load_all(db, wrong)
    room.store.close()


def test_the_moves_kept_in_memory_are_those_stored() -> None:
    """A tournament keeps its last MOVES_KEPT moves between tables in memory as in its
    rows: what a person's last move is does not grow with the tournament, and is the
    same after a restart."""
    from doubleholdem.server.tournaments.stored import MOVES_KEPT

    stored = Stored(0, sit_and_go(), status="running")
    for n in range(MOVES_KEPT + 10):
        stored.note_move({"player": f"p{n % 3}", "from": 0, "to": 1, "n": n})
    assert stored.moved == MOVES_KEPT + 10
    assert [m["n"] for m in stored.moves] == list(range(10, MOVES_KEPT + 10))
