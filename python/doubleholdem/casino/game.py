"""Heads Up Hold'em, the casino game (RULES.md HU-1 to HU-11), and its close relative
Ultimate Texas Hold'em as the same engine with other settings.

One player against the dealer, a fresh deck every round. The player bets an Ante and
an equal Odds bet (HU-1), then checks or raises 3x before the flop (HU-2), checks or
raises 2x on the flop (HU-3) and, after two checks, raises 1x or folds at the river
(HU-4). Money is integers; a 3:2 payout on an odd amount rounds down.

>>> r = Round(10, trips=5, seed=7)
>>> r.stage.value, r.legal()
('preflop', ('check', 'raise 3'))
>>> r.check(); r.stage.value, len(r.board)
('flop', 3)
>>> r.act(advise(r).best); r.stage.value in ("river", "settled")
True
>>> Round(10, odds=5)
Traceback (most recent call last):
...
doubleholdem.errors.InvalidWager: the Odds bet must equal the Ante (10), not 5
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from doubleholdem import _core
from doubleholdem.cards import CardLike, Deck, format_cards, parse_cards
from doubleholdem.errors import InvalidHand, InvalidRules, InvalidWager
from doubleholdem.extras import require

__all__ = [
    "BAD_BEAT_TABLE",
    "GAMES",
    "HEADS_UP",
    "MAX_STAKE",
    "NO_BAD_BEAT",
    "ODDS_TABLE",
    "PAY_CLASS_NAMES",
    "POCKET_BONUS_TABLE",
    "TRIPS_PLUS_TABLE",
    "ULTIMATE",
    "UTH_TRIPS_TABLE",
    "Advice",
    "Analysis",
    "ClassStrategy",
    "Outcome",
    "Pay",
    "PayTable",
    "Round",
    "Rules",
    "Settlement",
    "Simulation",
    "Stage",
    "advise",
    "analysis_chunk",
    "analyze",
    "preflop_table",
    "ray_runner",
    "side_bets",
    "simulate",
    "starting_hand_class",
]

Pay = tuple[int, int]
"""A payout ``(to, per)``: a win of ``to`` for every ``per`` staked (3:2 is ``(3, 2)``);
``(0, 1)`` is a push and ``(-1, 1)`` a loss."""
PayTable = tuple[Pay, ...]
"""Ten payouts by pay class: the nine categories (high card first) and the royal flush."""

PAY_CLASS_NAMES = (
    *_core.CATEGORY_NAMES,
    "Royal Flush",
)
SHOWDOWN_NAMES = (
    "win, dealer qualifies",
    "win, dealer does not qualify",
    "tie",
    "loss, dealer qualifies",
    "loss, dealer does not qualify",
)

LOSE: Pay = (-1, 1)
PUSH: Pay = (0, 1)
ODDS_TABLE: PayTable = (PUSH, PUSH, PUSH, PUSH, (1, 1), (3, 2), (3, 1), (10, 1), (50, 1), (500, 1))
"""HU-7: the Odds bet on a win (also the Ultimate Texas Hold'em Blind)."""
BAD_BEAT_TABLE: PayTable = (LOSE,) * 4 + ((4, 1), (5, 1), (6, 1), (25, 1), (500, 1), (500, 1))
"""HU-8: the Odds bet on a loss."""
NO_BAD_BEAT: PayTable = (LOSE,) * 10
"""The Ultimate Texas Hold'em Blind on a loss: always lost."""
TRIPS_PLUS_TABLE: PayTable = (LOSE,) * 3 + (
    (3, 1),
    (4, 1),
    (7, 1),
    (8, 1),
    (30, 1),
    (40, 1),
    (100, 1),
)
"""HU-9: Trips Plus."""
UTH_TRIPS_TABLE: PayTable = (LOSE,) * 3 + (
    (3, 1),
    (5, 1),
    (6, 1),
    (8, 1),
    (30, 1),
    (40, 1),
    (50, 1),
)
"""The Ultimate Texas Hold'em Trips bet (its common table: 50-40-30-8-6-5-3)."""
POCKET_BONUS_TABLE: tuple[Pay, Pay, Pay, Pay, Pay] = ((30, 1), (20, 1), (10, 1), (4, 1), LOSE)
"""HU-10: aces, ace with K/Q/J suited, ace with K/Q/J offsuit, other pair, anything else."""


@dataclass(frozen=True)
class Rules:
    """The settings of the game (HU-11); the defaults are RULES.md's Heads Up Hold'em.

    Raises are multiples of the Ante allowed at each decision; the river's other option
    is folding. ``second_bet`` and ``trips_name`` only name the bets.
    """

    name: str = "Heads Up Hold'em"
    preflop_raises: tuple[int, ...] = (3,)
    flop_raises: tuple[int, ...] = (2,)
    river_raises: tuple[int, ...] = (1,)
    qualifying_category: int = 1
    odds_win: PayTable = ODDS_TABLE
    odds_loss: PayTable = BAD_BEAT_TABLE
    trips: PayTable = TRIPS_PLUS_TABLE
    pocket_bonus: tuple[Pay, Pay, Pay, Pay, Pay] = POCKET_BONUS_TABLE
    second_bet: str = "Odds"
    trips_name: str = "Trips Plus"

    def core(self) -> _core.CasinoRules:
        """The checked Rust settings (:class:`InvalidRules` if they cannot be played)."""
        return _core_rules(self)

    def settings_key(self) -> tuple[Any, ...]:
        """Everything that changes the game's numbers (not the names)."""
        return (
            self.preflop_raises,
            self.flop_raises,
            self.river_raises,
            self.qualifying_category,
            self.odds_win,
            self.odds_loss,
            self.trips,
            self.pocket_bonus,
        )


@functools.lru_cache(maxsize=16)
def _core_rules(rules: Rules) -> _core.CasinoRules:
    try:
        return _core.CasinoRules(
            preflop_raises=list(rules.preflop_raises),
            flop_raises=list(rules.flop_raises),
            river_raises=list(rules.river_raises),
            qualifying_category=rules.qualifying_category,
            odds_win=list(rules.odds_win),
            odds_loss=list(rules.odds_loss),
            trips=list(rules.trips),
            pocket_bonus=list(rules.pocket_bonus),
        )
    except (TypeError, OverflowError) as error:
        raise InvalidRules(f"bad casino settings: {error}") from error


HEADS_UP = Rules()
"""Heads Up Hold'em with the RULES.md tables (HU-1 to HU-10)."""
ULTIMATE = Rules(
    name="Ultimate Texas Hold'em",
    preflop_raises=(4, 3),
    odds_loss=NO_BAD_BEAT,
    trips=UTH_TRIPS_TABLE,
    second_bet="Blind",
    trips_name="Trips",
)
"""Ultimate Texas Hold'em (HU-11): 4x or 3x pre-flop, a Blind without bad beat, Trips."""
GAMES = {"heads-up": HEADS_UP, "ultimate": ULTIMATE}


class Stage(str, enum.Enum):
    """Where a round stands."""

    PREFLOP = "preflop"
    FLOP = "flop"
    RIVER = "river"
    SETTLED = "settled"


@dataclass(frozen=True)
class Settlement:
    """Net result of each bet (won positive, lost negative), in money units (HU-6)."""

    ante: int
    odds: int
    play: int
    trips: int
    pocket_bonus: int

    @property
    def total(self) -> int:
        """The player's net result of the round."""
        return self.ante + self.odds + self.play + self.trips + self.pocket_bonus


MAX_STAKE = 2**63 - 1
"""The largest amount of one wager. Every settlement of stakes up to it is exact (the
core settles in 128-bit integers); a larger stake is refused when the round is made."""


def _stake(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidWager(f"the {name} must be an integer amount, not {value!r}")
    if value < 0:
        raise InvalidWager(f"the {name} cannot be negative ({value})")
    if value > MAX_STAKE:
        raise InvalidWager(f"the {name} must be at most {MAX_STAKE} (MAX_STAKE), not {value}")
    return value


def _rules(rules: object) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        if rules not in GAMES:
            raise InvalidRules(f"no game {rules!r}: choose {' or '.join(sorted(GAMES))}")
        return GAMES[rules]
    raise TypeError(f"rules must be a Rules or a game name, not {type(rules).__name__}")


def _action_name(multiple: int | None, stage: Stage) -> str:
    if multiple is None:
        return "fold" if stage is Stage.RIVER else "check"
    return f"raise {multiple}"


class Round:
    """One round against the dealer: wagers, three decisions, settlement.

    ``odds`` defaults to the Ante and must equal it (HU-1); ``trips`` and
    ``pocket_bonus`` are the optional side bets (0: not played). Each stake is a whole
    amount up to :data:`MAX_STAKE` (2**63 - 1), and settles exactly. ``rules`` is a
    :class:`Rules` or the name of a game of :data:`GAMES`. The deck is shuffled
    by a strong generator unless ``seed`` or ``rng`` is given; ``order`` deals known
    cards first: player, player, dealer, dealer, then the five board cards.
    """

    def __init__(
        self,
        ante: int,
        *,
        odds: int | None = None,
        trips: int = 0,
        pocket_bonus: int = 0,
        rules: Rules | str = HEADS_UP,
        seed: int | None = None,
        rng: Any = None,
        order: Sequence[CardLike] = (),
    ) -> None:
        rules = _rules(rules)
        self.ante = _stake(ante, "Ante")
        if self.ante == 0:
            raise InvalidWager("the Ante must be positive")
        odds = self.ante if odds is None else _stake(odds, f"{rules.second_bet} bet")
        if odds != self.ante:
            raise InvalidWager(
                f"the {rules.second_bet} bet must equal the Ante ({ante}), not {odds}"
            )
        self.trips = _stake(trips, f"{rules.trips_name} bet")
        self.pocket_bonus = _stake(pocket_bonus, "Pocket Bonus bet")
        self.rules = rules
        rules.core()
        deck = Deck(seed, rng=rng, order=order)
        self.player: list[int] = deck.deal(2)
        self._dealer: list[int] = deck.deal(2)
        self._board: list[int] = deck.deal(5)
        self.stage = Stage.PREFLOP
        self.play: int | None = None
        self.history: list[str] = []
        self.settlement: Settlement | None = None

    @property
    def board(self) -> list[int]:
        """The board cards the player can see now."""
        shown = {Stage.PREFLOP: 0, Stage.FLOP: 3}.get(self.stage, 5)
        return self._board[:shown]

    @property
    def dealer(self) -> list[int] | None:
        """The dealer's cards, once the round is settled."""
        return list(self._dealer) if self.stage is Stage.SETTLED else None

    def _raises(self) -> tuple[int, ...]:
        return {
            Stage.PREFLOP: self.rules.preflop_raises,
            Stage.FLOP: self.rules.flop_raises,
            Stage.RIVER: self.rules.river_raises,
        }.get(self.stage, ())

    def legal(self) -> tuple[str, ...]:
        """The actions allowed now: 'check' or 'fold' first, then each raise."""
        if self.stage is Stage.SETTLED:
            return ()
        return (_action_name(None, self.stage), *(f"raise {m}" for m in self._raises()))

    def act(self, action: str) -> None:
        """Plays an action by name: 'check', 'fold', 'raise 3' (or '3x')."""
        text = action.strip().lower()
        if text in ("check", "fold"):
            (self.check if text == "check" else self.fold)()
            return
        digits = text.removeprefix("raise").strip().removesuffix("x").strip()
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 4:
            raise InvalidWager(f"{action[:40]!r} is not an action", allowed=self.legal())
        self.raise_(int(digits))

    def _refuse(self, what: str) -> InvalidWager:
        where = (
            "after the round is settled"
            if self.stage is Stage.SETTLED
            else f"now ({self.stage.value})"
        )
        return InvalidWager(
            f"cannot {what} {where}; allowed: {', '.join(self.legal()) or 'nothing'}",
            allowed=self.legal(),
        )

    def raise_(self, multiple: int) -> None:
        """Bets Play = ``multiple`` x Ante, if that raise is allowed now (HU-2 to HU-4)."""
        if (
            isinstance(multiple, bool)
            or not isinstance(multiple, int)
            or multiple not in self._raises()
        ):
            raise self._refuse(f"raise {multiple!r}x")
        self._settle(multiple, f"raise {multiple}")

    def check(self) -> None:
        """Checks before the flop or on the flop (HU-2, HU-3)."""
        if self.stage not in (Stage.PREFLOP, Stage.FLOP):
            raise self._refuse("check")
        self.history.append("check")
        self.stage = Stage.FLOP if self.stage is Stage.PREFLOP else Stage.RIVER

    def fold(self) -> None:
        """Folds at the river after two checks (HU-4): Ante and Odds lose."""
        if self.stage is not Stage.RIVER:
            raise self._refuse("fold")
        self._settle(None, "fold")

    def _settle(self, play: int | None, action: str) -> None:
        # Settled first, then the round changes: a refused settlement changes nothing.
        result = _core.casino_settle(
            self.rules.core(),
            self.ante,
            self.trips,
            self.pocket_bonus,
            play,
            self.player,
            self._board,
            self._dealer,
        )
        self.settlement = Settlement(*result)
        self.history.append(action)
        self.play = play
        self.stage = Stage.SETTLED

    def __repr__(self) -> str:
        board = format_cards(self.board) or "-"
        return (
            f"Round({self.rules.name}: {format_cards(self.player)} | {board} | {self.stage.value})"
        )


@dataclass(frozen=True)
class Advice:
    """The exact expected value of each option now, of the Ante, Odds and Play bets per
    unit of Ante (side bets do not depend on decisions); ``best`` has the highest."""

    stage: Stage
    options: dict[str, float]

    @property
    def best(self) -> str:
        """The option of highest EV (the first listed among equals)."""
        return max(self.options, key=lambda name: self.options[name])


def advise(round: Round, *, preflop: dict[str, dict[str, float]] | None = None) -> Advice:
    """The EV of every option at the round's current decision: pre-flop from the exact
    169-class table (shipped for the built-in games, or ``preflop`` from
    :func:`preflop_table` of an :class:`Analysis`), flop and river by enumerating every
    unseen card in Rust."""
    core = round.rules.core()
    if round.stage is Stage.PREFLOP:
        table = preflop if preflop is not None else preflop_table(round.rules)
        return Advice(round.stage, dict(table[starting_hand_class(round.player)]))
    if round.stage is Stage.FLOP:
        options = _core.casino_flop_options(core, round.player, round.board)
    elif round.stage is Stage.RIVER:
        options = _core.casino_river_options(core, round.player, round.board)
    else:
        raise InvalidWager("the round is settled: there is nothing left to decide")
    return Advice(round.stage, {_action_name(m, round.stage): ev for m, ev in options})


def starting_hand_class(cards: str | Iterable[CardLike]) -> str:
    """'AKs', 'AKo' or 'AA' for two hole cards."""
    hole = parse_cards(cards)
    if len(hole) != 2:
        raise InvalidHand(f"a starting hand has 2 cards, not {len(hole)}")
    ranks = "23456789TJQKA"
    high, low = sorted((c >> 2 for c in hole), reverse=True)
    if high == low:
        return ranks[high] * 2
    return ranks[high] + ranks[low] + ("s" if hole[0] & 3 == hole[1] & 3 else "o")


def _table_file(rules: Rules) -> str | None:
    for key, game in GAMES.items():
        if game.settings_key() == rules.settings_key():
            return f"preflop_{key.replace('-', '_')}.json"
    return None


def preflop_table(rules: Rules = HEADS_UP) -> dict[str, dict[str, float]]:
    """The exact pre-flop EVs of every starting-hand class, shipped for the built-in
    games (generated by ``doubleholdem casino analyze --game GAME --save-strategy``)."""
    name = _table_file(rules)
    if name is None:
        raise InvalidRules(
            f"no shipped pre-flop table for these settings of {rules.name}: "
            "pass preflop=analyze(rules).preflop_table()"
        )
    return _load_table(name)


@functools.lru_cache(maxsize=4)
def _load_table(name: str) -> dict[str, dict[str, float]]:
    text = resources.files("doubleholdem").joinpath("data", name).read_text(encoding="utf-8")
    classes: dict[str, dict[str, float]] = json.loads(text)["classes"]
    return classes


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
        return _action_name(multiple or None, Stage.FLOP)

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
    ``ray.init(...)`` first)."""
    ray = require("ray", "ray", "ray_runner")

    remote = ray.remote(analysis_chunk)
    return list(ray.get([remote.remote(*task) for task in tasks]))


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
        strategy.append(ClassStrategy(name, options, _action_name(best, Stage.PREFLOP)))
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


@dataclass(frozen=True)
class Simulation:
    """A Monte Carlo of the optimal strategy: mean result per round per unit of Ante
    (Ante, Odds and Play), its standard deviation and 95% confidence interval."""

    rounds: int
    seed: int
    mean: float
    std_dev: float
    ci95: tuple[float, float]
    frequencies: dict[str, float]


def simulate(
    rounds: int,
    seed: int,
    rules: Rules = HEADS_UP,
    *,
    analysis: Analysis | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> Simulation:
    """Plays ``rounds`` rounds with the optimal strategy of ``analysis`` (computed
    first if not given), in Rust; the same seed gives the same figures."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 2 <= rounds < 2**64:
        raise InvalidWager(f"a simulation needs at least 2 rounds (below 2**64), not {rounds!r}")
    _core.check_threads(threads)
    analysis = analysis or analyze(rules, threads=threads)
    if analysis.rules.settings_key() != rules.settings_key():
        raise InvalidRules(f"the analysis is of {analysis.rules.name}'s settings, not these")
    preflop: list[int | None] = []
    for s in analysis.strategy:
        preflop.append(None if s.best == "check" else int(s.best.split()[1]))
    raw = _core.casino_simulate(
        rules.core(),
        preflop,
        analysis.flop_decisions,
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
    return Simulation(rounds, seed, raw["mean"], raw["std_dev"], (low, high), frequencies)
