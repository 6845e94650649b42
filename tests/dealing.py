"""Hand-made deals for the rules tests: a hand with chosen stacks, hole cards and board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doubleholdem.game import GameConfig, Hand, stacked_deck


def make_hand(
    stacks: Sequence[int],
    *,
    holes: dict[int, str] | None = None,
    board: str = "",
    small_blind: int = 50,
    big_blind: int = 100,
    button: int | None = None,
    **settings: Any,
) -> Hand:
    """A hand with the button on the last seat unless told (so with three or more players
    seat 0 posts the small blind and seat 1 the big blind; heads-up seat 1 is the button
    and small blind)."""
    config = GameConfig(
        stacks=tuple(stacks),
        small_blind=small_blind,
        big_blind=big_blind,
        button=len(stacks) - 1 if button is None else button,
        **settings,
    )
    return Hand(config, deck=stacked_deck(config, holes or {}, board))


def kinds(hand: Hand) -> list[str]:
    """The kinds of the events logged so far."""
    return [event.kind for event in hand.events]


def play(hand: Hand, *actions: str) -> Hand:
    """Applies actions written "fold", "check", "call", "raise 300", "all_in"."""
    for text in actions:
        word, *amount = text.split()
        hand.act(word, int(amount[0]) if amount else None)
    return hand
