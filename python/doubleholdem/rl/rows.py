"""The rows of an observation that do not depend on the observer, kept up to date as a
hand moves on (:class:`PublicRows`; :class:`TableRows` and :class:`TableArrays` for the
vector environment's tables in shared arrays): each seat's chips and flags, and the window
of past actions. The encoder (:mod:`doubleholdem.rl.observations`) copies them into each
observation instead of encoding them again."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from doubleholdem.game import Hand
from doubleholdem.rl.config import EnvConfig

__all__ = [
    "KINDS",
    "SEAT_BYTES",
    "SEAT_FEATURES",
    "STREET_INDEX",
    "PublicRows",
    "TableArrays",
    "TableRows",
]

SEAT_FEATURES = (
    "dealt in this hand",
    "still in the hand (not folded)",
    "all-in",
    "to act now",
    "stack behind (bb)",
    "wager this round (bb)",
    "chips put in this hand (bb)",
)
"""A seat's row of the observation's seats block, in order."""
_SEAT_ROW = struct.Struct(f"={len(SEAT_FEATURES)}f")  # a seat's row (SEAT_FEATURES)
SEAT_BYTES = _SEAT_ROW.size
_PAST = struct.Struct("=2f")  # a past action's chips put in and wager after it (bb)
STREET_INDEX = {"preflop": 0, "flop": 1, "turn": 2, "river": 3, "showdown": 4}
KINDS = {"fold": 0, "check": 1, "call": 2, "bet": 3, "raise": 4}


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
        self._row_bytes = (n + 11) * 4
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
        _SEAT_ROW.pack_into(
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
            rows[seat] = _SEAT_ROW.pack(
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
            tail = _PAST.pack(chips / bb, after / bb)
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
    so that :meth:`Encoder.write_tables` turns them to each table's seat to act with a
    few array operations for all tables at once:

    - :attr:`seats` (tables, players, 7): each seat's row, by seat (:class:`PublicRows`);
    - :attr:`tails` (tables, window, 11) and :attr:`past` (tables, window): the window
      of past actions, oldest first: each one's kind, street, chips and wager (the
      history block's row after the relative seat) and the seat that acted (``players``
      where there is none);
    - :attr:`board` (tables, 57): the board block and the street one-hot.

    :attr:`rows` holds each table's :class:`TableRows`, which keep them up to date.
    """

    def __init__(self, config: EnvConfig, tables: int) -> None:
        n, window = config.players, config.history
        self.seats = np.zeros((tables, n, len(SEAT_FEATURES)), np.float32)
        self.tails = np.zeros((tables, window, 11), np.float32)
        self.past = np.full((tables, window), n, np.int64)
        self.board = np.zeros((tables, 52 + 5), np.float32)
        self.table = np.arange(tables)
        self.column = self.table[:, None]  # each table's index, down a column
        self.seat_numbers = np.arange(n)
        self.row_starts = np.arange(window) * (n + 11)  # each past action's row
        kept = self.seats, self.tails, self.past, self.board
        self.rows = [TableRows(config, *(_bytes_of(a[i]) for a in kept)) for i in range(tables)]


def _bytes_of(array: np.ndarray) -> Any:
    """A writable byte view of ``array``'s memory."""
    return memoryview(array).cast("B") if array.size else memoryview(bytearray())  # type: ignore[arg-type]


class TableRows(PublicRows):
    """:class:`PublicRows` of one table of a vector environment, kept in its part of
    the :class:`TableArrays` (byte views): the window of past actions once, by seat,
    instead of once per observer, and the board block too."""

    def __init__(self, config: EnvConfig, seats: Any, tails: Any, past: Any, board: Any) -> None:
        super().__init__(config)
        self.seats = seats
        self.tails = tails
        self.past_bytes = past
        self.past = past.cast("q") if len(past) else past
        self.board_bytes = board
        self.board_block = board.cast("f")
        self._no_tails = bytes(len(tails))
        self._no_past = bytes(past)  # every slot: no action (the number of players)
        self._no_board = bytes(len(board))

    def _lead_rows(self) -> list[list[list[Any]]]:
        return []  # the relative seat is written for all tables at once

    def new_hand(self, hand: Hand, seat_of: list[int], rows: bytes | None = None) -> None:
        super().new_hand(hand, seat_of, rows)
        self._write_board(hand)

    def _clear_history(self) -> None:
        self.tails[:] = self._no_tails
        self.past_bytes[:] = self._no_past

    def _new_street(self, hand: Hand, seat_of: list[int], street: int) -> None:
        if street == STREET_INDEX["showdown"]:
            # the hand is over: a vector table deals its next hand (new_hand) before
            # anyone observes it, so the rows at its end would be written for nothing
            return
        super()._new_street(hand, seat_of, street)
        self._write_board(hand)

    def _write_board(self, hand: Hand) -> None:
        self.board_bytes[:] = self._no_board
        block = self.board_block
        for card in hand.board:
            block[card] = 1.0
        block[52 + self.street] = 1.0

    def played(
        self, hand: Hand, seat_of: list[int], index: int, kind: int, chips: int, after: int
    ) -> None:
        window = self.window
        if window:
            tails, past = self.tails, self.past
            slot = self.count
            if slot >= window:  # the oldest goes
                tails[:-44] = tails[44:]
                past[:-1] = past[1:]
                slot = window - 1
            at = slot * 44
            tails[at : at + 36] = _KIND_STREET[kind][self.street]
            bb = self.bb
            _PAST.pack_into(tails, at + 36, chips / bb, after / bb)
            past[slot] = seat_of[index]
            self.count += 1
        self.update(hand, seat_of, index)


def _seat_hot(n: int) -> list[bytes]:
    """Each seat's one-hot among ``n`` as float32 bytes."""
    return [struct.pack(f"={n}f", *_one_hot(n, (k,))) for k in range(n)]


def _kind_street_rows() -> list[list[bytes]]:
    """The kind and street one-hots of a past action as float32 bytes, by kind and
    street."""
    return [
        [struct.pack("=9f", *_one_hot(9, (kind, 5 + street))) for street in range(4)]
        for kind in range(5)
    ]


def _one_hot(size: int, ones: tuple[int, ...]) -> list[float]:
    values = [0.0] * size
    for i in ones:
        values[i] = 1.0
    return values


_KIND_STREET = _kind_street_rows()  # a past action's kind and street one-hots
