"""A whole tournament of bots: ``doubleholdem tournament simulate``.

Every entrant is a bot (:mod:`doubleholdem.table.bots`, the names cycled over the
entrants); the tables play in turn, each ready table one hand a pass, until one bot holds
every chip (RULES.md TRN-20). Levels go by hands. Same seed, same result.

>>> result = simulate_tournament(players=12, seed=3, starting_stack=500)
>>> len(result.result.places), sum(result.result.prizes.values()) == result.result.pool
(12, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from doubleholdem.errors import DoubleHoldemError, TournamentStateError
from doubleholdem.game.config import Structure, Variant
from doubleholdem.table.bots import Bot, make_bot
from doubleholdem.tournament.config import Kind, TournamentConfig
from doubleholdem.tournament.structure import BlindStructure, Clocking
from doubleholdem.tournament.tournament import Result, Tournament

__all__ = ["DEFAULT_BOTS", "TournamentRun", "simulate_tournament"]

DEFAULT_BOTS = ("equity",)
MOST_PLAYERS = 100_000


@dataclass(frozen=True)
class TournamentRun:
    """What :func:`simulate_tournament` played: the :class:`Result` and the bot of each
    entry, the tables opened, and the run's seconds."""

    result: Result
    bots: dict[str, str]
    tables: int
    seed: int
    variant: str
    betting: str
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        data = self.result.to_dict()
        for place in data["places"]:
            place["bot"] = self.bots[place["player"]]
        data.update(seed=self.seed, variant=self.variant, betting=self.betting,
                    tables=self.tables, seconds=round(self.seconds, 3))  # fmt: skip
        return data


def simulate_tournament(
    *,
    players: int,
    seed: int = 1,
    variant: Variant | str = Variant.TEXAS,
    betting: Structure | str = Structure.NO_LIMIT,
    bots: Sequence[str] = DEFAULT_BOTS,
    seats: int = 9,
    starting_stack: int = 10_000,
    hands_per_level: int = 10,
    buy_in: int = 100,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentRun:
    """Plays a tournament of ``players`` bots to its end: levels of
    ``hands_per_level`` hands (the standard structure), ``buy_in`` each into the pool,
    the default payouts. ``progress(out, players)`` is called as entrants go out."""
    if not isinstance(players, int) or not 2 <= players <= MOST_PLAYERS:
        raise DoubleHoldemError(f"--players must be 2 to {MOST_PLAYERS:,}, not {players}")
    if not bots:
        raise DoubleHoldemError("give at least one bot")
    config = TournamentConfig(
        kind=Kind.SIT_AND_GO,
        capacity=players,
        seats=seats,
        starting_stack=starting_stack,
        buy_in=buy_in,
        blinds=BlindStructure.standard(by=Clocking.HANDS, length=hands_per_level),
        betting=Structure(betting),
        variant=Variant(variant),
    )
    tournament = Tournament(config, seed=seed)
    names = {f"{bots[n % len(bots)]}-{n + 1}": bots[n % len(bots)] for n in range(players)}
    seated: dict[str, Bot] = {
        name: make_bot(bot, seed * 1_000_003 + number)
        for number, (name, bot) in enumerate(names.items())
    }
    started = time.perf_counter()
    if progress is not None:
        progress(0, players)
    for name in names:
        tournament.register(name)
    opened = len(tournament.tables)
    while tournament.state == "running":
        ready = tournament.ready_tables()
        if not ready:
            raise TournamentStateError("no table can start a hand")  # a defect if ever
        for number in ready:
            if tournament.state != "running" or number not in tournament.tables:
                break
            table = tournament.start_hand(number)
            table.play_out({seat: seated[table.player(seat)] for seat in table.dealt})
            tournament.finish_hand(number)
            table.release_history(read=False)
            if progress is not None:
                progress(players - tournament.remaining, players)
        opened = max(opened, max(tournament.tables, default=0))
    return TournamentRun(
        tournament.result(),
        names,
        opened,
        seed,
        config.variant.value,
        config.betting.value,
        time.perf_counter() - started,
    )
