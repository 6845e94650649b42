"""Table rules across hands (RULES.md TH-35 to TH-40, DH-5 to DH-7), by scripted
sequences of joins, leaves, sit-outs and timeouts: who posts what, where the button goes,
dead and live blinds, time banks and timeouts."""

from __future__ import annotations

from typing import Any

import pytest

from doubleholdem.double import auto_point
from doubleholdem.errors import (
    BuyInOutOfRange,
    HandInProgress,
    IllegalAction,
    InvalidConfig,
    NoSuchSeat,
    NotEnoughPlayers,
    SeatEmpty,
    SeatTaken,
    TableError,
)
from doubleholdem.game import GameConfig, Hand, Variant
from doubleholdem.table import ButtonRule, Decision, Observation, Table, TableConfig
from doubleholdem.table.bots import CallingStation, RandomBot
from table_harness import check_chips, finish, play_hand, posts

SB, BB = 5, 10


def make_table(players: dict[int, str], **settings: Any) -> Table:
    table = Table(TableConfig(small_blind=SB, big_blind=BB, **settings), seed=7)
    for seat, name in players.items():
        table.join(seat, name, 1000)
    return table


# ---------------------------------------------------------------- TH-35 button


@pytest.mark.parametrize("rule", list(ButtonRule))
def test_th35_button_moves_one_player_clockwise_every_hand(rule: ButtonRule) -> None:
    table = make_table({0: "a", 2: "b", 5: "c", 7: "d"}, button_rule=rule)
    buttons, blinds = [], []
    for _ in range(9):
        play_hand(table)
        buttons.append(table.button)
        blinds.append(table.blinds)
        check_chips(table)
    assert buttons == [0, 2, 5, 7, 0, 2, 5, 7, 0]
    assert blinds[:4] == [(2, 5), (5, 7), (7, 0), (0, 2)]


def test_th35_heads_up_after_the_button_leaves_no_big_blind_twice() -> None:
    """Button 0, SB 1, BB 2; the button leaves. Moving on naively would put the button
    on seat 1 and the big blind on seat 2 again (TH-35 forbids it)."""
    table = make_table({0: "a", 1: "b", 2: "c"})
    play_hand(table)
    assert (table.button, table.blinds) == (0, (1, 2))
    table.leave(0)
    play_hand(table)
    assert table.blinds[1] == 1 and table.button == 2  # TH-3: the button posts the SB
    assert posts(table) == {"small_blind": [(2, SB)], "big_blind": [(1, BB)]}
    bigs = []
    for _ in range(5):
        play_hand(table)
        bigs.append(table.blinds[1])
    assert bigs == [2, 1, 2, 1, 2]


@pytest.mark.parametrize("rule", list(ButtonRule))
@pytest.mark.parametrize("leaver", [0, 1, 2])
def test_th35_no_big_blind_twice_when_the_game_becomes_heads_up(
    rule: ButtonRule, leaver: int
) -> None:
    table = make_table({0: "a", 1: "b", 2: "c"}, button_rule=rule)
    play_hand(table)
    table.leave(leaver)
    for _ in range(4):
        previous_big = table.blinds[1]
        play_hand(table)
        assert table.blinds[1] != previous_big
        assert table.button == table.blinds[0]  # TH-3


def test_th35_back_to_three_players_from_heads_up() -> None:
    table = make_table({1: "b", 2: "c"})
    play_hand(table)
    table.join(0, "a", 1000)
    bigs = [table.blinds[1]]
    for _ in range(6):
        play_hand(table)
        bigs.append(table.blinds[1])
        check_chips(table)
    assert all(x != y for x, y in zip(bigs, bigs[1:]))
    assert len(table.dealt) == 3


# ---------------------------------------------------------------- TH-36 sitting in


def test_th36_new_player_posts_a_live_big_blind_or_waits_for_it() -> None:
    table = make_table({0: "a", 2: "b", 4: "c"})
    play_hand(table)
    assert (table.button, table.blinds) == (0, (2, 4))
    table.join(5, "e", 1000)  # lands on the big blind
    table.join(1, "f", 1000)  # posts a big blind to play at once
    table.join(3, "g", 1000, wait_for_big_blind=True)
    table.start_hand()
    assert (table.button, table.blinds) == (2, (4, 5))
    assert table.dealt == [0, 1, 2, 4, 5]
    assert posts(table) == {"small_blind": [(4, SB)], "big_blind": [(5, BB)], "post": [(1, BB)]}
    assert table.hand is not None and table.hand.pot == SB + 2 * BB
    table.act(0, "call")
    legal = table.legal_actions()
    assert legal is not None and legal.seat == 1
    assert legal.can_check and legal.call_amount == 0  # the post is live: f has an option
    finish(table)
    seen = []
    for _ in range(4):
        play_hand(table)
        seen.append((table.blinds[1], 3 in table.dealt))
    # g waits until the big blind reaches seat 3, then posts only the big blind
    assert seen == [(0, False), (1, False), (2, False), (3, True)]
    assert posts(table) == {"small_blind": [(2, SB)], "big_blind": [(3, BB)]}


def test_th36_new_player_between_button_and_big_blind_waits() -> None:
    table = make_table({0: "a", 4: "c", 6: "d"})
    play_hand(table)  # button 0, SB 4, BB 6
    table.join(5, "x", 1000)  # between the next button (4) and big blind (0)
    table.start_hand()
    assert table.button == 4 and 5 not in table.dealt
    finish(table)


def test_th36_first_hands_at_a_new_table_need_no_post() -> None:
    table = make_table({3: "a"})
    with pytest.raises(NotEnoughPlayers):
        table.start_hand()
    table.join(8, "b", 1000, wait_for_big_blind=True)
    table.start_hand()
    assert table.dealt == [3, 8] and "post" not in posts(table)


def test_th36_buy_in_range_and_seat_errors() -> None:
    table = Table(TableConfig(small_blind=SB, big_blind=BB, seats=6))
    assert table.config.buy_in_range == (20 * BB, 100 * BB)
    with pytest.raises(BuyInOutOfRange) as error:
        table.join(0, "a", 100)
    assert (error.value.seat, error.value.amount, error.value.low, error.value.high) == (
        0,
        100,
        200,
        1000,
    )
    assert "seat 0" in str(error.value) and "200..1000" in str(error.value)
    with pytest.raises(BuyInOutOfRange):
        table.join(0, "a", 1001)
    with pytest.raises(BuyInOutOfRange):
        table.join(0, "a", True)  # type: ignore[arg-type]
    table.join(0, "a", 500)
    with pytest.raises(SeatTaken, match="seat 0 is taken by a"):
        table.join(0, "b", 500)
    with pytest.raises(SeatTaken, match="a already sits in seat 0"):
        table.join(1, "a", 500)
    with pytest.raises(NoSuchSeat, match="6 is not a seat"):
        table.join(6, "c", 500)
    with pytest.raises(SeatEmpty, match="seat 3 is empty"):
        table.sit_out(3)
    table.top_up(0, 500)
    with pytest.raises(BuyInOutOfRange, match="the maximum"):
        table.top_up(0, 1)
    assert table.stack(0) == 1000 and table.bought_in == 1000


# ---------------------------------------------------------------- TH-37 missed blinds


def sit_out_past_both_blinds(rule: ButtonRule = ButtonRule.MOVING) -> Table:
    table = make_table({0: "a", 1: "b", 2: "c", 3: "d"}, button_rule=rule)
    play_hand(table)  # button 0, SB 1, BB 2
    table.sit_out(3)
    play_hand(table)  # the big blind passes seat 3
    assert 3 not in table.dealt
    play_hand(table)  # then the small blind
    seat = table.seats()[3]
    assert seat is not None and seat["missed_big"] and seat["missed_small"]
    return table


@pytest.mark.parametrize("rule", list(ButtonRule))
def test_th37_missed_blinds_posted_big_live_small_dead(rule: ButtonRule) -> None:
    table = sit_out_past_both_blinds(rule)
    table.sit_in(3)
    table.start_hand()
    assert 3 in table.dealt and table.blinds[1] != 3
    found = posts(table)
    assert found["post"] == [(3, BB)] and found["post_dead"] == [(3, SB)]
    hand = table.hand
    assert hand is not None and hand.pot == SB + BB + BB + SB
    index = table.dealt.index(3)
    assert hand.bets[index] == BB  # the small part is not a wager: it is dead
    while table.to_act != 3:
        table.act(table.to_act, "call")  # type: ignore[arg-type]
    legal = table.legal_actions()
    assert legal is not None and legal.can_check  # the big part is live
    finish(table)
    check_chips(table)
    seat = table.seats()[3]
    assert seat is not None and not seat["missed_big"] and not seat["missed_small"]


def test_th37_missed_blinds_waited_out_until_the_big_blind() -> None:
    table = sit_out_past_both_blinds()
    table.sit_in(3, wait_for_big_blind=True)
    dealt = []
    for _ in range(3):
        play_hand(table)
        dealt.append((3 in table.dealt, table.blinds[1]))
    assert dealt == [(False, 2), (True, 3), (True, 0)]
    assert posts(table, table.hand_number - 1) == {
        "small_blind": [(2, SB)],
        "big_blind": [(3, BB)],
    }


def test_th37_sitting_out_on_the_big_blind_then_the_small_blind() -> None:
    table = make_table({0: "a", 1: "b", 2: "c"})
    play_hand(table)  # button 0, SB 1, BB 2
    table.sit_out(0)  # next big blind
    play_hand(table)
    assert table.dealt == [1, 2]
    seat = table.seats()[0]
    assert seat is not None and seat["missed_big"]


# ---------------------------------------------------------------- TH-38 button rule


def test_th38_moving_and_dead_button_when_the_big_blind_leaves() -> None:
    results = {}
    for rule in ButtonRule:
        table = make_table({0: "a", 1: "b", 2: "c", 3: "d"}, button_rule=rule)
        play_hand(table)  # button 0, SB 1, BB 2
        table.leave(2)
        table.start_hand()
        results[rule] = (table.button, table.blinds, posts(table))
        finish(table)
    assert results[ButtonRule.MOVING] == (
        1,
        (3, 0),
        {"small_blind": [(3, SB)], "big_blind": [(0, BB)]},
    )
    # dead button: the big blind goes to the player due, the small blind is dead
    assert results[ButtonRule.DEAD] == (1, (2, 3), {"big_blind": [(3, BB)]})


def test_th38_dead_button_on_an_empty_seat() -> None:
    table = make_table({0: "a", 1: "b", 2: "c", 3: "d"}, button_rule=ButtonRule.DEAD)
    play_hand(table)  # button 0, SB 1, BB 2
    table.leave(1)
    play_hand(table)  # big blind due: 3; small blind seat 2; the button on empty seat 1
    assert (table.button, table.blinds) == (1, (2, 3))
    table.start_hand()
    assert (table.button, table.blinds) == (2, (3, 0))
    assert table.seats()[1] is None and table.dealt == [0, 2, 3]
    assert posts(table) == {"small_blind": [(3, SB)], "big_blind": [(0, BB)]}
    # pre-flop the player left of the big blind acts first, after the flop the first
    # player left of the (dead) button
    assert table.to_act == 2
    table.act(2, "call")
    table.act(3, "call")
    table.act(0, "check")
    assert table.hand is not None and table.hand.street == "flop"
    assert table.to_act == 3
    finish(table)
    check_chips(table)


# ---------------------------------------------------------------- TH-40, DH-5 to DH-7 time


def kinds_since(table: Table, start: int) -> list[tuple[str, int | None]]:
    return [(e["kind"], e.get("seat")) for e in table.event_log(everything=True)[start:]]


def test_th40_time_bank_then_timeout_checks_if_free_else_folds() -> None:
    table = make_table({0: "a", 1: "b", 2: "c"}, action_time=10, time_bank=30)
    table.start_hand(now=100)
    assert table.to_act == 0 and table.deadline == 110
    assert table.advance(109.9) == []
    entries = table.advance(110)
    assert [(e["kind"], e["seat"], e["until"]) for e in entries] == [("time_bank", 0, 140)]
    assert table.time_bank_running and table.deadline == 140
    table.act(0, "call", now=135)  # within the bank
    assert table.deadline == 145 and not table.time_bank_running
    start = table.log_length
    table.advance(180)  # seat 1 uses its whole bank (restored), then times out: fold
    assert kinds_since(table, start) == [("time_bank", 1), ("timeout", 1), ("fold", 1)]
    assert table.deadline == 175 + 10  # the next clock starts when the timeout fired
    start = table.log_length
    table.advance(185 + 30)
    # the big blind's option is free: it checks
    assert kinds_since(table, start)[:3] == [("time_bank", 2), ("timeout", 2), ("check", 2)]
    assert table.hand is not None and table.hand.street == "flop"
    check_chips(table)


def test_th40_late_decision_is_refused_after_the_timeout() -> None:
    table = make_table({0: "a", 1: "b"}, action_time=5, time_bank=0)
    table.start_hand(now=0)
    seat = table.to_act
    with pytest.raises(IllegalAction, match=f"seat {seat} cannot raise"):
        table.act(seat, "raise", 40, now=6)  # type: ignore[arg-type]
    assert ("timeout", seat) in kinds_since(table, 0)


@pytest.mark.parametrize("seed", range(5))
def test_dh5_dh6_dh7_point_card_timeout_has_no_time_bank(seed: int) -> None:
    table = Table(
        TableConfig(small_blind=SB, big_blind=BB, variant=Variant.DOUBLE, point_time=7),
        seed=seed,
    )
    for seat in (0, 1, 2):
        table.join(seat, f"p{seat}", 1000)
    table.start_hand(now=0)
    table.act(0, "call", now=1)
    table.act(1, "call", now=2)
    table.act(2, "check", now=3)
    assert table.decision == "point" and table.deadline == 10  # DH-7: no bank
    seat = table.to_act
    assert seat == 1
    hand = table.hand
    assert hand is not None
    start = table.log_length
    table.advance(10)
    entries = table.event_log(everything=True)[start:]
    assert [e["kind"] for e in entries] == ["timeout", "point"]
    index = table.dealt.index(seat)
    assert entries[1]["point"] == auto_point(hand.hole(index))  # DH-6
    # DH-5: the same player then acts on the betting, with the normal time and the bank
    assert table.to_act == 1 and table.decision == "bet"
    assert table.deadline == 10 + table.config.action_time
    table.advance(10 + table.config.action_time)
    assert table.time_bank_running


def test_time_cannot_go_back_and_must_be_a_number() -> None:
    table = make_table({0: "a", 1: "b"})
    table.start_hand(now=50)
    with pytest.raises(TableError, match="cannot go back"):
        table.advance(49)
    with pytest.raises(TableError, match="time in seconds"):
        table.advance("soon")  # type: ignore[arg-type]


# ---------------------------------------------------------------- refusals and chips


def test_refusals_during_a_hand_are_typed_and_change_nothing() -> None:
    table = make_table({0: "a", 1: "b", 2: "c"})
    table.start_hand()
    log = table.log_json()
    with pytest.raises(HandInProgress, match="seat 1 cannot leave during hand 1"):
        table.leave(1)
    with pytest.raises(HandInProgress, match="seat 1 cannot top up"):
        table.top_up(1, 10)
    with pytest.raises(HandInProgress):
        table.start_hand()
    with pytest.raises(IllegalAction, match="seat 2 cannot fold: it is seat 0's turn"):
        table.act(2, "fold")
    with pytest.raises(IllegalAction, match="seat 0 cannot raise") as error:
        table.act(0, "raise", 5)
    assert error.value.seat == 0 and error.value.legal.seat == 0  # type: ignore[attr-defined]
    assert table.log_json() == log
    table.leave_after_hand(1)
    finish(table)
    assert table.seats()[1] is None
    check_chips(table)


def test_leaving_takes_the_chips_and_keeps_the_books() -> None:
    table = make_table({0: "a", 1: "b", 2: "c"}, seats=3)
    for _ in range(3):
        play_hand(table)
    chips = table.stack(1)
    assert table.leave(1) == chips
    assert table.bought_in == 3000 - chips
    check_chips(table)


def test_stacks_carry_from_hand_to_hand() -> None:
    table = make_table({0: "a", 1: "b", 2: "c"})
    table.start_hand()
    table.act(0, "fold")
    table.act(1, "fold")
    assert [table.stack(s) for s in range(3)] == [1000, 995, 1005]
    table.start_hand()  # button 1, SB 2, BB 0
    assert table.hand is not None and table.hand.config.stacks == (1000, 995, 1005)


def test_observation_from_the_view_is_the_observation() -> None:
    table = make_table({0: "a", 1: "b", 2: "c"}, variant=Variant.DOUBLE)
    bots = [RandomBot(1), CallingStation(), RandomBot(2)]
    for _ in range(20):
        for seat in range(3):
            if table.stack(seat) < 1000:
                table.top_up(seat, 1000 - table.stack(seat))
        table.start_hand()
        while table.in_hand:
            seat = table.to_act
            assert seat is not None
            observed = table.observe(seat)
            assert Observation.from_view(table.view(seat)) == observed
            assert len(observed.hole) == 3
            table.decide(seat, bots[seat].choose(observed))
        check_chips(table)
    with pytest.raises(IllegalAction):
        table.decide(0, Decision("point"))


def test_engine_posts_and_blind_seats_round_trip() -> None:
    config = GameConfig(
        stacks=(100, 100, 100, 100),
        small_blind=1,
        big_blind=2,
        button=0,
        blind_seats=(None, 1),
        live_posts=(0, 0, 2, 0),
        dead_posts=(0, 0, 1, 0),
    )
    assert GameConfig.from_dict(config.to_dict()) == config
    hand = Hand(config, seed=1)
    assert hand.pot == 2 + 2 + 1 and hand.bets == [0, 2, 2, 0]
    assert [e.kind for e in hand.events[:3]] == ["big_blind", "post", "post_dead"]
    with pytest.raises(InvalidConfig, match="blind_seats"):
        GameConfig(stacks=(100, 100), small_blind=1, big_blind=2, blind_seats=(1, 1))
    with pytest.raises(InvalidConfig, match="live_posts"):
        GameConfig(stacks=(100, 100), small_blind=1, big_blind=2, live_posts=(1,))
    with pytest.raises(InvalidConfig, match="button_rule"):
        TableConfig(small_blind=1, big_blind=2, button_rule="sideways")  # type: ignore[arg-type]
