"""The rows of an observation that do not depend on the observer, kept up to date as a
hand moves on (:class:`PublicRows`; :class:`TableRows` and :class:`TableArrays` for the
vector environment's tables in shared arrays): each seat's chips and flags, and the window
of past actions. The encoder (:mod:`doubleholdem.rl.observations`) copies them into each
observation instead of encoding them again."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from doubleholdem.game import Hand
from doubleholdem.game.state import STREETS as HAND_STREETS
from doubleholdem.rl.config import EnvConfig
from doubleholdem.rl.layout import (
    CARDS,
    FLOAT_BYTES,
    PAST_CHIPS_ROW,
    PAST_KINDS,
    PAST_STREETS,
    SEAT_FEATURES,
    SEAT_ROW,
    STREETS,
    TO_ACT,
    WAGER,
    PastRow,
)

__all__ = [
    "KINDS",
    "SEAT_BYTES",
    "SEAT_FEATURES",
    "STREET_INDEX",
    "PublicRows",
    "TableArrays",
    "TableRows",
]

SEAT_BYTES = SEAT_ROW.size  # a seat's row (layout.SEAT_FEATURES) as float32 bytes
STREET_INDEX = {street: i for i, street in enumerate(HAND_STREETS)}  # into the street block
KINDS = {kind: i for i, kind in enumerate(PAST_KINDS)}  # a past action's kind one-hot


class PublicRows:
    """The parts of every seat's observation that do not depend on the observer, kept
    up to date by the episode as the hand moves on (so that an observation copies them
    rather than encoding them again):

    - :attr:`seats`: each seat's row of the seats block (:data:`SEAT_FEATURES`,
      "to act now" left 0) as float32 bytes, by seat (the encoder rotates them to the
      observer); a seat not dealt in is all zeros;
    - :attr:`views`: the window of past actions as each seat observes it (float32
      bytes, oldest first, the acting seat relative to that observer), one per seat,
      and :attr:`count` the actions recorded this hand.

    Within a betting round only the seat that acts moves chips, so after a decision
    :meth:`update` rewrites that seat's row, and every row when the street changed or
    the hand ended (the uncalled bet returned, the bets gathered, the awards);
    :meth:`rebuilt_seats` computes them all afresh (the tests hold the two equal).
    """

    def __init__(self, config: EnvConfig) -> None:
        n = self.players = config.players
        self.bb = float(config.big_blind)
        self.window = config.history
        self.seats: Any = bytearray(n * SEAT_BYTES)
        self.views = [bytearray() for _ in range(n)]
        self.count = 0
        self._row_bytes = PastRow.of(n).size * FLOAT_BYTES
        self.street = 0  # the hand's street when the rows were last written
        self.button = 0  # the button's seat
        self.double = config.double
        # a card beyond the own hole cards and the board may be seen: Double Hold'em's
        # point cards, hands shown (only when a street ends or the hand ends)
        self.cards_seen = self.double
        self._leads = self._lead_rows()

    def _lead_rows(self) -> list[list[list[Any]]]:
        """A past action's row up to its chips (the history block's relative seat, kind
        and street one-hot), by acting seat, kind and street, then by observer."""
        n = self.players
        seat_hot = _seat_hot(n)
        return [
            [
                [[seat_hot[(seat - seen) % n] + lead for seen in range(n)] for lead in leads]
                for leads in _kind_street_rows()
            ]
            for seat in range(n)
        ]

    def new_hand(self, hand: Hand, seat_of: list[int], rows: bytes | None = None) -> None:
        """Every row of a hand just dealt (``rows``: :meth:`rebuilt_seats` of a hand
        dealt alike, if the caller kept them); no past action."""
        self.seats[:] = self.rebuilt_seats(hand, seat_of) if rows is None else rows
        self.street = STREET_INDEX[hand.street]
        self.button = seat_of[hand.button]
        self.cards_seen = self.double or True in hand.shown
        self.count = 0
        self._clear_history()

    def _clear_history(self) -> None:
        for view in self.views:
            view.clear()

    def update(self, hand: Hand, seat_of: list[int], index: int) -> None:
        """The rows after a decision of hand index ``index``."""
        street = STREET_INDEX[hand.street]
        if street != self.street:
            self._new_street(hand, seat_of, street)
            return
        stacks, bets, committed, in_hand = hand.seat_lists()
        stack, bb = stacks[index], self.bb
        alive = in_hand[index]
        SEAT_ROW.pack_into(
            self.seats,
            seat_of[index] * SEAT_BYTES,
            1.0,
            1.0 if alive else 0.0,
            1.0 if alive and not stack else 0.0,
            0.0,
            stack / bb,
            bets[index] / bb,
            committed[index] / bb,
        )

    def _new_street(self, hand: Hand, seat_of: list[int], street: int) -> None:
        """A street (or the hand) ended: every row afresh."""
        self.seats[:] = self.rebuilt_seats(hand, seat_of)
        self.street = street
        self.cards_seen = self.double or True in hand.shown

    def rebuilt_seats(self, hand: Hand, seat_of: list[int]) -> bytes:
        """Every seat's row, computed afresh."""
        stacks, bets, committed, in_hand = hand.seat_lists()
        bb = self.bb
        rows = [bytes(SEAT_BYTES)] * self.players
        for i, seat in enumerate(seat_of):
            stack, alive = stacks[i], in_hand[i]
            rows[seat] = SEAT_ROW.pack(
                1.0,
                1.0 if alive else 0.0,
                1.0 if alive and not stack else 0.0,
                0.0,
                stack / bb,
                bets[i] / bb,
                committed[i] / bb,
            )
        return b"".join(rows)

    def played(
        self, hand: Hand, seat_of: list[int], index: int, kind: int, chips: int, after: int
    ) -> None:
        """A betting decision of hand index ``index`` applied: ``kind`` of :data:`KINDS`,
        ``chips`` put in, the wager ``after`` it; recorded in the window of past actions
        on the street it was taken, then the rows after it (:meth:`update`): one call a
        decision, the recording inline (a call fewer)."""
        window = self.window
        if window:
            bb = self.bb
            tail = PAST_CHIPS_ROW.pack(chips / bb, after / bb)
            leads = self._leads[seat_of[index]][kind][self.street]
            if self.count >= window:  # the oldest goes
                row = self._row_bytes
                for view, lead in zip(self.views, leads):
                    del view[:row]
                    view += lead
                    view += tail
            else:
                for view, lead in zip(self.views, leads):
                    view += lead
                    view += tail
            self.count += 1
        self.update(hand, seat_of, index)


class TableArrays:
    """The kept rows of the ``tables`` tables of a vector environment in shared arrays,
    so that the vector environment (:mod:`doubleholdem.rl.vector`) turns them to each
    table's seat to act with a few array operations for all tables at once:

    - :attr:`seats` (tables, players + 1, 7): each seat's row, by seat
      (:class:`PublicRows`), then a scratch row;
    - :attr:`ring` (tables, 2 window, players + 11) and :attr:`ring_seats` (tables,
      2 window): the window of past actions, each one's row of the history block but
      its relative seat (left 0) and the seat that acted (``players`` where there is
      none): the hand's action ``j`` in slots ``j % window`` and
      ``j % window + window``, so that the window, oldest first, is ``window`` slots in
      a row (:attr:`windows` and :attr:`window_seats`, by the flat index of the first);
    - :attr:`board` (tables, 57): the board block and the street one-hot.

    A decision writes only its table's row of whole numbers in :attr:`record`
    (:class:`TableRows`); :meth:`update` turns all of them into the arrays with a few
    array operations a step, and :meth:`new_streets` builds again the rows of the tables
    whose street changed. Table ``tables`` of :attr:`ring` is scratch: a table with
    nothing to write there writes into it (into :attr:`seats`, its own last row).
    :attr:`rows` holds each table's :class:`TableRows`.
    """

    def __init__(self, config: EnvConfig, tables: int) -> None:
        n, window = config.players, config.history
        self.window, self.bb, self.tables = window, float(config.big_blind), tables
        self.double = config.double
        features = len(SEAT_FEATURES)
        past = PastRow.of(n)  # a past action's row
        # each table's seats, then a row a record with no seat's row writes (scratch)
        self.seats = np.zeros((tables, n + 1, features), np.float32)
        self._seat_first = np.arange(tables) * (n + 1)  # each table's first row
        self.ring = np.zeros((tables + 1, 2 * window, past.size), np.float32)
        self.ring_seats = np.full((tables + 1, 2 * window), n, np.int64)
        self.board = np.zeros((tables, CARDS + len(STREETS)), np.float32)  # board, street
        self.board_count = np.zeros(tables, np.int64)  # each table's board cards
        self.buttons = np.zeros(tables, np.int64)
        self.record = bytearray(tables * _RECORD * 8)  # packed by each table (TableRows)
        self.records = np.frombuffer(self.record, np.int64).reshape(tables, _RECORD)
        self.starts = np.zeros(tables, np.int64)  # each table's window: its first slot
        self.seat_rows = self.seats.reshape(-1, features)
        self._ring_rows = self.ring.reshape(-1, past.size)
        self._ring_slots = self.ring_seats.reshape(-1)
        self.windows = _windows(self._ring_rows, window)
        self.window_seats = _windows(self._ring_slots, window)
        self._both = np.array([[0], [window]])  # a slot and its copy
        self._features = np.zeros((tables, features), np.float32)
        self._features[:, 0] = 1.0  # dealt in
        streets = len(PAST_STREETS)
        kinds = len(KINDS) * streets  # a row per kind and street, then no action's
        self._kind_street = np.zeros((kinds + streets, past.size), np.float32)
        self._kind_street[:kinds, past.kind : past.chips] = np.frombuffer(
            b"".join(row for rows in _KIND_STREET for row in rows), np.float32
        ).reshape(kinds, past.chips - past.kind)
        self._chips = slice(past.chips, past.size)
        self.rows = [
            TableRows(
                config,
                self,
                i,
                _bytes_of(self.seats[i, :n]),
                *(_bytes_of(a[i]) for a in (self.ring, self.ring_seats, self.board)),
            )
            for i in range(tables)
        ]
        self._numbers = [_bytes_of(a).cast("q") for a in (self.board_count, self.buttons)]

    def update(self) -> None:
        """Every table's row of :attr:`record` into the arrays."""
        records = self.records
        bb = self.bb
        if self.window:
            rows = self._kind_street.take(records[:, _KIND_STREET_AT], axis=0)
            np.divide(records[:, _CHIPS_AT], bb, out=rows[:, self._chips], casting="unsafe")
            at = records[:, _RING_AT] + self._both
            self._ring_rows[at] = rows
            self._ring_slots[at] = records[:, _SEAT_AT]
            self.starts = records[:, _START_AT]
        features = self._features
        features[:, _FLAGS] = records[:, _FLAGS_AT]
        np.divide(records[:, _AMOUNTS_AT], bb, out=features[:, _AMOUNTS], casting="unsafe")
        self.seat_rows[self._seat_first + records[:, _SEAT_AT]] = features

    def new_streets(self, games: list[Any], views: list[Any], board: np.ndarray) -> None:
        """The rows of the tables whose board grew (a new street: ``board`` the number
        of board cards of each table now, ``views`` each hand's
        :meth:`~doubleholdem.game.Hand.actor_view`) brought up to date.

        In Texas Hold'em a street that begins with a decision to make moved the bets
        into the pot and nothing else: had a bet been returned (TH-20) or a hand shown
        (TH-22) when the betting closed, at most one player would have chips left and
        nobody would decide before the hand's end. So the wagers go to 0, the rest stays
        (the tests hold the rows equal to those computed afresh). In Double Hold'em the
        point cards are chosen after such a close (DH-5): every row afresh."""
        changed = np.flatnonzero(board != self.board_count).tolist()
        if not changed:
            return
        rows = self.rows
        if self.double:
            for i in changed:
                game = games[i]
                rows[i].new_street(game.hand, game.seat_of)
            return
        self.seats[changed, :, WAGER] = 0.0
        for i in changed:
            _, _, _, cards, _, _ = views[i]  # the hand's actor_view: its board
            rows[i].next_street(cards)


def _windows(rows: np.ndarray, window: int) -> np.ndarray:
    """The ``window`` rows of ``rows`` from each one on: (len(rows) - window + 1,
    window, ...), a view."""
    if not window:
        return rows[:0, None]
    stride = rows.strides[0]
    shape = (len(rows) - window + 1, window, *rows.shape[1:])
    return np.lib.stride_tricks.as_strided(rows, shape, (stride, *rows.strides))


def _bytes_of(array: np.ndarray) -> Any:
    """A writable byte view of ``array``'s memory."""
    return memoryview(array).cast("B") if array.size else memoryview(bytearray())  # type: ignore[arg-type]


_STREET_OF_BOARD = (0, 0, 0, 1, 2, 3)  # a Texas Hold'em street by its board cards
# a table's row of TableArrays.record (TableRows.played), whole numbers: its fields
_RECORD_FIELDS = (
    "kind * streets + street",
    "the ring's flat row",
    "chips put in",
    "wager after it",
    "seat",
    "stack",
    "wager",
    "chips in the hand",
    "still in",
    "all-in",
    "the window's first slot",
)
_RECORD = len(_RECORD_FIELDS)
_PACKED = struct.Struct(f"={_RECORD}q")  # a table's row of TableArrays.record
_KIND_STREET_AT, _RING_AT, _SEAT_AT, _START_AT = map(
    _RECORD_FIELDS.index,
    ("kind * streets + street", "the ring's flat row", "seat", "the window's first slot"),
)
_CHIPS_AT = slice(_RECORD_FIELDS.index("chips put in"), _RECORD_FIELDS.index("seat"))
_AMOUNTS_AT = slice(_RECORD_FIELDS.index("stack"), _RECORD_FIELDS.index("still in"))
_FLAGS_AT = slice(_RECORD_FIELDS.index("still in"), _START_AT)
# the seat row's fields the record fills: still in and all-in; stack, wager, chips in
_FLAGS = slice(SEAT_FEATURES.index("still in the hand (not folded)"), TO_ACT)
_AMOUNTS = slice(SEAT_FEATURES.index("stack behind (bb)"), len(SEAT_FEATURES))
_PACK = _PACKED.pack_into
_NO_ACTION = len(KINDS)  # the kind of a record that holds no action
_STREETS = len(PAST_STREETS)  # a record's kind and street: kind * _STREETS + street


class TableRows(PublicRows):
    """:class:`PublicRows` of one table of a vector environment, kept in its part of
    the :class:`TableArrays` (byte views). A decision writes its table's row of
    :attr:`TableArrays.record`: its kind and street (``kind * 4 + street``), the
    ring's flat row for it, the chips put in and the wager after it, the seat that
    acted (``players``: none, its row the scratch one) and its stack, bet, chips in the
    hand, still in and all-in, and the flat row of the window's first slot; a new hand and a new
    street write this table's rows here."""

    def __init__(
        self,
        config: EnvConfig,
        arrays: TableArrays,
        table: int,
        seats: Any,
        ring: Any,
        ring_seats: Any,
        board: Any,
    ) -> None:
        super().__init__(config)
        self.arrays = arrays
        self.table = table
        self.seats = seats
        self.record = arrays.record
        self.at = table * _RECORD * 8
        # the hand's own lists (Hand.seat_lists), taken at each new hand
        self._stacks: list[int] = []
        self._bets: list[int] = []
        self._committed: list[int] = []
        self._in_hand: list[bool] = []
        self.ring = ring
        self.ring_seats = ring_seats
        self.board_bytes = board
        self.board_block = board.cast("f")
        self._no_ring = bytes(len(ring))
        self._no_ring_seats = bytes(ring_seats)  # every slot: no action (the number of players)
        self._no_board = bytes(len(board))
        window = config.history
        self._ring_base = table * 2 * window
        scratch = arrays.tables
        self._no_ring_row = scratch * 2 * window
        self._start = self._ring_base  # the window's first slot, as a flat row
        self._slots = _ring_slots(self._ring_base, window)
        self._slot = 0  # where the hand's next action goes in _slots
        self._fresh = _PACKED.pack(
            _NO_ACTION * _STREETS, self._no_ring_row, 0, 0, config.players, 0, 0, 0, 0, 0,
            self._ring_base,
        )  # fmt: skip

    def _lead_rows(self) -> list[list[list[Any]]]:
        return []  # the relative seat is written for all tables at once

    def new_hand(self, hand: Hand, seat_of: list[int], rows: bytes | None = None) -> None:
        super().new_hand(hand, seat_of, rows)
        self._write_board(hand.board)
        self._start = self._ring_base
        self._slot = 0
        at = self.at
        self.record[at : at + _RECORD * 8] = self._fresh
        self._stacks, self._bets, self._committed, self._in_hand = hand.seat_lists()
        self.arrays._numbers[1][self.table] = self.button

    def _clear_history(self) -> None:
        self.ring[:] = self._no_ring
        self.ring_seats[:] = self._no_ring_seats

    def new_street(self, hand: Hand, seat_of: list[int]) -> None:
        """The street changed: every row afresh, and the board block."""
        self._new_street(hand, seat_of, STREET_INDEX[hand.street])
        self._write_board(hand.board)

    def next_street(self, board: Sequence[int]) -> None:
        """The street changed and only the bets went into the pot
        (:meth:`TableArrays.new_streets`): the street and the board block (``board``
        the hand's cards)."""
        self.street = _STREET_OF_BOARD[len(board)]
        self._write_board(board)

    def _write_board(self, board: Sequence[int]) -> None:
        self.board_bytes[:] = self._no_board
        block = self.board_block
        for card in board:
            block[card] = 1.0
        block[CARDS + self.street] = 1.0
        self.arrays._numbers[0][self.table] = len(board)

    def update(self, hand: Hand, seat_of: list[int], index: int) -> None:
        self.played(hand, seat_of, index, _NO_ACTION, 0, 0)

    def played(
        self, hand: Hand, seat_of: list[int], index: int, kind: int, chips: int, after: int
    ) -> None:
        """Writes the table's row of :attr:`TableArrays.record` (``kind``
        ``_NO_ACTION``: a decision that is not an action of the window, a point card)."""
        stack, alive, seat = self._stacks[index], self._in_hand[index], seat_of[index]
        if kind == _NO_ACTION or not self.window:
            row = self._no_ring_row
        else:
            row, self._start, self._slot = self._slots[self._slot]
            self.count += 1
        _PACK(
            self.record,
            self.at,
            kind * _STREETS + self.street,
            row,
            chips,
            after,
            seat,
            stack,
            self._bets[index],
            self._committed[index],
            alive,
            alive and not stack,
            self._start,
        )


def _ring_slots(base: int, window: int) -> list[tuple[int, int, int]]:
    """The ring's slots of a hand's actions, worked out once: for the hand's action
    ``j`` (at ``j`` below ``2 window``, then at ``window + j % window``), its flat row
    ``base + j % window``, the window's first slot after it, and where action ``j + 1``
    is."""
    slots = []
    for j in range(2 * window):
        recorded = j + 1
        start = base + recorded % window if recorded >= window else base
        following = recorded if recorded < 2 * window else window
        slots.append((base + j % window, start, following))
    return slots


def _seat_hot(n: int) -> list[bytes]:
    """Each seat's one-hot among ``n`` as float32 bytes."""
    return [struct.pack(f"={n}f", *_one_hot(n, (k,))) for k in range(n)]


def _kind_street_rows() -> list[list[bytes]]:
    """The kind and street one-hots of a past action as float32 bytes, by kind and
    street."""
    kinds, streets = len(PAST_KINDS), len(PAST_STREETS)
    size = kinds + streets
    return [
        [
            struct.pack(f"={size}f", *_one_hot(size, (kind, kinds + street)))
            for street in range(streets)
        ]
        for kind in range(kinds)
    ]


def _one_hot(size: int, ones: tuple[int, ...]) -> list[float]:
    values = [0.0] * size
    for i in ones:
        values[i] = 1.0
    return values


_KIND_STREET = _kind_street_rows()  # a past action's kind and street one-hots
