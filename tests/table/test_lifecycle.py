"""The seat lifecycle at the table, on a fake clock (issue 20; RULES.md TH-36, TH-37,
TH-40): a player who is away gets the action time without the time bank and sits out on
its first timeout, so it costs the table one action time once; two missed decisions in a
row sit a seat out; the sit-out and busted clocks say when a seat is due to go; a player
who leaves and sits down again owes the blinds it missed."""

from __future__ import annotations

from typing import Any

import pytest

from doubleholdem.table import Table, TableConfig
from table_harness import check_chips, finish, play_hand, posts

SB, BB = 5, 10
ACTION, BANK = 10.0, 30.0


def make_table(seats: int = 4, **settings: Any) -> Table:
    config = TableConfig(
        small_blind=SB, big_blind=BB, action_time=ACTION, time_bank=BANK, **settings
    )
    table = Table(config, seed=11)
    for seat, name in enumerate("abcdef"[:seats]):
        table.join(seat, name, 1000, now=0.0)
    return table


def waited(table: Table, away: int, start: float) -> float:
    """Plays the hand from ``start``: every seat but ``away`` acts at once (check, or
    call), ``away`` never does; returns how long the table waited on deadlines."""
    now = start
    waiting = 0.0
    while table.in_hand:
        seat = table.to_act
        if seat == away:
            deadline = table.deadline
            assert deadline is not None
            waiting += max(0.0, deadline - now)
            now = max(now, deadline)
            table.advance(now)
            continue
        legal = table.legal_actions()
        assert legal is not None and seat is not None
        table.act(seat, "check" if legal.can_check else "call", now=now)
    return waiting


@pytest.mark.parametrize("away", [0, 1, 2, 3])
def test_a_player_who_is_gone_costs_one_action_time_once(away: int) -> None:
    """The target of issue 20: whatever seat goes away before the deal (the button, a
    blind, the first to act), the table waits for it one action time, without the bank,
    in the first hand, and never again."""
    table = make_table()
    table.set_away(away, True, now=0.0)
    total = 0.0
    now = 0.0
    for _ in range(6):
        table.start_hand(now=now)
        total += waited(table, away, now)
        now = table.now + 1.0
    assert total == ACTION
    seat = table.seats()[away]
    assert seat is not None and seat["sitting_out"] and seat["away"]
    assert not any(e["kind"] == "time_bank" for e in table.event_log(everything=True))
    check_chips(table)


def test_away_at_its_own_turn_loses_the_bank_and_back_restores_it() -> None:
    table = make_table(3)
    table.start_hand(now=0.0)
    seat = table.to_act
    assert seat is not None and table.deadline == ACTION
    table.set_away(seat, True, now=4.0)  # the connection drops during its action time
    table.advance(ACTION)
    log = table.event_log(everything=True)
    assert [(e["kind"], e.get("seat")) for e in log].count(("timeout", seat)) == 1
    assert not any(e["kind"] == "time_bank" for e in log)
    assert table.seats()[seat]["sitting_out"]  # type: ignore[index]
    other = make_table(3)
    other.start_hand(now=0.0)
    other.set_away(seat, True, now=2.0)
    other.set_away(seat, False, now=5.0)  # back in time: the bank is there again
    other.advance(ACTION)
    assert other.time_bank_running and other.deadline == ACTION + BANK


def test_a_seat_away_timed_out_acts_at_once_for_the_rest_of_the_hand() -> None:
    table = make_table(2)  # heads-up: the button acts first pre-flop, then last
    table.start_hand(now=0.0)
    first = table.to_act
    assert first is not None
    other = 1 - first
    table.set_away(other, True, now=0.0)
    table.act(first, "call", now=1.0)
    table.advance(1.0 + ACTION)  # the away big blind checks on its timeout, and on
    kinds = [(e["kind"], e.get("seat")) for e in table.event_log(everything=True)]
    # the flop, where it acts first, at once: no time is left to wait for it
    assert kinds.count(("timeout", other)) == 2 and kinds.count(("check", other)) == 2
    assert table.in_hand and table.to_act == first
    assert table.deadline == 1.0 + 2 * ACTION  # the player who is there has its time


def test_two_missed_decisions_in_a_row_sit_a_connected_seat_out() -> None:
    table = make_table(3)
    table.start_hand(now=0.0)
    seat = table.to_act
    assert seat is not None
    table.advance(ACTION + BANK)  # the first timeout: the bank was spent first
    assert not table.seats()[seat]["sitting_out"]  # type: ignore[index]
    finish(table)
    table.start_hand(now=100.0)
    while table.to_act != seat:
        answer(table, 100.0)
    table.advance(100.0 + ACTION + BANK)  # the second in a row
    assert table.seats()[seat]["sitting_out"]  # type: ignore[index]
    # one decision in between clears the count
    other = make_table(3)
    other.start_hand(now=0.0)
    first = other.to_act
    assert first is not None
    other.advance(ACTION + BANK)
    finish(other)
    other.start_hand(now=100.0)
    while other.to_act != first:
        answer(other, 100.0)
    answer(other, 101.0)  # a decision of its own
    finish(other)
    other.start_hand(now=200.0)
    while other.in_hand and other.to_act != first:
        answer(other, 200.0)
    assert other.in_hand
    other.advance(200.0 + ACTION + BANK)
    assert not other.seats()[first]["sitting_out"]  # type: ignore[index]


def answer(table: Table, now: float) -> None:
    """The seat to act checks, else calls."""
    legal = table.legal_actions()
    assert legal is not None and table.to_act is not None
    table.act(table.to_act, "check" if legal.can_check else "call", now=now)


def test_the_sit_out_clock_and_removal_with_the_chips_returned() -> None:
    table = make_table(3)
    play_hand(table)
    table.sit_out(2, now=100.0)
    assert table.overstayed(300, 60) == [] and table.next_removal(300, 60) == 400.0
    table.advance(399.0)
    assert table.overstayed(300, 60) == []
    table.advance(400.0)
    assert table.overstayed(300, 60) == [2]
    stack, brought = table.stack(2), table.bought_in
    table.leave_after_hand(2, now=400.0)  # the one way a seat ends
    assert table.seats()[2] is None and table.bought_in == brought - stack
    leave = table.event_log(everything=True)[-1]
    assert leave["kind"] == "leave" and leave["amount"] == stack
    # sitting in stops the clock
    table.sit_out(1, now=410.0)
    table.sit_in(1, now=420.0)
    assert table.next_removal(300, 60) is None


def test_a_seat_sat_out_during_its_hand_leaves_after_it() -> None:
    table = make_table(3)
    table.start_hand(now=0.0)
    seat = table.to_act
    assert seat is not None
    table.sit_out(seat, now=0.0)  # during its hand: it plays it out
    assert table.overstayed(0, 60) == [seat]
    table.leave_after_hand(seat, now=0.0)
    assert table.in_hand and table.seats()[seat]["leaving"]  # type: ignore[index]
    assert table.overstayed(0, 60) == []  # once
    finish(table)
    assert table.seats()[seat] is None
    check_chips(table)


def test_the_busted_clock_and_a_top_up_stops_it() -> None:
    table = make_table(2)
    table.start_hand(now=0.0)
    while table.in_hand:
        seat = table.to_act
        legal = table.legal_actions()
        assert seat is not None and legal is not None
        if table.decision == "point":
            table.choose_point(seat, 0, now=5.0)
        elif legal.max_raise_to is not None:
            table.act(seat, "all_in", now=5.0)
        else:
            table.act(seat, "call" if legal.can_call else "check", now=5.0)
    busted = [s for s in (0, 1) if table.stack(s) == 0]
    assert len(busted) == 1  # this seed's deal has a winner
    seat = busted[0]
    assert table.next_removal(300, 60) == 65.0
    table.advance(64.0)
    assert table.overstayed(300, 60) == []
    table.advance(65.0)
    assert table.overstayed(300, 60) == [seat]
    table.top_up(seat, 500, now=65.0)
    assert table.overstayed(300, 60) == [] and table.next_removal(300, 60) is None


def test_leaving_and_sitting_down_again_cannot_dodge_the_blinds() -> None:
    """TH-37: a player who sat out past both blinds, left and sat down again (another
    seat, at once) owes them as if it had stayed: the big blind live, the small dead."""
    table = make_table(4)
    play_hand(table)  # button 0, SB 1, BB 2
    table.sit_out(3)
    play_hand(table)
    play_hand(table)
    assert table.seats()[3]["missed_big"] and table.seats()[3]["missed_small"]  # type: ignore[index]
    table.leave(3)
    table.join(3, "d", 1000)
    seat = table.seats()[3]
    assert seat is not None and not seat["new"] and seat["missed_big"] and seat["missed_small"]
    table.start_hand()
    if 3 in table.dealt and 3 not in table.blinds:
        found = posts(table)
        assert found["post"] == [(3, BB)] and found["post_dead"] == [(3, SB)]
    finish(table)
    check_chips(table)


def test_blinds_passing_an_empty_seat_are_owed_by_who_left_it() -> None:
    table = make_table(4)
    play_hand(table)  # button 0, SB 1, BB 2
    table.leave(3)  # the big blind would come to seat 3 next
    play_hand(table)  # the big blind passes the empty seat
    play_hand(table)  # and the small blind
    table.join(3, "d", 1000)
    seat = table.seats()[3]
    assert seat is not None and seat["missed_big"] and seat["missed_small"]
    # once forgotten (after the room's sit-out time), a player is new again (TH-36)
    table.leave(3)
    table.forget_departures(before=table.now + 1)
    table.join(3, "d", 1000)
    seat = table.seats()[3]
    assert seat is not None and seat["new"] and not seat["missed_big"]


def test_the_lifecycle_survives_a_snapshot() -> None:
    table = make_table(5)
    table.set_away(1, True, now=0.0)
    table.sit_out(2, now=1.0)
    play_hand(table)  # button 0, blinds 1 and 3
    table.leave(0)
    copy = Table.from_json(table.to_json())
    assert copy.to_json() == table.to_json()
    assert copy.seats() == table.seats() and copy.seats()[1]["away"]  # type: ignore[index]
    assert copy.next_removal(300, 60) == table.next_removal(300, 60) == 301.0
    play_hand(copy)  # button 1, blinds 3 and 4
    play_hand(copy)  # button 3, blinds 4 and 1: the big blind passes seat 0
    copy.join(0, "a", 1000)
    assert not copy.seats()[0]["new"]  # type: ignore[index]


def test_a_seat_gone_away_while_another_acts_gets_no_bank_at_its_turn() -> None:
    """The clock of the seat to act is the plain one only while no seat is away or owes
    a missed decision (the table's hot path): a seat that goes away during another's
    decision, and comes to act after a decision made without a time, still gets the
    action time without the bank (TH-40)."""
    table = make_table(3)
    table.start_hand(now=0.0)
    first = table.to_act
    assert first is not None
    table.act(first, "call", now=1.0)
    second = table.to_act
    assert second is not None
    third = next(s for s in range(3) if s not in (first, second))
    table.set_away(third, True, now=2.0)
    table.act(second, "call")  # no time given: the table's time, 2.0
    assert table.to_act == third and table.deadline == 2.0 + ACTION
    table.advance(2.0 + ACTION)  # its time out: no bank, a timeout, and it sits out
    log = table.event_log(everything=True)
    assert not any(e["kind"] == "time_bank" for e in log)
    assert ("timeout", third) in [(e["kind"], e.get("seat")) for e in log]
    assert table.seats()[third]["sitting_out"]  # type: ignore[index]


def _check_or_call(table: Table) -> None:
    seat, legal = table.to_act, table.legal_actions()
    assert seat is not None and legal is not None
    table.act(seat, "check" if legal.can_check else "call")


def test_a_missed_decision_counts_until_the_seat_decides_again() -> None:
    """The count of missed decisions in a row is cleared by the seat's next decision,
    made on the hot path too (no time given), and a restored table counts as the
    original does: one more timeout after it does not sit the seat out."""
    table = make_table(3)
    table.start_hand(now=0.0)
    seat = table.to_act
    assert seat is not None
    table.advance(ACTION + BANK)  # its first missed decision: it folds
    while table.in_hand:
        _check_or_call(table)
    copy = Table.from_json(table.to_json())
    for each in (table, copy):
        each.start_hand(now=100.0)
        while each.to_act != seat:
            _check_or_call(each)
        _check_or_call(each)  # it decides: the count starts again
        while each.to_act != seat:
            _check_or_call(each)
        deadline = each.deadline
        assert deadline is not None
        each.advance(deadline + BANK)  # its second missed decision, not in a row
        kinds = [(e["kind"], e.get("seat")) for e in each.event_log(everything=True)]
        assert kinds.count(("timeout", seat)) == 2
        assert not each.seats()[seat]["sitting_out"]  # type: ignore[index]
    assert copy.seats() == table.seats()
