"""Bots against each other at one table: ``doubleholdem simulate``.

Every seat holds a bot (:mod:`doubleholdem.table.bots`) with 100 big blinds; a stack is topped
up to the maximum buy-in before each hand, so the game never stops, and each seat's result
is its chips minus everything it bought in. Same seed, same results.

>>> result = simulate(players=3, hands=20, seed=1, bots=("station", "random"))
>>> result.hands, [seat.bot for seat in result.seats]
(20, ['station', 'random', 'station'])
>>> sum(seat.net for seat in result.seats) + result.rake
0
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from doubleholdem.errors import DoubleHoldemError
from doubleholdem.game.config import Structure, Variant
from doubleholdem.table.bots import BOTS, Bot, make_bot
from doubleholdem.table.table import Table, TableConfig

__all__ = ["SeatResult", "SimulationResult", "add_parser", "simulate"]

SMALL_BLIND = 50
BIG_BLIND = 100
STRUCTURES = {"limit": Structure.FIXED_LIMIT, "pot": Structure.POT_LIMIT, "no": Structure.NO_LIMIT}
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
    step = max(hands // 100, 1)
    for number in range(hands):
        _top_up(table, players, top)
        table.start_hand()
        _play(table, seated)
        if progress is not None and (number + 1) % step == 0:
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


def _play(table: Table, bots: Sequence[Bot]) -> None:
    observe, decide = table.observe, table.decide
    while True:
        seat = table.to_act  # None once the hand is over
        if seat is None:
            return
        decide(seat, bots[seat].decide(observe(seat)))


@contextlib.contextmanager
def _no_collections() -> Iterator[None]:
    """Switches the cyclic garbage collector off for the run. Play makes millions of
    short-lived objects and no reference cycles (a simulation collects none: reference
    counting frees everything), and the collector's passes over the table's growing
    log cost several percent of the run for nothing. The command does this for its own
    process; :func:`simulate` leaves the collector alone."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _seat_result(table: Table, seat: int, bot: str, hands: int) -> SeatResult:
    net = table.stack(seat) - table.bought_in_by(seat)
    return SeatResult(seat, bot, net, round(net / BIG_BLIND * 100 / hands, 2))


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem simulate``."""
    p = subparsers.add_parser("simulate", help="bots against each other at one table")
    p.add_argument("--variant", choices=[v.value for v in Variant], default="double")
    p.add_argument("--structure", choices=sorted(STRUCTURES), default="limit")
    p.add_argument("--players", type=int, default=6)
    p.add_argument("--hands", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--bots",
        default=",".join(DEFAULT_BOTS),
        help=f"bot names cycled over the seats, from {', '.join(sorted(BOTS))}",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``doubleholdem simulate``."""
    from doubleholdem.progress import ProgressBar

    bots = tuple(name.strip() for name in args.bots.split(",") if name.strip())
    for name in bots:
        if name not in BOTS:
            raise DoubleHoldemError(f"no bot named {name!r}: one of {', '.join(sorted(BOTS))}")
    bar = ProgressBar(f"simulate: {args.hands:,} hands")
    try:
        with _no_collections():
            result = simulate(
                players=args.players,
                hands=args.hands,
                seed=args.seed,
                variant=args.variant,
                structure=STRUCTURES[args.structure],
                bots=bots,
                progress=bar,
            )
    finally:
        bar.close()
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    print(f"{result.variant} {result.structure}: {result.hands:,} hands, seed {result.seed}")
    print(f"{'seat':>4}  {'bot':8} {'net chips':>12} {'bb/100':>9}")
    for seat in result.seats:
        print(f"{seat.seat:>4}  {seat.bot:8} {seat.net:>12,} {seat.bb_per_100:>9.2f}")
    print(f"hands played {result.hands:,}, {result.hands_per_second:,.0f} hands/s")
    return 0
