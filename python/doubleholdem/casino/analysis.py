"""The exact analysis of the casino game under optimal play (every deal, the
EV-maximising option at every decision, in Rust), the side bets' exact figures, and
simulations that play the optimal strategy (RULES.md HU-1 to HU-11).

A simulation does not recompute the strategy it plays when it is known
(:func:`optimal_strategy`: shipped for the games of
:data:`~doubleholdem.casino.rules.GAMES`, else cached on disk).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from doubleholdem import _core
from doubleholdem.cards import CardLike, parse_cards
from doubleholdem.casino.round import Stage, action_name
from doubleholdem.casino.rules import (
    HEADS_UP,
    PAY_CLASS_NAMES,
    SHOWDOWN_NAMES,
    Rules,
)
from doubleholdem.casino.strategy import (
    Strategy,
    cache_strategy,
    cached_strategy,
    shipped_strategy,
)
from doubleholdem.errors import InvalidHand, InvalidRules, InvalidWager
from doubleholdem.scale import ray_map

__all__ = [
    "Analysis",
    "ClassStrategy",
    "Outcome",
    "Runner",
    "Simulation",
    "analysis_chunk",
    "analyze",
    "optimal_strategy",
    "ray_runner",
    "side_bets",
    "simulate",
]


@dataclass(frozen=True)
class ClassStrategy:
    """The pre-flop decision of one starting-hand class with the EV of each option."""

    name: str
    options: dict[str, float]
    best: str


@dataclass(frozen=True)
class Outcome:
    """One line of the outcome table: the final Play multiple (0 after a fold), the
    player's hand class and showdown, how often, and the net result per unit of Ante."""

    play: int
    hand: str
    showdown: str
    probability: float
    net: float


@dataclass(frozen=True)
class Analysis:
    """The exact analysis under optimal play (see :func:`analyze`); per unit of Ante."""

    rules: Rules
    deals: int
    expected_value: float
    house_edge: float
    element_of_risk: float
    average_wager: float
    std_dev: float
    frequencies: dict[str, float]
    outcomes: list[Outcome]
    strategy: list[ClassStrategy]
    flop_decisions: bytes = field(repr=False)

    def preflop_table(self) -> dict[str, dict[str, float]]:
        """The pre-flop EVs by class, as :func:`advise` takes them."""
        return {s.name: dict(s.options) for s in self.strategy}

    def flop_decision(
        self, player: str | Iterable[CardLike], flop: str | Iterable[CardLike]
    ) -> str:
        """The optimal flop option ('check' or 'raise 2') after a pre-flop check."""
        cards = parse_cards([*parse_cards(player), *parse_cards(flop)])
        if len(cards) != 5:
            raise InvalidHand("give two player cards and three flop cards")
        multiple = _core.casino_flop_decision(self.flop_decisions, cards[:2], cards[2:])
        return action_name(multiple or None, Stage.FLOP)

    def strategy_to_play(self) -> Strategy:
        """The decisions of this analysis, as :func:`simulate` plays them."""
        preflop = tuple(
            None if s.best == "check" else int(s.best.split()[1]) for s in self.strategy
        )
        return Strategy(self.rules, preflop, self.flop_decisions, self.expected_value, "analysis")

    def summary(self) -> dict[str, Any]:
        """The headline figures as JSON-ready values."""
        return {
            "game": self.rules.name,
            "house_edge": self.house_edge,
            "element_of_risk": self.element_of_risk,
            "std_dev": self.std_dev,
            "average_wager": self.average_wager,
            "expected_value": self.expected_value,
            "deals": self.deals,
            "frequencies": dict(self.frequencies),
        }


def _frequency_key(multiple: int) -> str:
    return "fold" if multiple == 0 else f"raise_{multiple}x"


def analysis_chunk(rules: Rules, start: int, stop: int) -> tuple[list[int], bytes]:
    """One chunk of the analysis: flop classes ``start:stop`` of
    ``_core.casino_flop_chunks()``. Tallies of chunks add up, in any order.

    >>> analysis_chunk(HEADS_UP, -1, 0)
    Traceback (most recent call last):
    ...
    ValueError: flop classes -1:0 are not within 0:1755
    """
    total = _core.casino_flop_chunks()
    for bound in (start, stop):
        if isinstance(bound, bool) or not isinstance(bound, int):
            raise TypeError(f"flop classes are whole numbers, not {bound!r}")
    if not 0 <= start <= stop <= total:
        raise ValueError(f"flop classes {start}:{stop} are not within 0:{total}")
    return _core.casino_analysis_chunk(rules.core(), start, stop)


Runner = Callable[[Sequence[tuple[Rules, int, int]]], Sequence[tuple[list[int], bytes]]]
"""Runs :func:`analysis_chunk` on each argument tuple and returns the results in order."""


def ray_runner(tasks: Sequence[tuple[Rules, int, int]]) -> list[tuple[list[int], bytes]]:
    """A :data:`Runner` on a Ray cluster (``pip install doubleholdem[ray]``; call
    ``ray.init(...)`` first): :func:`doubleholdem.scale.ray_map` of
    :func:`analysis_chunk`."""
    return ray_map(analysis_chunk, tasks)


def analyze(
    rules: Rules = HEADS_UP,
    *,
    threads: int | None = None,
    progress: Callable[[int, int], object] | None = None,
    runner: Runner | None = None,
    chunks: int = 16,
) -> Analysis:
    """The exact analysis: every deal, the EV-maximising option at every decision.

    Runs in Rust on ``threads`` threads (all cores by default), calling
    ``progress(done, total)`` about ten times a second; Ctrl-C stops it
    (KeyboardInterrupt). With ``runner`` (e.g. :func:`ray_runner`) the work is split
    into ``chunks`` chunks run there instead; the figures are identical.
    """
    core = rules.core()
    total = _core.casino_flop_chunks()
    if runner is None:
        tally, decisions = _core.casino_analysis_chunk(core, 0, total, progress, threads)
    else:
        bounds = [total * i // chunks for i in range(chunks + 1)]
        tasks = [(rules, a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
        results = list(runner(tasks))
        tally = [sum(words) for words in zip(*(r[0] for r in results))]
        decisions = b"".join(r[1] for r in results)
    return _analysis(rules, _core.casino_analysis_finish(core, tally), decisions)


def _analysis(rules: Rules, raw: dict[str, Any], decisions: bytes) -> Analysis:
    core = rules.core()
    deals = int(raw["deals"])
    outcomes = [
        Outcome(
            m,
            PAY_CLASS_NAMES[c],
            SHOWDOWN_NAMES[s],
            n / deals,
            _core.casino_outcome_units(core, m, c, s),
        )
        for m, c, s, n in raw["outcomes"]
    ]
    outcomes.append(Outcome(0, "any", "fold", raw["folds"] / deals, -2.0))
    multiples = sorted(
        {*rules.preflop_raises, *rules.flop_raises, *rules.river_raises}, reverse=True
    )
    by_multiple = dict(raw["frequencies"])
    frequencies = {_frequency_key(m): float(by_multiple.get(m, 0.0)) for m in [*multiples, 0]}
    strategy = []
    for name, check_ev, raise_evs, best in raw["strategy"]:
        options = {
            "check": check_ev,
            **{f"raise {m}": ev for m, ev in zip(rules.preflop_raises, raise_evs)},
        }
        strategy.append(ClassStrategy(name, options, action_name(best, Stage.PREFLOP)))
    return Analysis(
        rules=rules,
        deals=deals,
        expected_value=raw["expected_value"],
        house_edge=raw["house_edge"],
        element_of_risk=raw["element_of_risk"],
        average_wager=raw["average_wager"],
        std_dev=raw["std_dev"],
        frequencies=frequencies,
        outcomes=outcomes,
        strategy=strategy,
        flop_decisions=decisions,
    )


def side_bets(rules: Rules = HEADS_UP) -> dict[str, dict[str, Any]]:
    """Exact EV and house edge of Trips Plus (HU-9, all 133,784,560 seven-card hands)
    and Pocket Bonus (HU-10, all 1,326 two-card hands), per unit of stake."""
    result: dict[str, dict[str, Any]] = _core.casino_side_bets(rules.core())
    return result


def optimal_strategy(
    rules: Rules = HEADS_UP,
    *,
    threads: int | None = None,
    progress: Callable[[int, int], object] | None = None,
    cache: bool = True,
) -> Strategy:
    """The optimal strategy of ``rules`` without recomputing it when it is known: shipped
    for the games of :data:`~doubleholdem.casino.rules.GAMES`, else from the disk
    cache, else the exact analysis runs (``threads``, ``progress`` as in
    :func:`analyze`) and, with ``cache``, its strategy is kept on disk for next time
    (see :mod:`doubleholdem.casino.strategy`)."""
    known = shipped_strategy(rules) or (cached_strategy(rules) if cache else None)
    if known is not None:
        return known
    played = analyze(rules, threads=threads, progress=progress).strategy_to_play()
    if cache:
        cache_strategy(played)
    return played


@dataclass(frozen=True)
class Simulation:
    """A Monte Carlo of the optimal strategy: mean result per round per unit of Ante
    (Ante, Odds and Play), its standard deviation and 95% confidence interval; the
    exact expected value of the strategy played and where the strategy came from
    (``"shipped"``, ``"cache"`` or ``"analysis"``)."""

    rounds: int
    seed: int
    mean: float
    std_dev: float
    ci95: tuple[float, float]
    frequencies: dict[str, float]
    expected_value: float | None = None
    strategy: str = ""


def simulate(
    rounds: int,
    seed: int,
    rules: Rules = HEADS_UP,
    *,
    analysis: Analysis | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> Simulation:
    """Plays ``rounds`` rounds with the optimal strategy, in Rust; the same seed gives
    the same figures. The strategy is that of ``analysis`` if given, else
    :func:`optimal_strategy` (shipped, cached, or analysed once); the river is decided each
    round against the 990 dealer hands."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 2 <= rounds < 2**64:
        raise InvalidWager(f"a simulation needs at least 2 rounds (below 2**64), not {rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidWager(f"seed must be a whole number, not {seed!r}")
    _core.check_threads(threads)
    if analysis is not None and analysis.rules.settings_key() != rules.settings_key():
        raise InvalidRules(f"the analysis is of {analysis.rules.name}'s settings, not these")
    played = analysis.strategy_to_play() if analysis else optimal_strategy(rules, threads=threads)
    raw = _core.casino_simulate(
        rules.core(),
        list(played.preflop),
        played.flop_decisions,
        rounds,
        seed & (2**64 - 1),
        progress,
        threads,
    )
    actions = raw["actions"]
    multiples = sorted(
        {*rules.preflop_raises, *rules.flop_raises, *rules.river_raises}, reverse=True
    )
    frequencies = {_frequency_key(m): actions[m] / rounds for m in [*multiples, 0]}
    low, high = raw["ci95"]
    return Simulation(
        rounds,
        seed,
        raw["mean"],
        raw["std_dev"],
        (low, high),
        frequencies,
        played.expected_value,
        played.source,
    )
