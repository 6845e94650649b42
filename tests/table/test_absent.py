"""Absent players at a tournament table (RULES.md TRN-21): with ``absent_dealt_in`` a
seat sitting out is dealt in, posts its blinds and antes, and its hand is killed at once
(TH-24): it is never asked for a decision, wins nothing, and its posts are dead money for
the live hands; a cash table (the default) still deals it out and records the blinds it
misses (TH-37)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.errors import InvalidConfig
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.bots import make_bot

DATA = Path(__file__).resolve().parent.parent / "data" / "snapshots"


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
    # absent seats, the present players' actions in turn, each seat's change in chips
    ("big blind, folded to: the small blind wins it", [0], [(1, "fold")], {0: -10, 1: 0, 2: 10}),
    ("big blind, called round to the showdown", [0],
     [(1, "call"), (2, "call"), (2, "check"), (1, "check"), (2, "check"), (1, "check"),
      (2, "check"), (1, "check")], None),
    ("big blind facing a raise", [0], [(1, "raise", 30), (2, "fold")], {0: -10, 1: 15, 2: -5}),
    ("small blind", [2], [(1, "fold")], {0: 5, 1: 0, 2: -5}),
    ("button, first to act", [1], [(2, "fold")], {0: 5, 1: 0, 2: -5}),
    ("both blinds: the button wins them", [2, 0], [], {0: -10, 1: 15, 2: -5}),
    ("everyone: the big blind wins the posts", [0, 1, 2], [], {0: 5, 1: 0, 2: -5}),
]  # fmt: skip


@pytest.mark.parametrize(("absent", "actions", "change"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_an_absent_player_is_dealt_in_and_its_hand_is_dead(
    absent: list[int],
    actions: list[tuple[int, str] | tuple[int, str, int]],
    change: dict[int, int] | None,
) -> None:
    table = _table()
    for seat in absent:
        table.sit_out(seat)
    before = [table.stack(s) for s in range(3)]
    table.start_hand(now=1.0)
    assert (table.button, table.blinds) == (1, (2, 0))
    assert table.dealt == [0, 1, 2]  # dealt in, its blinds posted
    for seat, action, *amount in actions:
        assert table.to_act == seat  # never waited for
        table.act(seat, action, *amount)
    assert not table.in_hand
    after = {s: table.stack(s) - before[s] for s in range(3)}
    if change is None:  # a showdown of the live hands: the dead one lost its post
        assert after[0] == -10 and after[1] + after[2] == 10
    else:
        assert after == change
    log = table.event_log()
    killed = [e["seat"] for e in log if e["kind"] == "kill"]
    everyone = len(absent) == 3  # TRN-21: every hand dead, the big blind's is not killed
    assert sorted(killed) == sorted(s for s in absent if not (everyone and s == 0))
    assert not any(e["kind"] in ("timeout", "missed_blind") for e in log)
    assert not any(e.get("seat") in killed for e in log if e["kind"] in ("show", "win"))


def test_a_cash_table_still_deals_an_absent_player_out() -> None:
    """TH-37, unchanged: the seat sitting out is not dealt in and misses the big blind."""
    table = _table(absent_dealt_in=False)
    table.sit_out(0)
    table.start_hand(now=1.0)
    assert 0 not in table.dealt
    assert table.seats()[0]["missed_big"]  # type: ignore[index]


def test_an_absent_big_blind_all_in_by_its_post_takes_no_part_in_the_showdown() -> None:
    table = _table((7, 1000, 1000), ante=1)
    table.sit_out(0)
    table.start_hand(now=1.0)
    assert 0 in table.dealt and table.stack(0) == 0  # all in: ante 1 and blind 6
    table.act(1, "fold")  # the small blind is the last live hand: it wins the posts
    assert not table.in_hand
    assert (table.stack(0), table.stack(1), table.stack(2)) == (0, 999, 1008)
    assert not table.hand.shown[table.dealt.index(0)]  # type: ignore[union-attr]


def test_double_holdem_a_dead_hand_chooses_no_point_card() -> None:
    """DH-5 at a tournament table: the point cards are the live hands' alone."""
    table = _table(variant="double")
    table.sit_out(0)
    table.start_hand(now=1.0)
    table.act(1, "call")
    table.act(2, "call")
    while table.in_hand:
        seat = table.to_act
        assert seat in (1, 2)
        legal = table.legal_actions()
        if legal.decision == "point":  # type: ignore[union-attr]
            table.choose_point(seat, 0)  # type: ignore[arg-type]
        else:
            table.act(seat, "check")  # type: ignore[arg-type]
    points = [e["seat"] for e in table.event_log() if e["kind"] == "point"]
    assert sorted(points) == [1, 2] and table.stack(0) == 990


def test_a_dead_hand_stays_dead_when_its_player_comes_back() -> None:
    """TRN-21: a live hand needs its player at the seat when it is dealt; back during
    the hand it plays from the next one."""
    table = _table()
    table.sit_out(0)
    table.start_hand(now=1.0)
    table.sit_in(0)
    table.act(1, "raise", 30)
    table.act(2, "fold")  # the button wins: the big blind's hand is dead
    assert not table.in_hand and table.stack(0) == 990
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


def test_a_hand_saved_before_dead_hands_were_killed_has_them_killed_when_restored() -> None:
    """A snapshot written while dead hands still checked and folded (before TH-24, by
    the version before it: the absent big blind in seat 0, the button in seat 1 to act):
    restored, the dead hand is killed at once and wins nothing."""
    copy = Table.from_json((DATA / "dead_big_blind_before_th24.json").read_text())
    assert copy.hand.killed == (0,) and copy.to_act == 1  # type: ignore[union-attr]
    small = copy.stack(2)
    copy.act(1, "fold")  # the small blind is the last live hand: it wins the posts
    assert not copy.in_hand and (copy.stack(0), copy.stack(2)) == (990, small + 15)


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
    decision, never gains a chip while another hand is live and loses at most its blind
    and ante in a hand (all in on a blind too), and no stack goes negative."""
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
            if len(dead) < len(table.dealt):
                assert table.stack(seat) <= before[seat]
        assert all(table.stack(s) >= 0 for s in range(len(stacks)))


def test_an_absent_players_seat_is_never_due_for_removal() -> None:
    """TRN-21: an absent entrant's chips stay in play however long it is away; a cash
    table removes a seat sat out too long (TH-40's removal clock)."""
    for dealt_in, due in ((True, []), (False, [2])):
        table = _table(absent_dealt_in=dealt_in)
        table.sit_out(2, now=100.0)
        table.advance(10_000.0)
        assert table.overstayed(300, 60) == due
        assert table.next_removal(300, 60) == (400.0 if due else None)
