"""Pots: uncalled bets (TH-20), main and side pots (TH-21), rake (TH-31) and awarding
each pot with odd chips one each clockwise from the button (TH-23, TH-30).

Pure functions over lists of integers, seats numbered clockwise from 0.

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

from doubleholdem.config import Rake

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
    if len(bets) < 2:
        return None
    top = max(bets)
    if bets.count(top) > 1:
        return None
    second = max([b for b in bets if b != top])
    return bets.index(top), top - second


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
    n = len(committed)
    top = max(committed)
    levels = sorted({committed[s] for s in range(n) if in_hand[s] and all_in[s]} | {top})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(
            (c if c < level else level) - (c if c < previous else previous) for c in committed
        )
        eligible = tuple(s for s in range(n) if in_hand[s] and committed[s] >= level)
        if not pots:
            amount += dead
        if pots and (pots[-1].eligible == eligible or not eligible):
            # merge equal pots; chips above every live player's level (only folded
            # players reach it, which the return of uncalled bets prevents) join the last
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount or not pots:
            pots.append(Pot(amount, eligible))
        previous = level
    return pots


def rake_amounts(pots: Sequence[Pot], rake: Rake | None, *, flop_dealt: bool) -> list[int]:
    """The house share of each pot (TH-31): a percentage rounded down, the hand's cap
    spent on the main pot first, nothing before the flop with "no flop, no drop"."""
    if rake is None or (rake.no_flop_no_drop and not flop_dealt):
        return [0] * len(pots)
    left = rake.cap
    taken = []
    for pot in pots:
        amount = pot.amount * rake.basis_points // 10_000
        if left is not None:
            amount = min(amount, left)
            left -= amount
        taken.append(amount)
    return taken


def clockwise_from_button(seats: Sequence[int], button: int, players: int) -> list[int]:
    """``seats`` in clockwise order starting at the first seat left of the button."""
    return sorted(seats, key=lambda s: (s - button - 1) % players)


def split(amount: int, *, winners: Sequence[int], button: int, players: int) -> dict[int, int]:
    """A pot shared by tied winners (TH-30): equal shares in whole chips, the chips that
    do not divide one each to the winners clockwise from the first seat left of the
    button. Returns seat -> chips, in that clockwise order."""
    if len(winners) == 1:
        return {winners[0]: amount}
    order = clockwise_from_button(winners, button, players)
    share, odd = divmod(amount, len(order))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(order)}


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
    results = []
    for index in range(len(pots) - 1, -1, -1):
        pot = pots[index]
        rake = rakes[index] if rakes else 0
        contenders = [s for s in pot.eligible if s in values] or list(pot.eligible)
        best = max((values.get(s, 0) for s in contenders), default=0)
        winners = [s for s in contenders if values.get(s, 0) == best]
        shares = split(pot.amount - rake, winners=winners, button=button, players=players)
        results.append(
            PotResult(index, pot.amount, rake, pot.eligible, tuple(shares), tuple(shares.values()))
        )
    return results
