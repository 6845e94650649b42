"""The audit of the ledger: a read of the whole database that names every problem.

It checks that

- the append-only triggers are in place;
- the transactions are numbered 1, 2, 3, ... with no gap, each one's hash is the hash
  of its content and the previous hash, and the head recorded in ``accounts_meta`` is
  the last transaction (an edited, deleted, inserted or reordered row breaks one of
  these);
- every transaction has two entries summing to zero, of the accounts its kind moves
  chips between (:data:`~doubleholdem.accounts.ledger.KINDS`), in the 64-bit range;
- every cached balance equals the sum of its account's entries, and no player, bot,
  table or tournament is below zero;
- deposits - withdrawals == players' balances + tables + tournaments' pools + house +
  bots' bankrolls, and
  the cashier's balance is minus that;
- when the caller passes ``table_chips`` (table id -> the chips on that table, pots included, as the
  server counts them), each table's ledger account equals its chips (a table in the
  ledger with chips but missing from the mapping is a problem too);
- when the caller passes ``seated`` (table id -> the names of the accounts seated there
  through the ledger, as the server's tables say), each of them has exactly one open
  seat there (``account_seats``), and every open seat is of an account seated there
  (an open seat deleted strands its chips; one invented would let a credit through).

>>> import sqlite3
>>> from doubleholdem.accounts import ledger
>>> from doubleholdem.accounts.schema import ensure_schema
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> ensure_schema(db)
>>> _ = db.execute("BEGIN")
>>> _ = ledger.transfer(db, "d1", "deposit", ledger.CASHIER, ledger.player("ann"), 50)
>>> _ = ledger.transfer(db, "b1", "buy_in", ledger.player("ann"), ledger.table(1), 40)
>>> db.execute("COMMIT").close()
>>> audit(db)
{'ok': True, 'problems': []}
>>> audit(db, table_chips={1: 39})
{'ok': False, 'problems': ['table 1: the ledger holds 40 chips, the table holds 39']}
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from doubleholdem.accounts.ledger import GENESIS, KINDS, MAX_AMOUNT, digest, head
from doubleholdem.accounts.schema import missing_triggers
from doubleholdem.database.connection import Connection
from doubleholdem.wording import table_said

__all__ = ["audit"]

_NON_NEGATIVE = frozenset({"player", "bot", "table", "tournament"})
_HOLDERS = frozenset({"player", "bot", "table", "tournament", "house"})


def audit(
    db: Connection,
    *,
    table_chips: Mapping[int, int] | None = None,
    seated: Mapping[int, Collection[str]] | None = None,
) -> dict[str, Any]:
    """``{"ok": bool, "problems": [text, ...]}``: every problem found, each named
    (the transaction number, the account, the figures). It reads the ledger in one
    pass, holding only the accounts in memory."""
    problems: list[str] = []
    problems += _triggers(db)
    accounts = {
        int(id_): (str(kind), str(name), _whole(balance))
        for id_, kind, name, balance in db.execute(
            "SELECT id, kind, name, balance FROM ledger_accounts"
        )
    }
    sums = dict.fromkeys(accounts, 0)
    moved = {"deposit": 0, "withdrawal": 0}
    problems += _chain(db, accounts, sums, moved)
    problems += _orphans(db, sums)
    problems += _balances(accounts, sums)
    problems += _totals(accounts, moved)
    problems += _tables(accounts, table_chips)
    if seated is not None:
        problems += _seats(db, seated)
    return {"ok": not problems, "problems": problems}


def _whole(value: object) -> int:
    """A stored amount as an int (0 for what is not one: the check of the
    transaction's sums and hash names it)."""
    return value if type(value) is int else 0


def _triggers(db: Connection) -> list[str]:
    return [f"the append-only trigger {name} is missing" for name in missing_triggers(db)]


Row = tuple[Any, ...]


def _transactions(db: Connection) -> Iterator[tuple[Row, list[tuple[int, object]]]]:
    """Each transaction in order with its entries (account id, amount)."""
    rows = db.execute(
        "SELECT t.seq, t.key, t.kind, t.memo, t.created, t.prev, t.hash, e.account_id, e.amount "
        "FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.seq = t.seq "
        "ORDER BY t.seq, e.account_id"
    )
    for _, group in itertools.groupby(rows, key=lambda row: row[0]):
        found = list(group)
        yield found[0][:7], [(int(r[7]), r[8]) for r in found if r[7] is not None]


def _chain(
    db: Connection,
    accounts: dict[int, tuple[str, str, int]],
    sums: dict[int, int],
    moved: dict[str, int],
) -> list[str]:
    """Checks each transaction in order; adds its entries to ``sums`` and the
    cashier's movements to ``moved``."""
    problems: list[str] = []
    prev = GENESIS
    expected = 1
    for (seq, key, kind, memo, created, stored_prev, stored_hash), own in _transactions(db):
        where = f"transaction {seq} ({kind} {key!r})"
        if seq != expected:
            problems.append(f"{where}: numbered {seq} where {expected} was expected (a gap)")
        if stored_prev != prev:
            problems.append(f"{where}: its previous hash is not the hash of the one before")
        named = [(*accounts.get(a, ("missing", str(a), 0))[:2], amount) for a, amount in own]
        try:
            intact = digest(seq, key, kind, memo, created, named, stored_prev) == stored_hash
        except (TypeError, ValueError):  # a field edited into something else
            intact = False
        if not intact:
            problems.append(f"{where}: its hash does not match its content")
        whole = [(k, n, _whole(amount)) for k, n, amount in named]
        if any(type(amount) is not int for _, _, amount in named):
            problems.append(f"{where}: an amount that is not a whole number")
        problems += _entries(where, kind, whole)
        for (account_id, _), (_, _, amount) in zip(own, whole):
            sums[account_id] = sums.get(account_id, 0) + amount
        if kind in moved:
            moved[kind] += sum(amount for k, _, amount in whole if k != "cashier")
        prev = str(stored_hash)
        expected = int(seq) + 1
    head_seq, head_hash = head(db)
    if (head_seq, head_hash) != (expected - 1, prev):
        problems.append(
            f"the chain ends at transaction {expected - 1} but its recorded head is "
            f"transaction {head_seq}: transactions were deleted or added"
            if head_seq != expected - 1
            else "the recorded head's hash is not the last transaction's"
        )
    return problems


def _orphans(db: Connection, sums: dict[int, int]) -> list[str]:
    """Entries of no transaction (added to ``sums``: their accounts' balances count
    them)."""
    problems: list[str] = []
    rows = db.execute(
        "SELECT e.seq, e.account_id, e.amount FROM ledger_entries e WHERE NOT EXISTS "
        "(SELECT 1 FROM ledger_transactions t WHERE t.seq = e.seq) ORDER BY e.seq"
    )
    for seq, account_id, amount in rows:
        if not problems or not problems[-1].startswith(f"entries of transaction {seq}:"):
            problems.append(f"entries of transaction {seq}: no such transaction")
        sums[int(account_id)] = sums.get(int(account_id), 0) + _whole(amount)
    return problems


def _entries(where: str, kind: str, named: list[tuple[str, str, int]]) -> list[str]:
    problems = []
    if len(named) != 2:
        problems.append(f"{where}: {len(named)} entries, not 2")
    if sum(amount for _, _, amount in named) != 0:
        problems.append(f"{where}: its entries sum to {sum(a for _, _, a in named)}, not 0")
    if any(not -MAX_AMOUNT <= amount <= MAX_AMOUNT for _, _, amount in named):
        problems.append(f"{where}: an amount beyond the 64-bit range")
    rule = KINDS.get(kind)
    if rule is None:
        problems.append(f"{where}: an unknown kind of transaction")
    elif len(named) == 2:
        sources, targets = rule
        paying = [e for e in named if e[0] in sources]
        paid = [e for e in named if e[0] in targets]
        if len(paying) != 1 or len(paid) != 1 or paying[0][2] > 0:
            problems.append(f"{where}: its entries are not a {kind}")
    if any(k == "missing" for k, _, _ in named):
        problems.append(f"{where}: an entry of an account that does not exist")
    return problems


def _balances(accounts: dict[int, tuple[str, str, int]], sums: dict[int, int]) -> list[str]:
    problems = []
    for account_id, (kind, name, cached) in sorted(accounts.items()):
        label = kind if kind in ("house", "cashier") else f"{kind} {name}"
        if kind == "table" and name.isdecimal():
            label = table_said(int(name))
        if cached != sums.get(account_id, 0):
            problems.append(
                label
                + f": the balance is {cached} but its entries sum to {sums.get(account_id, 0)}"
            )
        if kind in _NON_NEGATIVE and sums.get(account_id, 0) < 0:
            problems.append(label + f": below zero ({sums.get(account_id, 0)})")
    return problems


def _totals(accounts: dict[int, tuple[str, str, int]], moved: dict[str, int]) -> list[str]:
    net = moved["deposit"] + moved["withdrawal"]  # withdrawals are negative entries
    held = sum(balance for kind, _, balance in accounts.values() if kind in _HOLDERS)
    cashier = sum(balance for kind, _, balance in accounts.values() if kind == "cashier")
    problems = []
    if net != held:
        problems.append(
            f"deposits - withdrawals is {net} but players, tables, tournaments, house and bots "
            f"hold {held}"
        )
    if cashier != -net:
        problems.append(f"the cashier's balance is {cashier}, not minus deposits net ({-net})")
    return problems


def _tables(
    accounts: dict[int, tuple[str, str, int]],
    table_chips: Mapping[int, int] | None,
) -> list[str]:
    ledger_tables = {
        int(name): balance for kind, name, balance in accounts.values() if kind == "table"
    }
    problems: list[str] = []
    if table_chips is None:
        return problems
    for table_id in sorted(set(ledger_tables) | set(table_chips)):
        held, chips = ledger_tables.get(table_id, 0), table_chips.get(table_id)
        if chips is None:
            if held:
                problems.append(table_said(table_id) + f": the ledger holds {held} chips, no table")
        elif held != chips:
            problems.append(
                table_said(table_id) + f": the ledger holds {held} chips, the table holds {chips}"
            )
    return problems


def _seats(db: Connection, seated: Mapping[int, Collection[str]]) -> list[str]:
    """The open seats (``account_seats``) held against who is ``seated`` at each table
    (names without regard to case, as accounts are)."""
    rows = db.execute(
        "SELECT s.table_id, s.account_id, a.name FROM account_seats s "
        "LEFT JOIN accounts a ON a.id = s.account_id"
    )
    open_seats = {
        (int(table_id), str(name).lower() if name is not None else f"#{account_id}"): (
            str(name) if name is not None else f"account {account_id} (no such account)"
        )
        for table_id, account_id, name in rows
    }
    found = []
    for table_id, names in seated.items():
        for name in names:
            if (table_id, name.lower()) not in open_seats:
                text = f"{name} is seated there but has no open seat there in the ledger"
                found.append((table_id, name.lower(), text))
    for (table_id, lowered), name in open_seats.items():
        if lowered not in {n.lower() for n in seated.get(table_id, ())}:
            text = f"{name} has an open seat there in the ledger but is not seated there"
            found.append((table_id, lowered, text))
    return [table_said(table_id) + f": {text}" for table_id, _, text in sorted(found)]
