"""Double Hold'em in the engine with hand-made deals (RULES.md DH-1 to DH-9)."""

from __future__ import annotations

import pytest

from dealing import make_hand, play
from doubleholdem.errors import IllegalAction
from doubleholdem.game import GameConfig, Structure, Variant

DOUBLE = Variant.DOUBLE


def test_dh1_three_hole_cards_two_to_ten_players() -> None:
    """DH-1: every player is dealt three hole cards; 2 to 10 players."""
    hand = make_hand([1000] * 10, variant=DOUBLE)
    assert all(len(hand.hole(seat)) == 3 for seat in range(10))
    assert len({c for seat in range(10) for c in hand.hole(seat)}) == 30
    with pytest.raises(ValueError, match="2 to 10"):
        GameConfig(stacks=(100,) * 11, small_blind=1, big_blind=2, variant=DOUBLE)


def test_dh5_each_player_chooses_at_their_turn_all_in_players_too() -> None:
    """DH-5: on the flop each player chooses, then acts; the all-in big blind chooses at
    the point in turn order where it would act."""
    hand = make_hand([1000, 100, 1000], variant=DOUBLE)
    play(hand, "call", "call")
    assert hand.street == "flop" and (hand.actor, hand.decision) == (0, "point")
    hand.choose_point(0, 1)
    assert (hand.actor, hand.decision) == (0, "bet")
    hand.act("check")
    assert (hand.actor, hand.decision) == (1, "point")
    hand.choose_point(1, 0)
    assert (hand.actor, hand.decision) == (2, "point")
    hand.choose_point(2, 2)
    hand.act("check")
    assert hand.street == "turn"
    flop = [(e.kind, e.seat) for e in hand.events if e.kind in ("point", "check")]
    assert flop == [("point", 0), ("check", 0), ("point", 1), ("point", 2), ("check", 2)]


def test_dh5_a_player_must_choose_before_acting() -> None:
    """DH-5: a betting action before the point card is chosen is rejected."""
    hand = make_hand([1000, 1000], variant=DOUBLE)
    play(hand, "call", "check")
    with pytest.raises(IllegalAction, match="must first choose a point card"):
        hand.act("check")


def test_dh5_nobody_chooses_if_the_hand_ends_before_the_flop() -> None:
    """DH-5: a hand that ends pre-flop needs no point card."""
    hand = make_hand([1000, 1000, 1000], variant=DOUBLE)
    play(hand, "raise 300", "fold", "fold")
    assert hand.over and hand.points == [None, None, None]


def test_dh5_all_in_players_choose_before_the_turn_in_a_run_out() -> None:
    """DH-5: everyone all-in pre-flop: each still chooses on the flop, in turn order,
    before the turn is dealt."""
    hand = make_hand([1000, 1000, 1000], variant=DOUBLE)
    play(hand, "all_in", "call", "call")
    for seat in (0, 1, 2):
        assert (hand.actor, hand.decision, len(hand.board)) == (seat, "point", 3)
        hand.choose_point(seat, 0)
    assert hand.over and len(hand.board) == 5


def test_dh2_the_choice_is_final() -> None:
    """DH-2: a point card cannot be chosen twice."""
    hand = make_hand([1000, 1000], variant=DOUBLE)
    play(hand, "call", "check")
    hand.choose_point(0, 0)
    with pytest.raises(IllegalAction):
        hand.choose_point(0, 1)
    assert hand.points == [0, None]


def test_dh3_dh4_better_of_two_hands_plays_and_is_recorded() -> None:
    """DH-3, DH-4: point Kc with 2d (Hand 1) and 6c (Hand 2): Hand 2, kings and sixes,
    plays; the showdown records which hand played."""
    hand = make_hand(
        [1000, 1000],
        variant=DOUBLE,
        holes={0: "Kc2d6c", 1: "QhQd3s"},
        board="Kd6h2s9cJd",
    )
    play(hand, "call", "check")
    hand.choose_point(0, "Kc")
    hand.act("check")
    hand.choose_point(1, "Qh")
    while not hand.over:
        hand.check_or_call()
    played = {e.seat: e.hand for e in hand.events if e.kind == "hand"}
    assert played[0] == 2
    assert hand.stacks == [1100, 900]


def test_dh3_the_two_other_cards_never_combine() -> None:
    """DH-3: Ah and As are both hole cards, but with 7c as the point they never pair;
    the pair of twos wins."""
    hand = make_hand(
        [1000, 1000],
        variant=DOUBLE,
        holes={0: "Ah7cAs", 1: "2d3h4s"},
        board="2c5d9hJcKs",
    )
    play(hand, "call", "check")
    hand.choose_point(0, 1)
    hand.act("check")
    hand.choose_point(1, 0)
    while not hand.over:
        hand.check_or_call()
    assert hand.stacks == [900, 1100]


def test_dh4_the_other_hand_never_breaks_a_tie() -> None:
    """DH-4: both play the royal flush on the board; the second hands are ignored."""
    hand = make_hand(
        [1000, 1000], variant=DOUBLE, holes={0: "AhAdAc", 1: "2c3c4d"}, board="AsKsQsJsTs"
    )
    play(hand, "call", "check")
    for _ in range(2):
        assert hand.actor is not None
        hand.choose_point(hand.actor, 0)
        if not hand.over and hand.decision == "bet":
            hand.act("check")
    while not hand.over:
        hand.check_or_call()
    assert hand.stacks == [1000, 1000]


def test_dh6_dh7_timeout_chooses_by_the_automatic_rule_at_once() -> None:
    """DH-6, DH-7: a point card decision has no time bank; on timeout the engine picks
    the highest rank, on a pair the one suited with the third card (Kc Ks 6c -> Kc)."""
    hand = make_hand([1000, 1000], variant=DOUBLE, holes={0: "KsKc6c", 1: "KhKd2s"})
    play(hand, "call", "check")
    hand.timeout(0)
    hand.act("check")
    hand.timeout(1)  # Kh Kd 2s: neither matches, the higher suit: Kh
    assert hand.points == [1, 0]
    kinds = [e.kind for e in hand.events if e.seat == 0][-3:]
    assert kinds == ["timeout", "point", "check"]


@pytest.mark.parametrize("reveal", [False, True])
def test_dh8_point_card_visibility(reveal: bool) -> None:
    """DH-8: the chosen point card stays hidden from the others until showdown (the
    default), or is shown to everyone at once."""
    hand = make_hand([1000, 1000], variant=DOUBLE, reveal_point=reveal)
    play(hand, "call", "check")
    hand.choose_point(0, 2)
    mine = [e for e in hand.view(0)["events"] if e["kind"] == "point"]
    theirs = [e for e in hand.view(1)["events"] if e["kind"] == "point"]
    assert mine[0]["point"] == 2 and "cards" in mine[0]
    assert ("point" in theirs[0]) is reveal and ("cards" in theirs[0]) is reveal
    assert ("0" in hand.view(1)["points"]) is reveal


def test_dh9_fixed_limit_double_holdem_has_the_texas_cap() -> None:
    """DH-9: betting structure and cap as in Texas Hold'em (TH-12)."""
    hand = make_hand([10_000] * 4, variant=DOUBLE, structure=Structure.FIXED_LIMIT)
    play(hand, "raise 200", "raise 300", "raise 400")
    legal = hand.legal_actions()
    assert legal is not None and not legal.can_raise
