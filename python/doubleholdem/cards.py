"""Cards: integers 0..51, ``rank * 4 + suit`` (rank 0..12 for 2..A, suit 0..3 for clubs,
diamonds, hearts, spades), written "As", "Td" ("10d" and suit symbols are read too).

>>> parse_card("As"), parse_card("10d"), parse_card("A♠")
(51, 33, 51)
>>> format_cards(parse_cards("AsKd Qh"))
'As Kd Qh'
>>> deck = Deck(seed=1)
>>> hand = deck.deal(2)
>>> len(deck)
50
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Union

from doubleholdem import _core
from doubleholdem.errors import DuplicateCard, InvalidCard

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}

CardLike = Union[int, str]
"""A card as an integer 0..51 or as text ("As")."""

CARD_NAMES = tuple(r + s for r in RANKS for s in SUITS)
FULL_DECK = tuple(range(52))
"""The 52 cards in order (:func:`shuffled` knows them valid and checks none)."""
_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


def rank(card: int) -> int:
    """Rank 0..12 (2..A) of a card."""
    return card >> 2


def suit(card: int) -> int:
    """Suit 0..3 (clubs, diamonds, hearts, spades) of a card."""
    return card & 3


def parse_card(card: CardLike) -> int:
    """One card from text or an integer; :class:`InvalidCard` names anything else."""
    if isinstance(card, bool):
        raise InvalidCard(f"{card!r} is not a card", card=card)
    if isinstance(card, int):
        if 0 <= card < 52:
            return card
        raise InvalidCard(f"{card} is not a card: cards are integers 0..51", card=card)
    if isinstance(card, str):
        text = card.strip()
        if len(text) >= 2:
            rank_text, suit_text = text[:-1].upper(), text[-1]
            suit_text = SUIT_SYMBOLS.get(suit_text, suit_text.lower())
            name = ("T" if rank_text == "10" else rank_text) + suit_text
            if name in _BY_NAME:
                return _BY_NAME[name]
        raise InvalidCard(f"{card!r} is not a card (write it like 'As', 'Td' or '10d')", card=card)
    raise InvalidCard(f"{card!r} is not a card: give text like 'As' or an integer 0..51", card=card)


def _split(text: str) -> list[str]:
    """'AsKd Qh' -> ['As', 'Kd', 'Qh']: whitespace or commas between cards, or none."""
    tokens: list[str] = []
    for word in text.replace(",", " ").split():
        while word:
            size = 3 if word.startswith("10") else 2
            tokens.append(word[:size])
            word = word[size:]
    return tokens


def parse_cards(cards: str | Iterable[CardLike]) -> list[int]:
    """Distinct cards from text ("AsKd Qh") or an iterable of cards.

    Raises :class:`InvalidCard` naming the first bad card, :class:`DuplicateCard` naming
    the first repeated one.
    """
    items: Iterable[CardLike] = _split(cards) if isinstance(cards, str) else cards
    parsed: list[int] = []
    for item in items:
        card = parse_card(item)
        if card in parsed:
            raise DuplicateCard(f"duplicate card {CARD_NAMES[card]}", card=card)
        parsed.append(card)
    return parsed


def format_card(card: int) -> str:
    """'As' for 51."""
    return CARD_NAMES[parse_card(card)]


def format_cards(cards: Iterable[int]) -> str:
    """Cards as space-separated text."""
    return " ".join(format_card(card) for card in cards)


def shuffled(
    cards: Sequence[int], seed: int | None = None, rng: random.Random | None = None
) -> list[int]:
    """``cards`` in random order. Without ``seed`` or ``rng`` the system's strong
    generator shuffles. A seed, or a :class:`random.Random`, gives one 64-bit number
    that seeds the core's fast, reproducible shuffle; any other generator (a
    :class:`secrets.SystemRandom`, say) shuffles by itself."""
    if seed is not None:
        if rng is not None:
            raise ValueError("give a seed or a generator, not both")
        rng = random.Random(seed)
    order = cards
    if cards is not FULL_DECK:  # the full deck needs no checking: a hand's deal
        order = list(cards)
        for card in order:
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= 51:
                raise InvalidCard(f"{card!r} is not a card: cards are integers 0..51", card=card)
    if type(rng) is random.Random:
        return _core.shuffle(order, rng.getrandbits(64))
    if rng is not None and not callable(getattr(rng, "shuffle", None)):
        raise TypeError(f"rng must be a random.Random-like generator, not {type(rng).__name__}")
    mixed = list(order)
    (rng or secrets.SystemRandom()).shuffle(mixed)
    return mixed


class Deck:
    """The 52 cards in shuffled order, dealt from the top.

    Shuffled by a cryptographically strong generator unless ``seed`` (an int, for
    reproducible runs) or ``rng`` (a :class:`random.Random`) is given; ``order`` deals
    exactly the given cards first (replays, tests), then the rest in shuffled order.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        rng: random.Random | None = None,
        order: Sequence[CardLike] = (),
    ) -> None:
        first = parse_cards(order)
        rest = [card for card in range(52) if card not in set(first)]
        self._cards = first + shuffled(rest, seed, rng)

    def __len__(self) -> int:
        return len(self._cards)

    def deal(self, n: int = 1) -> list[int]:
        """The next ``n`` cards."""
        if not 0 <= n <= len(self._cards):
            raise ValueError(f"cannot deal {n} cards: {len(self._cards)} left")
        dealt, self._cards = self._cards[:n], self._cards[n:]
        return dealt

    def remove(self, cards: str | Iterable[CardLike]) -> None:
        """Take known cards out of the deck (they are somewhere else)."""
        for card in parse_cards(cards):
            if card not in self._cards:
                raise DuplicateCard(f"{CARD_NAMES[card]} is not in the deck", card=card)
            self._cards.remove(card)
