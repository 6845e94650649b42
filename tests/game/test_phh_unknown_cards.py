"""PHH with unknown cards, exactly (issue 32 item 1): a card dealt ``??`` and shown later
is known; a hand mucked at the showdown (``p2 sm``) forfeits, whatever placeholder cards
would make of it; a pot among hands nobody shows is refused with the reason, never
decided by placeholder cards. pokerkit, an independent PHH reader, agrees on the Texas
files."""

from __future__ import annotations

import pytest

from doubleholdem.errors import InvalidHandHistory
from doubleholdem.game.phh import loads, replay

pokerkit = pytest.importorskip("pokerkit")

# p3 is dealt unknown cards and mucks: the lowest unused cards (2c 2d) would make quads
# with the board's 2h 2s; p1's shown full house wins.
MUCKED = """
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [200, 200, 200]
actions = ["d dh p1 KhKs", "d dh p2 3c3d", "d dh p3 ????",
           "p3 cc", "p1 cc", "p2 cc", "d db 2h2sKd", "p1 cbr 10", "p2 f", "p3 cc",
           "d db 7c", "p1 cc", "p3 cc", "d db 9h", "p1 cc", "p3 cc", "p1 sm KhKs", "p3 sm"]
finishing_stacks = [230, 190, 180]
"""


def test_a_mucked_unknown_hand_forfeits() -> None:
    result = replay(loads(MUCKED))
    assert result.finishing_stacks == [230, 190, 180]
    assert result.pots == [(50, [0])]


def test_pokerkit_agrees_that_the_mucked_hand_loses() -> None:
    *_, state = pokerkit.HandHistory.loads(MUCKED)
    assert list(state.stacks) == [230, 190, 180]


def test_a_mucked_known_hand_forfeits_too() -> None:
    """PHH's muck: the hand is given up, even one that would have won (pokerkit)."""
    text = MUCKED.replace('"d dh p3 ????"', '"d dh p3 AdAc"').replace('"d db 9h"', '"d db Ah"')
    result = replay(loads(text))
    assert result.finishing_stacks == [230, 190, 180]
    *_, state = pokerkit.HandHistory.loads(text)
    assert list(state.stacks) == [230, 190, 180]


# A Double Hold'em hand seen by p1: p2's cards unknown when dealt, its point card
# revealed on the flop (DH-8), its three cards shown at the end.
DOUBLE_SHOWN = """
variant = "NDH"
antes = [0, 0]
blinds_or_straddles = [5, 10]
min_bet = 10
_reveal_point = true
starting_stacks = [100, 100]
actions = ["d dh p1 9d9c4s", "d dh p2 ??????", "p2 cc", "p1 cc", "d db JcAh9s",
           "p1 pc 9d", "p1 cc", "p2 pc Kh", "p2 cc", "d db 2c", "p1 cc", "p2 cc",
           "d db 3d", "p1 cc", "p2 cc", "p1 sm 9d9c4s", "p2 sm AsKhQh"]
finishing_stacks = [110, 90]
"""


def test_unknown_cards_shown_later_are_known_after_a_revealed_point() -> None:
    """The point card Kh, revealed first, is the middle card p2 shows later: no
    'shows cards it was not dealt'."""
    result = replay(loads(DOUBLE_SHOWN))
    assert result.finishing_stacks == [110, 90]
    assert set(_names(result.hand.hole(1))) == {"As", "Kh", "Qh"}  # dealt what it showed


def _names(cards: list[int]) -> list[str]:
    from doubleholdem.cards import CARD_NAMES

    return [CARD_NAMES[c] for c in cards]


def test_the_shown_point_card_plays() -> None:
    """p2 chose Kh: with AsKhQh on Jc Ah 9s 2c 3d its hands are Kh+As (pair of aces,
    king kicker) or Kh+Qh; p1's trips 9 (point 9d) win either way, but the replayed
    point is p2's own Kh."""
    hand = replay(loads(DOUBLE_SHOWN)).hand
    assert _names([hand.hole(1)[hand.points[1] or 0]]) == ["Kh"]


def test_a_pot_among_hands_nobody_shows_is_refused() -> None:
    text = MUCKED.replace('"p1 sm KhKs", ', '"p1 sm", ').replace('"d dh p1 KhKs"', '"d dh p1 ????"')
    with pytest.raises(
        InvalidHandHistory,
        match=r"the main pot is contested by hands nobody "
        r"shows \(p1, p3\): the file does not say who wins it",
    ):
        replay(loads(text))


def test_a_hand_shown_without_its_point_card_is_refused() -> None:
    text = DOUBLE_SHOWN.replace('"p2 pc Kh"', '"p2 pc ??"').replace("_reveal_point = true\n", "")
    with pytest.raises(InvalidHandHistory, match=r"p2 shows down a hand the file does not give"):
        replay(loads(text))


def test_an_unknown_hand_that_never_reaches_a_showdown_needs_no_cards() -> None:
    """p2 folds unseen: its placeholder cards are never valued."""
    text = MUCKED.replace('"p3 sm"', '"p3 sm 2c2d"').replace("[230, 190, 180]", "[180, 190, 230]")
    result = replay(loads(text))  # p3's shown quads beat the kings full
    assert result.finishing_stacks == [180, 190, 230]
