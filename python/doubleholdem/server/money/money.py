"""The room's money as stored, for the audit: the chips on each stored table
(:func:`table_chips`), held against the ledger (:func:`audit_room`), and what the audit
of each kind of money cannot check (:func:`unchecked_tables`). The money at a table is
one object per table, of the room's kind (:mod:`doubleholdem.server.money.table_money`:
play chips, the ledger, an embedder's wallet)."""

from __future__ import annotations

from typing import Any

from doubleholdem.accounts.audit import audit
from doubleholdem.database.connection import Connection, reading
from doubleholdem.errors import TamperedSnapshot
from doubleholdem.server.money.wallet_calls import owed_problems
from doubleholdem.server.storage import table_meta
from doubleholdem.server.storage.database import money_kind
from doubleholdem.server.storage.journal import restore
from doubleholdem.server.storage.survey import survey
from doubleholdem.server.storage.tournament_rows import pool_problems
from doubleholdem.table import Table
from doubleholdem.wording import Wording, for_people, joined, table_said

__all__ = [
    "audit_room",
    "occupancies",
    "table_chips",
    "unchecked_tables",
]


def occupancies(table: Table) -> dict[int, int]:
    """Seat -> occupancy of every occupied seat of ``table``."""
    found = {}
    for seat in range(table.config.seats):
        occupancy = table.occupancy(seat)
        if occupancy is not None:
            found[seat] = occupancy
    return found


def table_chips(db: Connection, key: bytes | None = None) -> tuple[dict[int, int], list[str]]:
    """The chips on each table stored in the server database ``db`` (stacks, and the
    pot of a hand in progress: its snapshot with its moves replayed; ``key`` the
    room's snapshot key, if it has one), and the problems of the tables that cannot be
    read. Tables stored before the ledger whose chips it has not entered yet (a
    database upgraded, the room not started since) are left out."""
    tables, problems = _stored_tables(db, key)
    return {table_id: table.chips() for table_id, table in tables.items()}, problems


def _stored_tables(db: Connection, key: bytes | None) -> tuple[dict[int, Table], list[str]]:
    """The tables stored in ``db`` that the ledger pays for, by id, as replayed (see
    :func:`table_chips`), and the problems of those that cannot be read."""
    tables, damage = survey(db)
    problems = [str(found) for found in damage]
    pending = set(table_meta.openings(db))
    replayed = {}
    for stored in tables:
        if stored.id in pending:
            continue
        try:
            replayed[stored.id] = restore(stored, key)
        except TamperedSnapshot as error:
            problems.append(str(error))
    return replayed, problems


def _ledger_seated(db: Connection, tables: dict[int, Table]) -> dict[int, list[str]]:
    """Who sits at each of ``tables`` through the ledger: every seat but those of the
    occupancies seated before the ledger (:meth:`Storage.legacy_below
    <doubleholdem.server.storage.storage.Storage.legacy_below>`)."""
    seated = {}
    for table_id, table in tables.items():
        legacy_below = table_meta.legacy_below(db, table_id)
        seats = occupancies(table)
        seated[table_id] = [
            table.player(seat) for seat, occupancy in seats.items() if occupancy >= legacy_below
        ]
    return seated


def audit_room(db: Connection, key: bytes | None = None) -> dict[str, Any]:
    """The ledger's audit (:func:`~doubleholdem.accounts.audit.audit`) of a server
    database, all read in one snapshot of the database (a running server may write
    meanwhile): each stored table's chips (:func:`table_chips`) held against its ledger
    account when the ledger pays for the seats, and the calls a wallet outside the
    database failed and still owes (:func:`~doubleholdem.server.money.wallet_calls.owed_problems`).
    ``{"ok": bool, "problems": [...], "unchecked": [...]}``: ``unchecked`` says what it
    cannot check (the chips of a guest room, or of a room paid through an embedding
    server's own wallet: :func:`unchecked_tables`), which is no problem. Tables and seats
    are numbered from 1 (an operator reads them: :func:`~doubleholdem.wording.for_people`
    over the problems' :class:`~doubleholdem.wording.Wording`)."""
    with reading(db):  # one consistent picture
        tables, problems = _stored_tables(db, key)
        chips = {table_id: table.chips() for table_id, table in tables.items()}
        kind = money_kind(db)
        ledger_pays = kind in (None, "ledger")
        found = audit(
            db,
            table_chips=chips if ledger_pays else None,
            seated=_ledger_seated(db, tables) if ledger_pays else None,
        )
        owed = owed_problems(db)
        owed += pool_problems(db, key)  # the tournaments' pools
    problems += found["problems"]
    problems += owed
    unchecked = unchecked_tables(kind, chips)
    return {
        "ok": not problems,
        "problems": [for_people(problem) for problem in problems],
        "unchecked": [for_people(text) for text in unchecked],
    }


def unchecked_tables(kind: str | None, chips: dict[int, int]) -> list[str]:
    """What the audit of a room of money kind ``kind`` cannot hold its tables' ``chips``
    (table id -> chips) against: nothing for the ledger's."""
    held = joined(Wording(f"{n} at ", table_said(t)) for t, n in sorted(chips.items()) if n)
    if kind == "wallet" and held:
        return [
            Wording(
                "the tables' chips (",
                held,
                ") are paid through the embedding server's own wallet: the room keeps no "
                "record of the calls made to it, so this audit cannot check them (the "
                "wallet's own books can)",
            )
        ]
    if kind == "guests" and held:
        return [
            Wording("the tables' chips (", held, ") are a guest room's play chips, in no ledger")
        ]
    return []
