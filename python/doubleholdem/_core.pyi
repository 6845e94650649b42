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
def after_fork_in_child() -> None: ...
def category_counts(
    k: int, threads: int | None = None
) -> tuple[tuple[int, int, int, int, int, int, int, int, int], int, int, int]: ...
def evaluate_batch(
    hands: npt.NDArray[np.uint8], threads: int | None = None
) -> npt.NDArray[np.uint16]: ...
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
def shuffle(cards: list[int], seed: int) -> list[int]: ...

# the hand state machine (rust/core/src/game) and its pots
Refusal = tuple[str, str, str | None]
PotTuple = tuple[int, list[int]]
ResultTuple = tuple[int, int, int, list[int], list[int], list[int]]
LegalTuple = tuple[
    int, bool, bool, int, int | None, int | None, int, bool, int, str, tuple[int, ...]
]
EventTuple = tuple[
    int,
    str,
    int | None,
    int | None,
    int | None,
    tuple[int, ...],
    bool,
    int | None,
    tuple[int, ...],
    int | None,
    int | None,
    int | None,
]

class HandCore:
    def __init__(
        self,
        structure_name: str,
        double: bool,
        stacks: list[int],
        blinds: tuple[int, int],
        button: int,
        limit_bets: tuple[int, int],
        minimum_bet: int,
        ante: tuple[int, bool],
        cap: tuple[int | None, bool],
        rake: tuple[int, int | None, bool] | None,
        blind_seats: tuple[int | None, int] | None,
        posts: tuple[list[int], list[int]],
        deck: list[int],
        state: str | None = None,
    ) -> None: ...
    def state_json(self) -> str: ...
    @property
    def actor(self) -> int | None: ...
    @property
    def decision(self) -> str | None: ...
    @property
    def street(self) -> int: ...
    @property
    def pot(self) -> int: ...
    @property
    def rake(self) -> int: ...
    @property
    def stacks(self) -> list[int]: ...
    @property
    def bets(self) -> list[int]: ...
    @property
    def committed(self) -> list[int]: ...
    @property
    def in_hand(self) -> list[bool]: ...
    @property
    def live(self) -> int: ...
    @property
    def points(self) -> list[int | None]: ...
    @property
    def shown(self) -> list[bool]: ...
    @property
    def board(self) -> tuple[int, ...]: ...
    @property
    def event_count(self) -> int: ...
    def hole(self, seat: int) -> tuple[int, ...]: ...
    def results(self) -> list[ResultTuple]: ...
    def events(self, start: int) -> list[EventTuple]: ...
    def actor_view(
        self,
    ) -> tuple[LegalTuple, tuple[int, ...], tuple[int, ...], int, int] | None: ...
    def legal(self) -> LegalTuple | None: ...
    def act(
        self, action: object, amount: object = None, seat: int | None = None
    ) -> Refusal | None: ...
    def check_or_call(self) -> Refusal | None: ...
    def bet_or_raise_to(self, amount: object) -> Refusal | None: ...
    def choose_point(
        self, seat: int, index: object = None, card: int | None = None
    ) -> Refusal | None: ...
    def timeout(self, seat: int) -> Refusal | None: ...

def side_pots(
    committed: list[int], in_hand: list[bool], all_in: list[bool], dead: int
) -> list[PotTuple]: ...
def award(
    pots: list[PotTuple], values: list[int | None], button: int, players: int, rakes: list[int]
) -> list[ResultTuple]: ...
def rake_amounts(
    pots: list[PotTuple], rake: tuple[int, int | None, bool] | None, flop_dealt: bool
) -> list[int]: ...
def split(amount: int, winners: list[int], button: int, players: int) -> list[tuple[int, int]]: ...
def uncalled_bet(bets: list[int]) -> tuple[int, int] | None: ...

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
