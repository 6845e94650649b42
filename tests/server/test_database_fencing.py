"""Fencing done by PostgreSQL itself (issue 33 item 2,
python/doubleholdem/server/cluster/fencing.py): a write of a table's moves, snapshot,
head, hands or money under a lease that moved is refused by the database's triggers
even when the writer's own check is skipped or wrong (here: blinded), nothing of it is
written, and the process lets the table go as lost (its clients told ``elsewhere``),
the room whole (the audit clean, every hand settled once). A room copied or upgraded
gets the triggers; without them each test here fails (the stale write lands)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cluster_harness import (
    ROOM,
    Served,
    ServedRoom,
    audit_problems,
    stored_tables,
    unsettled_hands,
    wait_hands,
    wait_played,
)
from doubleholdem.accounts import ledger
from doubleholdem.cli import main
from doubleholdem.database.connection import trigger_names
from doubleholdem.database.url import connect
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.fencing import FENCE_TRIGGERS
from doubleholdem.server.cluster.leases import LeaseLost
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.database import SCHEMA_VERSION
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.room import Room
from fencing_harness import BLINDS, blind, owning, refused_then_written, stale_and_new
from server_harness import Client, ServerThread, stored_mid_hand


def _rows(url: str) -> tuple[Any, ...]:
    """Every row a table's writes touch: moves, heads, snapshots, hands, table chips."""
    with contextlib.closing(connect(url)) as db:
        return tuple(
            db.execute(query).fetchall()
            for query in (
                "SELECT table_id, number, sha256 FROM moves ORDER BY 1, 2",
                "SELECT table_id, moves FROM heads ORDER BY 1",
                "SELECT id, snapshot FROM tables ORDER BY 1",
                "SELECT table_id, number FROM hands ORDER BY 1, 2",
                "SELECT name, balance FROM ledger_accounts WHERE kind = 'table' ORDER BY 1",
            )
        )


WRITES: dict[str, Callable[[Storage, str], None]] = {
    "a move": lambda store, _: store.put_move(0, '["advance", 1.0]'),
    "a snapshot": lambda store, snapshot: store.put_table(0, snapshot),
    "a finished hand": lambda store, _: store.put_hand(0, 99, [{"kind": "hand_end", "at": 1.0}]),
    "the table's chips": lambda store, _: _chips(store),
}


def _chips(store: Storage) -> None:
    """Five chips into table 0's ledger account, as the room's money writes them."""
    store.fencing.writes(store.db, 0)
    ledger.transfer(store.db, "opening-0", "opening", ledger.HOUSE, ledger.table(0), 5)


@pytest.fixture
def old_and_new(postgres_url: str) -> Iterator[tuple[Storage, Storage]]:
    with stale_and_new(postgres_url) as pair:
        yield pair


@pytest.mark.parametrize("write", sorted(WRITES))
@pytest.mark.parametrize("how", BLINDS)
def test_a_blind_stale_owners_write_is_refused_by_postgresql(
    postgres_url: str,
    old_and_new: tuple[Storage, Storage],
    monkeypatch: pytest.MonkeyPatch,
    how: str,
    write: str,
) -> None:
    snapshot = _rows(postgres_url)[2][0][1]

    def written(store: Storage) -> None:
        WRITES[write](store, snapshot)

    refused_then_written(old_and_new, monkeypatch, how, written, lambda: _rows(postgres_url), 0)


def test_a_table_lost_and_taken_back_is_refused_under_its_old_epoch(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lease names this process again, at a newer epoch: a change made under the
    old one declares the old epoch, and the database refuses it."""
    stored_mid_hand(postgres_url, RoomSettings(tables=2, bots=2, seed=3))
    store = Storage(postgres_url, shared=True)
    try:
        (epoch,) = owning(store, "me", only=(0,)).values()
        with contextlib.closing(connect(postgres_url)) as db:  # lost, and taken back
            leases.acquire(db, "other", want=1, steal=True, only=[0])
            leases.acquire(db, "me", want=1, steal=True, only=[0])
        assert store.fencing.epochs[0] == epoch  # what it still writes under
        before = _rows(postgres_url)
        blind(monkeypatch, BLINDS[0])
        with pytest.raises(LeaseLost) as refused, store.transaction():
            store.put_move(0, '["advance", 1.0]')
        assert refused.value.by_database
        assert _rows(postgres_url) == before
    finally:
        store.close()


def test_every_room_in_postgresql_has_the_fencing_triggers(postgres_url: str) -> None:
    Storage(postgres_url).close()
    with contextlib.closing(connect(postgres_url)) as db:
        assert set(FENCE_TRIGGERS) <= trigger_names(db)
        db.execute("DROP TRIGGER doubleholdem_fence_moves ON moves").close()
    Storage(postgres_url).close()  # made anew when the room is opened
    with contextlib.closing(connect(postgres_url)) as db:
        assert set(FENCE_TRIGGERS) <= trigger_names(db)


def test_a_room_of_schema_6_in_postgresql_is_upgraded_with_the_triggers(
    postgres_url: str,
) -> None:
    stored_mid_hand(postgres_url, RoomSettings(tables=1, bots=2, seed=3))
    with contextlib.closing(connect(postgres_url)) as db:
        for name, table in FENCE_TRIGGERS.items():
            db.execute(f"DROP TRIGGER {name} ON {table}").close()
        db.execute("UPDATE meta SET value = '6' WHERE key = 'schema'").close()
    Storage(postgres_url).close()
    with contextlib.closing(connect(postgres_url)) as db:
        assert set(FENCE_TRIGGERS) <= trigger_names(db)
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
            str(SCHEMA_VERSION),
        )


async def _told_elsewhere(server: ServerThread, url: str) -> dict[str, Any]:
    """A client watches table 0; another process takes its lease while this one's own
    check is blind and its membership sees nothing: its next commit at table 0 is
    refused by the database, and the client is told where to go."""
    room = server.room
    client = await Client.connect(server.ws_url)
    await client.send(type="watch", table=0)
    await client.next("state", table=0)
    taken: dict[int, int] = {}
    with contextlib.closing(connect(url)) as db:
        leases.register(db, "thief", "http://thief", lock=None)
        deadline = time.monotonic() + 30
        while not taken:  # (skipped while a commit of this process holds it)
            taken = leases.acquire(db, "thief", want=1, steal=True, only=[0])
            assert time.monotonic() < deadline, "the lease was never taken"
            await asyncio.sleep(0.01)
    found = {"taken": _rows(url)}
    told = await client.next("elsewhere", timeout=60)
    found["told"] = told
    found["fenced"] = room.tables.commit.metrics.read().counters["writes_fenced"]
    found["served"] = set(room.runners)
    found["rows"] = _rows(url)
    await client.close()
    return found


def test_a_blind_process_whose_write_is_refused_lets_the_table_go(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = RoomSettings(tables=2, bots=3, bot_delay=0.01, pause=0.01, seed=4, guests=True)
    room = Room.open(postgres_url, copy.copy(settings))
    member = room.tables.membership
    assert member is not None
    monkeypatch.setattr(member, "start", lambda *args, **kwargs: None)  # sees nothing
    blind(monkeypatch, BLINDS[0])
    with ServerThread(room) as server:
        found = asyncio.run(_told_elsewhere(server, postgres_url))
    room.store.close()
    assert found["told"]["table"] == 0
    assert found["fenced"] >= 1 and 0 not in found["served"] and 1 in found["served"]
    table_0 = [[row for row in rows if str(row[0]) == "0"] for rows in found["taken"]]
    assert [[row for row in rows if str(row[0]) == "0"] for rows in found["rows"]] == table_0
    assert 0 in stored_tables(postgres_url)  # its journal restores
    assert audit_problems(postgres_url) == [] and unsettled_hands(postgres_url) == []


# ---------------------------------------------------------------- the SIGSTOP zombie

BLIND_SERVE = Path(__file__).resolve().parents[1] / "blind_serve.py"
FENCED = "writes_fenced"  # the operator's log event of a commit the database refused


class BlindFirst(ServedRoom):
    """A room whose first process runs blind (tests/blind_serve.py), the others as
    ``serve`` runs."""

    def command(self, db: str, port: int = 0) -> list[str]:
        command = super().command(db, port)
        if not self.processes:
            command[1:3] = [str(BLIND_SERVE)]
        return command


def _socket_ports(pid: int) -> set[int]:
    """The local ports of the TCP sockets process ``pid`` holds (its database sessions)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def _in_transaction(url: str, pid: int) -> bool:
    """Whether a database session of process ``pid`` is inside a transaction."""
    ports = sorted(_socket_ports(pid))
    with contextlib.closing(connect(url)) as db:
        states = db.execute(
            "SELECT state FROM pg_stat_activity WHERE client_port = ANY(?)", (ports,)
        ).fetchall()
    return any(state != "idle" for (state,) in states)


def _freeze_between_transactions(room: ServedRoom, served: Served) -> None:
    """``SIGSTOP`` at a moment none of its sessions is inside a transaction (one frozen
    inside one is ended by PostgreSQL, ``idle_in_transaction_session_timeout``: its
    late writes would find no connection rather than the fencing)."""
    for _ in range(200):
        served.freeze()
        if not _in_transaction(room.db, served.pid):
            return
        served.thaw()
    raise AssertionError("the process was always inside a transaction")


def _fenced_writes(log: Path) -> int:
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    return sum(1 for line in lines if line.get("event") == FENCED)


def _until(event: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not event():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def test_a_frozen_owner_woken_blind_has_its_late_writes_refused_by_postgresql(
    postgres_url: str, tmp_path: Path
) -> None:
    extra = ["--bot-delay", "0.02", "--pause", "0.05", "--log-format", "json", *ROOM]
    with BlindFirst(postgres_url, 2, tmp_path, tables=4, bots=2, extra=extra) as room:
        zombie = room.processes[0]
        wait_hands(room.db, 4)
        held = room.tables_of(zombie)
        assert held
        epochs = {t: e for t, (_, e) in room.leases().items()}
        _freeze_between_transactions(room, zombie)
        room.wait_served(held)  # its leases expired: the other process took its tables
        before = _fenced_writes(zombie.log)
        zombie.thaw()  # its bots' timers fire: it writes the tables it believes it holds
        _until(lambda: _fenced_writes(zombie.log) > before, "a late write refused")
        room.wait_served(held)
        assert all(room.leases()[t][1] > epochs[t] for t in held)
        wait_played(room.db, held)  # play goes on there
    assert _fenced_writes(zombie.log) >= 1
    assert len(stored_tables(postgres_url)) == 4  # every table's journal restores
    assert unsettled_hands(postgres_url) == [] and audit_problems(postgres_url) == []


def test_a_blind_payment_at_a_lost_table_is_refused_and_the_table_let_go(
    postgres_url: str, old_and_new: tuple[Storage, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    old, _ = old_and_new
    commit = GroupCommit(old)
    lost: list[set[int]] = []
    commit.lost = lost.append
    before = _rows(postgres_url)
    blind(monkeypatch, BLINDS[1])
    with pytest.raises(LeaseLost) as refused, commit.paying(0):
        ledger.transfer(old.db, "buy-in-0", "opening", ledger.HOUSE, ledger.table(0), 5)
    assert refused.value.by_database and lost == [{0}]
    assert not old.in_transaction and _rows(postgres_url) == before
    assert commit.metrics.read().counters["writes_fenced"] == 1


def test_a_sqlite_room_of_schema_6_is_upgraded_as_it_is(tmp_path: Path) -> None:
    """Schema 7 is PostgreSQL's fencing: SQLite's room of schema 6 upgrades with no
    trigger made."""
    path = str(tmp_path / "room.db")
    tables = stored_mid_hand(path, RoomSettings(tables=2, bots=2, seed=3))
    with contextlib.closing(connect(path)) as db:
        db.execute("UPDATE meta SET value = '6' WHERE key = 'schema'").close()
    room = Room.open(path, RoomSettings(tables=2, bots=2, seed=3))
    try:
        assert {i: r.table.to_json() for i, r in room.runners.items()} == tables
        schema = room.store.db.execute("SELECT value FROM meta WHERE key = 'schema'")
        assert schema.fetchone() == (str(SCHEMA_VERSION),)
        assert trigger_names(room.store.db) & set(FENCE_TRIGGERS) == set()  # PostgreSQL's
    finally:
        room.store.close()


def test_a_room_copied_from_sqlite_is_fenced_by_postgresql(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "room.db"
    stored_mid_hand(source, RoomSettings(tables=1, bots=2, seed=3))
    assert main(["db", "copy", str(source), postgres_url]) == 0
    capsys.readouterr()
    with contextlib.closing(connect(postgres_url)) as db:
        assert set(FENCE_TRIGGERS) <= trigger_names(db)
