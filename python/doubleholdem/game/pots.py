"""Pots: uncalled bets (TH-20), chips no live player can win, main and side pots (TH-21),
rake (TH-31) and awarding each pot with odd chips one each clockwise from the button
(TH-23, TH-30).

Pure functions over lists of integers (Python integers: nothing overflows), seats
numbered clockwise from 0. The public functions check their input and raise
``ValueError`` naming what is wrong; the hand calls the same rules through the unchecked
``_`` versions, with input it keeps consistent itself.

>>> uncalled_bet([0, 300, 100])  # seat 1 bet 300, only 100 was called
(1, 200)
>>> unwinnable([10, 5, 5], in_hand=[False, True, True])  # seat 0's ante above the rest
[5, 0, 0]
>>> side_pots([100, 300, 300, 50], in_hand=[1, 1, 1, 0], all_in=[1, 0, 0, 0])
[Pot(amount=350, eligible=(0, 1, 2)), Pot(amount=400, eligible=(1, 2))]
>>> split(10, winners=[0, 2, 3], button=2, players=4)  # odd chip to seat 3, left of the button
{3: 4, 0: 3, 2: 3}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import compress
from operator import not_
from typing import NamedTuple

from doubleholdem.game.config import MAX_PLAYERS, MIN_PLAYERS, Rake

__all__ = [
    "Pot",
    "PotResult",
    "award",
    "rake_amounts",
    "side_pots",
    "split",
    "uncalled_bet",
    "unwinnable",
]


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


# ---------------------------------------------------------------------- the rules

_new = tuple.__new__  # a named tuple made without its __new__: every showdown makes them


def _uncalled_bet(bets: Sequence[int]) -> tuple[int, int] | None:
    # built-ins over the list, not a loop: every betting round ends here
    ordered = sorted(bets)
    top, second = ordered[-1], ordered[-2]
    if second == top:  # the largest bet is matched
        return None
    return bets.index(top), top - second


def _unwinnable(committed: Sequence[int], in_hand: Sequence[bool | int]) -> list[int]:
    top = _live_top(committed, in_hand)
    return [c - top if c > top else 0 for c in committed]


def _live_top(committed: Sequence[int], in_hand: Sequence[bool | int]) -> int:
    """The most any seat still in the hand put in: only folded seats can be above it
    (after TH-20, an over-large uniform ante, TH-19); nobody can win those chips, so
    they go back to whoever put them in."""
    top = 0
    for seat, chips in enumerate(committed):  # a loop: cheaper than max over a compress
        if chips > top and in_hand[seat]:
            top = chips
    return top


def _side_pots(
    committed: Sequence[int],
    in_hand: Sequence[bool | int],
    behind: Sequence[int],
    dead: int,
) -> list[Pot]:
    """:func:`side_pots`, a player in the hand being all-in when it has nothing
    ``behind`` (its stack, or 0 for all-in and 1 for not)."""
    top = max(committed)
    for seat, chips in enumerate(committed):
        if chips < top and not behind[seat] and in_hand[seat]:
            break  # a player in the hand is all-in below the top: side pots
    else:  # one pot: every chip up to the top (nobody is above)
        return [_new(Pot, (sum(committed) + dead, _at_least(top, committed, in_hand)))]
    # the stakes of the players in the hand who are all-in
    closing = set(compress(compress(committed, in_hand), compress(map(not_, behind), in_hand)))
    levels = sorted(closing | {top})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(
            (c if c < level else level) - (c if c < previous else previous) for c in committed
        )
        eligible = _at_least(level, committed, in_hand)
        if not pots:
            amount += dead
        if pots and pots[-1].eligible == eligible:
            pots[-1] = _new(Pot, (pots[-1].amount + amount, eligible))  # equal pots merge
        elif amount or not pots:
            pots.append(_new(Pot, (amount, eligible)))
        previous = level
    return pots


def _at_least(
    level: int, committed: Sequence[int], in_hand: Sequence[bool | int]
) -> tuple[int, ...]:
    """The seats in the hand that put in ``level`` or more: those a pot up to that
    level is for."""
    eligible = []
    for seat, chips in enumerate(committed):  # a loop, not a generator: every showdown
        if chips >= level and in_hand[seat]:
            eligible.append(seat)
    return tuple(eligible)


def _rake_amounts(pots: Sequence[Pot], rake: Rake | None, flop_dealt: bool) -> list[int]:
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


def _split(amount: int, winners: Sequence[int], button: int, players: int) -> dict[int, int]:
    if len(winners) == 1:
        return {winners[0]: amount}
    order = sorted(winners, key=lambda s: (s - button - 1) % players)
    share, odd = divmod(amount, len(order))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(order)}


def _best(eligible: tuple[int, ...], values: Mapping[int, int]) -> list[int]:
    """The seats of ``eligible`` with the best of their ``values``; all of them if none
    has a value."""
    best: int | None = None
    winners: list[int] = []
    for seat in eligible:  # a loop, not comprehensions: every showdown
        value = values.get(seat)
        if value is None:
            continue
        if best is None or value > best:
            best, winners = value, [seat]
        elif value == best:
            winners.append(seat)
    return winners or list(eligible)


def _award(
    pots: Sequence[Pot],
    values: Mapping[int, int],
    button: int,
    players: int,
    rakes: Sequence[int],
) -> list[PotResult]:
    results = []
    for index in range(len(pots) - 1, -1, -1):  # side pots first (TH-23)
        amount, eligible = pots[index]
        rake = rakes[index]
        winners = _best(eligible, values)
        result: tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
        if len(winners) == 1:  # the pot whole (as _split gives it, without its dict)
            result = (index, amount, rake, eligible, (winners[0],), (amount - rake,))
        else:
            shares = _split(amount - rake, winners, button, players)
            result = (index, amount, rake, eligible, tuple(shares), tuple(shares.values()))
        results.append(_new(PotResult, result))
    return results


# ---------------------------------------------------------------------- checked API


def uncalled_bet(bets: Sequence[int]) -> tuple[int, int] | None:
    """The seat and amount of the part of the largest bet no other player matched (TH-20);
    ``None`` if the two largest bets are equal."""
    bets = _chips("bets", bets)
    return _uncalled_bet(bets) if len(bets) >= 2 else None


def unwinnable(committed: Sequence[int], *, in_hand: Sequence[bool | int]) -> list[int]:
    """The chips of each seat that no player still in the hand can win: what a folded
    seat put in above every live seat (an ante larger than every remaining stake, TH-19).
    They go back to whoever put them in before the pots are made."""
    committed = _chips("committed", committed)
    _per_seat("in_hand", in_hand, len(committed))
    return _unwinnable(committed, in_hand)


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
    hand closes a pot; adjacent pots with the same eligible players are merged. Chips
    that no live seat can win (:func:`unwinnable`) must be returned first.
    """
    committed = _chips("committed", committed)
    n = len(committed)
    _per_seat("in_hand", in_hand, n)
    _per_seat("all_in", all_in, n)
    (dead,) = _chips("dead", [dead])
    if not any(in_hand):
        raise ValueError("side_pots: no seat is in the hand")
    if any(_unwinnable(committed, in_hand)):
        raise ValueError("side_pots: return the chips no live seat can win first (unwinnable)")
    return _side_pots(committed, in_hand, [0 if flag else 1 for flag in all_in], dead)


def rake_amounts(pots: Sequence[Pot], rake: Rake | None, *, flop_dealt: bool) -> list[int]:
    """The house share of each pot (TH-31): a percentage rounded down, the hand's cap
    spent on the main pot first, nothing before the flop with "no flop, no drop"."""
    _chips("pot amounts", [pot.amount for pot in pots])
    return _rake_amounts(pots, rake, flop_dealt)


def split(amount: int, *, winners: Sequence[int], button: int, players: int) -> dict[int, int]:
    """A pot shared by tied winners (TH-30): equal shares in whole chips, the chips that
    do not divide one each to the winners clockwise from the first seat left of the
    button. Returns seat -> chips, in that clockwise order."""
    (amount,) = _chips("amount", [amount])
    _table(button, players)
    _seats("winners", winners, players)
    if not winners:
        raise ValueError("split: give at least one winner")
    return _split(amount, winners, button, players)


def award(
    pots: Sequence[Pot],
    values: Mapping[int, int],
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
    _table(button, players)
    rakes = [0] * len(pots) if rakes is None else _chips("rakes", rakes)
    if len(rakes) != len(pots):
        raise ValueError(f"award: one rake per pot ({len(pots)}), not {len(rakes)}")
    for pot, rake in zip(pots, rakes):
        _chips("pot amounts", [pot.amount])
        _seats("eligible", pot.eligible, players)
        if not pot.eligible:
            raise ValueError(f"award: a pot of {pot.amount} has no eligible seat")
        if rake > pot.amount:
            raise ValueError(f"award: a rake of {rake} is more than its pot of {pot.amount}")
    _seats("values", list(values), players)
    return _award(pots, values, button, players, rakes)


def _chips(name: str, values: Sequence[int]) -> list[int]:
    found = list(values)
    for value in found:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name}: {value!r} is not a whole number of chips")
        if value < 0:
            raise ValueError(f"{name}: {value} chips is negative")
    return found


def _per_seat(name: str, values: Sequence[object], seats: int) -> None:
    if len(values) != seats:
        raise ValueError(f"{name}: give one entry per seat ({seats}), not {len(values)}")


def _table(button: int, players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be 2 to 10, not {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
    _seats("button", [button], players)


def _seats(name: str, seats: Sequence[int], players: int) -> None:
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"{name}: seat {seat!r} is not one of the seats 0..{players - 1}")
    if len(set(seats)) != len(seats):
        raise ValueError(f"{name}: a seat is given twice in {list(seats)}")
