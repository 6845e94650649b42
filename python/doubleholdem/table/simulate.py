"""Bots against each other at one table: ``doubleholdem simulate``.

Every seat holds a bot (:mod:`doubleholdem.table.bots`) with 100 big blinds; a stack is topped
up to the maximum buy-in before each hand, so the game never stops, and each seat's result
is its chips minus everything it bought in. Same seed, same results. The table's log is
dropped after each hand, so a run's memory does not grow with the number of hands.

>>> result = simulate(players=3, hands=20, seed=1, bots=("station", "random"))
>>> result.hands, [seat.bot for seat in result.seats]
(20, ['station', 'random', 'station'])
>>> sum(seat.net for seat in result.seats) + result.rake
0
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from doubleholdem.errors import DoubleHoldemError
from doubleholdem.game.config import Structure, Variant
from doubleholdem.table.bots import Bot, make_bot
from doubleholdem.table.table import Table, TableConfig

__all__ = ["SeatResult", "SimulationResult", "simulate"]

SMALL_BLIND = 50
BIG_BLIND = 100
DEFAULT_BOTS = ("equity", "random", "station")


@dataclass(frozen=True)
class SeatResult:
    """One seat's bot, its chips won (``net``, negative when lost) and that in big blinds
    per 100 hands."""

    seat: int
    bot: str
    net: int
    bb_per_100: float


@dataclass(frozen=True)
class SimulationResult:
    """What :func:`simulate` played and how each seat did; ``rake`` is what the house
    took (none by default), so the nets and the rake add up to zero."""

    variant: str
    structure: str
    hands: int
    seed: int
    seats: list[SeatResult]
    rake: int
    seconds: float

    @property
    def hands_per_second(self) -> float:
        """Throughput of the run (the only figure that differs between equal runs)."""
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "variant": self.variant,
            "structure": self.structure,
            "hands": self.hands,
            "seed": self.seed,
            "seats": [vars(seat) for seat in self.seats],
            "rake": self.rake,
            "hands_per_second": round(self.hands_per_second, 1),
        }


def simulate(
    *,
    players: int = 6,
    hands: int = 1000,
    seed: int = 1,
    variant: Variant | str = Variant.DOUBLE,
    structure: Structure | str = Structure.FIXED_LIMIT,
    bots: Sequence[str] = DEFAULT_BOTS,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Plays ``hands`` hands of bots (the names in ``bots``, cycled over the seats) at
    one table with blinds 50/100 and returns each seat's result."""
    if not 2 <= players <= 10:
        raise DoubleHoldemError(f"--players must be 2 to 10, not {players}")
    if hands < 1:
        raise DoubleHoldemError(f"--hands must be at least 1, not {hands}")
    if not bots:
        raise DoubleHoldemError("give at least one bot")
    config = TableConfig(
        small_blind=SMALL_BLIND,
        big_blind=BIG_BLIND,
        structure=Structure(structure),
        variant=Variant(variant),
        seats=players,
    )
    table = Table(config, seed=seed)
    names = [bots[seat % len(bots)] for seat in range(players)]
    seated: list[Bot] = [make_bot(name, seed * 1000 + seat) for seat, name in enumerate(names)]
    top = config.buy_in_range[1]
    for seat in range(players):
        table.join(seat, f"{names[seat]}-{seat}", top)
    started = time.perf_counter()
    for number in range(hands):
        _top_up(table, players, top)
        table.start_hand()
        table.play_out(seated)
        table.release_history(read=False)  # unread: memory flat in the hands played
        if progress is not None:
            progress(number + 1, hands)
    seconds = time.perf_counter() - started
    return SimulationResult(
        variant=config.variant.value,
        structure=config.structure.value,
        hands=hands,
        seed=seed,
        seats=[_seat_result(table, seat, names[seat], hands) for seat in range(players)],
        rake=table.rake,
        seconds=seconds,
    )


def _top_up(table: Table, players: int, top: int) -> None:
    for seat in range(players):
        stack = table.stack(seat)
        if stack < top:
            table.top_up(seat, top - stack)


def _seat_result(table: Table, seat: int, bot: str, hands: int) -> SeatResult:
    net = table.stack(seat) - table.bought_in_by(seat)
    return SeatResult(seat, bot, net, round(net / BIG_BLIND * 100 / hands, 2))
