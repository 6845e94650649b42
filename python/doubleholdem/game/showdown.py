"""The end of a hand (RULES.md TH-5, TH-19 to TH-23, TH-30, TH-31, DH-4, DH-9): who
shows first, who may muck, the chips that go back before the pots are made, and each
pot made and awarded.

Pure functions of the hand's data (seats numbered clockwise from 0); the result is a
:class:`Settlement` that a :class:`~doubleholdem.game.Hand` applies in order: the
returns, then each player's showing, then the pots. The pots themselves are
:mod:`doubleholdem.game.pots`' rules.

>>> in_hand = [False, True, True, True]  # seat 0 folded its small blind
>>> order = show_order(in_hand, button=3, last_aggressor=None, runout=False)
>>> order  # checked through: the first player left of the button shows first
[1, 2, 3]
>>> ending = showdown(
...     committed=[10, 100, 100, 100], in_hand=in_hand, stacks=[990, 900, 900, 900],
...     dead=0, order=order, values={1: HandValue(500), 2: HandValue(700), 3: HandValue(600)},
...     shown=[False] * 4, rake=None, button=3)
>>> [(s.seat, s.show, s.value and s.value.value) for s in ending.showings]  # seat 3 mucks
[(1, True, 500), (2, True, 700), (3, False, None)]
>>> ending.results
[PotResult(pot=0, amount=310, rake=0, eligible=(1, 2, 3), winners=(2,), shares=(310,))]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import compress
from operator import itemgetter
from typing import NamedTuple

from doubleholdem import _core
from doubleholdem.game.betting import CLOCKWISE
from doubleholdem.game.config import Rake
from doubleholdem.game.pots import (
    Pot,
    PotResult,
    _award,
    _live_top,
    _rake_amounts,
    _side_pots,
    _uncalled_bet,
)

__all__ = [
    "HandValue",
    "Settlement",
    "Showing",
    "can_win",
    "dead_hands_money",
    "hand_value",
    "played_cards",
    "show_order",
    "showdown",
    "uncontested",
]


class HandValue(NamedTuple):
    """A player's hand at the showdown: its ``value`` (higher wins, EV-1), in Double
    Hold'em which of its two hands plays (``hand``, DH-4), and its best five ``cards``."""

    value: int
    hand: int | None = None
    cards: tuple[int, ...] = ()


class Showing(NamedTuple):
    """What the player in ``seat`` does at the end of the hand: turns its cards face up
    now (``show``; False if they already were, or it mucks) and has its ``value`` shown,
    or mucks (``show`` False and ``value`` ``None``, TH-22). A winner nobody contested
    who shows has ``show`` True and no ``value``."""

    seat: int
    show: bool
    value: HandValue | None


class Settlement(NamedTuple):
    """How a hand ends, in the order it happens: chips that go back before the pots are
    made (``returned``: ``(seat, chips)``, an uncalled bet, TH-20, then chips no live
    player can win, TH-19), each player's showing in show order (none when one player
    is left, TH-5), and each pot's result, side pots first (TH-23)."""

    returned: list[tuple[int, int]]
    showings: list[Showing]
    results: list[PotResult]


_new = tuple.__new__  # a named tuple made without its __new__: the hand's end is warm


def hand_value(
    hole: tuple[int, ...], point: int | None, board: tuple[int, ...], double: bool
) -> HandValue:
    """The value of ``hole`` with the five ``board`` cards: the best five of seven
    (EV-1), or in Double Hold'em (``double``) the better of the two hands the point card
    ``point`` (an index into ``hole``) makes (DH-3, DH-4)."""
    if double:
        assert point is not None  # DH-5: everyone in the hand chose on the flop
        value, which, five = _core.resolve(hole, point, board)
        return _new(HandValue, (value, which, tuple(five)))
    cards = [*hole, *board]
    return _new(HandValue, (_core.evaluate(cards), None, tuple(_core.best_five(cards))))


def played_cards(hole: tuple[int, ...], point: int | None, which: int | None) -> tuple[int, ...]:
    """The two hole cards of the Double Hold'em hand ``which`` (1 or 2, DH-3, DH-4) that
    the point card ``point`` (an index into ``hole``) makes: the point card and its
    partner; none in Texas Hold'em (``which`` ``None``).

    >>> played_cards((7, 20, 33), 1, 2)
    (20, 33)
    """
    if which is None:
        return ()
    assert point is not None  # DH-5: chosen on the flop
    others = hole[:point] + hole[point + 1 :]  # the other two, in dealing order
    return (hole[point], others[which - 1])


def show_order(
    in_hand: Sequence[bool], button: int, last_aggressor: int | None, runout: bool
) -> list[int]:
    """TH-22: the players still in the hand in the order they show: the last bettor or
    raiser of the final round first, else (checked through, or everyone all-in: a
    ``runout``) the first player left of the button; then clockwise."""
    n = len(in_hand)
    start = button + 1 if runout or last_aggressor is None else last_aggressor
    seats = CLOCKWISE[n][start % n]
    return list(compress(seats, itemgetter(*seats)(in_hand)))  # built-ins: every showdown


def can_win(seat: int, value: int, shown: Mapping[int, int], pots: Sequence[Pot]) -> bool:
    """True if ``value`` can win or tie a pot ``seat`` is eligible for against the
    values ``shown`` so far; a hand that cannot may be mucked (TH-22)."""
    for _, eligible in pots:
        if seat in eligible:
            for other in eligible:
                if shown.get(other, -1) > value:
                    break
            else:
                return True
    return False


def dead_hands_money(committed: list[int], in_hand: Sequence[bool], killed: Sequence[int]) -> int:
    """TH-24: the chips of the dead hands ``killed`` above the most a live hand put in,
    taken off ``committed`` (in place): dead money for the main pot, never returned to
    a dead hand as a folded player's would be (TH-19).

    >>> committed = [5, 0, 10]  # seat 2's dead big blind, seat 0's small blind live
    >>> dead_hands_money(committed, [True, False, False], [2]), committed
    (5, [5, 0, 5])
    """
    top = _live_top(committed, in_hand)
    money = 0
    for seat in killed:
        over = committed[seat] - top
        if over > 0:
            committed[seat] = top
            money += over
    return money


def showdown(
    committed: Sequence[int],
    in_hand: Sequence[bool],
    stacks: Sequence[int],
    dead: int,
    order: Sequence[int],
    values: Mapping[int, HandValue | None],
    shown: Sequence[bool],
    rake: Rake | None,
    button: int,
    muck_losing: Sequence[bool] = (),
) -> Settlement:
    """The end of a hand that reaches the showdown: each seat's chips in the middle
    (``committed``), who is in the hand and the stacks behind, ``dead`` money for the
    main pot, the players in show ``order`` (:func:`show_order`) with their ``values``
    (``None``: a hand that forfeits, a replayed history's mucked hand: it mucks and wins
    nothing) and whether they are face up already (``shown``), the ``rake``, the ``button`` and
    each seat's preference to muck a hand that cannot win (``muck_losing``; empty: all
    do).

    Chips no live player can win go back (TH-19); the pots are made (TH-21); in show
    order, a hand shows if it is face up already or can still win or tie a pot, else it
    mucks unless its player chose to show it (TH-22; a losing hand shown wins nothing);
    each pot goes to its best shown hands after rake (TH-23, TH-31), ties split with odd
    chips clockwise from the button (TH-30)."""
    committed = list(committed)
    stacks = list(stacks)
    returned = _returns(committed, _live_top(committed, in_hand), stacks)
    pots = _side_pots(committed, in_hand, stacks, dead)  # all-in: nothing behind
    best: dict[int, int] = {}
    showings = []
    for seat in order:
        value = values[seat]
        if value is None:  # a hand that forfeits: mucked, it wins nothing
            showings.append(_new(Showing, (seat, False, None)))
        elif (
            shown[seat]
            or can_win(seat, value.value, best, pots)
            or (muck_losing and not muck_losing[seat])
        ):
            best[seat] = value.value
            showings.append(_new(Showing, (seat, not shown[seat], value)))
        else:
            showings.append(_new(Showing, (seat, False, None)))
    rakes = _rake_amounts(pots, rake, True)
    results = _award(pots, best, button, len(committed), rakes)
    return _new(Settlement, (returned, showings, results))


def uncontested(
    committed: Sequence[int],
    bets: Sequence[int],
    in_hand: Sequence[bool],
    dead: int,
    rake: Rake | None,
    flop_dealt: bool,
    show_uncontested: Sequence[bool] = (),
) -> Settlement:
    """The end of a hand that everyone but one player folded (TH-5): the uncalled part
    of this round's ``bets`` goes back (TH-20), then the chips the winner cannot win
    (TH-19); the winner takes every other chip without showing, unless its preference
    (``show_uncontested``; empty: nobody does) is to show, less the ``rake`` (TH-31;
    none before the flop with "no flop, no drop")."""
    committed = list(committed)
    returned = []
    uncalled = _uncalled_bet(bets)
    if uncalled is not None:
        seat, chips = uncalled
        committed[seat] -= chips
        returned.append(uncalled)
    winner = in_hand.index(True)
    top = committed[winner]  # the only live stake: the top
    if max(committed) > top:  # (else nothing to return: the common case)
        returned += _returns(committed, top, None)
    amount = sum(committed) + dead
    taken = (
        0 if rake is None else _rake_amounts([_new(Pot, (amount, (winner,)))], rake, flop_dealt)[0]
    )
    alone = (winner,)
    result = _new(PotResult, (0, amount, taken, alone, alone, (amount - taken,)))
    showings = (
        [_new(Showing, (winner, True, None))]
        if show_uncontested and show_uncontested[winner]
        else []
    )
    return _new(Settlement, (returned, showings, [result]))


def _returns(committed: list[int], top: int, stacks: list[int] | None) -> list[tuple[int, int]]:
    """The chips no live player can win, those above ``top``, the most a live player
    put in (:func:`~doubleholdem.game.pots._live_top`), taken off ``committed`` (and put
    back on ``stacks``): ``(seat, chips)`` for each seat they go back to (TH-19)."""
    returned: list[tuple[int, int]] = []
    if max(committed) <= top:
        return returned  # the common case: no folded seat is above every live one
    for seat, chips in enumerate(committed):
        if chips > top:
            committed[seat] = top
            if stacks is not None:
                stacks[seat] += chips - top
            returned.append((seat, chips - top))
    return returned
