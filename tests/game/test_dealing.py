"""The deck a hand is dealt from (TH-1): a deck given as card numbers is taken as it
is if it holds distinct cards 0..51, else refused naming the bad or repeated card."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from doubleholdem.cards import format_card
from doubleholdem.errors import DuplicateCard, InvalidCard
from doubleholdem.game import GameConfig, Hand
from doubleholdem.game.dealing import card_order


class Card(int):
    """An int subclass: a card number all the same."""


def card_numbers(order: list[Any]) -> bool:
    """The definition: distinct numbers 0..51, each an int (a subclass too), no bool."""
    return (
        all(isinstance(card, int) and not isinstance(card, bool) for card in order)
        and len(set(order)) == len(order)
        and set(order) <= set(range(52))
    )


odd_cards = st.sampled_from([True, False, 1.0, np.int64(3), Card(4), 52, -1, 255, 256, 2**40])


@given(
    st.lists(st.one_of(st.integers(-3, 60), odd_cards, st.sampled_from(range(52))), max_size=60)
    | st.permutations(range(52)).map(list)
)
def test_a_deck_is_taken_as_it_is_or_refused(order: list[Any]) -> None:
    """Distinct card numbers come back as a new list in their order; a bool, a float,
    a number outside 0..51 or a repeated card is refused, naming it."""
    if card_numbers(order):
        found = card_order(order)
        assert found == order and found is not order
    else:
        with pytest.raises((InvalidCard, DuplicateCard)):
            card_order(order)


def test_a_shuffled_deck_with_a_bool_is_refused() -> None:
    deck = list(range(52))
    deck[deck.index(1)] = True
    with pytest.raises(InvalidCard, match="True is not a card"):
        Hand(GameConfig(stacks=(100, 100), small_blind=1, big_blind=2), deck=deck)


def test_a_deck_of_card_names_is_dealt_as_their_numbers() -> None:
    """Names are cards as numbers are (the library's convention): the hand deals the
    numbers and plays to the showdown (names used to be dealt as strings, failing
    there)."""
    config = GameConfig(stacks=(100, 100), small_blind=1, big_blind=2)
    numbers = list(range(51, -1, -1))
    named = Hand(config, deck=[format_card(card) for card in numbers])
    plain = Hand(config, deck=numbers)
    for hand in (named, plain):
        while not hand.over:
            hand.check_or_call()
    assert named.hole(0) == plain.hole(0) and all(type(c) is int for c in named.hole(0))
    assert named.board == plain.board and named.stacks == plain.stacks


@pytest.mark.parametrize(
    ("deck", "error", "named"),
    [(["As", "Kd", "As"], DuplicateCard, "As"), (["As", "Kx"], InvalidCard, "Kx")],
)
def test_a_deck_of_bad_names_is_refused_naming_the_card(
    deck: list[str], error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named):
        card_order(deck)
