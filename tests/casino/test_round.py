"""The casino round engine (RULES.md HU-1 to HU-11): wagers, decisions, settlement of
every HU-6 row and every pay-table line, typed errors, advice at the flop and river."""

from __future__ import annotations

import itertools

import pytest

from doubleholdem import _core, casino
from doubleholdem.cards import parse_cards
from doubleholdem.errors import DoubleHoldemError, InvalidRules, InvalidWager
from doubleholdem.evaluate import evaluate


def dealt(player: str, dealer: str, board: str, **wagers: int) -> casino.Round:
    """A round whose cards are known: player, dealer, then the board (HU-2)."""
    rules = wagers.pop("rules", casino.HEADS_UP)  # type: ignore[arg-type]
    ante = wagers.pop("ante", 10)
    order = parse_cards(f"{player} {dealer} {board}")
    return casino.Round(ante, rules=rules, order=order, **wagers)  # type: ignore[arg-type]


def settle(round: casino.Round, *actions: str) -> casino.Settlement:
    for action in actions:
        round.act(action)
    assert round.stage is casino.Stage.SETTLED
    assert round.settlement is not None
    return round.settlement


def main_bets(s: casino.Settlement) -> tuple[int, int, int]:
    return s.ante, s.odds, s.play


# HU-6, one row each: (player, dealer, board, actions, (ante, odds, play)).
HU6_ROWS = {
    "win, dealer qualifies": ("9c Th", "Ac 3c", "Jd Qs Kc 2h 2d", ["raise 3"], (10, 10, 30)),
    "win, dealer does not qualify": (
        "Ac 9h",
        "5c 3s",
        "Jd Qs Kc 2h 4d",
        ["check", "raise 2"],
        (0, 0, 20),
    ),
    "tie": ("2c 3h", "4d 5d", "As Ks Qs Js Ts", ["check", "check", "raise 1"], (0, 0, 0)),
    "dealer wins, player straight or better": (
        "9c Th",
        "2c 2s",
        "Jd Qs Kc 2h 2d",
        ["raise 3"],
        (-10, 40, -30),
    ),
    "dealer wins otherwise": (
        "9c 8h",
        "Ac 3c",
        "Jd Qs Kc 2h 2d",
        ["check", "check", "raise 1"],
        (-10, -10, -10),
    ),
    "dealer wins, not qualified": (
        "9c 8h",
        "Ac 3c",
        "Jd Qs Kc 2h 4d",
        ["check", "raise 2"],
        (0, -10, -20),
    ),
    "player folded": (
        "9c 8h",
        "Ac 3c",
        "Jd Qs Kc 2h 4d",
        ["check", "check", "fold"],
        (-10, -10, 0),
    ),
}


@pytest.mark.parametrize("row", HU6_ROWS)
def test_every_hu6_row(row: str) -> None:
    player, dealer, board, actions, expected = HU6_ROWS[row]
    assert main_bets(settle(dealt(player, dealer, board), *actions)) == expected


# One winning hand per pay class: (player, dealer, board), the dealer qualifying.
PAY_CLASS_HANDS = [
    ("9c 8h", "2d 3d", "Ac Kd Qh 5s 2c"),  # high card: loses to the dealer's deuces
    ("Ac 8h", "2d 3d", "Kd Qh 9s 5s 5c"),  # pair: the ace kicker wins
    ("Ac Kh", "9d 3d", "Ad Kd 9s 5s 7c"),  # two pair
    ("Ac Ah", "9d 3d", "Ad Kd 9s 5s 7c"),  # three of a kind
    ("9c Th", "2d 2s", "Jd Qs Kc 4h 6d"),  # straight
    ("9c 2c", "Ks 3d", "Jc Qc Kd 2h 5c"),  # flush
    ("Ac Ah", "Kd Ks", "Ad Kc 9s 5s 5c"),  # full house
    ("Ac Ah", "Kd Ks", "Ad As 9s 5h 5c"),  # four of a kind
    ("9c Tc", "Kd Ks", "Jc Qc Kc 5s 5h"),  # straight flush
    ("Ac Tc", "Kd Ks", "Jc Qc Kc 5s 5h"),  # royal flush
]


def test_pay_class_hands_are_what_they_say() -> None:
    for pay_class, (player, _, board) in enumerate(PAY_CLASS_HANDS):
        value = evaluate(f"{player} {board}")
        assert min(value >> 12, 8) == min(pay_class, 8)
        assert (value == (8 << 12 | 9)) == (pay_class == 9)


@pytest.mark.parametrize("pay_class", range(10))
def test_every_odds_line_on_a_win(pay_class: int) -> None:
    """HU-7: the Odds pays its table on a win; the test plays a winning hand of each
    class against a qualifying dealer (the first row's high card loses instead)."""
    player, dealer, board = PAY_CLASS_HANDS[pay_class]
    s = settle(dealt(player, dealer, board, ante=2), "raise 3")
    to, per = casino.ODDS_TABLE[pay_class]
    won = s.play > 0
    assert won == (pay_class != 0)
    if won:
        assert (s.ante, s.odds, s.play) == (2, 2 * to // per, 6)


BAD_BEATS = [
    ("9c Th", "2c 2s", "Jd Qs Kc 2h 2d", 4),  # a straight loses to quads
    ("9c 2c", "Kd Ks", "Jc Qc Kc Kh 5c", 5),  # a flush loses to quads
    ("Ac Ah", "Kd Ks", "Ad Kc Kh 5h 5c", 6),  # aces full lose to quad kings
    ("5d 5s", "Kd Ks", "Ad Kc Kh 5h 5c", 25),  # quad fives lose to quad kings
    ("9c 8c", "Kc Ac", "Jc Qc Tc 5s 5h", 500),  # a straight flush loses to a royal
]


@pytest.mark.parametrize("player, dealer, board, pay", BAD_BEATS)
def test_every_bad_beat_line(player: str, dealer: str, board: str, pay: int) -> None:
    """HU-8 (and HU-6 row 4): the Odds bet pays the bad-beat table when the dealer wins
    against a straight or better; the Ultimate Blind just loses."""
    hu = settle(dealt(player, dealer, board), "raise 3")
    assert hu.play == -30 and hu.ante == -10
    assert casino.BAD_BEAT_TABLE[evaluate(f"{player} {board}") >> 12] == (pay, 1)
    assert hu.odds == 10 * pay
    uth = settle(dealt(player, dealer, board, rules=casino.ULTIMATE), "raise 4")
    assert main_bets(uth) == (-10, -10, -40)


@pytest.mark.parametrize("pay_class", range(10))
def test_every_trips_plus_line(pay_class: int) -> None:
    """HU-9: on the player's seven cards, whatever the dealer holds, also after a fold."""
    player, dealer, board = PAY_CLASS_HANDS[pay_class]
    s = settle(dealt(player, dealer, board, trips=4), "check", "check", "fold")
    to, per = casino.TRIPS_PLUS_TABLE[pay_class]
    assert s.trips == 4 * to // per
    assert (s.ante, s.odds, s.play) == (-10, -10, 0)


POCKET_LINES = [
    ("Ac As", 30),
    ("Ah Kh", 20),
    ("Qd Ad", 20),
    ("Ah Js", 10),
    ("7c 7d", 4),
    ("Ah Th", -1),
]


@pytest.mark.parametrize("hole, pay", POCKET_LINES)
def test_every_pocket_bonus_line(hole: str, pay: int) -> None:
    """HU-10, settled even after a fold (HU-4)."""
    s = settle(dealt(hole, "4c 4d", "2c 3d 8h 9s 5s", pocket_bonus=3), "check", "check", "fold")
    assert s.pocket_bonus == 3 * pay


def test_ultimate_is_the_same_engine_with_other_settings() -> None:
    r = dealt("9c Th", "Ac 3c", "Jd Qs Kc 2h 2d", rules=casino.ULTIMATE)
    assert r.legal() == ("check", "raise 4", "raise 3")
    assert main_bets(settle(r, "raise 4")) == (10, 10, 40)


def test_three_to_two_rounds_down() -> None:
    """A flush pays 3:2 on the Odds: 7 on a stake of 5."""
    player, dealer, board = PAY_CLASS_HANDS[5]
    assert settle(dealt(player, dealer, board, ante=5), "raise 3").odds == 7


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"ante": -5}, "negative"),
        ({"ante": 0}, "positive"),
        ({"ante": 10, "odds": 5}, "must equal the Ante"),
        ({"ante": 10, "trips": -1}, "negative"),
        ({"ante": 10, "pocket_bonus": 2.5}, "integer"),
        ({"ante": True}, "integer"),
    ],
)
def test_bad_wagers(kwargs: dict[str, object], message: str) -> None:
    ante = kwargs.pop("ante")
    with pytest.raises(InvalidWager, match=message):
        casino.Round(ante, **kwargs)  # type: ignore[arg-type]


def test_actions_not_allowed_now_raise_and_change_nothing() -> None:
    r = casino.Round(10, seed=1)
    for bad in ("raise 2", "fold", "raise 4", "jump"):
        with pytest.raises(InvalidWager) as info:
            r.act(bad)
        assert info.value.allowed == ("check", "raise 3")
        assert r.stage is casino.Stage.PREFLOP and r.history == []
    r.check()
    with pytest.raises(InvalidWager):
        r.raise_(3)
    r.check()
    with pytest.raises(InvalidWager):
        r.check()
    r.raise_(1)
    with pytest.raises(InvalidWager, match="settled"):
        r.fold()
    assert r.dealer is not None and len(r.dealer) == 2


def test_seeded_rounds_repeat_and_hide_the_dealer() -> None:
    a, b = casino.Round(10, seed=42), casino.Round(10, seed=42)
    assert a.player == b.player and a.dealer is None and a.board == []
    a.check()
    b.check()
    assert a.board == b.board and len(a.board) == 3


def test_bad_rules_raise_typed_errors() -> None:
    with pytest.raises(InvalidRules):
        casino.Rules(preflop_raises=()).core()
    with pytest.raises(InvalidRules):
        casino.Rules(odds_win=casino.ODDS_TABLE[:9]).core()
    with pytest.raises(InvalidRules):
        casino.Rules(trips=((1, 0),) * 10).core()
    assert issubclass(InvalidRules, DoubleHoldemError)


def brute_force_river(round: casino.Round) -> dict[str, float]:
    """Every dealer hand settled by the engine: EV of the main bets per unit of Ante."""
    seen = set(round.player) | set(round.board)
    unseen = [c for c in range(52) if c not in seen]
    core = round.rules.core()
    totals = {"fold": 0.0, "raise 1": 0.0}
    hands = list(itertools.combinations(unseen, 2))
    for dealer in hands:
        for name, play in (("fold", None), ("raise 1", 1)):
            ante, odds, play_result, _, _ = _core.casino_settle(
                core, 2, 0, 0, play, round.player, round.board, list(dealer)
            )
            totals[name] += (ante + odds + play_result) / 2
    return {name: total / len(hands) for name, total in totals.items()}


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_river_advice_equals_brute_force(seed: int) -> None:
    r = casino.Round(10, seed=seed)
    r.check()
    r.check()
    advice = casino.advise(r)
    expected = brute_force_river(r)
    assert advice.options.keys() == expected.keys()
    for name, ev in expected.items():
        assert advice.options[name] == pytest.approx(ev, abs=1e-12)


def test_flop_advice_lists_check_and_raise() -> None:
    r = dealt("Ac Ad", "2c 7d", "Ah Ks 3d 9c 4h")
    r.check()
    advice = casino.advise(r)
    assert list(advice.options) == ["check", "raise 2"]
    assert advice.best == "raise 2" and advice.options["raise 2"] > 2.0


def test_preflop_advice_comes_from_the_shipped_table() -> None:
    r = dealt("Ac Ad", "2c 7d", "Ah Ks 3d 9c 4h")
    advice = casino.advise(r)
    assert advice.best == "raise 3"
    assert advice.options == casino.preflop_table()["AA"]
    assert len(casino.preflop_table(casino.ULTIMATE)) == 169
    with pytest.raises(InvalidRules):
        casino.preflop_table(casino.Rules(river_raises=(1, 2)))


def test_starting_hand_classes() -> None:
    assert casino.starting_hand_class("Ah Kh") == "AKs"
    assert casino.starting_hand_class("Kd As") == "AKo"
    assert casino.starting_hand_class("7c 7s") == "77"


def test_cli_side_bets_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from doubleholdem.cli import main

    assert main(["casino", "side-bets", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"trips_plus", "pocket_bonus"}
    assert 0 < result["pocket_bonus"]["house_edge"] < 0.2
    assert main(["casino", "simulate", "--rounds", "1", "--seed", "1"]) == 2
    assert "at least 2" in capsys.readouterr().err
    assert main(["casino", "analyze", "--game", "baccarat"]) == 2
