"""Bots: players a server can seat in place of people. Each takes an
:class:`~doubleholdem.table.Observation` (what its seat may know, nothing more) and
returns a :class:`~doubleholdem.table.Decision`, which the table applies like a remote
player's answer (:meth:`Table.decide <doubleholdem.table.Table.decide>`).

- :class:`RandomBot`: a uniformly random legal action (and raise size, and point card).
- :class:`CallingStation`: checks or calls, never folds or raises; DH-6 point card.
- :class:`EquityBot`: estimates its share of the pot against random hands by Monte
  Carlo with the batch evaluator (:func:`~doubleholdem.evaluate_batch`,
  :func:`~doubleholdem.double.resolve_batch`), picks the point card with the best
  estimate, raises strong hands, calls when the price is right, folds the rest.

>>> from doubleholdem.table import Table, TableConfig
>>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=3)
>>> for seat in range(3):
...     table.join(seat, f"bot{seat}", 1000)
>>> bots = {0: RandomBot(seed=1), 1: CallingStation(), 2: EquityBot(seed=2, samples=64)}
>>> table.start_hand(now=0.0)
>>> while table.in_hand:
...     seat = table.to_act
...     table.decide(seat, bots[seat].decide(table.observe(seat)))
>>> sum(table.stack(seat) for seat in range(3)) + table.rake
3000
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from doubleholdem import _core
from doubleholdem.betting import LegalActions
from doubleholdem.config import Variant
from doubleholdem.table import Decision, Observation

__all__ = ["BOTS", "Bot", "CallingStation", "EquityBot", "RandomBot", "make_bot"]

POINT = "point"
_CHECK = Decision("check")
_CALL = Decision("call")


class Bot(Protocol):
    """Anything that answers an observation with a decision."""

    name: str

    def decide(self, observation: Observation) -> Decision:
        """The decision for the seat's turn."""
        ...


class CallingStation:
    """Checks or calls every bet; its point card is the automatic one (DH-6)."""

    name = "station"

    def decide(self, observation: Observation) -> Decision:
        """Check if free, else call (all-in for less when short)."""
        if observation.decision == POINT:
            return Decision(POINT, _core.auto_point(list(observation.hole)))
        return _CHECK if observation.legal.can_check else _CALL


class RandomBot:
    """A uniformly random legal action; bets and raises to a uniform total in the legal
    range; a random point card. ``seed`` makes it reproducible."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, observation: Observation) -> Decision:
        """A random legal decision."""
        rng = self.rng
        if observation.decision == POINT:
            return Decision(POINT, rng.randrange(3))
        legal = observation.legal
        action = rng.choice(legal.actions()).value
        if action in ("bet", "raise"):
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            return Decision(action, rng.randint(legal.min_raise_to, legal.max_raise_to))
        return Decision(action)


class EquityBot:
    """Plays by its estimated share of the pot against as many random hands as there are
    opponents (``samples`` Monte Carlo deals, evaluated in one batch).

    It raises when its share beats ``raise_at`` (to the minimum raise plus a pot-sized
    fraction, within the legal range), calls when its share beats the price (call /
    (pot + call)), else checks or folds. On the flop of Double Hold'em it chooses the
    point card with the best share. Needs numpy.
    """

    name = "equity"

    def __init__(self, seed: int | None = None, *, samples: int = 200, raise_at: float = 0.6):
        import numpy as np

        self.np = np
        self.rng = np.random.default_rng(seed)
        self.samples = samples
        self.raise_at = raise_at

    def decide(self, observation: Observation) -> Decision:
        """The decision its equity estimate suggests."""
        if observation.decision == POINT:
            shares = [self.equity(observation, point) for point in range(3)]
            return Decision(POINT, max(range(3), key=lambda p: (shares[p], -p)))
        share = self.equity(observation, None)
        return self._betting(observation.legal, share, observation.pot)

    def _betting(self, legal: LegalActions, share: float, pot: int) -> Decision:
        if legal.can_raise and share >= self.raise_at:
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            target = legal.min_raise_to + int((share - self.raise_at) * pot)
            return Decision("bet" if legal.is_bet else "raise", min(target, legal.max_raise_to))
        if legal.can_check:
            return Decision("check")
        price = legal.call_amount / (pot + legal.call_amount)
        return Decision("call" if share >= price else "fold")

    def equity(self, observation: Observation, point: int | None) -> float:
        """The estimated share of the pot: wins count 1, ties 1/k, against
        ``observation.opponents`` random hands, with the point card ``point`` in Double
        Hold'em (``None``: the best point card for each deal, as before the flop)."""
        np = self.np
        double = observation.variant is Variant.DOUBLE
        k = 3 if double else 2
        opponents = max(observation.opponents, 1)
        board = list(observation.board)
        hole = list(observation.hole)
        deals = self._deals(hole + board, opponents * k + 5 - len(board))
        known = np.tile(np.array(board, dtype=np.uint8).reshape(1, -1), (self.samples, 1))
        boards = np.concatenate([known, deals[:, : 5 - len(board)]], axis=1)
        others = deals[:, 5 - len(board) :].reshape(self.samples * opponents, k)
        mine = np.tile(np.array(hole, dtype=np.uint8), (self.samples, 1))
        ours = self._values(mine, boards, point)
        theirs = self._values(others, np.repeat(boards, opponents, axis=0), None).reshape(
            self.samples, opponents
        )
        best = theirs.max(axis=1)
        ties = (theirs == ours[:, None]).sum(axis=1)
        won = np.where(ours > best, 1.0, np.where(ours == best, 1.0 / (ties + 1), 0.0))
        return float(won.mean())

    def _deals(self, known: list[int], count: int) -> Any:
        np = self.np
        rest = np.array([c for c in range(52) if c not in set(known)], dtype=np.uint8)
        order = np.argsort(self.rng.random((self.samples, rest.size)), axis=1)[:, :count]
        return rest[order]

    def _values(self, holes: Any, boards: Any, point: int | None) -> Any:
        np = self.np
        from doubleholdem.double import resolve_batch
        from doubleholdem.evaluate import evaluate_batch

        if holes.shape[1] == 2:
            return evaluate_batch(np.concatenate([holes, boards], axis=1), threads=1)
        rows = holes.shape[0]
        if point is not None:
            return resolve_batch(holes, np.full(rows, point, dtype=np.uint8), boards, threads=1)
        values = [
            resolve_batch(holes, np.full(rows, p, dtype=np.uint8), boards, threads=1)
            for p in range(3)
        ]
        return np.maximum(np.maximum(values[0], values[1]), values[2])


BOTS = {"random": RandomBot, "station": CallingStation, "equity": EquityBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``random``, ``station`` or ``equity``), seeded if it uses chance."""
    if name == "station":
        return CallingStation()
    if name == "random":
        return RandomBot(seed)
    if name == "equity":
        return EquityBot(seed)
    from doubleholdem.errors import DoubleHoldemError

    raise DoubleHoldemError(f"no bot named {name!r}: one of {', '.join(sorted(BOTS))}")
