"""The seat lifecycle's clocks (RULES.md TH-37, TH-40): who is away, the decisions a
seat missed, when it sat out or went bust, and so when it is due to be removed.

A seat whose player is away (no connection) gets the action time for a decision but not
the time bank, and no time at all once it has timed out while away; it sits out on that
timeout, and a seat that misses two decisions in a row sits out too. A seat sat out for
a while, or left without chips, is due to be removed (:meth:`Lifecycle.removals`).

:attr:`Lifecycle.quiet` says that no seat is away and none has a missed decision on its
count: then the seat to act gets the plain clock (the table's hot path skips the rest).

>>> from doubleholdem.table.seats import Seating
>>> seating = Seating(6, (200, 1000))
>>> _ = seating.sit_down(0, "ann", 500, post=True)
>>> clock = Clock(action_time=10, time_bank=30, point_time=5)
>>> life = Lifecycle(seating, clock)
>>> life.set_away(0, True, to_act=False); life.quiet
False
>>> life.start(100.0, "bet", 0); clock.deadline, clock.phase
(110.0, 'away')
>>> life.missed(0), life.sit_out(0), life.removals(60.0, 30.0)
(True, True, [(0, 60.0)])
"""

from __future__ import annotations

from doubleholdem.table.clock import Clock
from doubleholdem.table.seats import Seat, Seating

__all__ = ["Lifecycle"]


class Lifecycle:
    """The lifecycle of the seats of ``seating`` on ``clock`` (the table's time).
    ``quiet``: no seat is away and none has missed a decision (kept true only when
    sure: it is checked again at each hand's start)."""

    __slots__ = ("clock", "quiet", "seating")

    def __init__(self, seating: Seating, clock: Clock) -> None:
        self.seating = seating
        self.clock = clock
        self.quiet = self._nobody_watched()

    def _nobody_watched(self) -> bool:
        return not any(s is not None and (s.away or s.timeouts) for s in self.seating.seats)

    def new_hand(self) -> None:
        """A hand starts: :attr:`quiet` again if nobody is away or owes a decision."""
        if not self.quiet:
            self.quiet = self._nobody_watched()

    def start(self, when: float, decision: str, seat: int) -> None:
        """Starts the clock of ``seat``, to decide from ``when`` (TH-40): without the
        time bank if its player is away, with no time if it timed out while away."""
        occupant = self.seating.seats[seat]
        if occupant is not None and occupant.away:
            self.clock.start(when, decision, away=True, spent=occupant.timeouts > 0)
        else:
            self.clock.start(when, decision)

    def decided(self, seat: int) -> None:
        """``seat`` made a decision: its missed decisions in a row start again."""
        occupant = self.seating.seats[seat]
        if occupant is not None and occupant.timeouts:
            occupant.timeouts = 0

    def missed(self, seat: int) -> bool:
        """``seat`` timed out; True if it must sit out: its player is away, or it missed
        two decisions in a row (it is dealt out from the next hand on)."""
        occupant = self.seating.at(seat)
        occupant.timeouts += 1
        self.quiet = False
        return occupant.away or occupant.timeouts >= 2

    def set_away(self, seat: int, away: bool, *, to_act: bool) -> None:
        """The player of ``seat`` has no connection (``away``) or is back, which
        restores the bank and clears its missed decisions; ``to_act``: during its own
        decision, whose clock changes at once."""
        occupant = self.seating.occupant(seat)
        if occupant.away == away:
            return
        occupant.away = away
        if away:
            self.quiet = False
        else:
            occupant.timeouts = 0
        if to_act:
            self.clock.away(away)

    def sit_out(self, seat: int) -> bool:
        """``seat`` sits out now (the start of its sit-out clock); False if it did."""
        occupant = self.seating.occupant(seat)
        if occupant.sitting_out:
            return False
        occupant.sitting_out = True
        occupant.sat_out_at = self.clock.now
        return True

    def sit_in(self, seat: int, *, post: bool) -> bool:
        """``seat`` comes back, posting what it owes or (not ``post``) waiting for the
        big blind (TH-37); its missed decisions are cleared. False if it sat in."""
        occupant = self.seating.occupant(seat)
        occupant.post = post
        occupant.timeouts = 0
        if not occupant.sitting_out:
            return False
        occupant.sitting_out = False
        occupant.sat_out_at = None
        return True

    def busted(self, occupant: Seat) -> None:
        """A hand left ``occupant`` without chips: its busted clock starts (once)."""
        if occupant.busted_at is None:
            occupant.busted_at = self.clock.now

    def removals(self, remove_after: float, busted_after: float) -> list[tuple[int, float]]:
        """Each seat that will be due for removal, and when: sat out for
        ``remove_after`` seconds, or without chips for ``busted_after`` seconds (not
        topped up), and not leaving already."""
        due: list[tuple[int, float]] = []
        for seat, occupant in enumerate(self.seating.seats):
            if occupant is None or occupant.leaving:
                continue
            times = []
            if occupant.sitting_out and occupant.sat_out_at is not None:
                times.append(occupant.sat_out_at + remove_after)
            if occupant.stack == 0 and occupant.busted_at is not None:
                times.append(occupant.busted_at + busted_after)
            if times:
                due.append((seat, min(times)))
        return due
