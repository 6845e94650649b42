"""The observation's layout, declared once (:class:`Layout`): its blocks in order with
their offsets and sizes, and the fields of each kind of row inside them (a seat's row, the
legal row, a past action's row). Every writer (the AEC and Gymnasium environments'
:class:`~doubleholdem.rl.observations.Encoder`, the kept rows of
:mod:`~doubleholdem.rl.rows` and the vector environment's writer) reads its offsets here,
and ``docs/rl.md``'s table of blocks is tested against :meth:`Layout.describe`.

To change a block: change its entry in :meth:`Layout.__init__` (and its row's fields
below, if it has any); the writers follow the names.

>>> layout = Layout(players=2, double=False, history=1, mask=None)
>>> [(name, start, size) for name, start, size, _ in layout.describe()][:3]
[('hole', 0, 52), ('board', 52, 52), ('street', 104, 5)]
>>> layout.seats + layout.seat_row * 1 + TO_ACT  # relative seat 1's "to act now"
123
>>> layout.past.size, layout.past.kind, layout.past.street, layout.past.chips
(13, 2, 7, 11)
"""

from __future__ import annotations

import struct
from typing import NamedTuple

__all__ = [
    "CARDS",
    "DECISIONS",
    "FLOAT_BYTES",
    "HAND_OVER",
    "LEGAL_FEATURES",
    "LEGAL_ROW",
    "PAST_CHIPS",
    "PAST_CHIPS_ROW",
    "PAST_KINDS",
    "PAST_STREETS",
    "POINT_DECISION",
    "SEAT_FEATURES",
    "SEAT_ROW",
    "STREETS",
    "TO_ACT",
    "WAGER",
    "Block",
    "Layout",
    "PastRow",
]

CARDS = 52
"""A block of cards: one entry per card, 0..51 as in :mod:`doubleholdem.cards`."""
STREETS = ("preflop", "flop", "turn", "river", "hand over")
"""The street block's one-hot, in order."""
DECISIONS = ("to act on the betting", "to choose a point card")
"""The decision block's one-hot, in order."""
HAND_OVER = STREETS.index("hand over")
POINT_DECISION = DECISIONS.index("to choose a point card")
FLOAT_BYTES = struct.calcsize("=f")
"""Bytes an entry of the observation takes (float32)."""
SEAT_FEATURES = (
    "dealt in this hand",
    "still in the hand (not folded)",
    "all-in",
    "to act now",
    "stack behind (bb)",
    "wager this round (bb)",
    "chips put in this hand (bb)",
)
"""A seat's row of the seats block, in order."""
TO_ACT = SEAT_FEATURES.index("to act now")
WAGER = SEAT_FEATURES.index("wager this round (bb)")
SEAT_ROW = struct.Struct(f"={len(SEAT_FEATURES)}f")
"""The packer of a seat's row (:data:`SEAT_FEATURES`), float32."""
LEGAL_FEATURES = (
    "may fold",
    "may check",
    "may call",
    "chips a call puts in (bb)",
    "may bet or raise",
    "smallest bet or raise to (bb)",
    "largest bet or raise to (bb)",
)
"""The legal block, in order."""
LEGAL_ROW = struct.Struct(f"={len(LEGAL_FEATURES)}f")
"""The packer of the legal block (:data:`LEGAL_FEATURES`), float32."""
PAST_KINDS = ("fold", "check", "call", "bet", "raise")
"""A past action's kind one-hot, in order."""
PAST_STREETS = STREETS[:4]
"""A past action's street one-hot (a decision is taken on one of the four streets)."""
PAST_CHIPS = ("chips put in (bb)", "wager after it (bb)")
"""A past action's chips, after its one-hots."""
PAST_CHIPS_ROW = struct.Struct(f"={len(PAST_CHIPS)}f")
"""The packer of a past action's chips (:data:`PAST_CHIPS`), float32."""


class Block(NamedTuple):
    """One block of the observation: its name, first index, size and meaning."""

    name: str
    start: int
    size: int
    meaning: str


class PastRow(NamedTuple):
    """A past action's row of the history block, for ``players`` seats: the relative
    seat that acted (``players`` entries from 0), the kind (from :attr:`kind`), the
    street (from :attr:`street`), the chips (from :attr:`chips`); :attr:`size` in all."""

    seat: int
    kind: int
    street: int
    chips: int
    size: int

    @classmethod
    def of(cls, players: int) -> PastRow:
        """The row for ``players`` seats."""
        kind = players
        street = kind + len(PAST_KINDS)
        chips = street + len(PAST_STREETS)
        return cls(0, kind, street, chips, chips + len(PAST_CHIPS))


class Layout:
    """The observation of an environment of ``players`` seats (``double``: Double
    Hold'em), ``history`` past actions, and a discrete action set of ``mask`` action
    numbers (``None``: exact actions, no mask block). Each block's first index is an
    attribute of its name (:attr:`hole`, :attr:`board`, ... ; 0 for a block this
    layout has not); :attr:`size` is the whole vector's."""

    def __init__(self, players: int, double: bool, history: int, mask: int | None) -> None:
        n = self.players = players
        self.double = double
        self.history_length = history
        self.past = PastRow.of(n)
        self.seat_row = len(SEAT_FEATURES)
        self.legal_size = len(LEGAL_FEATURES)
        entries: list[tuple[str, int, str]] = [
            ("hole", CARDS, "own hole cards (one per card, 0..51 as in doubleholdem.cards)"),
        ]
        if double:
            entries.append(("point", CARDS, "own chosen point card (DH-5)"))
        entries += [
            ("board", CARDS, "board cards"),
            ("street", len(STREETS), ", ".join(STREETS)),
            ("decision", len(DECISIONS), ", ".join(DECISIONS)),
            ("position", n, "own seat's distance clockwise from the button (0: button)"),
            ("seats", n * self.seat_row, "per relative seat: " + "; ".join(SEAT_FEATURES)),
            ("pot", 1, "every chip in the middle (bb)"),
            ("legal", self.legal_size, "; ".join(LEGAL_FEATURES)),
        ]
        if mask is not None:
            entries.append(("mask", mask, "the legal-action mask (as action_mask)"))
        entries.append(("shown", (n - 1) * CARDS, "per other relative seat: hole cards shown"))
        if double:
            entries.append(
                ("shown_points", (n - 1) * CARDS, "per other relative seat: point card seen")
            )
        entries.append(
            (
                "history",
                history * self.past.size,
                f"the last {history} actions of this hand, oldest first: relative seat "
                f"({n}), {'/'.join(PAST_KINDS)} ({len(PAST_KINDS)}), street "
                f"({len(PAST_STREETS)}), " + ", ".join(PAST_CHIPS),
            )
        )
        self.blocks: list[Block] = []
        start = 0
        for name, size, meaning in entries:
            self.blocks.append(Block(name, start, size, meaning))
            start += size
        self.size = start
        self.offsets = {block.name: block.start for block in self.blocks}
        at = self.offsets.get
        self.hole, self.point, self.board = at("hole", 0), at("point", 0), at("board", 0)
        self.street, self.decision = at("street", 0), at("decision", 0)
        self.position, self.seats, self.pot = at("position", 0), at("seats", 0), at("pot", 0)
        self.legal, self.mask = at("legal", 0), at("mask", 0)
        self.shown, self.shown_points = at("shown", 0), at("shown_points", 0)
        self.history = at("history", 0)
        # the board block and the street block follow each other: written as one
        assert self.street == self.board + CARDS
        self.board_and_street = CARDS + len(STREETS)

    def describe(self) -> list[tuple[str, int, int, str]]:
        """The blocks: (name, first index, size, meaning)."""
        return [tuple(block) for block in self.blocks]  # type: ignore[misc]

    def other_seat(self, block: int, relative: int) -> int:
        """The first index of relative seat ``relative``'s (1..players-1) part of a
        per-other-seat card block starting at ``block`` (``shown``, ``shown_points``)."""
        return block + (relative - 1) * CARDS
