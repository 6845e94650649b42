"""Property tests over long random table sessions (hypothesis): players join, leave, sit
out and come back, top up, and time out at random (RULES.md TH-35 to TH-40, DH-7).
Checked: the chip invariant after every step (TH-6: no chip lost), no player posts the
big blind twice in a row (TH-35), every hand is legal (the engine refuses anything
else) and ends, and the same seed gives the same log (determinism)."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from doubleholdem.errors import TableError
from doubleholdem.game import Structure, Variant
from doubleholdem.table import ButtonRule, Table, TableConfig
from doubleholdem.table.bots import CallingStation, RandomBot

SEATS = 6


def session(seed: int, rule: ButtonRule, variant: Variant, steps: int = 60) -> Table:
    rng = random.Random(seed)
    config = TableConfig(
        small_blind=5,
        big_blind=10,
        seats=SEATS,
        button_rule=rule,
        variant=variant,
        structure=rng.choice(list(Structure)),
        action_time=10,
        time_bank=rng.choice([0, 30]),
        point_time=5,
    )
    table = Table(config, seed=seed)
    bots = [RandomBot(seed + seat) if seat % 2 else CallingStation() for seat in range(SEATS)]
    now, joined = 0.0, 0
    last_big: tuple[int, str] | None = None
    dealt_to: dict[int, dict[int, str]] = {}  # hand number -> seat -> player
    for _ in range(steps):
        joined = churn(table, rng, joined, now)
        assert table.chips() + table.rake == table.bought_in
        if not table.can_start():
            continue
        table.start_hand(now)
        big = table.blinds[1]
        assert big is not None and big in table.dealt
        current = (big, table.player(big))
        assert current != last_big, "TH-35: the same player posts the big blind twice"
        last_big = current
        dealt_to[table.hand_number] = {s: table.player(s) for s in table.dealt}
        now = play(table, bots, rng, now)
        assert table.chips() + table.rake == table.bought_in
    check_private_cards(table, dealt_to)
    return table


def check_private_cards(table: Table, dealt_to: dict[int, dict[int, str]]) -> None:
    """Each seat's log shows hole cards and hidden point cards only of hands its present
    occupant was dealt there, never a former occupant's (DH-8, TH-22)."""
    for seat, occupant in enumerate(table.seats()):
        if occupant is None:
            continue
        for entry in table.event_log(seat):
            private = entry["kind"] == "deal" or (entry["kind"] == "point" and "point" in entry)
            if private and ("cards" in entry or "point" in entry):
                dealt = dealt_to[entry["hand_number"]].get(entry["seat"])
                assert entry["seat"] == seat and dealt == occupant["player"], entry


def churn(table: Table, rng: random.Random, joined: int, now: float) -> int:
    """A few random seating changes between hands (refusals are fine: they are typed)."""
    low, high = table.config.buy_in_range
    for _ in range(rng.randrange(3)):
        seat = rng.randrange(SEATS)
        occupied = table.seats()[seat] is not None
        roll = rng.random()
        try:
            if not occupied and roll < 0.6:
                joined += 1
                wait = rng.random() < 0.3
                table.join(seat, f"p{joined}", rng.randint(low, high), wait_for_big_blind=wait)
            elif occupied and roll < 0.15:
                table.leave(seat, now=now)
            elif occupied and roll < 0.35:
                table.sit_out(seat)
            elif occupied and roll < 0.7:
                table.sit_in(seat, wait_for_big_blind=rng.random() < 0.3)
            elif occupied:
                table.top_up(seat, rng.randint(1, high))
        except TableError:
            pass
    return joined


def play(table: Table, bots: list[RandomBot | CallingStation], rng: random.Random, now: float):  # type: ignore[no-untyped-def]
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        if rng.random() < 0.15:  # nobody answers: the clock runs out
            deadline = table.deadline
            assert deadline is not None
            now = deadline + rng.choice([0.0, 100.0])
            table.advance(now)
        else:
            now += rng.random() * 5
            deadline = table.deadline
            if deadline is not None and now >= deadline:  # too late: its time runs out
                table.advance(now)  # first (TH-40), and a decision now would be refused
                continue
            table.decide(seat, bots[seat].choose(table.observe(seat)), now=now)
    hand = table.hand
    assert hand is not None and hand.over and hand.events[-1].kind == "end"
    return now


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    rule=st.sampled_from(list(ButtonRule)),
    variant=st.sampled_from(list(Variant)),
)
@example(seed=1714, rule=ButtonRule.MOVING, variant=Variant.DOUBLE)  # a decision came late
def test_random_sessions_keep_chips_and_never_repeat_the_big_blind(
    seed: int, rule: ButtonRule, variant: Variant
) -> None:
    table = session(seed, rule, variant)
    kinds = {entry["kind"] for entry in table.event_log(everything=True)}
    assert "join" in kinds


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), rule=st.sampled_from(list(ButtonRule)))
def test_same_seed_same_log(seed: int, rule: ButtonRule) -> None:
    first = session(seed, rule, Variant.DOUBLE, steps=30)
    second = session(seed, rule, Variant.DOUBLE, steps=30)
    assert first.log_json() == second.log_json()


def test_long_session_exercises_every_table_event() -> None:
    """One long session reaches every kind of table event at least once, so the
    properties above are checked on the situations they are about."""
    kinds: set[str] = set()
    for seed in range(6):
        for rule in ButtonRule:
            table = session(seed, rule, Variant.DOUBLE, steps=150)
            kinds |= {entry["kind"] for entry in table.event_log(everything=True)}
    expected = {"post", "post_dead", "missed_blind", "time_bank", "timeout", "sit_out"}
    assert expected <= kinds
