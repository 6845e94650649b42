"""Where the button and the blinds go and who is dealt in (RULES.md TH-3, TH-35 to
TH-38; TRN-12 at a tournament table), as a pure plan: :func:`plan_blinds` takes what it
needs to know of the seats and of the last hand and returns a :class:`BlindPlan`; the
table applies it.

>>> seats = [Debts(0), None, Debts(1), Debts(2)]
>>> plan = plan_blinds(seats, [0, 2, 3], Positions(), ButtonRule.MOVING, 5, 10)
>>> plan.button, plan.small, plan.big, plan.dealt
(0, 2, 3, (0, 2, 3))
>>> later = plan_blinds(seats, [0, 2, 3], plan.positions(seats), ButtonRule.MOVING, 5, 10)
>>> later.button, later.small, later.big
(2, 3, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from doubleholdem.table.config import ButtonRule

__all__ = ["BlindPlan", "Debts", "Positions", "passed_blind", "plan_blinds"]

_DEAD = ButtonRule.DEAD  # Python 3.11 looks attributes of an Enum class up slowly


class Debts(NamedTuple):
    """What the plan needs of an occupied seat: its ``occupancy`` (who sits there,
    :mod:`doubleholdem.table.seats`), whether it is ``new`` (TH-36), the blinds it
    missed (TH-37), and whether it ``post``\\ s what it owes or waits for the big blind."""

    occupancy: int
    new: bool = False
    missed_small: bool = False
    missed_big: bool = False
    post: bool = True

    @property
    def owes(self) -> bool:
        return self.new or self.missed_small or self.missed_big


_SETTLED = {"new": False, "missed_small": False, "missed_big": False}


class Positions(NamedTuple):
    """The last hand's button, small blind position and big blind seats, and who posted
    its big blind (``(seat, occupancy)``); all ``None`` before the first hand."""

    button: int | None = None
    small: int | None = None
    big: int | None = None
    last_big: tuple[int, int] | None = None


class BlindPlan(NamedTuple):
    """The next hand: the ``button`` seat (may be empty, TH-38), the seat that posts the
    ``small`` blind (``None``: a dead small blind) and the ``small_position`` it stands
    for, the ``big`` blind seat, the seats ``dealt`` in clockwise from seat 0, the seat
    that acts as the button among them (``hand_button``), each seat's ``live`` and
    ``dead`` posts (TH-36, TH-37), and the blinds newly ``missed`` by seats not dealt
    in, as ``(seat, "big" or "small")`` (TH-37)."""

    button: int
    small: int | None
    big: int
    dealt: tuple[int, ...]
    small_position: int
    hand_button: int
    live: dict[int, int]
    dead: dict[int, int]
    missed: tuple[tuple[int, str], ...]

    def positions(self, seats: Sequence[Debts | None]) -> Positions:
        """The positions this plan leaves for the next one."""
        occupant = seats[self.big]
        assert occupant is not None
        return Positions(self.button, self.small_position, self.big, (self.big, occupant.occupancy))


def plan_blinds(
    seats: Sequence[Debts | None],
    able: Sequence[int],
    last: Positions,
    rule: ButtonRule,
    small_blind: int,
    big_blind: int,
    *,
    new_player_posts: bool = True,
) -> BlindPlan:
    """The plan of the next hand at a table whose seats hold ``seats`` (``None``: empty),
    ``able`` of them able to play (at least two), after a hand placed as ``last``.
    ``new_player_posts=False`` (a tournament table, TRN-12): a new player posts nothing
    and is dealt in at once, except in a seat between the button and the small blind.

    >>> seats = [Debts(0), Debts(1), Debts(2, new=True), Debts(3), Debts(4, new=True)]
    >>> last = Positions(0, 1, 3, (3, 3))
    >>> plan = plan_blinds(seats, range(5), last, ButtonRule.DEAD, 5, 10, new_player_posts=False)
    >>> plan.button, plan.small, plan.big, plan.dealt, plan.live
    (1, 3, 4, (0, 1, 3, 4), {})
    """
    planner = _Planner(seats, last, free=not new_player_posts)
    return planner.plan(able, rule, small_blind, big_blind)


class _Plan(NamedTuple):
    button: int
    small: int | None
    big: int
    dealt: list[int]
    small_position: int


class _Planner:
    """One planning: the seats' debts as they settle along the way (``owing``: whether
    each seat owes, kept with them)."""

    def __init__(self, seats: Sequence[Debts | None], last: Positions, *, free: bool) -> None:
        self.seats = list(seats)
        self.free = free  # new players post nothing (TRN-12)
        self.owing = [seat is not None and seat.owes for seat in seats]
        self.count = len(seats)
        self.last = last

    def plan(
        self, able: Sequence[int], rule: ButtonRule, small_blind: int, big_blind: int
    ) -> BlindPlan:
        owing = self.owing
        ready = [s for s in able if not owing[s]]
        if self.last.big is None or len(ready) < 2:
            for s in able:  # a new game: nobody owes anything
                self.settle(s)
            ready = list(able)
            plan = self.moving(ready, able)
        elif rule is _DEAD:
            plan = self.dead_button(ready, able)
        else:
            plan = self.moving(ready, able)
        if len(plan.dealt) > 2 and self.posted_last_big_blind(plan.big):
            plan = self.moving(ready, able, after=plan.button)  # TH-35
        if len(plan.dealt) == 2:
            plan = self.heads_up(plan)
        missed = self.missed(plan)
        live, dead = self.posts(plan, small_blind, big_blind)
        return BlindPlan(
            plan.button,
            plan.small,
            plan.big,
            tuple(plan.dealt),
            plan.small_position,
            self.previous(plan.button, plan.dealt),
            live,
            dead,
            missed,
        )

    def at(self, seat: int) -> Debts:
        occupant = self.seats[seat]
        assert occupant is not None
        return occupant

    def settle(self, seat: int) -> None:
        if self.owing[seat]:
            self.seats[seat] = self.at(seat)._replace(**_SETTLED)
            self.owing[seat] = False

    def moving(self, ready: list[int], able: Sequence[int], *, after: int | None = None) -> _Plan:
        """TH-38 moving button: the button goes to the next player who owes nothing,
        the small blind to the one after, the big blind to the next player sitting in
        (who may owe: taking the big blind settles it). ``after``: the seat to move the
        button on from (default: the last button)."""
        previous = self.last.button if after is None else after
        if previous is None:
            previous = self.count - 1
        button = self.next(previous, ready)
        small = self.next(button, ready)
        big = self.next(small, able)
        if big == button:  # nobody else between: heads-up (TH-3)
            return _Plan(button, small, big, sorted({button, small}), small)
        return _Plan(button, small, big, self.dealt_in(able, button, big, small), small)

    def dead_button(self, ready: list[int], able: Sequence[int]) -> _Plan:
        """TH-38 dead button: the big blind to the player due (next after the last big
        blind), the small blind on the last big blind's seat, the button on the last
        small blind's seat, whoever sits there."""
        last_big, last_small = self.last.big, self.last.small
        assert last_big is not None and last_small is not None
        big = self.next(last_big, able)
        button = last_small
        if big == button:  # the big blind went round to the button: heads-up
            return self.moving(ready, able)
        dealt = self.dealt_in(able, button, big, last_big)
        small = last_big if last_big in dealt else None
        return _Plan(button, small, big, dealt, last_big)

    def dealt_in(self, able: Sequence[int], button: int, big: int, small: int) -> list[int]:
        """Who plays: everyone able who owes nothing, the big blind, and those who owe
        and post, except between the button and the big blind (TH-36, TH-37); at a
        tournament table a new player, except between the button and the small blind
        position ``small`` (TRN-12)."""
        dealt = []
        owing = self.owing
        for s in able:
            if s == big or not owing[s]:
                dealt.append(s)
            elif self.free and self.at(s).new:
                if not self.between(button, s, small):
                    dealt.append(s)
            elif self.at(s).post and not self.between(button, s, big, include_start=True):
                dealt.append(s)
        return dealt

    def heads_up(self, plan: _Plan) -> _Plan:
        """TH-3, TH-35: heads-up the button posts the small blind, and nobody posts the
        big blind twice in a row. Both players start square."""
        first, second = plan.dealt
        if self.posted_last_big_blind(first):
            big = second
        elif self.posted_last_big_blind(second):
            big = first
        elif plan.big in plan.dealt and plan.big != plan.button:
            big = plan.big
        else:
            big = second if plan.button == first else first
        button = first if big == second else second
        for s in plan.dealt:
            self.settle(s)
        return _Plan(button, button, big, plan.dealt, button)

    def posted_last_big_blind(self, seat: int) -> bool:
        """True if the player in ``seat`` (this very occupancy, not a namesake) posted
        the big blind in the last hand: when players come back to a new game, the button
        moves on once more (TH-35)."""
        last = self.last.last_big
        occupant = self.seats[seat]
        return (
            last is not None
            and last[0] == seat
            and occupant is not None
            and (occupant.occupancy == last[1])
        )

    def missed(self, plan: _Plan) -> tuple[tuple[int, str], ...]:
        """TH-37: a seated player not dealt in misses the big blind when the big blind
        passes its seat, and the small blind likewise."""
        missed: list[tuple[int, str]] = []
        for s, seat in enumerate(self.seats):
            if seat is None or s in plan.dealt or seat.new:
                continue
            blind = passed_blind(plan.button, plan.small_position, plan.big, s, self.count)
            if blind == "big" and not seat.missed_big:
                missed.append((s, "big"))
            elif blind == "small" and not seat.missed_small:
                missed.append((s, "small"))
        return tuple(missed)

    def posts(
        self, plan: _Plan, small_blind: int, big_blind: int
    ) -> tuple[dict[int, int], dict[int, int]]:
        """What each player who owes and is dealt in (not as a blind) posts: a big
        blind live if new or if it missed the big blind, the small blind dead if it
        missed that (TH-36, TH-37)."""
        live: dict[int, int] = {}
        dead: dict[int, int] = {}
        owing = self.owing
        for s in plan.dealt:
            if s == plan.big or s == plan.small or not owing[s]:
                continue
            seat = self.at(s)
            if seat.new and self.free:  # TRN-12: dealt in as it is
                continue
            if seat.new or seat.missed_big:
                live[s] = big_blind
            if seat.missed_small and not seat.new:
                dead[s] = small_blind
        return live, dead

    def next(self, after: int, candidates: Sequence[int]) -> int:
        """The first of ``candidates`` clockwise after seat ``after``."""
        n = self.count
        for step in range(1, n + 1):
            if (after + step) % n in candidates:
                return (after + step) % n
        raise ValueError("no candidate seats")

    def previous(self, at: int, candidates: Sequence[int]) -> int:
        """The first of ``candidates`` counter-clockwise from seat ``at`` (included)."""
        n = self.count
        for step in range(n):
            if (at - step) % n in candidates:
                return (at - step) % n
        raise ValueError("no candidate seats")

    def between(self, start: int, seat: int, end: int, *, include_start: bool = False) -> bool:
        """True if ``seat`` lies clockwise strictly after ``start`` and before ``end``."""
        if include_start and seat == start:
            return True
        return _between(start, seat, end, self.count)


def _between(start: int, seat: int, end: int, count: int) -> bool:
    """True if ``seat`` lies clockwise strictly after ``start`` and before ``end``."""
    return 0 < (seat - start) % count < (end - start) % count


def passed_blind(button: int, small: int, big: int, seat: int, count: int) -> str | None:
    """TH-37: the blind a player not dealt in misses in ``seat`` (of ``count``) in a
    hand with the ``button``, the small blind position ``small`` and the big blind
    ``big``: ``"big"`` when the big blind passes it (it lies after the small blind
    and before the big blind), ``"small"`` likewise for the small blind, else ``None``.

    >>> passed_blind(0, 2, 4, 3, 6), passed_blind(0, 2, 4, 1, 6), passed_blind(0, 2, 4, 5, 6)
    ('big', 'small', None)
    """
    if _between(small, seat, big, count):
        return "big"
    if seat == small or _between(button, seat, small, count):
        return "small"
    return None
