"""Types of the Rust extension module (rust/py). Call it through the public modules."""

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

CATEGORY_NAMES: list[str]

def evaluate(cards: Sequence[int]) -> int: ...
def best_five(cards: Sequence[int]) -> tuple[int, int, int, int, int]: ...
def describe(value: int) -> str: ...
def table_bytes() -> int: ...
def before_fork() -> None: ...
def after_fork_in_parent() -> None: ...
def after_fork_in_child() -> None: ...
def kept_pools() -> tuple[int, int]: ...
def check_threads(threads: object = None) -> int | None: ...

MAX_THREADS: int

def category_counts(
    k: int, threads: int | None = None
) -> tuple[tuple[int, int, int, int, int, int, int, int, int], int, int, int]: ...
def evaluate_batch(
    hands: npt.NDArray[np.uint8], threads: int | None = None
) -> npt.NDArray[np.uint16]: ...
def random_hands(
    n: int, cards: int, seed: int, threads: int | None = None
) -> npt.NDArray[np.uint8]: ...
def resolve(
    hole: Sequence[int], point: int, board: Sequence[int]
) -> tuple[int, int, tuple[int, int, int, int, int]]: ...
def auto_point(hole: Sequence[int]) -> int: ...
def point_values(hole: Sequence[int], board: Sequence[int]) -> tuple[int, int, int]: ...
def resolve_batch(
    holes: npt.NDArray[np.uint8],
    points: npt.NDArray[np.uint8],
    boards: npt.NDArray[np.uint8],
    threads: int | None = None,
) -> npt.NDArray[np.uint16]: ...

# Casino game and exact statistics (rust/py/src/casino.rs)

CASINO_TALLY_WORDS: int
CASINO_BINS: int

class CasinoRules:
    def __init__(
        self,
        *,
        preflop_raises: Sequence[int],
        flop_raises: Sequence[int],
        river_raises: Sequence[int],
        qualifying_category: int,
        odds_win: Sequence[tuple[int, int]],
        odds_loss: Sequence[tuple[int, int]],
        trips: Sequence[tuple[int, int]],
        pocket_bonus: Sequence[tuple[int, int]],
    ) -> None: ...

Progress = Callable[[int, int], object] | None

def casino_settle(
    rules: CasinoRules,
    ante: int,
    trips: int,
    pocket_bonus: int,
    play: int | None,
    player: Sequence[int],
    board: Sequence[int],
    dealer: Sequence[int],
) -> tuple[int, int, int, int, int]: ...
def casino_river_options(
    rules: CasinoRules, player: Sequence[int], board: Sequence[int]
) -> list[tuple[int | None, float]]: ...
def casino_flop_options(
    rules: CasinoRules, player: Sequence[int], flop: Sequence[int]
) -> list[tuple[int | None, float]]: ...
def casino_flop_chunks() -> int: ...
def casino_analysis_chunk(
    rules: CasinoRules,
    start: int,
    stop: int,
    progress: Progress = None,
    threads: int | None = None,
) -> tuple[list[int], bytes]: ...
def casino_analysis_finish(rules: CasinoRules, tally: Sequence[int]) -> dict[str, Any]: ...
def casino_outcome_units(
    rules: CasinoRules, multiple: int, pay_class: int, showdown: int
) -> float: ...
def casino_flop_decision(
    flop_decisions: bytes, player: Sequence[int], flop: Sequence[int]
) -> int: ...
def casino_simulate(
    rules: CasinoRules,
    preflop: Sequence[int | None],
    flop: bytes,
    rounds: int,
    seed: int,
    progress: Progress = None,
    threads: int | None = None,
) -> dict[str, Any]: ...
def casino_side_bets(rules: CasinoRules) -> dict[str, dict[str, Any]]: ...
def double_counts(hole: Sequence[int], board: Sequence[int]) -> dict[str, Any]: ...
def double_stats(progress: Progress = None, threads: int | None = None) -> dict[str, Any]: ...
def shuffle(cards: Sequence[int], seed: int) -> list[int]: ...

# the equity bot's Monte Carlo share of the pot (rust/py/src/equity.rs)
def equity(
    hole: list[int], board: list[int], opponents: int, samples: int, point: int | None, seed: int
) -> float: ...
def equities(
    hole: list[int],
    board: list[int],
    opponents: int,
    samples: int,
    points: list[int | None],
    seed: int,
) -> list[float]: ...

# Equities of hands and ranges (doubleholdem.equity). Each player: the cards of every
# hand one after another (2 per hand for "texas", 3 with the point card first for
# "double") and a weight per hand.
_Players = list[tuple[bytes, list[int]]]

def showdown_count(
    variant: str, players: _Players, board: list[int], dead: list[int], cap: int
) -> tuple[int, int]: ...
def showdown_exact(
    variant: str,
    players: _Players,
    board: list[int],
    dead: list[int],
    start: int | None = None,
    stop: int | None = None,
    progress: Callable[[int, int], object] | None = None,
    threads: int | None = None,
) -> tuple[int, int, list[int], list[int], list[int], int]: ...
def showdown_sample(
    variant: str,
    players: _Players,
    board: list[int],
    dead: list[int],
    samples: int | None,
    stderr: float | None,
    seed: int,
    progress: Callable[[int, int], object] | None = None,
    threads: int | None = None,
) -> tuple[int, list[int], list[int], list[int], list[int]]: ...

# The Independent Chip Model (doubleholdem.icm). Stacks positive, payouts from first
# place down, at most one per player.
def icm_exact_cost(players: int, places: int) -> int: ...
def icm_exact(stacks: list[int], payouts: list[int]) -> list[float]: ...
def icm_places(stacks: list[int], places: int) -> list[float]: ...
def icm_quadrature(
    stacks: list[int],
    payouts: list[int],
    progress: Callable[[int, int], object] | None = None,
) -> tuple[list[float], float, int]: ...
def icm_sample(
    stacks: list[int],
    payouts: list[int],
    samples: int,
    seed: int,
    progress: Callable[[int, int], object] | None = None,
    threads: int | None = None,
) -> tuple[list[float], list[float]]: ...
