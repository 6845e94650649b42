"""The exact analysis (RULES.md HU-1 to HU-11): it reproduces the published Ultimate
Texas Hold'em figures from settings alone, its Heads Up table is the one shipped for
advise(), its outcome table adds up, chunks add up in any order, and a seeded
simulation of a million rounds lands in its 95% interval around the exact figure.

Each full analysis enumerates 27,813,810,024,000 deals (about 30 s on 2 cores)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from doubleholdem import _core, casino
from doubleholdem.cli import main

pytestmark = pytest.mark.slow

ALL_DEALS = 1326 * 19_600 * 1081 * 990


@pytest.fixture(scope="module")
def heads_up() -> casino.Analysis:
    return casino.analyze(casino.HEADS_UP)


@pytest.fixture(scope="module")
def ultimate_json() -> dict[str, object]:
    """The Ultimate Texas Hold'em analysis through the command line."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["casino", "analyze", "--game", "ultimate", "--json"]) == 0
    result: dict[str, object] = json.loads(out.getvalue())
    return result


def test_ultimate_reproduces_the_published_figures(ultimate_json: dict[str, object]) -> None:
    """Wizard of Odds: house edge 2.18% of the Ante, element of risk 0.53% (HU-11)."""
    assert ultimate_json["deals"] == ALL_DEALS
    assert abs(float(ultimate_json["house_edge"]) - 0.0218) < 0.0005  # type: ignore[arg-type]
    assert abs(float(ultimate_json["element_of_risk"]) - 0.0053) < 0.0001  # type: ignore[arg-type]
    frequencies = ultimate_json["frequencies"]
    assert isinstance(frequencies, dict)
    assert set(frequencies) == {"raise_4x", "raise_3x", "raise_2x", "raise_1x", "fold"}
    assert sum(frequencies.values()) == pytest.approx(1.0, abs=1e-12)
    for key in ("house_edge", "element_of_risk", "std_dev", "average_wager"):
        assert isinstance(ultimate_json[key], float)


def test_heads_up_figures_are_consistent(heads_up: casino.Analysis) -> None:
    assert heads_up.deals == ALL_DEALS
    assert set(heads_up.frequencies) == {"raise_3x", "raise_2x", "raise_1x", "fold"}
    assert sum(heads_up.frequencies.values()) == pytest.approx(1.0, abs=1e-12)
    outcomes = heads_up.outcomes
    assert sum(o.probability for o in outcomes) == pytest.approx(1.0, abs=1e-12)
    mean = sum(o.probability * o.net for o in outcomes)
    assert mean == pytest.approx(heads_up.expected_value, abs=1e-12)
    square = sum(o.probability * o.net**2 for o in outcomes)
    assert (square - mean**2) ** 0.5 == pytest.approx(heads_up.std_dev, rel=1e-9)
    wager = sum(o.probability * (2 + o.play) for o in outcomes)
    assert wager == pytest.approx(heads_up.average_wager, rel=1e-12)
    assert heads_up.element_of_risk == pytest.approx(heads_up.house_edge / wager, rel=1e-12)


def test_strategy_picks_the_higher_ev(heads_up: casino.Analysis) -> None:
    assert len(heads_up.strategy) == 169
    for s in heads_up.strategy:
        assert s.options[s.best] == max(s.options.values())
    by_name = {s.name: s for s in heads_up.strategy}
    assert by_name["AA"].best == "raise 3" and by_name["72o"].best == "check"
    # The pre-flop EV of every class, weighted by its size, is the game's EV.
    sizes = {
        s.name: 6 if len(s.name) == 2 else 4 if s.name.endswith("s") else 12
        for s in heads_up.strategy
    }
    weighted = sum(sizes[s.name] * s.options[s.best] for s in heads_up.strategy) / 1326
    assert weighted == pytest.approx(heads_up.expected_value, abs=1e-12)


def test_shipped_preflop_table_agrees_with_a_fresh_analysis(heads_up: casino.Analysis) -> None:
    assert casino.preflop_table(casino.HEADS_UP) == heads_up.preflop_table()


def test_flop_decisions_agree_with_flop_advice(heads_up: casino.Analysis) -> None:
    """The table the simulation plays by is what advise() says on the flop, whatever
    the suits (the table is stored per flop class)."""
    rng = random.Random(5)
    for _ in range(6):
        cards = rng.sample(range(52), 9)
        r = casino.Round(1, order=cards)
        r.check()
        assert heads_up.flop_decision(r.player, r.board) == casino.advise(r).best


def test_a_million_rounds_land_in_their_confidence_interval(heads_up: casino.Analysis) -> None:
    sim = casino.simulate(1_000_000, 2024, analysis=heads_up)
    low, high = sim.ci95
    assert low <= heads_up.expected_value <= high
    # Rare 500:1 payouts carry much of the variance: the sample's spread is noisy.
    assert sim.std_dev == pytest.approx(heads_up.std_dev, rel=0.1)
    for key, share in heads_up.frequencies.items():
        assert sim.frequencies[key] == pytest.approx(share, abs=0.005)
    again = casino.simulate(1_000_000, 2024, analysis=heads_up, threads=1)
    assert again == sim


def test_chunks_add_up_in_any_order() -> None:
    whole, decisions = casino.analysis_chunk(casino.HEADS_UP, 40, 46)
    parts = [
        casino.analysis_chunk(casino.HEADS_UP, a, b) for a, b in [(43, 46), (40, 41), (41, 43)]
    ]
    added = [sum(words) for words in zip(*(p[0] for p in parts))]
    assert added == whole
    assert parts[1][1] + parts[2][1] + parts[0][1] == decisions
    assert len(whole) == _core.CASINO_TALLY_WORDS


def test_ray_runner_gives_the_same_chunks() -> None:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        tasks = [(casino.HEADS_UP, 40, 43), (casino.HEADS_UP, 43, 46)]
        results = casino.ray_runner(tasks)
    finally:
        ray.shutdown()
    whole, decisions = casino.analysis_chunk(casino.HEADS_UP, 40, 46)
    assert [sum(w) for w in zip(*(r[0] for r in results))] == whole
    assert b"".join(r[1] for r in results) == decisions


def test_plot(heads_up: casino.Analysis, tmp_path: object) -> None:
    from pathlib import Path

    from doubleholdem.cli.casino import plot_strategy

    path = Path(str(tmp_path)) / "strategy.png"
    plot_strategy(heads_up, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_runner_gives_the_same_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chunked path (as Ray runs it) and the in-process path agree exactly; the
    enumeration is cut to the first 7 flop classes to keep the test quick."""
    monkeypatch.setattr(_core, "casino_flop_chunks", lambda: 7)
    seen: list[tuple[int, int]] = []

    def in_process(tasks: Sequence[tuple[casino.Rules, int, int]]) -> list[tuple[list[int], bytes]]:
        seen.extend((a, b) for _, a, b in tasks)
        return [casino.analysis_chunk(*task) for task in reversed(tasks)][::-1]

    direct = casino.analyze(casino.ULTIMATE)
    chunked = casino.analyze(casino.ULTIMATE, runner=in_process, chunks=3)
    assert seen == [(0, 2), (2, 4), (4, 7)]
    assert chunked == direct
