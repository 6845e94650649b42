"""Fencing done by PostgreSQL of the rest of a table's rows and of the tournaments'
(issue 33, schema 9, python/doubleholdem/server/cluster/fencing.py): a blind stale
owner's seat token, action id, chat line, lobby row, wallet call and wallet failure,
and a blind stale holder of the tournaments' lease's tournament row, part, table, head,
move, action id, hand and pool chips are refused by the database, nothing written, and
the storage raises :class:`LeaseLost` as for a table's moves; the owner writes them. A
room of schema 8 is upgraded with the triggers. Without the triggers of schema 9 each
refusal test fails (the stale write lands)."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from doubleholdem.database.connection import trigger_names
from doubleholdem.database.url import connect
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.fencing import FENCE_TRIGGERS
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.money.wallet_calls import (
    WalletCall,
    count_failure,
    finish_noted,
    note,
    noted,
)
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.database import SCHEMA_VERSION
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.runner import publish
from fencing_harness import BLINDS, owning, refused_then_written, stale_and_new
from server_harness import stored_mid_hand
from wallets import DictWallet

# the rows of table 0 (and of a wallet call of it) that a change writes beside its state
TABLE_ROWS = (
    "SELECT hash, table_id, seat, player FROM tokens ORDER BY 1",
    "SELECT token, id, table_id, hand FROM actions ORDER BY 1, 2",
    "SELECT table_id, hand, line FROM chat ORDER BY number",
    "SELECT table_id, summary FROM lobby ORDER BY 1",
    "SELECT number, table_id, call FROM wallet_calls ORDER BY 1",
    "SELECT number, attempts, error FROM wallet_failures ORDER BY 1",
    "SELECT key, value FROM meta WHERE key LIKE '%:0' ORDER BY 1",
)
# the tournaments' rows and money
TOURNAMENT_ROWS = (
    "SELECT id, status, name FROM tournaments ORDER BY 1",
    "SELECT tournament_id, name, part FROM tournament_parts ORDER BY 1, 2",
    "SELECT tournament_id, number, snapshot FROM tournament_tables ORDER BY 1, 2",
    "SELECT tournament_id, number, anchor, moves FROM tournament_heads ORDER BY 1, 2",
    "SELECT tournament_id, table_number, number FROM tournament_moves ORDER BY 1, 2, 3",
    "SELECT tournament_id, player, id FROM tournament_actions ORDER BY 1, 2, 3",
    "SELECT table_id, number FROM hands WHERE table_id < -1 ORDER BY 1, 2",
    "SELECT name, balance FROM ledger_accounts WHERE kind = 'tournament' ORDER BY 1",
)
TOKEN, CALL = "a-seat-token-hash", '{"method":"credit"}'


def _rows(url: str) -> tuple[Any, ...]:
    with contextlib.closing(connect(url)) as db:
        return tuple(db.execute(query).fetchall() for query in TABLE_ROWS + TOURNAMENT_ROWS)


def _raw(table: int, *statements: str) -> Callable[[Storage], None]:
    """Writes ``statements`` as the storage's writers do: ``table``'s lease fenced
    first (:meth:`Fence.writes`), then the rows."""

    def write(store: Storage) -> None:
        store.fencing.writes(store.db, table)
        for statement in statements:
            store.db.execute(statement).close()

    return write


def _call_number(store: Storage) -> int:
    return int(store.db.execute("SELECT MIN(number) FROM wallet_calls").fetchone()[0])


TABLE_WRITES: dict[str, Callable[[Storage], object]] = {
    "a seat token": lambda s: s.seat_tokens.put("another-token", 0, 4, "zed"),
    "a seat token dropped": _raw(0, f"DELETE FROM tokens WHERE hash = '{TOKEN}'"),
    "an action id": lambda s: s.seat_tokens.put_action(TOKEN, "a-2", 0, 1),
    "action ids forgotten": lambda s: s.seat_tokens.forget_actions(0, 99),
    "a chat line": lambda s: s.put_chat(0, 1, {"text": "late"}),
    "a lobby row": lambda s: publish(s, 0, '{"id": 0, "late": true}', None),
    "a wallet call": lambda s: s.add_wallet_call(0, CALL),
    "a wallet call's failure": lambda s: s.wallet_call_failed(_call_number(s), "late"),
    "a bot to seat noted": lambda s: s.note_bots_to_seat(0, {5: "random"}),
    "a bot seated": lambda s: s.bot_seated(0, 4),
}
TOURNAMENT_WRITES: dict[str, Callable[[Storage], object]] = {
    "a tournament's row": _raw(TOURNAMENTS, "UPDATE tournaments SET status = 'late'"),
    "a tournament's part": _raw(TOURNAMENTS, "UPDATE tournament_parts SET part = 'late'"),
    "a tournament's table": _raw(TOURNAMENTS, "UPDATE tournament_tables SET snapshot = 'x'"),
    "a tournament table's head": _raw(TOURNAMENTS, "UPDATE tournament_heads SET moves = 9"),
    "a tournament table's move": _raw(
        TOURNAMENTS, "INSERT INTO tournament_moves VALUES (0, 1, 2, '[]', 'x')"
    ),
    "a tournament's action id": _raw(
        TOURNAMENTS, "INSERT INTO tournament_actions VALUES (0, 'ann', 'b', 1, 1, '[]')"
    ),
    "a tournament's hand": _raw(TOURNAMENTS, "INSERT INTO hands VALUES (-2, 2, '[]')"),
    "the pool's chips": _raw(
        TOURNAMENTS, "UPDATE ledger_accounts SET balance = 7 WHERE kind = 'tournament'"
    ),
}
WRITES = {**TABLE_WRITES, **TOURNAMENT_WRITES}


def _existing(store: Storage) -> None:
    """Rows of each kind, written by their owner: what the stale writes would change."""
    store.seat_tokens.put(TOKEN, 0, 3, "ann")
    store.seat_tokens.put_action(TOKEN, "a-1", 0, 1)
    store.put_chat(0, 1, {"text": "hello"})
    publish(store, 0, '{"id": 0}', None)
    store.wallet_call_failed(store.add_wallet_call(0, CALL), "down")
    store.note_bots_to_seat(0, {4: "random"})
    _raw(
        TOURNAMENTS,
        "INSERT INTO tournaments (id, state, status, name) VALUES (0, '', 'running', 'sng')",
        "INSERT INTO tournament_parts VALUES (0, 'counters', '{}', 'tag')",
        "INSERT INTO tournament_tables VALUES (0, 1, '{}')",
        "INSERT INTO tournament_heads VALUES (0, 1, 'anchor', 1)",
        "INSERT INTO tournament_moves VALUES (0, 1, 1, '[]', 'x')",
        "INSERT INTO tournament_actions VALUES (0, 'ann', 'a', 1, 1, '[]')",
        "INSERT INTO hands VALUES (-2, 1, '[]')",
        "INSERT INTO ledger_accounts (kind, name) VALUES ('tournament', '0')",
    )(store)


@pytest.fixture
def old_and_new(postgres_url: str) -> Iterator[tuple[Storage, Storage]]:
    with stale_and_new(postgres_url) as (old, new):
        with new.transaction():
            _existing(new)
        yield old, new


@pytest.mark.parametrize(("how", "write"), list(itertools.product(BLINDS, sorted(WRITES))))
def test_a_blind_stale_writer_of_the_other_rows_is_refused_by_postgresql(
    postgres_url: str, old_and_new: Any, monkeypatch: pytest.MonkeyPatch, how: str, write: str
) -> None:
    before = _rows(postgres_url)
    lease = TOURNAMENTS if write in TOURNAMENT_WRITES else 0
    rows = partial(_rows, postgres_url)
    refused_then_written(old_and_new, monkeypatch, how, WRITES[write], rows, lease)
    assert _rows(postgres_url) != before


@pytest.mark.usefixtures("old_and_new")
@pytest.mark.parametrize("write", sorted(WRITES))
def test_rows_nobody_serves_are_written_declaring_nothing(postgres_url: str, write: str) -> None:
    """A tool's write while the room is down (its leases vacated: owned by nobody)."""
    with contextlib.closing(Storage(postgres_url, shared=True)) as tool:
        with tool.transaction():
            leases.vacate(tool.db)
        before = _rows(postgres_url)
        with tool.transaction():  # fences nothing: it declares no lease
            WRITES[write](tool)
        assert _rows(postgres_url) != before


def test_a_room_of_schema_8_in_postgresql_is_upgraded_with_the_new_triggers(
    postgres_url: str,
) -> None:
    Storage(postgres_url).close()
    with contextlib.closing(connect(postgres_url)) as db:
        older = {f"doubleholdem_fence_{t}" for t in ("tables", "heads", "moves", "hands")}
        for name, table in FENCE_TRIGGERS.items():
            if name not in older | {"doubleholdem_fence_ledger_accounts"}:
                db.execute(f"DROP TRIGGER {name} ON {table}").close()
        db.execute("UPDATE meta SET value = '8' WHERE key = 'schema'").close()
    Storage(postgres_url).close()
    with contextlib.closing(connect(postgres_url)) as db:
        made = trigger_names(db)
        assert set(FENCE_TRIGGERS) <= made
        new = ("tokens", "chat", "lobby", "wallet_failures", "meta", "tournaments", "ledger_pools")
        assert {f"doubleholdem_fence_{name}" for name in new} <= made
        schema = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        assert schema == (str(SCHEMA_VERSION),) == ("9",)


def test_a_process_that_starts_finishes_the_wallet_calls_of_its_own_tables_only(
    postgres_url: str,
) -> None:
    """A debit noted by the process serving table 0 (its wallet being asked, its seat
    about to be made) is no give-back for another process starting: it finishes the
    calls of its own table 1 only (and would be refused writing the other's)."""
    stored_mid_hand(postgres_url, RoomSettings(tables=2, bots=2, seed=3))
    wallet = DictWallet({"ann": 100, "bob": 0})
    with contextlib.ExitStack() as stack:
        a, b = (stack.enter_context(contextlib.closing(Storage(postgres_url, shared=True)))
                for _ in range(2))  # fmt: skip
        owning(a, "a", only=(0,))
        owning(b, "b", only=(1,))
        with a.transaction():
            debit = note(a, WalletCall("debit", 0, "buyin:0:1", "ann", 40))
        with b.transaction():
            credit = note(b, WalletCall("credit", 1, "cashout:1:1", "bob", 5))
        finish_noted(b, wallet)
        assert wallet.calls == [("cash_out", credit.wallet_key)]
        assert [call.number for call in noted(b)] == [debit.number]  # a's, still owed


def test_a_wallet_failure_at_a_table_that_moved_is_left_to_its_new_owner(
    postgres_url: str, old_and_new: tuple[Storage, Storage]
) -> None:
    """The wallet failed a call of table 0 after another process took the table: the
    failure is logged, not counted (its calls are the new owner's now), and nothing
    raised to the payment that found it."""
    old, _ = old_and_new
    number = _call_number(old)
    before = _rows(postgres_url)
    call = WalletCall("credit", 0, "cashout:0:1", "ann", 5, number=number)
    count_failure(old, call, OSError("the wallet is down"))
    assert _rows(postgres_url) == before
