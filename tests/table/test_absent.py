"""Absent players at a tournament table (RULES.md TRN-21): with ``absent_dealt_in`` a
seat sitting out is dealt in, posts its blinds and antes, and its hand is dead (each of
its decisions taken at once: fold facing a wager, check when free); a cash table (the
default) still deals it out and records the blinds it misses (TH-37)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.errors import InvalidConfig
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.bots import make_bot


def _table(stacks: tuple[int, ...] = (1000, 1000, 1000), **settings: object) -> Table:
    """A table whose second hand has the button on seat 1, the small blind on seat 2 and
    the big blind on seat 0 (the first hand is folded round)."""
    settings.setdefault("absent_dealt_in", True)
    config = TableConfig(small_blind=5, big_blind=10, min_buy_in=1, **settings)  # type: ignore[arg-type]
    table = Table(config, seed=1)
    for seat, name in enumerate(("ann", "bob", "cy")):
        table.join(seat, name, 1000)
    table.start_hand(now=0.0)
    while table.in_hand:
        free = table.legal_actions().can_check  # type: ignore[union-attr]
        table.act(table.to_act, "check" if free else "fold")  # type: ignore[arg-type]
    for seat, stack in enumerate(stacks):  # the chips of the case
        table.adjust_stack(seat, stack - table.stack(seat))
    return table


CASES = [
    # absent seat, the present players' actions in turn, each seat's change in chips,
    # the absent seat's decisions (each taken at once, as on a timeout)
    ("big blind, folded to", 0, [(1, "fold"), (2, "fold")], {0: 5, 1: 0, 2: -5}, 0),
    ("big blind, free check, then a bet", 0,
     [(1, "fold"), (2, "call"), (2, "bet", 20)], {0: -10, 1: 0, 2: 10}, 2),
    ("big blind facing a raise", 0, [(1, "raise", 30), (2, "fold")], {0: -10, 1: 15, 2: -5}, 1),
    ("small blind facing the big blind", 2, [(1, "fold")], {0: 5, 1: 0, 2: -5}, 1),
    ("button, first to act", 1, [(2, "fold")], {0: 5, 1: 0, 2: -5}, 1),
]  # fmt: skip


@pytest.mark.parametrize(("absent", "actions", "change", "decisions"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_an_absent_player_is_dealt_in_and_its_hand_is_dead(
    absent: int,
    actions: list[tuple[int, str] | tuple[int, str, int]],
    change: dict[int, int],
    decisions: int,
) -> None:
    table = _table()
    table.sit_out(absent)
    before = [table.stack(s) for s in range(3)]
    table.start_hand(now=1.0)
    assert (table.button, table.blinds) == (1, (2, 0))
    assert table.dealt == [0, 1, 2]  # dealt in, its blinds posted
    for seat, action, *amount in actions:
        assert table.to_act == seat  # never waited for
        table.act(seat, action, *amount)
    assert not table.in_hand
    assert {s: table.stack(s) - before[s] for s in range(3)} == change
    kinds = [(e["kind"], e.get("seat")) for e in table.event_log()]
    assert kinds.count(("timeout", absent)) == decisions
    assert not any(e["kind"] == "missed_blind" for e in table.event_log())


def test_a_cash_table_still_deals_an_absent_player_out() -> None:
    """TH-37, unchanged: the seat sitting out is not dealt in and misses the big blind."""
    table = _table(absent_dealt_in=False)
    table.sit_out(0)
    table.start_hand(now=1.0)
    assert 0 not in table.dealt
    assert table.seats()[0]["missed_big"]  # type: ignore[index]


def test_an_absent_big_blind_all_in_by_its_post_goes_to_the_showdown() -> None:
    table = _table((7, 1000, 1000), ante=1)
    table.sit_out(0)
    table.start_hand(now=1.0)
    assert 0 in table.dealt and table.stack(0) == 0  # all in: ante 1 and blind 6
    table.act(1, "fold")
    table.act(2, "call")
    while table.in_hand:
        assert table.to_act == 2
        table.act(2, "check")
    shown = table.hand.shown  # type: ignore[union-attr]
    assert shown[table.dealt.index(0)]  # it was not folded
    assert table.chips() == 2007


def test_a_dead_hand_stays_dead_when_its_player_comes_back() -> None:
    """TRN-21: a live hand needs its player at the seat when it is dealt; back during
    the hand it plays from the next one."""
    table = _table()
    table.sit_out(0)
    table.start_hand(now=1.0)
    table.sit_in(0)
    table.act(1, "raise", 30)
    table.act(2, "fold")  # the dead big blind folds at once
    assert not table.in_hand
    table.start_hand(now=2.0)
    assert table.blinds == (0, 1)
    table.act(2, "fold")
    assert table.to_act == 0  # live again: its decision is awaited


def test_a_player_away_keeps_a_live_hand_until_it_times_out() -> None:
    """Away (no connection) but not sat out: its action time, no bank (TH-40); timing
    out sits it out, and its next hands are dead (TRN-21)."""
    table = _table()
    table.set_away(1, True)
    table.start_hand(now=1.0)
    assert table.to_act == 1 and table.deadline == 1.0 + table.config.action_time
    table.advance(1.0 + table.config.action_time)  # times out: folds, sits out
    assert table.seats()[1]["sitting_out"]  # type: ignore[index]
    table.act(2, "fold")
    table.start_hand(now=101.0)
    assert 1 in table.dealt and table.to_act != 1


def test_a_dead_hand_survives_a_snapshot() -> None:
    table = _table()
    table.sit_out(0)
    table.start_hand(now=1.0)
    table.sit_in(0)  # dead for this hand all the same
    copy = Table.from_json(table.to_json())
    assert copy.to_json() == table.to_json()
    for each in (table, copy):
        each.act(1, "raise", 30)
        each.act(2, "fold")
    assert copy.to_json() == table.to_json() and not copy.in_hand


def test_the_setting_is_checked_and_kept_out_of_cash_snapshots() -> None:
    with pytest.raises(InvalidConfig, match="absent_dealt_in"):
        TableConfig(small_blind=5, big_blind=10, absent_dealt_in="yes")  # type: ignore[arg-type]
    cash = Table(TableConfig(small_blind=5, big_blind=10))
    assert "absent_dealt_in" not in cash.to_json()
    tournament = _table()
    assert Table.from_json(tournament.to_json()).config.absent_dealt_in


@given(
    stacks=st.lists(st.integers(1, 120), min_size=2, max_size=6),
    ante=st.integers(0, 3),
    ante_type=st.sampled_from(["uniform", "big-blind"]),
    absent=st.lists(st.booleans(), min_size=6, max_size=6),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=60, deadline=None)
def test_absent_players_only_lose_their_posts(
    stacks: list[int], ante: int, ante_type: str, absent: list[bool], seed: int
) -> None:
    """TRN-21 over random hands: chips are conserved, an absent player never waits for a
    decision and loses at most its blind and ante in a hand (all in on a blind too),
    and no stack goes negative."""
    config = TableConfig(small_blind=5, big_blind=10, ante=ante, ante_type=ante_type,
                         min_buy_in=1, absent_dealt_in=True)  # type: ignore[arg-type]  # fmt: skip
    table = Table(config, seed=seed)
    rng = random.Random(seed)
    bot = make_bot("random", seed=seed)
    for seat, stack in enumerate(stacks):
        table.join(seat, f"p{seat}", stack)
    total = sum(stacks)
    for number in range(6):
        for seat in range(len(stacks)):
            if table.stack(seat) and rng.random() < 0.5:
                away = absent[(seat + number) % 6]
                (table.sit_out if away else table.sit_in)(seat)
        if not table.can_start():
            break
        before = {s: table.stack(s) for s in range(len(stacks))}
        table.start_hand(now=float(number))
        dead = {s for s in table.dealt if table.seats()[s]["sitting_out"]}  # type: ignore[index]
        assert set(table.dealt) == {s for s, chips in before.items() if chips}
        while table.in_hand:
            seat = table.to_act
            assert seat is not None and seat not in dead
            table.decide(seat, bot.choose(table.observe(seat)))
        assert table.chips() == total
        for seat in dead:
            assert before[seat] - table.stack(seat) <= 10 + ante  # its posts at most
        assert all(table.stack(s) >= 0 for s in range(len(stacks)))
