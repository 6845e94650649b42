"""The deck of a hand and the order it is dealt in (RULES.md TH-1, DH-1): hole cards one
at a time clockwise from the seat left of the button, then a burn before each board deal
(three cards on the flop, one on the turn, one on the river).

Pure functions of the settings and a list of card numbers; a
:class:`~doubleholdem.game.Hand` deals by them, and :func:`stacked_deck` builds a deck
that deals chosen cards by the same order.

>>> hole_cards(list(range(52)), [1, 2, 0], rounds=2)  # seat 1 is left of the button
[(2, 5), (0, 3), (1, 4)]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import countOf, itemgetter
from typing import Any

from doubleholdem.cards import FULL_DECK, CardLike, Deck, parse_cards, shuffled
from doubleholdem.errors import InvalidConfig
from doubleholdem.game.config import GameConfig

__all__ = [
    "BOARD_CARDS",
    "card_order",
    "hand_deck",
    "hole_cards",
    "hole_dealer",
    "stacked_deck",
]

BOARD_CARDS = (0, 3, 1, 1)
"""The board cards dealt at the start of each street: none pre-flop, 3, 1, 1 (TH-1)."""


def hand_deck(
    config: GameConfig,
    seed: int | None,
    rng: random.Random | None,
    deck: Deck | Sequence[CardLike] | None,
    hole_cards_dealt: int,
) -> list[int]:
    """The cards a hand of ``config`` deals, in order: shuffled by a strong generator,
    by ``seed`` or ``rng`` (reproducible), or ``deck`` in its order (a
    :class:`~doubleholdem.cards.Deck`, or distinct cards: numbers or names); enough for the
    ``hole_cards_dealt``, the board and its burns."""
    if rng is not None and not isinstance(rng, random.Random):
        raise InvalidConfig(f"rng: give a random.Random, not {type(rng).__name__}")
    if deck is None:
        return shuffled(FULL_DECK, seed, rng)  # 52 cards: enough for any hand
    if seed is not None or rng is not None:
        raise InvalidConfig("give a deck or a seed/generator, not both")
    cards = deck.deal(len(deck)) if isinstance(deck, Deck) else card_order(deck)
    if len(cards) < hole_cards_dealt + 8:
        n = config.players
        raise InvalidConfig(f"the deck has {len(cards)} cards, too few for {n} players")
    return cards


def card_order(cards: Sequence[CardLike]) -> list[int]:
    """``cards`` as a new list of card numbers: taken as they are if they are distinct
    numbers 0..51, else read by :func:`~doubleholdem.cards.parse_cards` (names such as
    ``"As"`` become numbers), whose error names the bad or repeated card."""
    order: list[Any] = list(cards)
    return order if _card_numbers(order) else parse_cards(order)


def _card_numbers(order: list[Any]) -> bool:
    """True if ``order`` holds distinct card numbers 0..51, each an ``int`` (no bool):
    the types counted, the numbers read as bytes (built-ins, not a loop, and no set or
    list made: a deck given to a hand is checked at every hand)."""
    n = len(order)
    if n > 52 or countOf(map(type, order), int) != n:
        return False
    try:
        numbers = bytes(order)
    except ValueError:  # a number outside 0..255
        return False
    places = _PLACES[:n]
    if numbers.translate(None, _PLACES):  # a number above 51 is left
        return False
    # distinct if the last place of each number is its own place
    return numbers.translate(bytes.maketrans(numbers, places)) == places


_PLACES = bytes(range(52))


def hole_cards(
    deck: Sequence[int], order: Sequence[int], rounds: int, start: int = 0
) -> list[tuple[int, ...]]:
    """The hole cards of each seat, dealt from ``deck[start:]`` one card at a time to
    the seats in ``order`` (clockwise from the seat left of the button), ``rounds``
    times (TH-1); each seat's cards in dealing order."""
    n = len(order)
    holes: list[tuple[int, ...]] = [()] * n
    for i, seat in enumerate(order):
        holes[seat] = tuple(deck[start + i : start + i + rounds * n : n])
    return holes


def hole_dealer(
    order: tuple[int, ...], rounds: int
) -> Callable[[Sequence[int]], list[tuple[int, ...]]]:
    """:func:`hole_cards` of a deck dealt from its top to the seats in ``order``,
    ``rounds`` cards each, as a function of the deck alone, made once for each dealing
    order: each seat's cards are taken by one ``itemgetter`` of their places (no loop
    over the cards and no slices at every hand).

    No code is generated at run time: a Ctrl-C that lands while ``eval`` runs a string
    makes CPython end the process by the signal, whatever status the program chose.

    >>> hole_dealer((1, 2, 0), 2)(list(range(52)))
    [(2, 5), (0, 3), (1, 4)]
    """
    dealer = _DEALERS.get((order, rounds))
    if dealer is None:
        seats = tuple(itemgetter(*cards) for cards in hole_cards(range(52), order, rounds))

        def dealer(deck: Sequence[int]) -> list[tuple[int, ...]]:
            return [cards(deck) for cards in seats]

        _DEALERS[(order, rounds)] = dealer
    return dealer


_DEALERS: dict[tuple[tuple[int, ...], int], Callable[[Sequence[int]], list[tuple[int, ...]]]] = {}


def stacked_deck(
    config: GameConfig,
    holes: Mapping[int, str | Iterable[CardLike]],
    board: str | Iterable[CardLike] = (),
) -> Deck:
    """A deck that deals seat ``s`` the cards ``holes[s]`` (in dealing order) and then
    the ``board`` (up to five cards), following the dealing order of TH-1 (one card at
    a time from the seat left of the button, a burn before each board deal). Cards not
    given are the lowest unused ones, so the deal is reproducible.

    >>> from doubleholdem.cards import format_cards
    >>> from doubleholdem.game import Hand
    >>> config = GameConfig(stacks=(100, 100), small_blind=1, big_blind=2)
    >>> hand = Hand(config, deck=stacked_deck(config, {0: "AsAd", 1: "KcKd"}, "2c7h9s3d4h"))
    >>> [format_cards(hand.hole(s)) for s in (0, 1)]
    ['As Ad', 'Kc Kd']
    """
    n, k = config.players, config.hole_cards
    given = {seat: parse_cards(cards) for seat, cards in holes.items()}
    table = parse_cards(board)
    for seat, cards in given.items():
        if not 0 <= seat < n or len(cards) != k:
            raise InvalidConfig(f"seat {seat} cannot be dealt {len(cards)} cards ({k} each)")
    if len(table) > 5:
        raise InvalidConfig(f"a board has at most 5 cards, not {len(table)}")
    used = [c for cards in given.values() for c in cards] + table
    parse_cards(used)  # DuplicateCard names a card given twice
    spare = iter(c for c in range(52) if c not in set(used))
    order = []
    for r in range(k):
        for i in range(n):
            seat = (config.button + 1 + i) % n
            order.append(given[seat][r] if seat in given else next(spare))
    table += [next(spare) for _ in range(5 - len(table))]
    order += [next(spare), *table[:3], next(spare), table[3], next(spare), table[4]]
    return Deck(order=order)
