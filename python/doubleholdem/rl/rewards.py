"""ICM rewards at a tournament table (``reward="icm"``): the reward of a hand is the
change of each seat's equity in the prize pool under the Independent Chip Model
(:func:`doubleholdem.icm.equities`), instead of the chips it won.

The tournament is the table's seats and the stacks at its other tables (``others``,
which do not move during an episode); ``payouts`` are the prizes of the places still to
be decided, first place first. A seat with chips is worth its ICM equity among every
stack with chips over the places left; a seat that busts is placed by RULES.md TRN-17
(below everyone still in; busted in the same hand, more chips at its start finish
higher, equal chips tie) and is worth its prize by TRN-19 from then on. So the rewards
of an episode add up, for each seat, to its equity at the end less its equity at the
start; when the payouts make ICM linear in the chips (a single payout, winner takes
all; or two players in the whole tournament) they are the chips won times a constant.

>>> rewards = IcmRewards(payouts=(70, 30), others=())
>>> rewards.reset([500, 300, 200])
>>> [round(e, 4) for e in rewards.equity]
[45.1786, 32.25, 22.5714]
>>> [round(r, 4) for r in rewards.hand([500, 300, 200], [800, 0, 200])]
[16.8214, -32.25, 15.4286]
>>> rewards.equity  # the seat out took third place, which pays nothing
[62.0, 0.0, 38.0]
"""

from __future__ import annotations

from collections.abc import Sequence

from doubleholdem.icm import equities
from doubleholdem.tournament.places import award, rank_eliminations

__all__ = ["IcmRewards"]


class IcmRewards:
    """Each seat's ICM equity as the hands end, and the change of each (see the module
    docstring). The reward units are the payouts'."""

    def __init__(self, payouts: Sequence[int], others: Sequence[int]) -> None:
        self.payouts = tuple(payouts)
        self.others = tuple(others)
        self.equity: list[float] = []  # each seat's equity now
        self.rewards: list[float] = []  # the change of each seat's equity in the last hands
        self._start: tuple[tuple[int, ...], list[float]] | None = None

    def reset(self, stacks: Sequence[int]) -> None:
        """A new episode from the seats' ``stacks``."""
        key = tuple(stacks)
        if self._start is None or self._start[0] != key:  # most episodes start alike
            self._start = (key, self._alive_equity(key))
        self.equity = list(self._start[1])
        self.rewards = [0.0] * len(key)

    def hand(self, before: Sequence[int], after: Sequence[int], add: bool = False) -> list[float]:
        """The rewards of one hand that took the seats' stacks from ``before`` to
        ``after`` (every seat, 0 for a seat already out), kept in :attr:`rewards`, or
        with ``add`` added to them (hands settled together, as when a hand is dealt with
        no decision to make)."""
        old = self.equity
        new = self._alive_equity(after)
        busted = [(seat, chips) for seat, chips in enumerate(before) if chips and not after[seat]]
        if busted:
            remaining = sum(1 for chips in before if chips) + len(self.others)
            won = award(rank_eliminations(busted, remaining), self.payouts)
            for seat, _ in busted:
                new[seat] = float(won.get(seat, 0))
        for seat, chips in enumerate(before):
            if not chips:  # out before this hand: its prize stays
                new[seat] = old[seat]
        changes = [n - o for n, o in zip(new, old)]
        self.rewards = [a + c for a, c in zip(self.rewards, changes)] if add else changes
        self.equity = new
        return changes

    def _alive_equity(self, stacks: Sequence[int]) -> list[float]:
        """The equity of each seat with chips among them and the other tables' stacks,
        over the places left to them (0 for the seats without chips)."""
        seats = [seat for seat, chips in enumerate(stacks) if chips]
        field = [stacks[seat] for seat in seats] + list(self.others)
        values = equities(field, self.payouts[: len(field)])
        equity = [0.0] * len(stacks)
        for k, seat in enumerate(seats):
            equity[seat] = values[k]
        return equity
