"""The posts before the deal as a pure plan (doubleholdem.game.posting), table-driven:
who posts the blinds (TH-2, TH-3, TH-38), antes (TH-19), short posts (TH-18) and a
table's live and dead posts (TH-36, TH-37)."""

from __future__ import annotations

from typing import Any

import pytest

from doubleholdem.game import AnteType, GameConfig, Hand
from doubleholdem.game.dealing import hole_cards
from doubleholdem.game.posting import COMMITTED, DEAD, WAGER, blind_seats, opening, posts


def config(stacks: tuple[int, ...], **settings: Any) -> GameConfig:
    return GameConfig(stacks=stacks, small_blind=5, big_blind=10, **settings)


# players, button, placed blind seats -> (small, big)
BLIND_SEATS = [
    (3, 0, None, (1, 2)),  # TH-2: left of the button, then left of it
    (3, 2, None, (0, 1)),
    (6, 4, None, (5, 0)),
    (2, 0, None, (0, 1)),  # TH-3: heads-up, the button posts the small blind
    (2, 1, None, (1, 0)),
    (4, 0, (None, 2), (None, 2)),  # TH-38: placed by a table, no small blind
]


@pytest.mark.parametrize(("players", "button", "placed", "seats"), BLIND_SEATS)
def test_blind_seats(
    players: int,
    button: int,
    placed: tuple[int | None, int] | None,
    seats: tuple[int | None, int],
) -> None:
    game = config((100,) * players, button=button, blind_seats=placed)
    assert blind_seats(game) == seats


# stacks, settings -> posts as (kind, seat, chips, into, all_in), in order
POSTS: list[tuple[str, tuple[int, ...], dict[str, Any], list[Any]]] = [
    (
        "TH-2: the blinds",
        (100, 100, 100),
        {},
        [("small_blind", 1, 5, WAGER, False), ("big_blind", 2, 10, WAGER, False)],
    ),
    (
        "TH-18: a short big blind posts what it has, all-in",
        (100, 100, 7),
        {},
        [("small_blind", 1, 5, WAGER, False), ("big_blind", 2, 7, WAGER, True)],
    ),
    (
        "TH-19: uniform antes clockwise from left of the button, before the blinds",
        (100, 100, 3),
        {"ante": 4, "button": 1},
        [
            ("ante", 2, 3, COMMITTED, True),
            ("ante", 0, 4, COMMITTED, False),
            ("ante", 1, 4, COMMITTED, False),
            ("big_blind", 0, 10, WAGER, False),  # the all-in small blind posts nothing
        ],
    ),
    (
        "TH-19: a big-blind ante, dead, from the big blind before its blind",
        (100, 100, 100),
        {"ante": 10, "ante_type": AnteType.BIG_BLIND},
        [
            ("ante", 2, 10, DEAD, False),
            ("small_blind", 1, 5, WAGER, False),
            ("big_blind", 2, 10, WAGER, False),
        ],
    ),
    (
        "TH-36, TH-37: a live post and a dead post, clockwise from left of the button",
        (100, 100, 100, 100),
        {"live_posts": (10, 0, 0, 10), "dead_posts": (5, 0, 0, 0)},
        [
            ("small_blind", 1, 5, WAGER, False),
            ("big_blind", 2, 10, WAGER, False),
            ("post", 3, 10, WAGER, False),
            ("post", 0, 10, WAGER, False),
            ("post_dead", 0, 5, DEAD, False),
        ],
    ),
    (
        "TH-37: a dead post that the live post left short",
        (100, 100, 100, 12),
        {"live_posts": (0, 0, 0, 10), "dead_posts": (0, 0, 0, 5)},
        [
            ("small_blind", 1, 5, WAGER, False),
            ("big_blind", 2, 10, WAGER, False),
            ("post", 3, 10, WAGER, False),
            ("post_dead", 3, 2, DEAD, True),
        ],
    ),
]


@pytest.mark.parametrize(
    ("stacks", "settings", "expected"), [row[1:] for row in POSTS], ids=[row[0] for row in POSTS]
)
def test_posts(stacks: tuple[int, ...], settings: dict[str, Any], expected: list[Any]) -> None:
    game = config(stacks, **settings)
    plan = posts(game, stacks)
    assert [tuple(post) for post in plan] == expected
    hand = Hand(game, seed=1)  # the hand posts by the plan, in its order
    logged = [(e.kind, e.seat, e.amount, e.all_in) for e in hand.events if e.kind != "deal"]
    assert logged[: len(plan)] == [(p.kind, p.seat, p.chips, p.all_in) for p in plan]
    assert hand.pot == sum(p.chips for p in plan)


@pytest.mark.parametrize(
    ("stacks", "settings"), [row[1:3] for row in POSTS], ids=[row[0] for row in POSTS]
)
def test_opening_is_the_posts_made(stacks: tuple[int, ...], settings: dict[str, Any]) -> None:
    """Every hand of a config starts from its opening: the posts of the plan moved into
    the bets, the shares of the pots or the dead money; the hole cards dealt one at a
    time clockwise from the seat left of the button (TH-1)."""
    game = config(stacks, **settings)
    start = opening(game)
    left, bets, committed, dead = list(stacks), [0] * len(stacks), [0] * len(stacks), 0
    for post in posts(game, stacks):
        left[post.seat] -= post.chips
        if post.into != DEAD:
            committed[post.seat] += post.chips
        if post.into == WAGER:
            bets[post.seat] += post.chips
        dead += post.chips if post.into == DEAD else 0
    assert (list(start.stacks), list(start.bets), list(start.committed)) == (left, bets, committed)
    assert start.dead == dead
    deck = list(range(51, -1, -1))
    hand = Hand(game, deck=deck)
    assert [hand.hole(s) for s in range(len(stacks))] == [
        list(cards) for cards in hole_cards(deck, start.order, 2)
    ]
    assert (hand.stacks, hand.bets, hand.committed) == (left, bets, committed)


def test_a_config_derives_its_own_opening() -> None:
    """The opening is made once per config and kept with it; a config whose fields were
    copied from another's (as a table makes each hand's from a template) makes its own
    rather than taking the other's."""
    first = config((100, 100))
    assert first.derived("_opening", opening) is first.derived("_opening", opening)
    copied: GameConfig = object.__new__(GameConfig)
    copied.__dict__.update(first.__dict__)
    copied.__dict__["stacks"] = (100, 1)
    assert copied.derived("_opening", opening).stacks == (95, 0)
    assert first.derived("_opening", opening).stacks == (95, 90)
