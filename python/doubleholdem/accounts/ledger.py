"""The double-entry ledger: every movement of chips is one transaction whose entries sum
to zero, written into the room's database (SQLite or PostgreSQL) inside the caller's
transaction (these functions never begin, commit or roll back: the server writes a
buy-in in the same transaction that seats the player, so both happen or neither does).
The ledger's writers go one at a time (:func:`lock`), in the order of the hash chain.

Ledger accounts are of six kinds: ``player`` (a person's balance), ``bot`` (a bot's
bankroll), ``table`` (the chips bought in at one table, pots included), ``tournament``
(the prize pool of one tournament: its buy-ins, re-entries, rebuys and add-ons, until
the prizes or the refunds pay it out), ``house`` (the room: rake and entry fees in,
welcome chips and bot bankrolls out) and ``cashier`` (the outside world: its balance is
minus the money deposited net of withdrawals). Each transaction is a
transfer of one kind (:data:`KINDS`) from one account to another.

Each transaction has an idempotency ``key``: posting it again with the same content
returns the first result and writes nothing; the same key with other content raises
:class:`~doubleholdem.errors.KeyConflict`. Transactions are append-only and
hash-chained: each one's SHA-256 covers its number, key, kind, memo, time, entries and
the previous transaction's hash, and the chain's head is kept in ``accounts_meta``, so
an edited, deleted, inserted or reordered row is found by the audit.

Amounts are whole numbers; balances, like every amount, stay within 64-bit integers
(SQLite's, PostgreSQL's ``BIGINT``: :data:`MAX_AMOUNT`). Players', bots', tables' and
tournaments' balances never go below zero; the house may (a play-money room issues chips
from it) and so does the cashier.

>>> import sqlite3
>>> from doubleholdem.accounts.schema import ensure_schema
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> ensure_schema(db)
>>> ann = player("ann")
>>> _ = db.execute("BEGIN")
>>> first = transfer(db, "cashier:wire-1", "deposit", CASHIER, ann, 500, memo={"ref": "wire-1"})
>>> transfer(db, "cashier:wire-1", "deposit", CASHIER, ann, 500, memo={"ref": "wire-1"}) == first
True
>>> _ = transfer(db, "seat:1", "buy_in", ann, table(7), 200)
>>> db.execute("COMMIT").close()
>>> balance(db, ann), balance(db, table(7)), balance(db, CASHIER)
(300, 200, -500)
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from doubleholdem.database.connection import Connection, inserted_id, serialise
from doubleholdem.errors import (
    AccountError,
    InsufficientFunds,
    InvalidAmount,
    InvalidKey,
    KeyConflict,
    NotInTransaction,
)

__all__ = [
    "CASHIER",
    "GENESIS",
    "HOUSE",
    "KINDS",
    "MAX_AMOUNT",
    "LedgerAccount",
    "Line",
    "Posted",
    "Transfer",
    "balance",
    "bot",
    "check_amount",
    "check_key",
    "digest",
    "find",
    "head",
    "lock",
    "player",
    "statement",
    "table",
    "tournament",
    "transfer",
]

MAX_AMOUNT = 2**63 - 1  # the largest 64-bit integer (SQLite's, PostgreSQL's BIGINT)
MAX_KEY = 200  # characters of an idempotency key
MAX_MEMO = 1000  # characters of a memo's JSON text
GENESIS = "0" * 64  # the "previous hash" of the first transaction
_HEAD_KEY = "ledger_head"


class LedgerAccount(NamedTuple):
    """A ledger account: its kind and its name (a player's or bot's account name, a
    table id in decimal, ``house``, ``cashier``)."""

    kind: str
    name: str

    def __str__(self) -> str:
        return f"{self.kind} {self.name}" if self.kind not in ("house", "cashier") else self.kind


HOUSE = LedgerAccount("house", "house")
CASHIER = LedgerAccount("cashier", "cashier")

# What each kind of transaction moves: from an account of one of the first kinds to one
# of the second (the two sets never overlap, so the paying side is known by its kind).
KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "deposit": (frozenset({"cashier"}), frozenset({"player", "house"})),
    "withdrawal": (frozenset({"player", "house"}), frozenset({"cashier"})),
    "welcome": (frozenset({"house"}), frozenset({"player"})),
    "bankroll": (frozenset({"house"}), frozenset({"bot"})),
    "bankroll_return": (frozenset({"bot"}), frozenset({"house"})),
    "buy_in": (frozenset({"player", "bot"}), frozenset({"table"})),
    "top_up": (frozenset({"player", "bot"}), frozenset({"table"})),
    "cash_out": (frozenset({"table"}), frozenset({"player", "bot"})),
    "rake": (frozenset({"table"}), frozenset({"house"})),
    # a table older than the ledger (a server database upgraded from schema 3): the
    # chips it held then are the house's, in when the ledger opens the table, out as
    # each seat of that time leaves
    "opening": (frozenset({"house"}), frozenset({"table"})),
    "closing": (frozenset({"table"}), frozenset({"house"})),
    # a damaged table dropped by ``serve --repair``: the chips the ledger held there
    "repair": (frozenset({"table"}), frozenset({"house"})),
    # a tournament (RULES.md TRN-1): each entry, re-entry, rebuy or add-on pays its price
    # into the pool and its fee to the house; prizes (a final-table deal's included) and
    # the refunds of a cancelled tournament or an unregistration pay them back out
    "entry": (frozenset({"player", "bot"}), frozenset({"tournament"})),
    "entry_fee": (frozenset({"player", "bot"}), frozenset({"house"})),
    "prize": (frozenset({"tournament"}), frozenset({"player", "bot"})),
    "entry_refund": (frozenset({"tournament"}), frozenset({"player", "bot"})),
    "fee_refund": (frozenset({"house"}), frozenset({"player", "bot"})),
}
_MAY_GO_NEGATIVE = frozenset({"house", "cashier"})
_ZERO_ALLOWED = frozenset({"cash_out", "closing"})  # a seat that lost everything leaves with 0


def player(name: str) -> LedgerAccount:
    """The balance of the person whose account is ``name``."""
    return LedgerAccount("player", name)


def bot(name: str) -> LedgerAccount:
    """The bankroll of the bot whose account is ``name``."""
    return LedgerAccount("bot", name)


def table(table_id: int) -> LedgerAccount:
    """The chips bought in at table ``table_id`` (a whole number from 0)."""
    if type(table_id) is not int or not 0 <= table_id <= MAX_AMOUNT:
        raise AccountError(f"a table id is a whole number from 0 to {MAX_AMOUNT}, not {table_id!r}")
    return LedgerAccount("table", str(table_id))


def tournament(tournament_id: int) -> LedgerAccount:
    """The prize pool of tournament ``tournament_id`` (a whole number from 0)."""
    if type(tournament_id) is not int or not 0 <= tournament_id <= MAX_AMOUNT:
        raise AccountError(
            f"a tournament id is a whole number from 0 to {MAX_AMOUNT}, not {tournament_id!r}"
        )
    return LedgerAccount("tournament", str(tournament_id))


class Transfer(NamedTuple):
    """What a transaction moves: ``amount`` chips of ``kind`` from ``source`` to
    ``target``, with its ``memo`` (canonical JSON text: a reference, a table, a hand)."""

    kind: str
    source: LedgerAccount
    target: LedgerAccount
    amount: int
    memo: str


class Posted(NamedTuple):
    """A transaction as written: its number in the chain (from 1), its key, its
    transfer, its time (seconds since the epoch) and its hash."""

    seq: int
    key: str
    transfer: Transfer
    created: float
    hash: str


class Line(NamedTuple):
    """One line of an account's statement: the transaction, the signed amount for this
    account, its balance after it, the other account and the memo."""

    seq: int
    kind: str
    amount: int
    balance: int
    other: LedgerAccount
    created: float
    memo: dict[str, object]

    def to_json(self) -> dict[str, object]:
        """The line as plain JSON values (``other`` as text, ``created`` as ``time``), as
        people read it: a table or a tournament named from 1 (``table 1`` is the table
        of id 0), in ``other`` and in the memo's ``table`` or ``tournament``."""
        other, memo = str(self.other), self.memo
        kind = self.other.kind
        if kind in ("table", "tournament") and self.other.name.isdecimal():
            number = int(self.other.name) + 1
            other = f"{kind} {number}"
            if kind in memo:
                memo = {**memo, kind: number}
        return {
            "seq": self.seq,
            "kind": self.kind,
            "amount": self.amount,
            "balance": self.balance,
            "other": other,
            "time": self.created,
            "memo": memo,
        }


def check_amount(amount: object, *, low: int = 1, what: str = "an amount") -> int:
    """``amount`` if it is a whole number (not a bool) in ``low``..:data:`MAX_AMOUNT`,
    else :class:`~doubleholdem.errors.InvalidAmount`."""
    if type(amount) is not int or not low <= amount <= MAX_AMOUNT:
        shown = repr(amount) if len(repr(amount)) <= 40 else "a larger number"
        raise InvalidAmount(
            f"{what} must be a whole number of chips from {low} to {MAX_AMOUNT}, not {shown}",
            amount=amount,
            low=low,
            high=MAX_AMOUNT,
        )
    return amount


def check_key(key: object, *, what: str = "an idempotency key") -> str:
    """``key`` if it is text of 1 to 200 printable characters, else
    :class:`~doubleholdem.errors.InvalidKey`."""
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY or not key.isprintable():
        raise InvalidKey(f"{what} must be text of 1 to {MAX_KEY} printable characters")
    return key


def digest(
    seq: int,
    key: str,
    kind: str,
    memo: str,
    created: float,
    entries: Sequence[tuple[str, str, object]],
    prev: str,
) -> str:
    """The hash of a transaction: SHA-256 over its fields, its entries (kind, name,
    amount; sorted) and the previous transaction's hash."""
    ordered = sorted(entries, key=lambda entry: (entry[0], entry[1], repr(entry[2])))
    content = [seq, key, kind, memo, repr(float(created)), ordered, prev]
    return hashlib.sha256(json.dumps(content, separators=(",", ":")).encode()).hexdigest()


def head(db: Connection) -> tuple[int, str]:
    """The number and hash of the last transaction written (``(0, GENESIS)`` before the
    first), as recorded in ``accounts_meta``."""
    row = db.execute("SELECT value FROM accounts_meta WHERE key = ?", (_HEAD_KEY,)).fetchone()
    if row is None:
        return 0, GENESIS
    seq, _, hashed = str(row[0]).partition(" ")
    return int(seq), hashed


def lock(db: Connection) -> None:
    """Puts the ledger's writers in one order until the caller's transaction ends
    (:func:`~doubleholdem.database.connection.serialise`): :func:`transfer` takes it
    first, and so does a writer that checks the ledger or the accounts before it writes
    (a seat taken once, a reference applied once, a name taken once), so that what it
    checked holds. One lock for all of them: two writers never wait for each other in a
    cycle."""
    serialise(db, "ledger")


def balance(db: Connection, account: LedgerAccount) -> int:
    """The balance of ``account`` (0 for an account never used)."""
    row = db.execute(
        "SELECT balance FROM ledger_accounts WHERE kind = ? AND name = ?", account
    ).fetchone()
    return 0 if row is None else int(row[0])


def transfer(
    db: Connection,
    key: str,
    kind: str,
    source: LedgerAccount,
    target: LedgerAccount,
    amount: int,
    *,
    memo: Mapping[str, object] | None = None,
    now: float | None = None,
) -> Posted:
    """Moves ``amount`` chips from ``source`` to ``target`` as one transaction of
    ``kind`` under the idempotency ``key``, inside the caller's transaction on ``db``
    (:class:`~doubleholdem.errors.NotInTransaction` otherwise). Returns the transaction;
    a retry of the same key and content returns the first one and writes nothing.

    Raises :class:`~doubleholdem.errors.InsufficientFunds` when a player, bot or table
    would go below zero, :class:`~doubleholdem.errors.InvalidAmount` for an amount (or
    a resulting balance) outside the 64-bit range, and
    :class:`~doubleholdem.errors.KeyConflict` for a key used for something else;
    nothing is written then."""
    check_key(key)
    if not db.in_transaction:
        raise NotInTransaction("the ledger writes inside the caller's transaction: BEGIN first")
    lock(db)
    text = json.dumps(dict(memo or {}), sort_keys=True, separators=(",", ":"))
    wanted = Transfer(kind, source, target, amount, text)
    existing = find(db, key)
    if existing is not None:  # a retry, or a key used for something else
        if existing.transfer != wanted:
            raise KeyConflict(
                f"the key {key!r} was used for another movement ({_describe(existing.transfer)})",
                key=key,
            )
        return existing
    _check_transfer(wanted)
    source_id, source_balance = _account_row(db, source)
    target_id, target_balance = _account_row(db, target)
    _check_balances(wanted, source_balance - amount, target_balance + amount)
    seq, prev = head(db)
    seq += 1
    created = time.time() if now is None else float(now)
    entries = [(*source, -amount), (*target, amount)]
    hashed = digest(seq, key, kind, wanted.memo, created, entries, prev)
    db.execute(
        "INSERT INTO ledger_transactions VALUES (?, ?, ?, ?, ?, ?, ?)",
        (seq, key, kind, wanted.memo, created, prev, hashed),
    )
    db.executemany(
        "INSERT INTO ledger_entries VALUES (?, ?, ?)",
        [(seq, source_id, -amount), (seq, target_id, amount)],
    )
    db.executemany(
        "UPDATE ledger_accounts SET balance = balance + ? WHERE id = ?",
        [(-amount, source_id), (amount, target_id)],
    )
    db.execute(
        "INSERT INTO accounts_meta VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (_HEAD_KEY, f"{seq} {hashed}"),
    )
    return Posted(seq, key, wanted, created, hashed)


def _check_transfer(wanted: Transfer) -> None:
    kind, source, target = wanted.kind, wanted.source, wanted.target
    if kind not in KINDS:
        raise AccountError(f"unknown kind of transaction {kind!r}: one of {', '.join(KINDS)}")
    sources, targets = KINDS[kind]
    if source.kind not in sources or target.kind not in targets:
        raise AccountError(
            f"a {kind} moves chips from a {' or '.join(sorted(sources))} account to a "
            f"{' or '.join(sorted(targets))} account, not from {source} to {target}"
        )
    check_amount(wanted.amount, low=0 if kind in _ZERO_ALLOWED else 1)
    if len(wanted.memo) > MAX_MEMO:
        raise AccountError(f"a memo is at most {MAX_MEMO} characters of JSON")


def _check_balances(wanted: Transfer, source_after: int, target_after: int) -> None:
    source = wanted.source
    if source_after < 0 and source.kind not in _MAY_GO_NEGATIVE:
        raise InsufficientFunds(
            f"{source} holds {source_after + wanted.amount} chips, not the {wanted.amount} "
            f"of this {wanted.kind.replace('_', '-')}",
            account=source.name,
            balance=source_after + wanted.amount,
            amount=wanted.amount,
        )
    for account, after in ((source, source_after), (wanted.target, target_after)):
        if not -MAX_AMOUNT <= after <= MAX_AMOUNT:
            raise InvalidAmount(
                f"this {wanted.kind} would take the balance of {account} beyond "
                f"{MAX_AMOUNT} chips either way",
                amount=wanted.amount,
                low=-MAX_AMOUNT,
                high=MAX_AMOUNT,
            )


def _account_row(db: Connection, account: LedgerAccount) -> tuple[int, int]:
    row = db.execute(
        "SELECT id, balance FROM ledger_accounts WHERE kind = ? AND name = ?", account
    ).fetchone()
    if row is None:
        return inserted_id(db, "INSERT INTO ledger_accounts (kind, name) VALUES (?, ?)", account), 0
    return int(row[0]), int(row[1])


def _describe(done: Transfer) -> str:
    return f"a {done.kind} of {done.amount} from {done.source} to {done.target}"


def find(db: Connection, key: str) -> Posted | None:
    """The transaction posted under ``key``, or ``None``."""
    row = db.execute(
        "SELECT seq, kind, memo, created, hash FROM ledger_transactions WHERE key = ?", (key,)
    ).fetchone()
    if row is None:
        return None
    seq, kind, memo, created, hashed = row
    entries = db.execute(
        "SELECT a.kind, a.name, e.amount FROM ledger_entries e "
        "JOIN ledger_accounts a ON a.id = e.account_id WHERE e.seq = ?",
        (seq,),
    ).fetchall()
    sources = KINDS.get(kind, (frozenset(), frozenset()))[0]
    source = next((LedgerAccount(k, n) for k, n, _ in entries if k in sources), CASHIER)
    target = next((LedgerAccount(k, n) for k, n, _ in entries if k not in sources), CASHIER)
    amount = max((int(a) for _, _, a in entries), default=0)
    return Posted(int(seq), key, Transfer(kind, source, target, amount, memo), created, hashed)


_MAX_SEQ = 2**63 - 1


def _moved_since(db: Connection, account: LedgerAccount, seq: int) -> int:
    """The sum of ``account``'s entries in transactions numbered ``seq`` or more."""
    row = db.execute(
        "SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e "
        "JOIN ledger_accounts a ON a.id = e.account_id "
        "WHERE a.kind = ? AND a.name = ? AND e.seq >= ?",
        (*account, seq),
    ).fetchone()
    return int(row[0])


def statement(
    db: Connection, account: LedgerAccount, *, last: int = 50, before: int | None = None
) -> list[Line]:
    """The ``last`` transactions of ``account``, newest first, each with the balance
    after it; with ``before``, only those numbered below it (the next page)."""
    below = _MAX_SEQ if before is None else before
    rows = db.execute(
        "SELECT t.seq, t.kind, e.amount, t.created, t.memo, "
        "(SELECT a2.kind || ' ' || a2.name FROM ledger_entries e2 "
        " JOIN ledger_accounts a2 ON a2.id = e2.account_id "
        " WHERE e2.seq = t.seq AND e2.account_id != e.account_id) "
        "FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id "
        "JOIN ledger_transactions t ON t.seq = e.seq "
        "WHERE a.kind = ? AND a.name = ? AND t.seq < ? ORDER BY t.seq DESC LIMIT ?",
        (*account, below, max(0, last)),
    ).fetchall()
    after = balance(db, account) - _moved_since(db, account, below)
    lines = []
    for seq, kind, amount, created, memo, other in rows:
        other_kind, _, other_name = str(other or "cashier cashier").partition(" ")
        lines.append(
            Line(
                seq,
                kind,
                amount,
                after,
                LedgerAccount(other_kind, other_name),
                created,
                json.loads(memo),
            )
        )
        after -= amount
    return lines
