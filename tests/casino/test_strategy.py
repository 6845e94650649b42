"""The strategy a simulation plays (issue 22 item 2): shipped for the built-in games
(pre-flop tables and flop decisions, equal to the exact analysis' choices), cached on
disk for other settings, never recomputed when known; and the casino API's typed
refusals (issue 17 item 6)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from doubleholdem import _core, casino
from doubleholdem.casino import analysis as casino_analysis
from doubleholdem.casino import strategy as casino_strategy
from doubleholdem.errors import InvalidHand, InvalidRules, InvalidWager

FLOP_CLASSES = 1755
HANDS = 1326


@pytest.mark.parametrize("game", ["heads-up", "ultimate"])
def test_shipped_flop_decisions_are_the_analysis_choices(game: str) -> None:
    """A sample of flop classes analysed afresh: the same decision for every hand."""
    rules = casino.GAMES[game]
    shipped = casino.shipped_strategy(rules)
    assert shipped is not None and shipped.source == "shipped"
    assert _core.casino_flop_chunks() == FLOP_CLASSES
    for flop_class in random.Random(game).sample(range(FLOP_CLASSES), 3):
        _, decisions = casino.analysis_chunk(rules, flop_class, flop_class + 1)
        start = flop_class * HANDS
        assert shipped.flop_decisions[start : start + HANDS] == decisions


@pytest.mark.parametrize("game", ["heads-up", "ultimate"])
def test_shipped_preflop_decisions_are_the_tables_best(game: str) -> None:
    rules = casino.GAMES[game]
    shipped = casino.shipped_strategy(rules)
    assert shipped is not None
    table = casino.preflop_table(rules)
    for (name, options), multiple in zip(table.items(), shipped.preflop):
        best = max(options, key=lambda option: options[option])
        assert multiple == (None if best == "check" else int(best.split()[1])), name
    assert shipped.preflop[list(table).index("AA")] == max(rules.preflop_raises)
    assert shipped.preflop[list(table).index("72o")] is None


def test_simulate_plays_the_shipped_strategy_without_analysing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: every simulate ran the whole exact analysis first (90 s)."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the analysis ran")

    monkeypatch.setattr(casino_analysis, "analyze", refuse)
    for rules in (casino.HEADS_UP, casino.ULTIMATE):
        sim = casino.simulate(20_000, 1, rules, threads=1)
        assert sim.strategy == "shipped" and sim.rounds == 20_000
    sim = casino.simulate(20_000, 1)
    assert sim.expected_value is not None and abs(sim.expected_value + 0.0455320728) < 1e-9
    assert sim == casino.simulate(20_000, 1, threads=2)


def _fake_analysis(rules: casino.Rules, calls: list[casino.Rules]) -> object:
    shipped = casino.shipped_strategy(casino.HEADS_UP)
    assert shipped is not None

    class Fake:
        def strategy_to_play(self) -> casino.Strategy:
            return casino.Strategy(rules, shipped.preflop, shipped.flop_decisions, -0.5, "analysis")

    calls.append(rules)
    return Fake()


def test_other_settings_are_analysed_once_and_cached_by_their_rules(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DOUBLEHOLDEM_CACHE", str(tmp_path))
    calls: list[casino.Rules] = []
    monkeypatch.setattr(
        casino_analysis, "analyze", lambda rules, **kw: _fake_analysis(rules, calls)
    )
    custom = casino.Rules(name="mine", qualifying_category=0)
    renamed = casino.Rules(name="renamed", qualifying_category=0)
    other = casino.Rules(name="other", river_raises=(1, 2))
    assert casino.shipped_strategy(custom) is None
    first = casino.optimal_strategy(custom)
    assert first.source == "analysis" and len(calls) == 1
    again = casino.optimal_strategy(renamed)  # names aside, the same game
    assert again.source == "cache" and len(calls) == 1
    assert (again.preflop, again.flop_decisions, again.expected_value) == (
        first.preflop,
        first.flop_decisions,
        first.expected_value,
    )
    assert casino.optimal_strategy(other).source == "analysis" and len(calls) == 2
    sim = casino.simulate(5_000, 3, custom, threads=1)
    assert sim.strategy == "cache" and sim.expected_value == -0.5 and len(calls) == 2
    # A damaged cache file is ignored (analysed again, then rewritten).
    for path in tmp_path.iterdir():
        path.write_text("{not json", encoding="utf-8")
    assert casino.optimal_strategy(custom).source == "analysis" and len(calls) == 3
    assert casino.optimal_strategy(custom).source == "cache"


def test_an_unwritable_cache_only_keeps_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("DOUBLEHOLDEM_CACHE", str(blocker / "below"))
    calls: list[casino.Rules] = []
    monkeypatch.setattr(
        casino_analysis, "analyze", lambda rules, **kw: _fake_analysis(rules, calls)
    )
    custom = casino.Rules(name="mine", qualifying_category=0)
    assert casino.optimal_strategy(custom).source == "analysis"
    assert casino.optimal_strategy(custom).source == "analysis" and len(calls) == 2


def test_write_strategy_writes_the_shipped_formats(tmp_path: Path) -> None:
    decisions = bytes([0, 0, 2] * (FLOP_CLASSES * HANDS // 3))
    table = casino.preflop_table(casino.HEADS_UP)
    paths = casino_strategy.write_strategy(
        tmp_path / "preflop_heads_up.json",
        rules=casino.HEADS_UP,
        game="heads-up",
        deals=1,
        house_edge=0.25,
        classes=table,
        flop_decisions=decisions,
    )
    assert [p.name for p in paths] == ["preflop_heads_up.json", "flop_heads_up.xz"]
    import lzma

    assert lzma.decompress(paths[1].read_bytes()) == decisions
    assert json.loads(paths[0].read_text(encoding="utf-8"))["classes"] == table


# ------------------------------------------------ API misuse (issue 17 item 6)


@pytest.mark.parametrize("order", [None, 5, b"AsKs", object()])
def test_a_round_refuses_an_order_that_is_not_cards(order: object) -> None:
    with pytest.raises(InvalidHand, match="order is the cards to deal first"):
        casino.Round(10, order=order)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [None, 3, ["check"]])
def test_act_refuses_what_is_not_text_and_changes_nothing(action: object) -> None:
    r = casino.Round(10, seed=1)
    with pytest.raises(InvalidWager, match="an action is text") as refused:
        r.act(action)  # type: ignore[arg-type]
    assert refused.value.allowed == ("check", "raise 3")
    assert r.stage is casino.Stage.PREFLOP and r.history == []


@pytest.mark.parametrize(
    "preflop",
    [{}, {"AA": 3}, "AA", [1], {"AA": {"check": "x", "raise 3": 1.0}}, {"AA": {"check": 1.0}}],
)
def test_advise_refuses_a_bad_preflop_table(preflop: object) -> None:
    r = casino.Round(10, order="As Ah")
    with pytest.raises(
        InvalidRules, match=r"preflop must map each starting-hand class \(here AA\)"
    ):
        casino.advise(r, preflop=preflop)  # type: ignore[arg-type]
    good = {"AA": {"check": 1.0, "raise 3": 2.0}}
    assert casino.advise(r, preflop=good).best == "raise 3"


def test_simulate_refuses_a_seed_that_is_not_a_whole_number() -> None:
    with pytest.raises(InvalidWager, match="seed must be a whole number"):
        casino.simulate(100, 1.5)  # type: ignore[arg-type]
