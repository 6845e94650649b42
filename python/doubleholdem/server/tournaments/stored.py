"""A room's tournament as stored (schema 8,
:mod:`~doubleholdem.server.storage.tournament_rows`): a row of the ``tournaments``
table noting its status, its spec's name and, once over, its lobby summary; its state
cut into parts, each a row of its own (the library's
:func:`~doubleholdem.tournament.snapshot.parts`, one per entry, per table, per placing
and a few more, and the room's own beside them: :meth:`Stored.parts`), of which a
change writes only those it changed; each table's own snapshot in a row of its own, and
the decisions made at it since as move rows (:class:`Pending` says what a change
writes). What a change writes goes in the same transaction as the ledger entries of its
change, so that after a ``kill -9`` the tournament and its money are where that
transaction left them.

The audit holds each tournament's pool in the ledger against its rows
(:func:`~doubleholdem.server.storage.tournament_rows.pool_problems`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from doubleholdem.database.connection import Connection, reading
from doubleholdem.errors import DoubleHoldemError, InvalidSnapshot, TamperedSnapshot
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.storage import hands, tournament_rows
from doubleholdem.server.storage.commit import Step
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.storage.tournament_rows import OVER, part_tag, read, restore, rows
from doubleholdem.server.tournaments.payments import Sale
from doubleholdem.server.tournaments.spec import TournamentSpec, spec_from_dict
from doubleholdem.table.history import hand_record
from doubleholdem.table.table import Table
from doubleholdem.tournament import Tournament, snapshot
from doubleholdem.tournament.snapshot import part_name

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
    "part_groups",
]

T = TypeVar("T")
REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
MOVES_KEPT = 50  # the last moves between tables a tournament shows


@dataclass
class Stored:
    """What the room keeps of tournament ``id`` besides the library's snapshot:
    ``status``; ``sales`` made so far (each sale's number is its place in this count);
    ``open_sales``: player -> the sales a refund would give back (its registration,
    before the start); ``bots``: bot entrant -> its kind; ``paid``: entry -> prize paid
    (once over); ``moves``: the last moves between tables (TRN-13, TRN-14), each a dict,
    of the ``moved`` made in all;
    ``deal``: the final-table deal offered (docs/tournaments.md, "A deal"), or ``None``;
    ``cancelling``: the room cancels it once no hand is in play; ``ended_by``: how it
    ended (``play``, ``deal``, ``cancelled``); ``whole``: none of it in parts yet (new,
    or read from its row, where schema 7 and those before kept its state): the next
    change stores every part and every table (not stored)."""

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
    moved: int = 0

    def note_move(self, move: dict[str, Any]) -> None:
        """A move between tables made now: the last ``MOVES_KEPT`` are kept, in memory
        as stored (a person's last move is found among them, after a restart alike)."""
        self.moves.append(move)
        del self.moves[:-MOVES_KEPT]
        self.moved += 1

    def sale(self, player: str, price: int, fee: int, what: str) -> Sale:
        """The next sale to ``player``."""
        self.sales += 1
        return Sale(self.sales - 1, player, price, fee, what)

    def to_text(self, tournament: Tournament, key: bytes | None, *, tables: bool = False) -> str:
        """The state as one text, with ``tournament``'s snapshot without its tables' (with
        ``tables``, the whole snapshot): what a row of schema 6 held (schema 5's with
        ``tables``), which benches compare; tests compare states by it."""
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

    def part_groups(self) -> tuple[dict[str, Any], dict[str, dict[Any, Any]]]:
        """The room's own parts beside the library's (JSON values), in groups: the single
        ``room`` (the status, the sales, how many bots and players with a refundable
        sale, the prizes paid, a deal, the moves made, ...) and ``spec``; the families
        ``move`` (the last moves, the ``N``-th made under ``N % MOVES_KEPT``: a move
        writes one), ``bot`` (each bot's kind, by player) and ``sales`` (the sales a
        refund gives back, by player). Stored as ``room``, ``move/K``, ``bot/PLAYER``,
        ... (:func:`~doubleholdem.tournament.snapshot.part_name`)."""
        single: dict[str, Any] = {
            "room": {
                "status": self.status,
                "sales": self.sales,
                "bots": len(self.bots),
                "open_sales": len(self.open_sales),
                "paid": {str(e): amount for e, amount in self.paid.items()},
                "deal": self.deal,
                "cancelling": self.cancelling,
                "ended_by": self.ended_by,
                "moved": self.moved,
            },
            "spec": self.spec.to_dict(),
        }
        kept = self.moves[-MOVES_KEPT:]
        moves = {n % MOVES_KEPT: move for n, move in enumerate(kept, self.moved - len(kept))}
        sales = {player: [list(sale) for sale in sold] for player, sold in self.open_sales.items()}
        return single, {"move": moves, "bot": dict(self.bots), "sales": sales}

    @classmethod
    def from_parts(cls, tournament_id: int, found: dict[str, Any]) -> Stored:
        """The state whose parts (:meth:`part_groups`, by name) are ``found`` (exactly
        those);
        :class:`TamperedSnapshot` if they are not."""
        room, moved = found["room"], found["room"]["moved"]
        bots = {n[4:]: kind for n, kind in found.items() if n.startswith("bot/")}
        sales = {n[6:]: sold for n, sold in found.items() if n.startswith("sales/")}
        kept = range(max(0, moved - MOVES_KEPT), moved)
        moves = [found[f"move/{n % MOVES_KEPT}"] for n in kept]
        if len(found) != 2 + len(bots) + len(sales) + len(moves) or (len(bots), len(sales)) != (
            room["bots"],
            room["open_sales"],
        ):
            raise TamperedSnapshot("its room's parts are missing some or hold foreign ones")
        return cls(
            tournament_id,
            spec_from_dict(found["spec"]),
            room["status"],
            room["sales"],
            {p: [Sale(*s) for s in sold] for p, sold in sales.items()},
            bots,
            {int(e): amount for e, amount in room["paid"].items()},
            moves,
            room["deal"],
            room["cancelling"],
            room["ended_by"],
            moved=moved,
        )

    @classmethod
    def from_data(cls, tournament_id: int, data: dict[str, Any]) -> Stored:
        """The state of a row of schema 7 or before (:meth:`to_text`'s, decoded)."""
        return cls(
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
            whole=True,
            moved=len(data["moves"]),
        )


_ABSENT = object()  # a part not written


@dataclass
class Pending:
    """What the changes of a tournament not yet handed to the commit must store beside
    their ledger entries: its parts if ``state``, the snapshots of ``tables``, the
    ``moves`` made at others (table -> journal moves); ``stored_tables``: the tables
    whose rows exist (a table gone since, broken, loses them); ``written``: its parts as
    last written, in groups (:func:`part_groups`)."""

    stored_tables: set[int]
    written: tuple[dict[str, Any], dict[str, dict[Any, Any]]]
    state: bool = False
    tables: set[int] = field(default_factory=set)
    moves: dict[int, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, stored: Stored, tournament: Tournament) -> Pending:
        """Nothing pending for ``tournament`` as stored (``whole``: in its row, so
        nothing of it in parts nor, of schema 5, its tables apart)."""
        if stored.whole:
            return cls(set(), ({}, {}))
        return cls(set(tournament.tables), part_groups(stored, tournament))

    def move(self, number: int, move: str) -> None:
        """A move (:mod:`~doubleholdem.server.storage.journal`) made at table ``number``."""
        self.moves.setdefault(number, []).append(move)

    def steps(
        self, stored: Stored, tournament: Tournament, key: bytes | None, summary: str | None = None
    ) -> list[Step]:
        """The steps that store what is pending (and the tables the tournament's own steps
        changed, :attr:`Tournament.touched <doubleholdem.tournament.Tournament.touched>`),
        then nothing is: each table changed otherwise than by its moves is written whole,
        the parts that changed if the tournament did (or a table came or went), and its
        row with them if its status did (with ``summary``, its lobby line once over)."""
        tables, tid = tournament.tables, stored.id
        changed = (self.tables | tournament.touched) & tables.keys()
        if stored.whole:
            changed, self.state = set(tables), True
        gone = self.stored_tables - tables.keys()
        steps: list[Step] = [partial(_drop, tournament_id=tid, number=n) for n in sorted(gone)]
        for number in sorted(changed):
            text = tables[number].to_json(key)
            steps.append(partial(_table, tournament_id=tid, number=number, snapshot=text))
        for number, moves in sorted(self.moves.items()):
            if number in tables and number not in changed:
                steps += [partial(_move, tournament_id=tid, number=number, move=m) for m in moves]
        if self.state or tournament.touched or gone or changed - self.stored_tables:
            steps += self._parts(stored, tournament, key, summary)
        self.stored_tables = set(tables)
        self.state, self.tables, self.moves = False, set(), {}
        tournament.touched.clear()
        return steps

    def _parts(
        self, stored: Stored, tournament: Tournament, key: bytes | None, summary: str | None
    ) -> list[Step]:
        """The step writing the parts that changed since last written (and the row): a
        family unchanged (the entries at most hands' starts, the bots) is skipped whole."""
        (single, families), (was, were) = part_groups(stored, tournament), self.written
        changed = [(n, v) for n, v in single.items() if was.get(n, _ABSENT) != v]
        gone = [name for name in was if name not in single]
        for family, members in families.items():
            before = were.get(family, {})
            if members != before:
                changed += [(part_name(family, k), v) for k, v in members.items()
                            if before.get(k, _ABSENT) != v]  # fmt: skip
                gone += [part_name(family, k) for k in before if k not in members]
        tid = stored.id
        texts = [
            (name, text := json.dumps(value, separators=(",", ":")), part_tag(key, tid, name, text))
            for name, value in changed
        ]
        row = None
        if stored.whole or was.get("room") != single["room"] or "spec" not in was:
            row = (stored.status, stored.spec.name, summary)
        self.written, stored.whole = (single, families), False
        if not texts and not gone and row is None:
            return []
        return [partial(_parts, tournament_id=tid, texts=texts, gone=gone, row=row)]


def part_groups(
    stored: Stored, tournament: Tournament
) -> tuple[dict[str, Any], dict[str, dict[Any, Any]]]:
    """Every part of a tournament in groups: the library's and the room's."""
    single, families = snapshot.part_groups(tournament)
    own, own_families = stored.part_groups()
    return {**single, **own}, {**families, **own_families}


def _parts(
    store: Storage,
    *,
    tournament_id: int,
    texts: list[tuple[str, str, str]],
    gone: list[str],
    row: tuple[str, str, str | None] | None,
) -> None:
    db = tournaments_db(store)
    if row is not None:
        tournament_rows.put(db, tournament_id, *row)
    tournament_rows.put_parts(db, tournament_id, texts, gone)


def _table(store: Storage, *, tournament_id: int, number: int, snapshot: str) -> None:
    tournament_rows.put_table(tournaments_db(store), tournament_id, number, snapshot)


def _move(store: Storage, *, tournament_id: int, number: int, move: str) -> None:
    tournament_rows.put_move(tournaments_db(store), tournament_id, number, move)


def _drop(store: Storage, *, tournament_id: int, number: int) -> None:
    tournament_rows.drop_table(tournaments_db(store), tournament_id, number)


def tournaments_db(store: Storage) -> Connection:
    """``store``'s connection, inside the transaction that writes rows of the room's
    tournaments (theirs, their parts, tables, moves, action ids, hands): the lease they
    are run under (:data:`~doubleholdem.server.cluster.leases.TOURNAMENTS`) fenced first,
    and so declared to the database's fencing triggers (:meth:`Fence.writes
    <doubleholdem.server.cluster.fencing.Fence.writes>`)."""
    store.fencing.writes(store.db, TOURNAMENTS)
    return store.db


def hand_step(tournament_id: int, number: int, table: Table, event: str) -> Step:
    """The step that stores the hand table ``number`` of tournament ``tournament_id``
    just ended in the hand history (as a cash table's, under
    :func:`~doubleholdem.server.storage.hands.tournament_key`), marked with the
    tournament (``event``: its name); the table's log is forgotten from memory."""
    key = hands.tournament_key(tournament_id, number)
    history = table.release_history()
    marked = (tournament_id, number)
    history.append(hand_record(table, table_id=key, tournament=marked, event=event))
    hand = table.hand_number
    return lambda s: hands.put(tournaments_db(s), key, hand, history)


def load(db: Connection, tournament_id: int, key: bytes | None) -> tuple[Stored, Tournament] | None:
    """Tournament ``tournament_id`` as stored (``None`` if it is not):
    :class:`InvalidSnapshot` if it cannot be read. Its rows are read as of one moment
    (the process that took the tournaments over from this one may write them)."""
    with reading(db):
        found = tournament_rows.state(db, tournament_id)
        return None if found is None else _load(db, tournament_id, found[0], key)


def _load(
    db: Connection, tournament_id: int, text: str, key: bytes | None
) -> tuple[Stored, Tournament]:
    """Tournament ``tournament_id`` whose row's state is ``text`` (``""``: in its parts),
    with its tables' rows: :class:`InvalidSnapshot` if it cannot be read. One whose
    row holds its state (schema 7 or before) is ``whole``."""
    try:
        own, tournament = restore(read(db, tournament_id, text), key)
        if text:
            stored = Stored.from_data(tournament_id, own)
        else:
            stored = Stored.from_parts(tournament_id, own)
            stored.bots = _by_entry(stored.bots, tournament)
            stored.open_sales = _by_entry(stored.open_sales, tournament)
    except DoubleHoldemError as error:
        raise InvalidSnapshot(f"tournament {tournament_id + 1}: {error}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise InvalidSnapshot(f"tournament {tournament_id + 1}: not a stored tournament "
                              f"({type(error).__name__}: {error})") from None  # fmt: skip
    return stored, tournament


def _by_entry(by_player: dict[str, T], tournament: Tournament) -> dict[str, T]:
    """``by_player`` in the order its players first entered ``tournament`` (the order
    they were added in: parts are read in no order)."""
    first = {e.player: e.number for e in reversed(tournament.entries)}
    return dict(sorted(by_player.items(), key=lambda item: (first.get(item[0], -1), item[0])))


def load_all(db: Connection, key: bytes | None) -> list[tuple[Stored, Tournament]]:
    """Every stored tournament not over (registering, running): those over are read
    on request (:func:`load`). :class:`InvalidSnapshot` for one that cannot be read."""
    found = []
    for tournament_id, _ in rows(db, over=False):
        text, _ = tournament_rows.state(db, tournament_id) or ("", "")
        found.append(_load(db, tournament_id, text, key))
    return found
