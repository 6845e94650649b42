"""Cards: the encoding of ARCHITECTURE.md, parsing, formatting and the deck."""

from __future__ import annotations

import random

import pytest

from doubleholdem import Deck, DuplicateCard, InvalidCard, format_card, format_cards, parse_card
from doubleholdem.cards import CARD_NAMES, parse_cards, rank, suit


def test_encoding_is_rank_times_four_plus_suit() -> None:
    assert [parse_card(t) for t in ("2c", "2d", "2h", "2s", "3c", "As")] == [0, 1, 2, 3, 4, 51]
    for card in range(52):
        assert parse_card(format_card(card)) == card
        assert card == rank(card) * 4 + suit(card)
    assert len(set(CARD_NAMES)) == 52


@pytest.mark.parametrize(
    ("text", "card"),
    [("Td", 33), ("10d", 33), ("td", 33), ("A♠", 51), ("k♥", 46), (" Qc ", 40), ("2♣", 0)],
)
def test_parses_every_spelling(text: str, card: int) -> None:
    assert parse_card(text) == card


def test_parses_many_at_once() -> None:
    assert parse_cards("AsKd Qh") == [51, 45, 42]
    assert parse_cards("As,Kd, 10h") == [51, 45, 34]
    assert parse_cards(["As", 0, "Kd"]) == [51, 0, 45]
    assert parse_cards("") == []
    assert format_cards([51, 45, 42]) == "As Kd Qh"


@pytest.mark.parametrize("bad", ["", "A", "1s", "Ax", "AsK", "11c", "Zz", "As Kd"])
def test_invalid_text_names_the_card(bad: str) -> None:
    with pytest.raises(InvalidCard) as error:
        parse_card(bad)
    assert repr(bad) in str(error.value)
    assert error.value.card == bad


@pytest.mark.parametrize("bad", [-1, 52, 255, 10**20, True, 1.5, None, b"As"])
def test_invalid_values_are_typed_errors(bad: object) -> None:
    with pytest.raises(InvalidCard) as error:
        parse_card(bad)  # type: ignore[arg-type]
    assert error.value.card == bad
    assert isinstance(error.value, ValueError)


def test_bad_card_inside_text_is_named() -> None:
    with pytest.raises(InvalidCard, match="'Xx'"):
        parse_cards("As Xx Kd")


def test_duplicates_name_the_card() -> None:
    with pytest.raises(DuplicateCard, match="duplicate card Kd") as error:
        parse_cards("As Kd Qh Kd")
    assert error.value.card == 45
    with pytest.raises(DuplicateCard):
        parse_cards([51, "As"])


def test_seeded_deck_is_reproducible_and_complete() -> None:
    first, second = Deck(seed=42), Deck(seed=42)
    cards = first.deal(52)
    assert cards == second.deal(52)
    assert sorted(cards) == list(range(52))
    assert cards != Deck(seed=43).deal(52)
    assert Deck(rng=random.Random(5)).deal(52) == Deck(seed=5).deal(52)


def test_default_deck_is_shuffled_by_a_strong_generator() -> None:
    decks = {tuple(Deck().deal(52)) for _ in range(5)}
    assert len(decks) == 5  # 52! orders: equal decks would mean no shuffle


def test_deck_order_deals_given_cards_first() -> None:
    deck = Deck(seed=1, order="As Kd Qh")
    assert deck.deal(3) == [51, 45, 42]
    assert len(deck) == 49
    assert not {51, 45, 42} & set(deck.deal(49))


def test_deck_refuses_impossible_requests() -> None:
    deck = Deck(seed=1)
    deck.remove("As Kd")
    assert len(deck) == 50 and 51 not in deck.deal(50)
    with pytest.raises(ValueError, match="cannot deal 1 cards: 0 left"):
        deck.deal(1)
    dealt = Deck(seed=1, order="As")
    dealt.deal(1)
    with pytest.raises(DuplicateCard, match="As is not in the deck"):
        dealt.remove(["As"])
    with pytest.raises(ValueError, match="not both"):
        Deck(seed=1, rng=random.Random(1))
