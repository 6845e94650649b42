"""Pots: uncalled bets (TH-20), main and side pots (TH-21), rake (TH-31) and awarding
each pot with odd chips one each clockwise from the button (TH-23, TH-30).

Pure functions over lists of integers, seats numbered clockwise from 0; the hand's own
settlement uses the same Rust functions (``rust/core/src/game/pots.rs``).

>>> uncalled_bet([0, 300, 100])  # seat 1 bet 300, only 100 was called
(1, 200)
>>> side_pots([100, 300, 300, 50], in_hand=[1, 1, 1, 0], all_in=[1, 0, 0, 0])
[Pot(amount=350, eligible=(0, 1, 2)), Pot(amount=400, eligible=(1, 2))]
>>> split(10, winners=[0, 2, 3], button=2, players=4)  # odd chip to seat 3, left of the button
{3: 4, 0: 3, 2: 3}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from doubleholdem import _core
from doubleholdem.game.config import Rake

__all__ = ["Pot", "PotResult", "award", "rake_amounts", "side_pots", "split", "uncalled_bet"]


class Pot(NamedTuple):
    """A pot and the seats that may win it."""

    amount: int
    eligible: tuple[int, ...]


class PotResult(NamedTuple):
    """How pot number ``pot`` (0 is the main pot) was settled: ``amount`` before rake,
    the ``rake`` taken, the ``winners`` and what each won (``shares``, in the order of
    ``winners``)."""

    pot: int
    amount: int
    rake: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]


def uncalled_bet(bets: Sequence[int]) -> tuple[int, int] | None:
    """The seat and amount of the part of the largest bet no other player matched (TH-20);
    ``None`` if the two largest bets are equal."""
    return _core.uncalled_bet(list(bets))


def side_pots(
    committed: Sequence[int],
    *,
    in_hand: Sequence[bool | int],
    all_in: Sequence[bool | int],
    dead: int = 0,
) -> list[Pot]:
    """The main pot then the side pots (TH-21).

    ``committed`` is each seat's total in the middle (folded seats too), ``in_hand`` who
    has not folded, ``all_in`` who has no chips left, ``dead`` money that goes whole into
    the main pot (a big-blind ante, TH-19). Each all-in level of a player still in the
    hand closes a pot; adjacent pots with the same eligible players are merged.
    """
    flags = [bool(v) for v in in_hand], [bool(v) for v in all_in]
    found = _core.side_pots(list(committed), *flags, dead)
    return [Pot(amount, tuple(eligible)) for amount, eligible in found]


def rake_amounts(pots: Sequence[Pot], rake: Rake | None, *, flop_dealt: bool) -> list[int]:
    """The house share of each pot (TH-31): a percentage rounded down, the hand's cap
    spent on the main pot first, nothing before the flop with "no flop, no drop"."""
    rule = None if rake is None else (rake.basis_points, rake.cap, rake.no_flop_no_drop)
    return _core.rake_amounts(_plain(pots), rule, flop_dealt)


def split(amount: int, *, winners: Sequence[int], button: int, players: int) -> dict[int, int]:
    """A pot shared by tied winners (TH-30): equal shares in whole chips, the chips that
    do not divide one each to the winners clockwise from the first seat left of the
    button. Returns seat -> chips, in that clockwise order."""
    return dict(_core.split(amount, list(winners), button, players))


def award(
    pots: Sequence[Pot],
    values: dict[int, int],
    *,
    button: int,
    players: int,
    rakes: Sequence[int] | None = None,
) -> list[PotResult]:
    """Settles every pot separately, side pots first (TH-23): the best value among the
    eligible seats that showed (``values``: seat -> hand value, higher wins) takes the
    pot after rake, ties split by :func:`split`. A pot none of whose eligible seats
    showed goes to its eligible seats as if all tied (it cannot happen in a hand played
    by the rules)."""
    shown = [values.get(seat) for seat in range(players)]
    found = _core.award(_plain(pots), shown, button, players, list(rakes or [0] * len(pots)))
    return [
        PotResult(pot, amount, rake, tuple(eligible), tuple(winners), tuple(shares))
        for pot, amount, rake, eligible, winners, shares in found
    ]


def _plain(pots: Sequence[Pot]) -> list[tuple[int, list[int]]]:
    return [(pot.amount, list(pot.eligible)) for pot in pots]
