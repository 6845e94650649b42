"""Betting rules with hand-made deals: order of play, the structures, the cap and every
incomplete all-in rule (RULES.md TH-1 to TH-18)."""

from __future__ import annotations

import pytest

from dealing import kinds, make_hand, play
from doubleholdem.cards import Deck, parse_cards
from doubleholdem.errors import IllegalAction
from doubleholdem.game import GameConfig, Hand, Structure

FL = Structure.FIXED_LIMIT
PL = Structure.POT_LIMIT


def test_th1_deal_order_burns_and_four_rounds() -> None:
    """TH-1: blinds first, hole cards one at a time clockwise from left of the button, a
    burn before each board deal, then pre-flop, flop, turn and river rounds."""
    order = parse_cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d")
    config = GameConfig(stacks=(1000, 1000, 1000), small_blind=5, big_blind=10, button=1)
    hand = Hand(config, deck=Deck(order=order))
    # button 1: seat 2 is dealt first, then 0, then the button
    assert [hand.hole(s) for s in (2, 0, 1)] == [order[0:4:3], order[1:5:3], order[2:6:3]]
    assert kinds(hand)[:2] == ["small_blind", "big_blind"]
    streets = []
    while not hand.over:
        streets.append(hand.street)
        hand.check_or_call()
    assert hand.board == order[7:10] + order[11:12] + order[13:14]
    assert [e.cards for e in hand.events if e.kind == "burn"] == [
        (order[6],),
        (order[10],),
        (order[12],),
    ]
    assert sorted(set(streets), key=streets.index) == ["preflop", "flop", "turn", "river"]


@pytest.mark.parametrize("players", [1, 11])
def test_th1_two_to_ten_players(players: int) -> None:
    """TH-1: 2 to 10 players."""
    with pytest.raises(ValueError, match="2 to 10 players"):
        GameConfig(stacks=(100,) * players, small_blind=1, big_blind=2)


def test_th2_blind_positions_first_actors_and_big_blind_option() -> None:
    """TH-2: small blind left of the button, big blind left of it; pre-flop the seat left
    of the big blind acts first; the big blind has the option; later rounds start left
    of the button."""
    hand = make_hand([1000] * 4, button=1)
    assert [(e.kind, e.seat) for e in hand.events[:2]] == [("small_blind", 2), ("big_blind", 3)]
    assert hand.actor == 0
    play(hand, "call", "call", "call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3
    assert legal.can_check and legal.min_raise_to == 200
    hand.act("check")
    assert hand.street == "flop" and hand.actor == 2


def test_th3_heads_up_button_posts_small_blind_acts_first_then_last() -> None:
    """TH-3: heads-up, the button posts the small blind, is dealt last, acts first
    pre-flop and last after."""
    order = parse_cards("Ah Kh Qh Jh")
    config = GameConfig(stacks=(1000, 1000), small_blind=50, big_blind=100, button=0)
    hand = Hand(config, deck=Deck(order=order))
    assert [(e.kind, e.seat) for e in hand.events[:2]] == [("small_blind", 0), ("big_blind", 1)]
    assert hand.hole(1) == order[0:3:2] and hand.hole(0) == order[1:4:2]
    assert hand.actor == 0
    play(hand, "call", "check")
    assert hand.street == "flop" and hand.actor == 1
    play(hand, "check")
    assert hand.actor == 0


def test_th4_all_in_is_legal_below_a_call_and_below_a_full_raise() -> None:
    """TH-4: fold, check, call, bet, raise and all-in; an all-in is legal even when it
    is smaller than a call or a full raise."""
    hand = make_hand([1000, 1000, 60, 150])
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2
    assert [a.value for a in legal.actions()] == ["fold", "call", "all_in"]
    assert legal.call_amount == 60
    hand.act("all_in")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3
    assert (legal.min_raise_to, legal.max_raise_to) == (150, 150)  # short of 200
    hand.act("all_in")
    assert hand.events[-1].kind == "raise" and hand.events[-1].all_in


def test_th5_round_ends_when_all_matched_and_last_player_wins_unshown() -> None:
    """TH-5: the round ends when everyone matched; a lone remaining player wins without
    showing."""
    hand = make_hand([1000, 1000, 1000])
    play(hand, "raise 300", "call", "call")
    assert hand.street == "flop"
    play(hand, "bet 200", "fold", "fold")
    assert hand.over and "show" not in kinds(hand)
    assert hand.stacks == [1600, 700, 700]


def test_th6_table_stakes() -> None:
    """TH-6: a player wagers at most the chips in front of them."""
    hand = make_hand([1000, 1000, 400])
    legal = hand.legal_actions()
    assert legal is not None and legal.max_raise_to == 400
    with pytest.raises(IllegalAction, match=r"200\.\.400"):
        hand.act("raise", 401)


def test_th10_fixed_limit_bet_sizes() -> None:
    """TH-10: small bet pre-flop and flop, big bet (twice) on turn and river; the big
    blind is the small bet."""
    hand = make_hand([10_000] * 3, structure=FL)
    assert hand.config.small_bet == 100 and hand.config.big_bet == 200
    sizes = []
    while not hand.over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.can_raise and legal.min_raise_to is not None:
            sizes.append((hand.street, legal.min_raise_to - legal.bet - legal.call_amount))
            assert legal.min_raise_to == legal.max_raise_to
        hand.check_or_call()
    assert dict(sizes) == {"preflop": 100, "flop": 100, "turn": 200, "river": 200}


def test_th12_cap_pre_flop_is_four_big_blinds() -> None:
    """TH-12: a bet and three raises; pre-flop the big blind is the bet."""
    hand = make_hand([10_000] * 4, structure=FL)
    play(hand, "raise 200", "raise 300", "raise 400")
    legal = hand.legal_actions()
    assert legal is not None and not legal.can_raise and legal.call_amount == 300
    with pytest.raises(IllegalAction):
        hand.act("raise", 500)


def test_th12_cap_after_the_flop_is_a_bet_and_three_raises() -> None:
    """TH-12: on the flop the cap is the bet and three raises, four bets in all."""
    hand = make_hand([10_000] * 3, structure=FL)
    play(hand, "call", "call", "check")
    play(hand, "bet 100", "raise 200", "raise 300", "raise 400")
    legal = hand.legal_actions()
    assert legal is not None and not legal.can_raise


def test_th13_heads_up_raising_is_unlimited_by_default() -> None:
    """TH-13: with two players in the pot before the cap, raising is unlimited."""
    hand = make_hand([10_000] * 2, structure=FL)
    play(hand, "raise 200", "raise 300", "raise 400", "raise 500", "raise 600")
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to == 700


def test_th13_tournament_setting_keeps_the_cap() -> None:
    """TH-13 as a setting: the tournament rule keeps the cap heads-up."""
    hand = make_hand([10_000] * 2, structure=FL, heads_up_uncapped=False)
    play(hand, "raise 200", "raise 300", "raise 400")
    legal = hand.legal_actions()
    assert legal is not None and not legal.can_raise


def test_th13_capped_round_does_not_reopen_when_a_fold_leaves_two() -> None:
    """TH-13: a round capped with three players stays capped when one folds."""
    hand = make_hand([10_000] * 3, structure=FL)
    play(hand, "raise 200", "raise 300", "raise 400", "fold")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and not legal.can_raise


def test_th13_fold_before_the_cap_makes_it_unlimited() -> None:
    """TH-13: two players left before the cap is reached: raising goes on."""
    hand = make_hand([10_000] * 3, structure=FL)
    play(hand, "raise 200", "fold", "raise 300", "raise 400", "raise 500")
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to == 600


def test_th14_half_bet_all_in_counts_as_a_raise_and_reopens() -> None:
    """TH-14: an all-in raise of half a bet or more is a full raise (and counts towards
    the cap); the next raise is to the all-in amount plus a full bet."""
    hand = make_hand([10_000, 10_000, 260], structure=FL)
    play(hand, "call", "call", "check")  # 100 each; seat 2 has 160 behind
    play(hand, "bet 100", "call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.max_raise_to == 160
    hand.act("all_in")  # raises by 60, more than half of 100
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0
    assert (legal.min_raise_to, legal.max_raise_to) == (260, 260)


def test_th14_small_all_in_does_not_reopen_but_can_be_completed() -> None:
    """TH-14: an all-in of less than half a bet reopens nothing for players who acted;
    a player who may still raise completes it to a full bet."""
    hand = make_hand([10_000, 10_000, 140, 10_000], structure=FL)
    play(hand, "call", "call", "call", "check")  # seat 2 has 40 behind
    play(hand, "check", "check", "all_in")  # a bet of 40
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3
    assert (legal.call_amount, legal.min_raise_to) == (40, 100)  # complete to 100
    hand.act("call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and not legal.can_raise
    hand.act("call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and not legal.can_raise


def test_th14_completion_of_a_small_all_in_raise() -> None:
    """TH-14: bet 100, all-in raise to 140 (less than half a bet): the next player
    completes to 200; the bettor may then raise again."""
    hand = make_hand([10_000, 10_000, 240, 10_000], structure=FL)
    play(hand, "call", "call", "call", "check")
    play(hand, "bet 100", "call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.min_raise_to == 140
    hand.act("all_in")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3 and legal.min_raise_to == 200
    hand.act("raise", 200)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.min_raise_to == 300


def test_th15_no_limit_minimum_bet_and_raise() -> None:
    """TH-15: the minimum bet is the big blind; a raise adds at least the largest bet or
    raise of the round; the maximum is the whole stack."""
    hand = make_hand([10_000] * 3)
    play(hand, "call", "call", "check")
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (100, 9_900)
    with pytest.raises(IllegalAction):
        hand.act("bet", 99)
    play(hand, "bet 300")
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to == 600
    play(hand, "raise 1000")
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to == 1700


def test_th16_pot_limit_maximum() -> None:
    """TH-16: pot 100, bet 50: call 50 and raise 200, a wager of 250."""
    hand = make_hand([10_000, 10_000], small_blind=25, big_blind=50, structure=PL)
    legal = hand.legal_actions()
    assert legal is not None and legal.max_raise_to == 150  # pre-flop: 50 + (75 + 25)
    play(hand, "call", "check", "bet 50")
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (100, 250)


def test_th17_short_all_in_raise_call_or_fold_only() -> None:
    """TH-17: bet 100, call, all-in to 150: the caller and the bettor may only call or
    fold; a player yet to act may raise to 250."""
    hand = make_hand([10_000, 10_000, 10_000, 250, 10_000])
    play(hand, "call", "call", "call", "call", "check")  # 100 each, seat 3 has 150
    play(hand, "bet 100", "call", "call", "all_in")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 4 and legal.min_raise_to == 250
    hand.act("call")
    for seat in (0, 1, 2):
        legal = hand.legal_actions()
        assert legal is not None and legal.seat == seat
        assert not legal.can_raise and legal.call_amount == 50
        with pytest.raises(IllegalAction, match="no bet or raise"):
            hand.act("raise", 250)
        hand.act("call")
    assert hand.street == "turn"


def test_th17_several_short_all_ins_reopen_together() -> None:
    """TH-17: bet 100, call, all-in to 150, all-in to 210: the caller faces 110, a full
    raise, and may raise; the minimum re-raise stays 100 (to 310)."""
    hand = make_hand([10_000, 10_000, 250, 310, 10_000])
    play(hand, "call", "call", "call", "call", "check")  # behind: 150 and 210
    play(hand, "bet 100", "call", "all_in", "all_in")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 4 and legal.min_raise_to == 310
    hand.act("fold")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0
    assert legal.call_amount == 110 and legal.min_raise_to == 310


def test_th17_limper_cannot_reraise_a_short_pre_flop_all_in() -> None:
    """TH-17 (pokerkit departs here): a limper facing a short pre-flop all-in may only
    call or fold; the big blind, who has not acted, may raise."""
    hand = make_hand([150, 10_000, 10_000])
    play(hand, "call", "all_in")  # seat 2 limps 100; the small blind goes all-in to 150
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.min_raise_to == 250
    hand.act("call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and not legal.can_raise


def test_th18_short_big_blind_call_stays_the_full_blind() -> None:
    """TH-18: a player who cannot cover the blind posts what they have and is all-in;
    the others must still put in the full big blind to call (pokerkit departs). The
    unmatched part comes back (TH-20) and the short blind wins only the main pot."""
    hand = make_hand([1000, 30, 1000], holes={1: "AsAd", 2: "KcKd"}, board="2c7h9s3d4h")
    assert [(e.kind, e.amount, e.all_in) for e in hand.events[:2]] == [
        ("small_blind", 50, False),
        ("big_blind", 30, True),
    ]
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.call_amount == 100
    play(hand, "call", "fold")
    assert hand.over
    assert [(e.kind, e.seat, e.amount) for e in hand.events if e.kind == "return"] == [
        ("return", 2, 50)
    ]
    assert [(r.amount, r.winners) for r in hand.results] == [(40, (2,)), (90, (1,))]
    assert hand.stacks == [950, 90, 990]


def test_th18_short_small_blind() -> None:
    """TH-18: a short small blind is all-in for what it has."""
    hand = make_hand([20, 1000, 1000])
    assert (hand.events[0].amount, hand.events[0].all_in) == (20, True)
    legal = hand.legal_actions()
    assert legal is not None and legal.call_amount == 100
