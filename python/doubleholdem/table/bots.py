"""Bots: players a server can seat in place of people. A bot *chooses*: its
:meth:`~Bot.choose` takes an :class:`~doubleholdem.table.Observation` (what its seat may
know, nothing more) and returns a :class:`~doubleholdem.table.Decision`; the table
*applies* it like a remote player's answer (:meth:`Table.decide
<doubleholdem.table.Table.decide>`). :data:`BOTS` is the one registry of bots by name,
which the simulator, the server and the command line all use (:func:`make_bot`).

- :class:`RandomBot`: a uniformly random legal action (and raise size, and point card).
- :class:`CallingStation`: checks or calls, never folds or raises; DH-6 point card.
- :class:`EquityBot`: estimates its share of the pot against random hands (before the
  flop from a shipped table, :mod:`doubleholdem.table.preflop_equity`; after it by Monte Carlo
  in the Rust core, one call per estimate), picks the point card with the best
  estimate, raises strong hands, calls when the price is right, folds the rest.

>>> from doubleholdem.table.table import Table, TableConfig
>>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=3)
>>> for seat in range(3):
...     table.join(seat, f"bot{seat}", 1000)
>>> bots = {0: RandomBot(seed=1), 1: CallingStation(), 2: EquityBot(seed=2, samples=64)}
>>> table.start_hand(now=0.0)
>>> while table.in_hand:
...     seat = table.to_act
...     event = table.decide(seat, bots[seat].choose(table.observe(seat)))
>>> sum(table.stack(seat) for seat in range(3)) + table.rake
3000
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Optional, Protocol

from doubleholdem import _core
from doubleholdem.game.betting import Action, LegalActions
from doubleholdem.game.words import BET, POINT, RAISE
from doubleholdem.table.preflop_equity import preflop_share
from doubleholdem.table.table import Decision, Observation

__all__ = ["BOTS", "Bot", "BotBase", "CallingStation", "EquityBot", "RandomBot", "make_bot"]

# the decision of each action that takes no amount, and of each point card
_PLAIN = {action: Decision(action.value) for action in Action}
_CHECK, _CALL, _FOLD = _PLAIN[Action.CHECK], _PLAIN[Action.CALL], _PLAIN[Action.FOLD]
_BET, _RAISE = Action.BET, Action.RAISE  # Python 3.11 looks attributes of an Enum class up slowly
_POINTS = [Decision(POINT, point) for point in range(3)]
# An equity estimate's question: (hole, board, opponents, point card or None). Optional:
# the alias is evaluated at run time, and Python 3.9 has no `int | None` there.
_EquityKey = tuple[tuple[int, ...], tuple[int, ...], int, Optional[int]]


class Bot(Protocol):
    """Anything that answers an observation with a decision."""

    name: str

    def choose(self, observation: Observation) -> Decision:
        """The decision for the seat's turn."""
        ...


class BotBase:
    """What the shipped bots share: ``decide``, the old name of :meth:`choose` (it
    warns, and goes in the next release)."""

    def choose(self, observation: Observation) -> Decision:
        """The decision for the seat's turn."""
        raise NotImplementedError

    def decide(self, observation: Observation) -> Decision:
        """Deprecated: call :meth:`choose` (a table decides, a bot chooses)."""
        warnings.warn(
            "Bot.decide is deprecated and goes in the next release: call Bot.choose",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.choose(observation)


class CallingStation(BotBase):
    """Checks or calls every bet; its point card is the automatic one (DH-6). It uses no
    chance: ``seed`` is accepted (every bot of :data:`BOTS` takes one) and ignored."""

    name = "station"

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def choose(self, observation: Observation) -> Decision:
        """Check if free, else call (all-in for less when short)."""
        if observation.decision == POINT:
            return _POINTS[_core.auto_point(list(observation.hole))]
        return _CHECK if observation.legal.can_check else _CALL


class RandomBot(BotBase):
    """A uniformly random legal action; bets and raises to a uniform total in the legal
    range; a random point card. ``seed`` makes it reproducible."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Decision:
        """A random legal decision."""
        random = self.rng.random  # one call, where choice() and randrange() take several
        if observation.decision == POINT:
            return _POINTS[int(random() * 3)]
        legal = observation.legal
        actions = legal.actions()
        action = actions[int(random() * len(actions))]
        if action is _BET or action is _RAISE:
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            return Decision(action.value, self.rng.randint(legal.min_raise_to, legal.max_raise_to))
        return _PLAIN[action]


class EquityBot(BotBase):
    """Plays by its estimated share of the pot against as many random hands as there are
    opponents (a win counts 1, a tie with k others 1/(k+1), EV-1). Before the flop the
    share depends only on the hole's class and the number of opponents, and comes from
    the shipped table of :mod:`doubleholdem.table.preflop_equity` (a dict look-up; Double
    Hold'em: the best point card, DH-3, DH-4). From the flop on it is ``samples`` Monte
    Carlo deals in the Rust core (one call to the core per estimate, reproducible from
    ``seed``).

    It raises when its share beats ``raise_at`` (to the minimum raise plus a pot-sized
    fraction, within the legal range), calls when its share beats the price (call /
    (pot + call)), else checks or folds. On the flop of Double Hold'em it chooses the
    point card with the best share (DH-2 to DH-4), comparing the three on the same deals,
    and after that estimates with the point it chose. An estimate is reused while the
    hole, board and number of opponents stay the same (several decisions in one round).
    """

    name = "equity"

    def __init__(self, seed: int | None = None, *, samples: int = 200, raise_at: float = 0.6):
        if isinstance(samples, bool) or not isinstance(samples, int):
            raise TypeError(f"samples must be a whole number, not {samples!r}")
        if not 1 <= samples <= 2**32 - 1:
            raise ValueError(f"samples must be from 1 to 2**32 - 1, not {samples}")
        if isinstance(raise_at, bool) or not isinstance(raise_at, (int, float)):
            raise TypeError(f"raise_at must be a number, not {raise_at!r}")
        self.rng = random.Random(seed)
        self.samples = samples
        self.raise_at = raise_at
        self._cache: dict[_EquityKey, float] = {}
        self._point: tuple[tuple[int, ...], int] | None = None  # (hole, point) it chose

    def choose(self, observation: Observation) -> Decision:
        """The decision its equity estimate suggests."""
        hole = tuple(observation.hole)
        if observation.decision == POINT:
            shares = self._shares(observation, (0, 1, 2))
            chosen = max(range(3), key=lambda p: (shares[p], -p))
            self._point = (hole, chosen)
            return _POINTS[chosen]
        last = self._point
        point = last[1] if observation.board and last and last[0] == hole else None
        share = self.equity(observation, point)
        return self._betting(observation.legal, share, observation.pot)

    def _betting(self, legal: LegalActions, share: float, pot: int) -> Decision:
        if legal.can_raise and share >= self.raise_at:
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            target = legal.min_raise_to + int((share - self.raise_at) * pot)
            return Decision(BET if legal.is_bet else RAISE, min(target, legal.max_raise_to))
        if legal.can_check:
            return _CHECK
        price = legal.call_amount / (pot + legal.call_amount)
        return _CALL if share >= price else _FOLD

    def equity(self, observation: Observation, point: int | None) -> float:
        """The estimated share of the pot: wins count 1, a tie with k others 1/(k+1),
        against ``observation.opponents`` random hands, with the point card ``point`` in
        Double Hold'em (``None``: the best point card for each deal, as before the
        flop). Before the flop it is the shipped table's share."""
        if not observation.board and point is None:
            return preflop_share(observation.hole, max(observation.opponents, 1))
        return self._shares(observation, (point,))[0]

    def _shares(self, observation: Observation, points: tuple[int | None, ...]) -> list[float]:
        """:meth:`equity` for each of ``points``; those not known yet come from one call
        to the core, on the same deals (common random numbers)."""
        keys = [self._key(observation, point) for point in points]
        missing = [key for key in keys if key not in self._cache]
        if missing:
            hole, board, opponents, _ = missing[0]
            seed = self.rng.getrandbits(64)
            asked = [key[3] for key in missing]
            found = _core.equities(list(hole), list(board), opponents, self.samples, asked, seed)
            self._cache.update(zip(missing, found))
        return [self._cache[key] for key in keys]

    def _key(self, observation: Observation, point: int | None) -> _EquityKey:
        """The cache key of an estimate. The cache keeps only the current hole and
        board: a new street or hand never asks for the old estimates again."""
        hole, board = tuple(observation.hole), tuple(observation.board)
        if self._cache and next(iter(self._cache))[:2] != (hole, board):
            self._cache.clear()
        return (hole, board, max(observation.opponents, 1), point)


BOTS: dict[str, Callable[[int | None], Bot]] = {
    CallingStation.name: CallingStation,
    RandomBot.name: RandomBot,
    EquityBot.name: EquityBot,
}
"""The bots by name, each made from a seed: the one registry, which the simulator, the
server (a table's ``bots`` column names them) and the command line use."""


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by its name in :data:`BOTS`, seeded if it uses chance.

    >>> make_bot("equity", seed=1).name, make_bot("shark")
    Traceback (most recent call last):
    ...
    doubleholdem.errors.DoubleHoldemError: no bot named 'shark': one of equity, random, station
    """
    factory = BOTS.get(name) if isinstance(name, str) else None
    if factory is None:
        from doubleholdem.errors import DoubleHoldemError

        raise DoubleHoldemError(f"no bot named {name!r}: one of {', '.join(sorted(BOTS))}")
    return factory(seed)
