"""Show or muck by each seat's preference, in the show order (RULES.md TH-22): a hand that
cannot win is mucked unless its player chose to show it, a winner nobody contested shows
only if its player chose to, and when everyone is all-in every hand is face up whatever
the preferences. The showdown's events name each shown hand (the Rust core's
``describe``; its category checked against pokerkit), say which Double Hold'em hand
played and with which two hole cards (DH-3, DH-4), and each pot's amount, eligible seats
and winners (TH-21, TH-23, TH-30)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dealing import make_hand, play
from doubleholdem.cards import CARD_NAMES
from doubleholdem.errors import InvalidConfig
from doubleholdem.evaluate import Category, category_of, describe
from doubleholdem.game import GameConfig, Hand, Variant
from doubleholdem.game.phh import dumps, loads, replay

pokerkit = pytest.importorskip("pokerkit")

# pokerkit's label of each category of the evaluator
LABELS = {
    Category.HIGH_CARD: "High card",
    Category.PAIR: "One pair",
    Category.TWO_PAIR: "Two pair",
    Category.THREE_OF_A_KIND: "Three of a kind",
    Category.STRAIGHT: "Straight",
    Category.FLUSH: "Flush",
    Category.FULL_HOUSE: "Full house",
    Category.FOUR_OF_A_KIND: "Four of a kind",
    Category.STRAIGHT_FLUSH: "Straight flush",
}


def ending(hand: Hand) -> list[tuple[str, int | None]]:
    """The show, muck and hand events at the end, in order."""
    return [(e.kind, e.seat) for e in hand.events if e.kind in ("show", "muck", "hand")]


def logged(hand: Hand, kind: str) -> list[dict[str, Any]]:
    return [e for e in hand.event_log(everything=True) if e["kind"] == kind]


CHECK_DOWN = ("call", "check", "check", "check", "check", "check", "check", "check")


@pytest.mark.parametrize(
    ("muck_losing", "expected"),
    [
        ((), [("show", 0), ("hand", 0), ("muck", 1)]),  # the default mucks
        ((True, True), [("show", 0), ("hand", 0), ("muck", 1)]),
        ((True, False), [("show", 0), ("hand", 0), ("show", 1), ("hand", 1)]),
    ],
)
def test_heads_up_the_loser_mucks_or_shows_by_its_preference(
    muck_losing: tuple[bool, ...], expected: list[tuple[str, int]]
) -> None:
    """Checked through heads-up: the big blind (seat 0, left of the button) shows first
    and wins with aces; the kings cannot win and are mucked unless their player chose to
    show them. Showing wins nothing."""
    hand = make_hand(
        (1000, 1000),
        holes={0: "AsAd", 1: "KcKd"},
        board="2c7h9s3d4h",
        muck_losing=muck_losing,
    )
    play(hand, *CHECK_DOWN)
    assert ending(hand) == expected
    assert hand.stacks == [1100, 900]
    assert hand.shown == [True, ("show", 1) in expected]
    names = [e["name"] for e in logged(hand, "hand")]
    kings = ["Pair, Kings, kickers Nine, Seven, Four"] if ("show", 1) in expected else []
    assert names == ["Pair, Aces, kickers Nine, Seven, Four", *kings]


def test_multiway_show_order_starts_with_the_last_aggressor() -> None:
    """Seat 2 bets the river and is called twice: it shows first (TH-22), then seat 0
    (aces: it can win) and seat 1 (kings: beaten, mucked); with seat 1's preference to
    show, its kings are turned up in the same place of the order."""
    holes = {0: "AsAd", 1: "KcKd", 2: "QcQd"}
    river = ("call", "call", "check", *("check",) * 8, "bet 100", "call", "call")
    hand = make_hand((1000, 1000, 1000), holes=holes, board="2c7h9s3d4h")
    play(hand, *river)
    assert ending(hand) == [("show", 2), ("hand", 2), ("show", 0), ("hand", 0), ("muck", 1)]
    shows = make_hand(
        (1000, 1000, 1000), holes=holes, board="2c7h9s3d4h", muck_losing=(True, False, True)
    )
    play(shows, *river)
    assert ending(shows) == [
        ("show", 2),
        ("hand", 2),
        ("show", 0),
        ("hand", 0),
        ("show", 1),
        ("hand", 1),
    ]
    assert shows.stacks == hand.stacks == [1400, 800, 800]


def test_multiway_checked_through_a_beaten_hand_mucks_by_default() -> None:
    """Checked through, three-handed: seat 0 (left of the button) first with queens, then
    seat 1's aces, then seat 2's kings, beaten by the aces: mucked, or shown by choice."""
    holes = {0: "QcQd", 1: "AsAd", 2: "KcKd"}
    for flags, last in (((), "muck"), ((True, True, False), "show")):
        hand = make_hand((500, 500, 500), holes=holes, board="2c7h9s3d4h", muck_losing=flags)
        play(hand, "call", "call", "check", *("check",) * 9)
        assert ending(hand)[:4] == [("show", 0), ("hand", 0), ("show", 1), ("hand", 1)]
        assert ending(hand)[4] == (last, 2)


def test_all_in_every_hand_is_face_up_whatever_the_preferences() -> None:
    """Everyone all-in before the flop: every hand is turned face up (TH-22) even with
    every preference at muck; the side pots (TH-21) go each to its best eligible hand
    (TH-23), and the uncalled part of the big stack goes back first (TH-20)."""
    hand = make_hand(
        (1000, 500, 300),
        holes={0: "QcQd", 1: "KcKd", 2: "AsAd"},
        board="2c7h9s3d4h",
        muck_losing=(True, True, True),
    )
    play(hand, "all_in", "all_in", "all_in")
    assert hand.shown == [True, True, True]
    assert [k for k, _ in ending(hand)].count("muck") == 0
    assert [(e["seat"], e["amount"]) for e in logged(hand, "return")] == [(0, 500)]
    pots = [(e["pot"], e["amount"], e["seats"]) for e in logged(hand, "pot")]
    awards = [(e["pot"], e["seat"], e["amount"]) for e in logged(hand, "award")]
    assert pots == [(1, 400, [0, 1]), (0, 900, [0, 1, 2])]  # the side pot first (TH-23)
    assert awards == [(1, 1, 400), (0, 2, 900)]
    assert hand.stacks == [500, 400, 900]
    assert {e["seat"]: e["name"].split(",")[0] for e in logged(hand, "hand")} == {
        0: "Pair",
        1: "Pair",
        2: "Pair",
    }


def test_a_split_pot_s_odd_chip_goes_left_of_the_button() -> None:
    """TH-30: a royal flush on the board, seat 0 folded its small blind: the 25 chips
    split 13 and 12, the odd chip to seat 1, the first of the winners left of the button
    (seat 2)."""
    hand = make_hand(
        (1000, 1000, 1000),
        holes={0: "2c3c", 1: "4d5d", 2: "6h7h"},
        board="AsKsQsJsTs",
        small_blind=5,
        big_blind=10,
    )
    play(hand, "call", "fold", "check", *("check",) * 6)
    assert [(e["seat"], e["amount"]) for e in logged(hand, "award")] == [(1, 13), (2, 12)]
    assert [e["name"] for e in logged(hand, "hand")] == ["Royal Flush"] * 2


@pytest.mark.parametrize(("flags", "shows"), [((), False), ((False, True), True)])
def test_a_winner_uncontested_shows_only_by_its_preference(
    flags: tuple[bool, ...], shows: bool
) -> None:
    """Seat 1 raises, seat 0 folds: seat 1 wins without showing (TH-5), unless its
    preference is to show: then its cards are turned up (a ``show`` and no ``hand``:
    nobody contested it), and nothing else changes."""
    hand = make_hand((1000, 1000), holes={1: "7c2d"}, show_uncontested=flags)
    play(hand, "raise 300", "fold")
    assert hand.stacks == [900, 1100]
    assert ending(hand) == ([("show", 1)] if shows else [])
    assert hand.shown == [False, shows]
    if shows:
        assert logged(hand, "show")[0]["cards"] == ["7c", "2d"]
    assert hand.view(0)["shown"] == ({"1": ["7c", "2d"]} if shows else {})


def test_double_holdem_names_the_hand_that_played_and_its_two_cards() -> None:
    """DH-3, DH-4: the point card with each of the other two makes Hand 1 and Hand 2; the
    ``hand`` event says which played, with its two hole cards, point card first."""
    hand = make_hand(
        (1000, 1000),
        holes={0: "Kc2d6c", 1: "AhAd3s"},
        board="Kd6h9cJc3c",
        variant=Variant.DOUBLE,
    )
    hand.check_or_call()
    hand.check_or_call()
    while not hand.over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.decision == "point":
            hand.choose_point(legal.seat, 0)
        else:
            hand.check_or_call()
    played = {e["seat"]: e for e in logged(hand, "hand")}
    assert played[0]["hand"] == 2 and played[0]["played"] == ["Kc", "6c"]
    assert played[0]["name"] == "Flush, King-Jack-Nine-Six-Three"
    assert hand.stacks == [1100, 900]


def test_preferences_are_checked() -> None:
    with pytest.raises(InvalidConfig, match="muck_losing: give one"):
        GameConfig(stacks=(100, 100), small_blind=1, big_blind=2, muck_losing=(True,))
    with pytest.raises(InvalidConfig, match=r"show_uncontested\[1\]"):
        GameConfig(stacks=(100, 100), small_blind=1, big_blind=2, show_uncontested=(True, 1))
    config = GameConfig(stacks=(100, 100), small_blind=1, big_blind=2, muck_losing=(True, False))
    assert GameConfig.from_dict(config.to_dict()) == config
    assert "muck_losing" not in GameConfig(stacks=(100, 100), small_blind=1, big_blind=2).to_dict()


def test_phh_writes_shows_and_mucks_and_replays_them() -> None:
    """A shown losing hand is written ``sm`` with its cards, a mucked one ``sm`` alone;
    the replay shows what the file shows, so the file written again is the same."""
    for flags in ((), (True, False)):
        hand = make_hand(
            (1000, 1000), holes={0: "AsAd", 1: "KcKd"}, board="2c7h9s3d4h", muck_losing=flags
        )
        play(hand, *CHECK_DOWN)
        text = dumps(hand)
        again = replay(loads(text)).hand
        assert dumps(again) == text
        assert ending(again) == ending(hand)


def test_hand_names_agree_with_pokerkit() -> None:
    """Every shown Texas Hold'em hand of random showdowns: its name is the evaluator's
    description of its value, and its category is pokerkit's label of the same seven
    cards."""
    rng = random.Random(20)
    checked = 0
    for _ in range(150):
        config = GameConfig(stacks=(1000,) * 3, small_blind=5, big_blind=10)
        hand = Hand(config, rng=rng)
        while not hand.over:
            hand.check_or_call()
        board = "".join(CARD_NAMES[c] for c in hand.board)
        for event in logged(hand, "hand"):
            value = event["value"]
            assert event["name"] == describe(value)
            hole = "".join(CARD_NAMES[c] for c in hand.hole(event["seat"]))
            label = pokerkit.StandardHighHand.from_game(hole, board).entry.label.value
            assert label == LABELS[category_of(value)]
            checked += 1
    assert checked >= 150
