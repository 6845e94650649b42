"""A room's tournament as stored (schema 6,
:mod:`~doubleholdem.server.storage.tournament_rows`): one row of the ``tournaments``
table holding its spec, its status, the library's snapshot without its tables'
(:meth:`Tournament.to_json(tables=False) <doubleholdem.tournament.Tournament.to_json>`)
and what the room keeps beside it (the sales paid, the bots, the prizes paid, the moves,
a deal offered); each table's own snapshot in a row of its own, and the decisions made
at it since as move rows (:class:`Pending` says what a change writes). What a change
writes goes in the same transaction as the ledger entries of its change, so that after a
``kill -9`` the tournament and its money are where that transaction left them.

The audit holds each tournament's pool in the ledger against its rows
(:func:`~doubleholdem.server.storage.tournament_rows.pool_problems`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from doubleholdem.database.connection import Connection
from doubleholdem.errors import DoubleHoldemError, InvalidSnapshot
from doubleholdem.server.storage import tournament_rows
from doubleholdem.server.storage.commit import Step
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.storage.tournament_rows import OVER, one_row, read, restore, rows
from doubleholdem.server.tournaments.payments import Sale
from doubleholdem.server.tournaments.spec import TournamentSpec, spec_from_dict
from doubleholdem.tournament import Tournament

__all__ = [
    "CANCELLED",
    "FINISHED",
    "OVER",
    "REGISTERING",
    "RUNNING",
    "Pending",
    "Stored",
    "load",
    "load_all",
]

REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
MOVES_KEPT = 50  # the last moves between tables a tournament shows


@dataclass
class Stored:
    """What the room keeps of tournament ``id`` besides the library's snapshot:
    ``status``; ``sales`` made so far (each sale's number is its place in this count);
    ``open_sales``: player -> the sales a refund would give back (its registration,
    before the start); ``bots``: bot entrant -> its kind; ``paid``: entry -> prize paid
    (once over); ``moves``: the last moves between tables (TRN-13, TRN-14), each a dict;
    ``deal``: the final-table deal offered (docs/tournaments.md, "A deal"), or ``None``;
    ``cancelling``: the room cancels it once no hand is in play; ``ended_by``: how it
    ended (``play``, ``deal``, ``cancelled``); ``whole``: read from schema 5's one row
    (the next change stores every table apart; not stored)."""

    id: int
    spec: TournamentSpec
    status: str = REGISTERING
    sales: int = 0
    open_sales: dict[str, list[Sale]] = field(default_factory=dict)
    bots: dict[str, str] = field(default_factory=dict)
    paid: dict[int, int] = field(default_factory=dict)
    moves: list[dict[str, Any]] = field(default_factory=list)
    deal: dict[str, Any] | None = None
    cancelling: bool = False
    ended_by: str | None = None
    whole: bool = False

    def sale(self, player: str, price: int, fee: int, what: str) -> Sale:
        """The next sale to ``player``."""
        self.sales += 1
        return Sale(self.sales - 1, player, price, fee, what)

    def to_text(self, tournament: Tournament, key: bytes | None, *, tables: bool = False) -> str:
        """The row's text, with ``tournament``'s snapshot without its tables' (with
        ``tables``, the whole snapshot: schema 5's one row, which benches compare)."""
        return json.dumps(
            {
                "spec": self.spec.to_dict(),
                "status": self.status,
                "sales": self.sales,
                "open_sales": {p: [list(s) for s in sold] for p, sold in self.open_sales.items()},
                "bots": self.bots,
                "paid": {str(e): amount for e, amount in self.paid.items()},
                "moves": self.moves[-MOVES_KEPT:],
                "deal": self.deal,
                "cancelling": self.cancelling,
                "ended_by": self.ended_by,
                "tournament": tournament.to_json(key, tables=tables),
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_text(cls, tournament_id: int, text: str) -> tuple[Stored, Any]:
        """The stored state of a row and the library's snapshot in it (as JSON decoded
        it: the tournament is :func:`load`'s); :class:`InvalidSnapshot` if it is not
        one."""
        try:
            data = json.loads(text)
            stored = cls(
                tournament_id,
                spec_from_dict(data["spec"]),
                data["status"],
                data["sales"],
                {p: [Sale(*s) for s in sold] for p, sold in data["open_sales"].items()},
                dict(data["bots"]),
                {int(e): amount for e, amount in data["paid"].items()},
                list(data["moves"]),
                data["deal"],
                data["cancelling"],
                data["ended_by"],
            )
            return stored, data["tournament"]
        except DoubleHoldemError as error:
            raise InvalidSnapshot(f"tournament {tournament_id + 1}: {error}") from None
        except (ValueError, KeyError, TypeError) as error:
            raise InvalidSnapshot(f"tournament {tournament_id + 1}: not a stored tournament "
                                  f"({type(error).__name__}: {error})") from None  # fmt: skip


@dataclass
class Pending:
    """What the changes of a tournament not yet handed to the commit must store beside
    their ledger entries: its own row if ``state``, the snapshots of ``tables``, the
    ``moves`` made at others (table -> journal moves); ``stored_tables``: the tables
    whose rows exist (a table gone since, broken, loses them)."""

    stored_tables: set[int]
    state: bool = False
    tables: set[int] = field(default_factory=set)
    moves: dict[int, list[str]] = field(default_factory=dict)

    def move(self, number: int, move: str) -> None:
        """A move (:mod:`~doubleholdem.server.storage.journal`) made at table ``number``."""
        self.moves.setdefault(number, []).append(move)

    def steps(self, stored: Stored, tournament: Tournament, key: bytes | None) -> list[Step]:
        """The steps that store what is pending (and the tables the tournament's own steps
        changed, :attr:`Tournament.touched <doubleholdem.tournament.Tournament.touched>`),
        then nothing is: each table changed otherwise than by its moves is written whole,
        the tournament's row if it changed (or a table came or went)."""
        tables, tid = tournament.tables, stored.id
        changed = (self.tables | tournament.touched) & tables.keys()
        if stored.whole:
            changed, self.state, stored.whole = set(tables), True, False
        gone = self.stored_tables - tables.keys()
        steps: list[Step] = [partial(_drop, tournament_id=tid, number=n) for n in sorted(gone)]
        for number in sorted(changed):
            text = tables[number].to_json(key)
            steps.append(partial(_table, tournament_id=tid, number=number, snapshot=text))
        for number, moves in sorted(self.moves.items()):
            if number in tables and number not in changed:
                steps += [partial(_move, tournament_id=tid, number=number, move=m) for m in moves]
        if self.state or tournament.touched or gone or changed - self.stored_tables:
            text = stored.to_text(tournament, key)
            steps.append(partial(_state, tournament_id=tid, text=text))
        self.stored_tables = set(tables)
        self.state, self.tables, self.moves = False, set(), {}
        tournament.touched.clear()
        return steps


def _state(store: Storage, *, tournament_id: int, text: str) -> None:
    tournament_rows.put(store.db, tournament_id, text)


def _table(store: Storage, *, tournament_id: int, number: int, snapshot: str) -> None:
    tournament_rows.put_table(store.db, tournament_id, number, snapshot)


def _move(store: Storage, *, tournament_id: int, number: int, move: str) -> None:
    tournament_rows.put_move(store.db, tournament_id, number, move)


def _drop(store: Storage, *, tournament_id: int, number: int) -> None:
    tournament_rows.drop_table(store.db, tournament_id, number)


def load(db: Connection, tournament_id: int, key: bytes | None) -> tuple[Stored, Tournament] | None:
    """Tournament ``tournament_id`` as stored (``None`` if it is not):
    :class:`InvalidSnapshot` if it cannot be read."""
    text = tournament_rows.state(db, tournament_id)
    return None if text is None else _load(db, tournament_id, text, key)


def _load(
    db: Connection, tournament_id: int, text: str, key: bytes | None
) -> tuple[Stored, Tournament]:
    """Tournament ``tournament_id`` whose row's text is ``text``, with its tables'
    rows: :class:`InvalidSnapshot` if it cannot be read. One of schema 5's one-row
    form is ``whole``."""
    stored, snapshot = Stored.from_text(tournament_id, text)
    try:
        tournament = restore(read(db, tournament_id, text), snapshot, key)
    except DoubleHoldemError as error:
        raise InvalidSnapshot(f"tournament {tournament_id + 1}: {error}") from None
    stored.whole = one_row(snapshot)
    return stored, tournament


def load_all(db: Connection, key: bytes | None) -> list[tuple[Stored, Tournament]]:
    """Every stored tournament (:class:`InvalidSnapshot` for one that cannot be read)."""
    return [_load(db, i, text, key) for i, text in rows(db)]
