"""Antes, pots and the showdown with hand-made deals (RULES.md TH-19 to TH-23, TH-30,
TH-31), and the pure functions of doubleholdem.game.pots."""

from __future__ import annotations

from typing import Any

import pytest

from dealing import kinds, make_hand, play
from doubleholdem.game import AnteType, GameConfig, Hand, Rake
from doubleholdem.game.pots import Pot, award, side_pots, split, uncalled_bet

NO_HELP = "2c7h9c3d4h"  # a board that pairs, straightens and flushes nobody below
ROYAL = "AsKsQsJsTs"  # everyone ties


def pots(hand: Hand) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """(amount, eligible, winners) of each pot, main pot first."""
    return [(r.amount, r.eligible, r.winners) for r in sorted(hand.results)]


def test_th19_uniform_ante_short_player_wins_only_what_it_posted() -> None:
    """TH-19: with uniform antes a short player posts what it has and wins from each
    opponent only as much ante as it posted (the antes go into the side-pot layers)."""
    hand = make_hand(
        [1000, 1000, 5],
        ante=10,
        holes={0: "KcKd", 1: "QcQd", 2: "AsAd"},
        board=NO_HELP,
    )
    assert [(e.kind, e.seat, e.amount) for e in hand.events[:3]] == [
        ("ante", 0, 10),
        ("ante", 1, 10),
        ("ante", 2, 5),
    ]
    play(hand, "call", "check", "check", "check", "check", "check", "check", "check")
    assert pots(hand) == [(15, (0, 1, 2), (2,)), (210, (0, 1), (0,))]
    assert hand.stacks == [1100, 890, 15]


def test_th19_big_blind_ante_goes_whole_into_the_main_pot() -> None:
    """TH-19: a big-blind ante is posted by the big blind before its blind and goes
    whole into the main pot, which the short all-in player can win."""
    hand = make_hand(
        [1000, 1000, 50],
        ante=100,
        ante_type=AnteType.BIG_BLIND,
        holes={0: "KcKd", 1: "QcQd", 2: "AsAd"},
        board=NO_HELP,
    )
    assert [(e.kind, e.seat, e.amount) for e in hand.events[:3]] == [
        ("ante", 1, 100),
        ("small_blind", 0, 50),
        ("big_blind", 1, 100),
    ]
    play(hand, "all_in", "call", "check", "check", "check", "check", "check", "check", "check")
    assert pots(hand) == [(250, (0, 1, 2), (2,)), (100, (0, 1), (0,))]
    assert hand.stacks == [1000, 800, 250]


def test_th19_antes_are_not_part_of_the_pre_flop_bet() -> None:
    """TH-19: antes are dead money: the call is still the big blind."""
    hand = make_hand([1000, 1000, 1000], ante=10)
    legal = hand.legal_actions()
    assert legal is not None and legal.call_amount == 100 and legal.min_raise_to == 200


def test_th20_uncalled_part_of_a_bet_is_returned() -> None:
    """TH-20: the part of a bet no one matched goes back to its owner, not into a pot."""
    hand = make_hand([1000, 300], holes={0: "AsAd", 1: "KcKd"}, board=NO_HELP, button=0)
    play(hand, "all_in", "all_in")
    assert [(e.seat, e.amount) for e in hand.events if e.kind == "return"] == [(0, 700)]
    assert pots(hand) == [(600, (0, 1), (0,))]
    assert hand.stacks == [1300, 0]


def test_th20_uncontested_bet_comes_back_before_the_win() -> None:
    """TH-20 and TH-5: everyone folds to a raise: the raise above the blind comes back,
    the raiser wins the blinds."""
    hand = make_hand([1000, 1000, 1000])
    play(hand, "raise 500", "fold", "fold")
    assert [(e.seat, e.amount) for e in hand.events if e.kind == "return"] == [(2, 400)]
    assert hand.stacks == [950, 900, 1150]


def three_way_side_pots(**settings: object) -> Hand:
    """Seat 2 all-in for 300, seat 3 for 800, seat 1 folds its blind: a main pot and two
    side pots, with a folded contributor."""
    hand = make_hand(
        [10_000, 10_000, 300, 800, 10_000],
        holes={0: "QsQd", 1: "5s6d", 2: "AsAd", 3: "KsKd", 4: "JsJd"},
        board=NO_HELP,
        **settings,
    )
    play(hand, "all_in", "all_in", "call", "call", "fold")
    play(hand, "bet 1000", "call", "check", "check", "check", "check")
    return hand


def test_th21_three_way_side_pots_with_a_folded_contributor() -> None:
    """TH-21: one pot per all-in level; the folded big blind's chips are in the main pot,
    which it cannot win."""
    hand = three_way_side_pots()
    assert pots(hand) == [
        (1300, (0, 2, 3, 4), (2,)),
        (1500, (0, 3, 4), (3,)),
        (2000, (0, 4), (0,)),
    ]
    assert hand.stacks == [10_200, 9_900, 1300, 1500, 8200]


def test_th23_side_pots_are_awarded_first() -> None:
    """TH-23: each pot separately, side pots first."""
    hand = three_way_side_pots()
    awards = [(e.pot, e.seat, e.amount) for e in hand.events if e.kind == "award"]
    assert awards == [(2, 0, 2000), (1, 3, 1500), (0, 2, 1300)]


def test_th22_river_bettor_shows_first_and_losers_may_muck() -> None:
    """TH-22: the last bettor of the final round shows first, then clockwise; a hand
    that cannot win is mucked."""
    hand = make_hand([1000, 1000, 1000], holes={0: "KcKd", 1: "JcJd", 2: "AsAd"}, board=NO_HELP)
    play(hand, "call", "call", "check")
    play(hand, "check", "check", "check", "check", "check", "check")
    play(hand, "check", "bet 100", "call", "call")
    showdown = [(e.kind, e.seat) for e in hand.events if e.kind in ("show", "muck")]
    assert showdown == [("show", 1), ("show", 2), ("muck", 0)]


def test_th22_checked_through_first_left_of_the_button_shows_first() -> None:
    """TH-22: a checked-through river: the first player left of the button shows first;
    a later hand that ties still shows (it can win a share)."""
    hand = make_hand(
        [1000, 1000, 1000], holes={0: "QcQd", 1: "KcKd", 2: "KhKs"}, board=NO_HELP, button=0
    )
    while not hand.over:
        hand.check_or_call()
    showdown = [(e.kind, e.seat) for e in hand.events if e.kind in ("show", "muck")]
    assert showdown == [("show", 1), ("show", 2), ("muck", 0)]


def test_th22_all_in_hands_are_turned_face_up_before_the_board() -> None:
    """TH-22: when betting is over because players are all-in, every hand is shown, the
    loser too, before the rest of the board is dealt."""
    hand = make_hand([1000, 1000], holes={0: "AsAd", 1: "KcKd"}, board=NO_HELP)
    play(hand, "all_in", "call")
    seq = kinds(hand)
    assert seq.count("show") == 2 and "muck" not in seq
    assert seq.index("show") < seq.index("flop")


def test_th30_odd_chips_one_each_clockwise_from_the_button() -> None:
    """TH-30: a three-way tie of 176 chips: 58 each and the two odd chips one each to the
    first two winners left of the button."""
    hand = make_hand([1000] * 4, small_blind=26, big_blind=50, board=ROYAL)
    play(hand, "call", "call", "fold", "check")
    while not hand.over:
        hand.check_or_call()
    assert pots(hand) == [(176, (1, 2, 3), (1, 2, 3))]
    assert [r.shares for r in hand.results] == [(59, 59, 58)]


def test_th30_main_and_side_pots_are_split_on_their_own() -> None:
    """TH-30: each pot is split separately, each with its own odd chip."""
    hand = make_hand([1000, 1000, 61, 1000], small_blind=25, big_blind=50, board=ROYAL)
    play(hand, "all_in", "raise 112", "call", "call")
    play(hand, "bet 50", "call", "fold")
    while not hand.over:
        hand.check_or_call()
    assert [(r.pot, r.amount, r.winners, r.shares) for r in sorted(hand.results)] == [
        (0, 244, (0, 1, 2), (82, 81, 81)),
        (1, 253, (0, 1), (127, 126)),
    ]
    assert hand.stacks == [1047, 1045, 81, 888]


def test_th31_rake_per_pot_with_a_cap_main_pot_first() -> None:
    """TH-31: a percentage of each pot, before it is split, up to the hand's cap."""
    hand = three_way_side_pots(rake=Rake(basis_points=500, cap=100))
    assert [(r.pot, r.rake) for r in sorted(hand.results)] == [(0, 65), (1, 35), (2, 0)]
    assert hand.stacks == [10_200, 9_900, 1235, 1465, 8200]
    assert sum(hand.stacks) + 100 == sum(hand.config.stacks)


def test_th31_no_flop_no_drop() -> None:
    """TH-31: "no flop, no drop": a hand won before the flop is not raked; after the
    flop it is."""
    hand = make_hand([1000, 1000, 1000], rake=Rake(basis_points=1000))
    play(hand, "raise 300", "fold", "fold")
    assert hand.stacks == [950, 900, 1150]
    hand = make_hand([1000, 1000, 1000], rake=Rake(basis_points=1000, no_flop_no_drop=False))
    play(hand, "raise 300", "fold", "fold")
    assert hand.stacks == [950, 900, 1125]
    hand = make_hand([1000, 1000, 1000], rake=Rake(basis_points=1000))
    play(hand, "call", "call", "check", "bet 100", "fold", "fold")
    assert hand.stacks == [1170, 900, 900]


def test_pot_functions() -> None:
    """TH-20, TH-21, TH-30 on the pure functions."""
    assert uncalled_bet([100, 100]) is None
    assert uncalled_bet([0, 50, 20]) == (1, 30)
    assert side_pots([50, 50], in_hand=[True, True], all_in=[False, False], dead=10) == [
        Pot(110, (0, 1))
    ]
    assert split(7, winners=[4, 1], button=1, players=5) == {4: 4, 1: 3}
    # any whole numbers as values (higher wins), ties split; side pots first (TH-23)
    pots = [Pot(30, (0, 1, 2)), Pot(20, (1, 2))]
    results = award(pots, {0: -5, 1: -7, 2: -5}, button=0, players=3)
    assert [(r.pot, r.winners, r.shares) for r in results] == [
        (1, (2,), (20,)),
        (0, (2, 0), (15, 15)),
    ]
    # a pot none of whose seats showed goes to all of them, as a tie
    assert award([Pot(9, (1, 2))], {0: 3}, button=0, players=3)[0].shares == (5, 4)
    assert side_pots([100, 300, 300, 50], in_hand=[2, 1, 1, 0], all_in=[3, 0, 0, 0]) == [
        Pot(350, (0, 1, 2)),
        Pot(400, (1, 2)),
    ]  # truthy numbers as flags


@pytest.mark.parametrize("bad", [{"basis_points": -1}, {"basis_points": 10_001}])
def test_th31_rake_settings_are_validated(bad: dict[str, int]) -> None:
    """TH-31: a rake is a share of the pot between 0 and all of it."""
    with pytest.raises(ValueError, match="basis_points"):
        Rake(**bad)


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (lambda: side_pots([10, 10], in_hand=[True], all_in=[False, False]), "one entry per seat"),
        (lambda: side_pots([-5, 10], in_hand=[1, 1], all_in=[0, 0]), "-5 chips is negative"),
        (lambda: side_pots([10, 5], in_hand=[0, 1], all_in=[0, 1]), "unwinnable"),
        (lambda: split(10, winners=[0, 0], button=0, players=4), "a seat is given twice"),
        (lambda: split(2**0.5, winners=[0], button=0, players=4), "not a whole number"),  # type: ignore[arg-type]
        (lambda: split(10, winners=[0], button=9, players=4), "button: seat 9"),
        (lambda: award([Pot(10, ())], {}, button=0, players=3), "no eligible seat"),
        (lambda: award([Pot(10, (0,))], {0: 1}, button=0, players=3, rakes=[11]), "more than"),
        (lambda: split(10, winners=[0, 5], button=0, players=4), "seat 5 is not one"),
        (lambda: split(10, winners=[], button=0, players=4), "at least one winner"),
        (lambda: split(10, winners=[0, 1], button=0, players=0), "players must be 2 to 10"),
        (lambda: award([Pot(10, (0, 7))], {0: 5}, button=0, players=3), "seat 7 is not one"),
    ],
)
def test_pot_helpers_refuse_impossible_input(call: Any, reason: str) -> None:
    """The pot functions name what is wrong (a ValueError), never crash."""
    with pytest.raises(ValueError, match=reason):
        call()


def test_pot_helpers_are_exact_with_huge_amounts() -> None:
    """Python integers: nothing overflows, every chip of a huge pot is awarded (TH-30)."""
    big = 2**80 + 1
    pots = side_pots([big, big, big], in_hand=[1, 1, 1], all_in=[0, 0, 0])
    shares = split(pots[0].amount, winners=[0, 1], button=2, players=3)
    assert sum(shares.values()) == 3 * big and shares[0] == shares[1] + 1


def test_th19_chips_no_live_player_can_win_go_back() -> None:
    """TH-19: a uniform ante larger than every remaining all-in stake, then a fold: the
    folded seat's ante above the all-in players is theirs again (it used to panic)."""
    config = GameConfig(stacks=(5, 5, 1000), small_blind=1, big_blind=2, ante=10, button=2)
    hand = Hand(config, seed=1)
    hand.act("fold")
    assert hand.over and sum(hand.stacks) == 1010
    assert hand.stacks[2] == 995  # ante 10, 5 of it unwinnable
    assert [(e.kind, e.seat, e.amount) for e in hand.events if e.kind == "return"] == [
        ("return", 2, 5)
    ]
