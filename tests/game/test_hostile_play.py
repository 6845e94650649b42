"""Issue 9's reproducers, tried as a hostile user would: each failed on the engine that
kept the rules in Rust (a panic, chips created, snapshots that broke later, a leak,
refused calls that changed things, untyped errors). Each now holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.cli import main
from doubleholdem.errors import IllegalAction, InvalidSnapshot, TableError
from doubleholdem.game import GameConfig, Hand, Structure, Variant
from doubleholdem.game.phh import dumps, loads, replay
from doubleholdem.table import Table, TableConfig

# ---------------------------------------------------------------- 1. ante above stakes


def ante_hand() -> Hand:
    config = GameConfig(stacks=(5, 5, 1000), small_blind=1, big_blind=2, ante=10, button=2)
    return Hand(config, seed=1)


def test_an_ante_above_every_all_in_stake_then_a_fold_ends_the_hand() -> None:
    """TH-19, TH-21: the two short players are all-in on their antes; the big stack
    folds. The 5 chips of its ante that nobody live can win go back to it; the rest is a
    pot between the two all-in players (it used to panic on a division by zero)."""
    hand = ante_hand()
    hand.act("fold")
    assert hand.over and sum(hand.stacks) == 1010
    assert hand.stacks[2] == 995
    pots = [(r.amount, r.eligible) for r in hand.results]
    assert pots == [(15, (0, 1))]


def test_the_same_hand_replays_from_its_history_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = ante_hand()
    hand.act("fold")
    path = tmp_path / "ante.phh"
    path.write_text(dumps(hand))
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.splitlines()[0])
    assert sum(out["finishing_stacks"]) == 1010


def test_a_table_holding_that_hand_plays_on() -> None:
    table = Table(
        TableConfig(small_blind=1, big_blind=2, ante=10, min_buy_in=5, max_buy_in=1000), seed=1
    )
    for seat, chips in ((0, 5), (1, 5), (2, 1000)):
        table.join(seat, f"p{seat}", chips)
    table.start_hand()
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        legal = table.legal_actions()
        assert legal is not None
        table.act(seat, "fold" if legal.can_fold else "check")
    assert table.chips() + table.rake == table.bought_in == 1010


# ---------------------------------------------------------------- 2. no chips created


@pytest.mark.parametrize(
    "settings",
    [
        {"min_bet": 2**63 - 1},
        {"structure": Structure.FIXED_LIMIT, "small_bet": 2**63 - 1, "big_bet": 2**63 - 1},
        {"structure": Structure.POT_LIMIT, "min_bet": 2**64},
    ],
)
def test_huge_bet_sizes_never_create_chips(settings: dict[str, Any]) -> None:
    """A minimum bet of 2**63 - 1 (it wrapped negative in the core): the only raise is
    all-in, a raise to -5000 is refused, and the chips stay 3,000."""
    hand = Hand(GameConfig(stacks=(1000,) * 3, small_blind=5, big_blind=10, **settings), seed=2)
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to == legal.max_raise_to == 1000
    before = hand.to_json()
    with pytest.raises(IllegalAction, match="raise"):
        hand.act("raise", -5000)
    assert hand.to_json() == before
    while not hand.over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act("all_in" if legal.can_all_in else "check")
    assert sum(hand.stacks) == 3000 and min(hand.stacks) >= 0


def test_a_hand_history_with_a_huge_minimum_bet_replays_exactly() -> None:
    history = loads(
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n'
        "min_bet = 9223372036854775807\nstarting_stacks = [100, 100]\n"
        'actions = ["d dh p1 AsAd", "d dh p2 KcKd", "p2 cbr 100", "p1 cc",'
        ' "d db 2c7h9s", "d db 3d", "d db Qh"]\n'
    )
    assert replay(history).finishing_stacks == [200, 0]


# ---------------------------------------------------------------- 3. snapshots


def mid_hand(variant: Variant = Variant.DOUBLE) -> dict[str, Any]:
    hand = Hand(
        GameConfig(stacks=(1000, 1000, 1000), small_blind=5, big_blind=10, variant=variant),
        seed=3,
    )
    hand.check_or_call()
    hand.check_or_call()
    hand.check_or_call()
    return hand.snapshot()


def nested(depth: int) -> str:
    return '{"version": 3, "config": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d["deck"].__setitem__(5, d["deck"][4]), "duplicate card"),
        (lambda d: d.__setitem__("deck", d["deck"][:9]), "the deck has 9 cards"),
        (lambda d: d["decisions"].append([Hand.restore(d).actor, "point", 0]), "act on the bet"),
        (lambda d: d["decisions"].append([0, "raise", -40]), "cannot"),
        (lambda d: d["decisions"].extend([[s, "fold", None] for s in (0, 1, 2)]), "cannot"),
        (lambda d: d["config"].__setitem__("stacks", [1000, -1000, 1000]), "stacks"),
        (lambda d: d["config"].__setitem__("ante", 2**64 * -1), "ante"),
    ],
)
def test_inconsistent_snapshots_are_refused(change: Any, reason: str) -> None:
    """A card twice, a deck too short for the deal, a point card in Texas Hold'em, a
    negative wager, everyone folded, negative chips: each is InvalidSnapshot."""
    data = mid_hand(Variant.TEXAS)
    change(data)
    with pytest.raises(InvalidSnapshot, match=reason):
        Hand.restore(data)


@pytest.mark.parametrize("text", [nested(3000), nested(100_000), "[" * 5000, '{"version": 3e999}'])
def test_deeply_nested_or_absurd_snapshot_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidSnapshot):
        Hand.from_json(text)


def test_stacks_beyond_64_bits_restore_exactly() -> None:
    """Stacks whose sum wrapped in the core are plain Python integers now."""
    config = GameConfig(stacks=(2**63 - 1,) * 3, small_blind=1, big_blind=2)
    hand = Hand(config, seed=4)
    hand.act("all_in")
    copy = Hand.from_json(hand.to_json())
    assert copy.to_json() == hand.to_json() and copy.pot == hand.pot == 2**63 + 2


# ---------------------------------------------------------------- 4. the table's log


def test_a_later_occupant_never_sees_the_former_occupants_cards() -> None:
    """TH-22: unshown hole cards stay secret; the seat's next occupant is someone else."""
    table = Table(TableConfig(small_blind=5, big_blind=10), seed=5)
    table.join(0, "alice", 1000)
    table.join(1, "bob", 1000)
    table.start_hand()
    seat = table.to_act
    assert seat is not None
    table.act(seat, "fold")  # heads-up: nobody shows
    alice_cards = {c for e in table.event_log(0) if e["kind"] == "deal" for c in e.get("cards", [])}
    assert len(alice_cards) == 2  # alice sees her own cards
    table.leave(0)
    table.join(0, "mallory", 1000)
    seen = json.dumps(table.event_log(0))
    assert not any(card in seen for card in alice_cards)
    assert table.event_log(0, everything=True)  # the server's record keeps everything


# ---------------------------------------------------------------- 5. refusals change nothing


def seated_table() -> Table:
    table = Table(TableConfig(small_blind=5, big_blind=10), seed=6)
    table.join(0, "a", 1000)
    table.join(1, "b", 1000)
    table.join(2, "c", 1000)
    return table


@pytest.mark.parametrize("now", [10**400, float("inf"), float("nan"), True, "5"])
def test_an_impossible_time_is_refused_before_the_action(now: float) -> None:
    table = seated_table()
    table.start_hand(now=1)
    seat = table.to_act
    assert seat is not None
    before = (table.log_json(), table.now, table.to_act)
    with pytest.raises(TableError, match="now must be"):
        table.act(seat, "call", now=now)
    assert (table.log_json(), table.now, table.to_act) == before
    table.act(seat, "call", now=2)  # and play goes on


def test_a_refused_start_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """If dealing is refused, the button does not move, no hand is counted or logged,
    and nobody's missed blinds or posts change."""
    import doubleholdem.table.deal as deal_module  # where a table deals its hands

    table = seated_table()
    table.start_hand()
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        table.act(seat, "fold" if table.legal_actions().can_fold else "check")  # type: ignore[union-attr]
    table.sit_out(2)
    before = (table.log_json(), table.button, table.hand_number, table.seats())

    def refuse(*args: Any, **kwargs: Any) -> Hand:
        raise IllegalAction("refused")

    monkeypatch.setattr(deal_module, "Hand", refuse)
    with pytest.raises(IllegalAction):
        table.start_hand()
    assert (table.log_json(), table.button, table.hand_number, table.seats()) == before


def test_buy_ins_beyond_64_bits_deal_and_conserve() -> None:
    """Buy-ins whose sum the core refused after moving the button play exactly now."""
    big = 2**64
    table = Table(TableConfig(small_blind=1, big_blind=2, max_buy_in=big), seed=7)
    table.join(0, "a", big)
    table.join(1, "b", big)
    table.start_hand()
    seat = table.to_act
    assert seat is not None
    table.act(seat, "all_in")
    other = table.to_act
    assert other is not None
    table.act(other, "call")
    assert table.chips() + table.rake == table.bought_in == 2 * big


# ---------------------------------------------------------------- 6. typed errors


def test_a_timeout_after_the_end_is_an_illegal_action() -> None:
    hand = ante_hand()
    hand.act("fold")
    with pytest.raises(IllegalAction, match="cannot time out: it is the end of the hand"):
        hand.timeout(0)


@pytest.mark.parametrize("rng", [object(), 7, "seed"])
def test_a_generator_that_is_not_one_is_refused(rng: object) -> None:
    from doubleholdem.errors import InvalidConfig

    with pytest.raises(InvalidConfig, match=r"rng: give a random\.Random"):
        Hand(GameConfig(stacks=(10, 10), small_blind=1, big_blind=2), rng=rng)  # type: ignore[arg-type]
