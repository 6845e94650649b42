"""The table's clock (RULES.md TH-40, DH-7): the time it was last given and when the
seat to act runs out of time. A betting decision gets the action time and then the time
bank (restored after each use); a point card gets its own time and no bank. A seat whose
player is away (no connection) gets the action time without the bank, and no time at all
once it has timed out while away: a player who is gone costs the table one action time.

>>> clock = Clock(action_time=10, time_bank=30, point_time=5)
>>> clock.tick(100.0); clock.start(100.0, "bet")
>>> clock.deadline, clock.phase
(110.0, 'action')
>>> clock.start_bank("bet"), clock.phase
((110.0, 140.0), 'bank')
>>> clock.start(140.0, "bet", away=True); clock.deadline, clock.start_bank("bet")
(150.0, None)
"""

from __future__ import annotations

import math

from doubleholdem.errors import TableError
from doubleholdem.table.decisions import BET, POINT

__all__ = ["PHASES", "Clock"]

ACTION = "action"
BANK = "bank"
AWAY = "away"  # the action time of a seat whose player is away: no bank follows
PHASES = (None, ACTION, BANK, POINT, AWAY)  # what the seat to act is spending: None between hands


class Clock:
    """``now``: the latest time given (seconds, any origin, never going back);
    ``deadline``: when the seat to act runs out of time (``None`` between hands);
    ``phase``: what it is spending (:data:`PHASES`); ``plain``: the phase and the time
    of each decision from a seat whose player is there."""

    __slots__ = ("action_time", "deadline", "now", "phase", "plain", "point_time", "time_bank")

    def __init__(self, *, action_time: float, time_bank: float, point_time: float) -> None:
        self.action_time = action_time
        self.time_bank = time_bank
        self.point_time = point_time
        self.now = 0.0
        self.deadline: float | None = None
        self.phase: str | None = None
        self.plain = {BET: (ACTION, action_time), POINT: (POINT, point_time)}

    def tick(self, now: float | None) -> None:
        """Time runs to ``now`` (nothing if ``None``), checked before anything changes: a
        finite number, not before the clock's time."""
        if now is None:
            return
        if isinstance(now, bool) or not isinstance(now, (int, float)):
            raise TableError(f"now must be a time in seconds, not {now!r}")
        try:
            latest = now + self.action_time + self.time_bank + self.point_time
            finite = math.isfinite(now) and math.isfinite(latest)
        except OverflowError:
            finite = False
        if not finite:
            raise TableError(f"now must be a finite time in seconds, not {now!r}")
        if now < self.now:
            raise TableError(f"time cannot go back from {self.now} to {now}")
        self.now = now

    def start(self, when: float, decision: str, *, away: bool = False, spent: bool = False) -> None:
        """A decision (``"bet"`` or ``"point"``) is awaited from ``when`` on: from a seat
        whose player is ``away``, without the time bank; from one that has ``spent`` its
        time already (timed out while away), with no time at all."""
        if spent:
            self.phase = AWAY
            self.deadline = when
        elif away and decision != POINT:
            self.phase = AWAY
            self.deadline = when + self.action_time
        else:
            self.phase, time = self.plain[decision]
            self.deadline = when + time

    def away(self, away: bool) -> None:
        """The player to act went away (its time bank is gone) or came back (it is
        there again) during its action time."""
        if away and self.phase == ACTION:
            self.phase = AWAY
        elif not away and self.phase == AWAY and self.deadline is not None:
            self.phase = ACTION

    def stop(self) -> None:
        """No decision is awaited (the hand is over)."""
        self.deadline = self.phase = None

    def expired(self, now: float) -> float | None:
        """The deadline if it is not after ``now``."""
        deadline = self.deadline
        return deadline if deadline is not None and deadline <= now else None

    def start_bank(self, decision: str | None) -> tuple[float, float] | None:
        """TH-40: once the action time of a betting decision ran out, the time bank
        starts (returns when it started and when it ends); ``None`` if it has none to
        start (a point card, the bank already running, or no bank)."""
        if self.phase != ACTION or decision != BET or self.time_bank <= 0:
            return None
        assert self.deadline is not None
        expired = self.deadline
        self.phase = BANK
        self.deadline = expired + self.time_bank
        return expired, self.deadline

    @property
    def bank_running(self) -> bool:
        """True once the seat to act has started its time bank."""
        return self.phase == BANK
