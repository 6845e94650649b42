"""Fencing: a process writes a table's rows only under the lease it holds, and on
PostgreSQL the database itself refuses a write made under a lease that moved.

**The writer's side** (:class:`Fence`): what one connection's transaction wrote, table
by table. Before a table's own rows are written (:meth:`Fence.writes`; a group commit's
first statement does it for all the tables it writes), its lease is read and locked
against a change of hands until the transaction ends
(:func:`~doubleholdem.server.cluster.leases.fence`): a table whose lease names another
owner or epoch is lost, and nothing of it is written
(:class:`~doubleholdem.server.cluster.leases.LeaseLost`); a check before ``COMMIT``
does the same for the other tables the transaction touched (:meth:`Fence.check`).

**The database's side** (PostgreSQL, :data:`FENCE_SCHEMA`, schemas 7 and 9 of the room). The
same statement that locks a lease *declares* the epoch this process writes the table
under, in a setting of the transaction (``SET LOCAL``, through ``set_config(...,
true)``): ``doubleholdem.lease_T`` = ``"EPOCH PROCESS"``, gone when the transaction
ends. A trigger (``BEFORE INSERT OR UPDATE OR DELETE``, for each row) on every row a
table's changes write, :data:`FENCED_ROWS` (its snapshot in ``tables``, its ``heads``
row, its ``moves``, its finished ``hands``, its ledger account's balance, which every
movement of its chips updates in the transaction that posts it; and since schema 9 its
seat ``tokens``, the ``actions`` ids applied, its ``chat``, its ``lobby`` row, its
``wallet_calls`` and their ``wallet_failures``, and the keys of ``meta`` that note
something of it, :data:`TABLE_KEYS`), reads the lease of the row's table,
locked ``FOR SHARE`` as the writer's was, and refuses the write (SQLSTATE
:data:`REFUSED`, the table in the error's detail) unless the transaction declared
exactly that lease's owner and epoch. The rows of the room's tournaments (theirs, their
parts, tables, heads, moves, action ids and hands, and their pools' balances) are
fenced the same way by the tournaments' lease
(:data:`~doubleholdem.server.cluster.leases.TOURNAMENTS`), which their writers declare
as a table's (:meth:`Fence.writes`). A table that no process serves (no lease row, or
none with an owner: a room being copied, a tool's write while the room is down) may be
written by a transaction that declared nothing of it. So a process frozen while
another took its table, whose own check is skipped or wrong, still cannot write it: it
declares its old epoch, or none, and the lease says another's. The storage turns the
refusal into :class:`LeaseLost` (:func:`refused_tables`), and the group commit hands
such a table over as lost. A table
found once in a transaction is not read again by its later rows (its lease stays locked
until the transaction ends; the trigger notes what it checked in a setting of its own).
A setting per transaction, not a column on every row, because a ``DELETE`` carries no
new row to hold an epoch and a writer sets it once for all its rows; SQLite, one
process that holds the room by its lock file, has neither leases nor these triggers.

>>> from doubleholdem.database.url import sqlite
>>> from doubleholdem.server.cluster import leases
>>> db = sqlite(":memory:")
>>> for statement in (*leases.SCHEMA, "CREATE TABLE tables (id INTEGER PRIMARY KEY)"):
...     _ = db.execute(statement)
>>> _ = db.execute("INSERT INTO tables VALUES (0)")
>>> leases.register(db, "p1", "http://a", lock=None)
>>> fence = Fence()
>>> fence.grant("p1", leases.acquire(db, "p1", want=1))
>>> fence.writes(db, 0)  # still p1's, epoch 1
>>> fence.check(db)
>>> leases.acquire(db, "p2", want=1, steal=True)  # another process took it
{0: 2}
>>> fence.clear()
>>> fence.writes(db, 0)
Traceback (most recent call last):
...
doubleholdem.server.cluster.leases.LeaseLost: the lease of table 0 was lost: ...
"""

from __future__ import annotations

from collections.abc import Mapping

from doubleholdem.database.connection import Connection
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.leases import LeaseLost

__all__ = [
    "FENCED_ROWS",
    "FENCE_SCHEMA",
    "FENCE_TRIGGERS",
    "REFUSED",
    "TABLE_KEYS",
    "Fence",
    "refused_tables",
]

REFUSED = "DHF01"  # the SQLSTATE of a write the database refused for a lease that moved

# the keys of ``meta`` that note something of one table: ``KIND:TABLE``
TABLE_KEYS = ("opening", "legacy", "bots_to_seat", "repairs")
# the rows fenced: (the trigger's name, its table, the SQL of the lease its row is
# written under, the writes fenced, a condition on the old row that it is one of these)
_TOURNAMENTS = f"({leases.TOURNAMENTS})"  # a tournament's rows: the tournaments' lease
FENCED_ROWS = (
    # a table's state: its snapshot, head, moves and finished hands
    ("tables", "tables", "{row}.id", "INSERT OR UPDATE OR DELETE", None),
    ("heads", "heads", "{row}.table_id", "INSERT OR UPDATE OR DELETE", None),
    ("moves", "moves", "{row}.table_id", "INSERT OR UPDATE OR DELETE", None),
    # (a tournament's hands, under negative ids below -1, are the tournaments')
    (
        "hands",
        "hands",
        f"(CASE WHEN {{row}}.table_id < {leases.TOURNAMENTS} THEN {_TOURNAMENTS}"
        " ELSE {row}.table_id END)",
        "INSERT OR UPDATE OR DELETE",
        None,
    ),
    # a table's chips: its ledger account's cached balance, updated by every transfer
    (
        "ledger_accounts",
        "ledger_accounts",
        "{row}.name::bigint",
        "UPDATE",
        "OLD.kind = 'table' AND OLD.name ~ '^[0-9]+$'",
    ),
    # what else a table's changes write: its seat tokens, the action ids applied, its
    # chat, its lobby summary, its calls to a wallet outside the database and their
    # failures (keyed by the call's number: a failure of a call forgotten is no table's)
    ("tokens", "tokens", "{row}.table_id", "INSERT OR UPDATE OR DELETE", None),
    ("actions", "actions", "{row}.table_id", "INSERT OR UPDATE OR DELETE", None),
    ("chat", "chat", "{row}.table_id", "INSERT OR UPDATE OR DELETE", None),
    ("lobby", "lobby", "{row}.table_id", "INSERT OR UPDATE OR DELETE", None),
    ("wallet_calls", "wallet_calls", "{row}.table_id", "INSERT OR UPDATE OR DELETE", None),
    (
        "wallet_failures",
        "wallet_failures",
        "(SELECT c.table_id FROM wallet_calls c WHERE c.number = {row}.number)",
        "INSERT OR UPDATE OR DELETE",
        None,
    ),
    # what the room notes of a table in ``meta`` (its bots still to seat, its chips of
    # before the ledger, its repairs: ``KIND:TABLE``; the room's other keys are no
    # table's, and go through the check of no lease at once)
    (
        "meta",
        "meta",
        f"(CASE WHEN {{row}}.key ~ '^({'|'.join(TABLE_KEYS)}):[0-9]+$'"
        " THEN split_part({row}.key, ':', 2)::bigint END)",
        "INSERT OR UPDATE OR DELETE",
        None,
    ),
    # the room's tournaments, all under one lease: their rows, parts, tables, heads,
    # moves, action ids, and the pools' ledger accounts' balances
    *(
        (table, table, _TOURNAMENTS, "INSERT OR UPDATE OR DELETE", None)
        for table in (
            "tournaments",
            "tournament_parts",
            "tournament_tables",
            "tournament_heads",
            "tournament_moves",
            "tournament_actions",
        )
    ),
    ("ledger_pools", "ledger_accounts", _TOURNAMENTS, "UPDATE", "OLD.kind = 'tournament'"),
)

# the setting a table's lease is declared in, and the trigger's note that it checked it
# (SQL of table id ``t``: a custom setting's name holds no minus sign)
_DECLARED = "'doubleholdem.lease_' || translate(t::text, '-', 'n')"
_CHECKED = "'doubleholdem.fenced_' || translate(t::text, '-', 'n')"


def _unchecked(t: str) -> str:
    """SQL true while a row of table ``t`` (SQL) is still to check in this transaction:
    its lease not declared, or not found so yet (the rows after a table's first cost a
    trigger no more than this)."""
    declared = _DECLARED.replace("t::text", f"{t}::text")
    checked = _CHECKED.replace("t::text", f"{t}::text")
    return (
        f"coalesce(current_setting({declared}, true), '') = ''"
        f" OR current_setting({checked}, true) IS DISTINCT FROM current_setting({declared}, true)"
    )


# the one check, of table ``t`` by the transaction writing it (see the module)
_CHECK = f"""CREATE OR REPLACE FUNCTION doubleholdem_fence(t bigint) RETURNS void
    LANGUAGE plpgsql AS $$
    DECLARE
        declared text := current_setting({_DECLARED}, true);
        holder text;
        held bigint;
    BEGIN
        IF t IS NULL THEN
            RETURN;  -- a row of no table (a key of meta that is the room's)
        END IF;
        SELECT owner, epoch INTO holder, held FROM leases WHERE table_id = t FOR SHARE;
        IF NOT FOUND OR (holder IS NULL AND coalesce(declared, '') = '') THEN
            RETURN;  -- no process serves the table
        END IF;
        IF declared = held || ' ' || holder THEN
            PERFORM set_config({_CHECKED}, declared, true);
            RETURN;
        END IF;
        RAISE EXCEPTION 'the lease of table % moved: % holds it at epoch %, this write is '
            'under %', t, coalesce(holder, 'no process'), held,
            coalesce(nullif(declared, ''), 'no lease')
            USING ERRCODE = '{REFUSED}', DETAIL = t::text;
    END $$"""


def _trigger_function(name: str, row_id: str) -> str:
    """The function of trigger ``name``: its old row's lease and its new row's checked
    (each once a transaction)."""
    old, new = row_id.format(row="OLD"), row_id.format(row="NEW")
    return f"""CREATE OR REPLACE FUNCTION doubleholdem_fence_{name}() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP <> 'INSERT' THEN
            IF {_unchecked(old)} THEN
                PERFORM doubleholdem_fence({old});
            END IF;
        END IF;
        IF TG_OP = 'DELETE' THEN
            RETURN OLD;
        END IF;
        IF {_unchecked(new)} THEN
            PERFORM doubleholdem_fence({new});
        END IF;
        RETURN NEW;
    END $$"""


def _trigger(name: str, table: str, writes: str, old_is: str | None) -> str:
    """The trigger ``name`` of ``writes`` on ``table`` (of its rows for which
    ``old_is``)."""
    when = "" if old_is is None else f"WHEN ({old_is}) "
    return (
        f"CREATE OR REPLACE TRIGGER doubleholdem_fence_{name} BEFORE {writes} ON {table} "
        f"FOR EACH ROW {when}EXECUTE FUNCTION doubleholdem_fence_{name}()"
    )


# each trigger's name -> its table (PostgreSQL)
FENCE_TRIGGERS = {f"doubleholdem_fence_{name}": table for name, table, *_ in FENCED_ROWS}
# the functions and triggers, in the order they are made
FENCE_SCHEMA = (
    _CHECK,
    *(_trigger_function(name, row_id) for name, _, row_id, _, _ in FENCED_ROWS),
    *(_trigger(name, table, writes, old_is) for name, table, _, writes, old_is in FENCED_ROWS),
)


def refused_tables(error: BaseException) -> set[int]:
    """The table whose write the database refused with ``error`` (its fencing trigger:
    the lease moved), or none if ``error`` is another."""
    if getattr(error, "sqlstate", None) != REFUSED:
        return set()
    detail = getattr(getattr(error, "diag", None), "message_detail", None) or ""
    return {int(detail)} if detail.lstrip("-").isdecimal() else set()


class Fence:
    """The leases a storage writes under: :attr:`process` (``None``: nothing is fenced,
    the room is this process's alone) and the epoch of each table it holds
    (:attr:`epochs`); :attr:`touched`, the tables the transaction under way wrote."""

    def __init__(self) -> None:
        self.process: str | None = None
        self.epochs: dict[int, int] = {}
        self.touched: set[int] = set()
        self._fenced: set[int] = set()

    def grant(self, process: str, epochs: Mapping[int, int]) -> None:
        """``process`` holds the leases of ``epochs`` (table -> epoch) from now on."""
        self.process = process
        self.epochs.update(epochs)

    def writes(self, db: Connection, table: int) -> None:
        """Inside a transaction on ``db``, before it writes the rows of ``table``'s state
        or money (:data:`FENCED_ROWS`): its lease fenced now if it was not yet in this
        transaction (and so declared to the database), :class:`LeaseLost` if this
        process lost it (nothing of it written)."""
        self.touched.add(table)
        if self.process is not None and table not in self._fenced:
            lost = self.fence(db, {table})
            if lost:
                raise LeaseLost(lost)

    def fence(self, db: Connection, tables: set[int]) -> set[int]:
        """Inside a transaction on ``db``: the tables of ``tables`` whose lease this
        process lost, not to be written; the others' leases stay this process's until
        the transaction ends."""
        wanted = tables - self._fenced  # (fenced in this transaction already: held)
        return self.fence_epochs(db, {(t, self.epochs.get(t, -1)) for t in wanted})

    def fence_epochs(self, db: Connection, epochs: set[tuple[int, int]]) -> set[int]:
        """:meth:`fence` for changes made under the given (table, epoch) leases, the
        epochs the tables held when the changes were made: the tables whose lease
        this process holds no more under that epoch (a change made before its table was
        lost and taken back is not written under the newer lease; a table with changes
        of two epochs is fenced by the older, which is the one declared)."""
        if self.process is None or not epochs:
            return set()
        oldest: dict[int, int] = {}
        for table, epoch in epochs:
            oldest[table] = min(epoch, oldest.get(table, epoch))
        lost = leases.fence(db, self.process, oldest)
        self._fenced |= set(oldest) - lost
        return lost

    def check(self, db: Connection) -> None:
        """Before ``COMMIT``: :class:`LeaseLost` if the transaction wrote a table whose
        lease this process lost (the caller then rolls it back)."""
        if self.process is not None and self.touched:
            lost = self.fence(db, self.touched)
            if lost:
                raise LeaseLost(lost)

    def clear(self) -> None:
        """The transaction ended."""
        self.touched.clear()
        self._fenced.clear()
