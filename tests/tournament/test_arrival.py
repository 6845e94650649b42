"""TRN-11, TRN-12 at a table: a tournament table plays the dead button and deals a player
who arrives in at once without a post, except between the button and the small blind."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.table.blinds import Debts, Positions, plan_blinds
from doubleholdem.table.config import ButtonRule
from doubleholdem.table.table import Table
from doubleholdem.tournament import TournamentConfig


def _table(players: dict[int, str]) -> Table:
    table = Table(TournamentConfig().table_config(0), seed=1)
    for seat, name in players.items():
        table.join(seat, name, 1000)
    return table


def _fold_around(table: Table) -> None:
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        legal = table.legal_actions()
        assert legal is not None
        table.act(seat, "check" if legal.can_check else "fold")


def test_arrival_on_the_big_blind_is_dealt_without_a_post() -> None:
    """TRN-12: the arrival takes the big blind it sits in, posting nothing else."""
    table = _table({0: "a", 2: "b", 4: "c", 6: "d"})
    table.start_hand()  # button 0, blinds 2 and 4
    assert (table.button, table.blinds) == (0, (2, 4))
    _fold_around(table)
    table.join(5, "new", 1000)  # between the last big blind (4) and the next player (6)
    table.start_hand()
    assert table.blinds == (4, 5) and 5 in table.dealt
    assert table.stack(5) == 1000 - 20  # the big blind only


def test_arrival_between_the_button_and_the_small_blind_waits() -> None:
    """TRN-12: a seat between the button and the small blind is dealt in once the
    button has passed it; no post is asked for then either."""
    table = _table({0: "a", 2: "b", 4: "c", 6: "d"})
    table.start_hand()
    _fold_around(table)
    table.join(3, "new", 1000)  # the next button is 2, the small blind 4: seat 3 waits
    table.start_hand()
    assert (table.button, table.blinds) == (2, (4, 6)) and 3 not in table.dealt
    _fold_around(table)
    table.start_hand()  # button 4: seat 3 plays, on the button's right
    assert 3 in table.dealt and table.stack(3) == 1000


def test_arrival_anywhere_else_is_dealt_at_once() -> None:
    """TRN-12: on the button side of the table, the arrival plays the next hand."""
    table = _table({0: "a", 2: "b", 4: "c", 6: "d"})
    table.start_hand()
    _fold_around(table)
    table.join(8, "new", 1000)
    table.start_hand()
    assert 8 in table.dealt and table.stack(8) == 1000


def test_dead_button_and_heads_up() -> None:
    """TRN-11: the dead button (TH-38) when the small blind busts; heads-up the button
    posts the small blind (TH-3)."""
    table = _table({0: "a", 1: "b", 2: "c"})
    assert table.config.button_rule.value == "dead"
    table.start_hand()
    assert (table.button, table.blinds) == (0, (1, 2))
    _fold_around(table)
    table.leave(1)  # the next small blind's player is gone
    table.start_hand()  # heads-up now: the button posts the small blind
    assert table.button in table.dealt and table.blinds[0] == table.button


@pytest.mark.parametrize(
    ("new", "dealt", "button", "small", "big"),
    [
        # the last hand: button 0, small blind 2, big blind 4, at seats 0 2 4 6 (of 9)
        (5, (0, 2, 4, 5, 6), 2, 4, 5),  # after the big blind: the next big blind, no post
        (3, (0, 2, 4, 6), 2, 4, 6),  # between the next button and small blind: waits
        (1, (0, 1, 2, 4, 6), 2, 4, 6),  # behind the button: dealt at once
        (8, (0, 2, 4, 6, 8), 2, 4, 6),
        (7, (0, 2, 4, 6, 7), 2, 4, 6),
    ],
)
def test_plan_of_a_tournament_table(
    new: int, dealt: tuple[int, ...], button: int, small: int, big: int
) -> None:
    """TRN-11, TRN-12 as the pure plan of the blinds: the dead button moves on (TH-38),
    an arrival is dealt in wherever the rule allows, and posts nothing."""
    seats: list[Debts | None] = [None] * 9
    for seat in (0, 2, 4, 6):
        seats[seat] = Debts(seat)
    seats[new] = Debts(new, new=True)
    able = [s for s, debts in enumerate(seats) if debts is not None]
    last = Positions(0, 2, 4, (4, 4))
    plan = plan_blinds(seats, able, last, ButtonRule.DEAD, 10, 20, new_player_posts=False)
    assert (plan.dealt, plan.button, plan.small, plan.big) == (dealt, button, small, big)
    assert plan.live == {} and plan.dead == {}
    cash = plan_blinds(seats, able, last, ButtonRule.DEAD, 10, 20)  # TH-36 at a cash table
    assert cash.live == ({new: 20} if new in cash.dealt and new != cash.big else {})


@given(
    seats=st.integers(2, 10),
    steps=st.lists(
        st.tuples(
            st.sampled_from(["join", "leave", "hand", "hand", "hand"]), st.integers(0, 2**16)
        ),
        min_size=20,
        max_size=80,
    ),
    seed=st.integers(0, 2**16),
)
@settings(max_examples=150, deadline=None)
def test_arrivals_never_stall_a_table(seats: int, steps: list[tuple[str, int]], seed: int) -> None:
    """TRN-11, TRN-12: whoever comes and goes between hands (the busted leave, as at a
    tournament), a table with two players able to play starts a hand that deals two or
    more; an arrival left waiting for the button is dealt the next hand unless another
    arrival came in the meantime (which may take the big blind and keep the dead
    button where it is, TH-38)."""
    table = Table(TournamentConfig(seats=seats).table_config(0), seed=seed)
    waiting: dict[int, int | None] = {}  # seat: occupancy, not dealt last hand
    for count, (step, value) in enumerate(steps):
        choose = random.Random(value)
        taken = [s for s in range(seats) if table.occupancy(s) is not None]
        if step == "join" and len(taken) < seats:
            seat = choose.choice([s for s in range(seats) if s not in taken])
            table.join(seat, f"p{count}", choose.choice([15, 30, 100, 1000]), stranger=True)
            waiting = {}
        elif step == "leave" and taken:
            _leave(table, choose.choice(taken), waiting)
        elif step == "hand" and len(table.able()) >= 2:
            table.start_hand()
            assert len(table.dealt) >= 2
            assert all(s in table.dealt for s, o in waiting.items() if table.occupancy(s) == o)
            waiting = {s: table.occupancy(s) for s in table.able() if s not in table.dealt}
            _play_randomly(table, choose)
            for seat in [s for s in table.dealt if table.stack(s) == 0]:
                _leave(table, seat, waiting)


def _leave(table: Table, seat: int, waiting: dict[int, int | None]) -> None:
    table.leave(seat)
    table.forget_departures(math.inf)  # TRN-12: nobody leaves owing blinds
    waiting.pop(seat, None)


def _play_randomly(table: Table, choose: random.Random) -> None:
    while table.in_hand:
        seat, legal = table.to_act, table.legal_actions()
        assert seat is not None and legal is not None
        pick = choose.random()
        if pick < 0.2 and legal.can_fold:
            table.act(seat, "fold")
        elif pick < 0.4 and legal.max_raise_to is not None:
            table.act(seat, "all_in")
        else:
            table.act(seat, "check" if legal.can_check else "call")
