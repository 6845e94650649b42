"""The records a tournament keeps and returns (RULES.md TRN-13, TRN-14, TRN-17,
TRN-20): its entries, the moves between tables, the places, what each finished hand did,
and the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["Entry", "HandReport", "Move", "Placement", "Result"]


@dataclass
class Entry:
    """One entry (TRN-1): its ``number`` (order of entry, from 0), its ``player``, where
    it sits (``table``, ``seat``: ``None`` when not seated), its ``place`` once out (and
    the places its tie shares), its ``prize``, and the rebuys and add-on it bought."""

    number: int
    player: str
    table: int | None = None
    seat: int | None = None
    place: int | None = None
    shared: tuple[int, ...] = ()
    prize: int = 0
    rebuys: int = 0
    add_on: bool = False


class Move(NamedTuple):
    """A player moved (TRN-13, TRN-14)."""

    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int


@dataclass(frozen=True)
class Placement:
    """An entry placed (TRN-17): its number, player, place and the places it shares."""

    entry: int
    player: str
    place: int
    shared: tuple[int, ...]


@dataclass(frozen=True)
class HandReport:
    """What :meth:`Tournament.finish_hand` did: the entries it ``eliminated`` (placed),
    the players who busted and ``may_rebuy`` first (TRN-6), the ``moves``, the tables
    ``broken``, whether hand-for-hand is on, and whether the tournament is ``finished``."""

    table: int
    eliminated: tuple[Placement, ...]
    may_rebuy: tuple[str, ...]
    moves: tuple[Move, ...]
    broken: tuple[int, ...]
    hand_for_hand: bool
    finished: bool


@dataclass(frozen=True)
class Result:
    """TRN-20: every entry's place and prize (best place first), the entrants, the pool,
    the hands played and the last level reached (counted from 1)."""

    entrants: int
    pool: int
    hands: int
    level: int
    places: tuple[Placement, ...]
    prizes: dict[int, int]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "entrants": self.entrants,
            "pool": self.pool,
            "hands": self.hands,
            "level": self.level,
            "places": [
                {"place": p.place, "player": p.player, "entry": p.entry,
                 "prize": self.prizes.get(p.entry, 0), "shared": list(p.shared)}
                for p in self.places
            ],
        }  # fmt: skip
