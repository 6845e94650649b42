"""Seating and its chips (RULES.md TH-36, TH-37): who sits where, with how many chips,
what each seat owes to come in, and the chips brought to and taken from the table.

Each time someone sits down the seat gets a new *occupancy*, a number never given
before at this table: who may see a hand's private cards is decided by the occupancy
that was dealt in, never by a player's name (names are public and may be reused).

>>> seating = Seating(6, (200, 1000))
>>> ann = seating.sit_down(2, "ann", 500, post=True)
>>> bob = seating.sit_down(4, "bob", 500, post=True)
>>> ann.occupancy, bob.occupancy
(0, 1)
>>> seating.remove(2, now=10.0).stack, seating.sit_down(2, "ann", 300, post=True).occupancy
(500, 2)
>>> seating.able(), seating.brought, seating.taken
([2, 4], 1300, 500)

A player who leaves is remembered with the blinds it missed (:class:`Departure`), and
those passing its empty seat are added; sitting down again at the table, it owes them
(TH-37): leaving cannot dodge the blinds.

>>> bob = seating.remove(4, now=20.0)
>>> seating.departed["bob"].missed_big = True  # the big blind passed seat 4 meanwhile
>>> again = seating.sit_down(5, "bob", 500, post=True)
>>> again.new, again.missed_big, "bob" in seating.departed
(False, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from doubleholdem.errors import BuyInOutOfRange, NoSuchSeat, SeatEmpty, SeatTaken, TableError
from doubleholdem.table.blinds import Debts, passed_blind
from doubleholdem.table.config import is_int
from doubleholdem.wording import Wording, not_a_seat, seat_said

__all__ = ["Departure", "Seat", "Seating"]


@dataclass
class Seat:
    """One occupied seat. ``occupancy``: this sitting-down's number (new each time);
    ``new``: has not been dealt a hand since joining (TH-36); ``missed_small`` and
    ``missed_big``: blinds that passed while it sat out (TH-37); ``post``: pays what it
    owes to play at once instead of waiting for the big blind; ``leaving``: goes after
    the hand it is playing; ``away``: its player has no connection (no time bank);
    ``timeouts``: decisions it missed in a row; ``sat_out_at``: when it sat out;
    ``busted_at``: when a hand left it without chips; ``muck_losing`` and
    ``show_uncontested``: its showdown preferences (TH-22, see
    :class:`~doubleholdem.game.GameConfig`)."""

    player: str
    stack: int
    bought_in: int
    occupancy: int
    sitting_out: bool = False
    new: bool = True
    missed_small: bool = False
    missed_big: bool = False
    post: bool = True
    leaving: bool = False
    away: bool = False
    timeouts: int = 0
    sat_out_at: float | None = None
    busted_at: float | None = None
    muck_losing: bool = True
    show_uncontested: bool = False

    @property
    def owes(self) -> bool:
        return self.new or self.missed_small or self.missed_big

    def preferences(self) -> dict[str, bool]:
        """The seat's showdown preferences, for its own player's view."""
        return {"muck_losing": self.muck_losing, "show_uncontested": self.show_uncontested}

    def public(self, stack: int) -> dict[str, Any]:
        """What everyone may see of the seat, with ``stack`` its chips now."""
        return {
            "player": self.player,
            "stack": stack,
            "sitting_out": self.sitting_out,
            "new": self.new,
            "missed_small": self.missed_small,
            "missed_big": self.missed_big,
            "waiting_for_big_blind": self.owes and not self.post,
            "leaving": self.leaving,
            "away": self.away,
        }


@dataclass
class Departure:
    """A player who left ``seat`` at ``left_at``, and the blinds it missed there, before
    it left or passing its empty seat since (TH-37)."""

    seat: int
    left_at: float
    missed_small: bool = False
    missed_big: bool = False

    @property
    def owes(self) -> bool:
        return self.missed_small or self.missed_big


class Seating:
    """The seats of a table (``count`` of them) and the chips that came and went:
    ``brought`` (buy-ins and top-ups) and ``taken`` (by players who left), and the
    ``departed`` players by name (until :meth:`forget_departures`). Refusals are
    :class:`~doubleholdem.errors.TableError` subclasses naming the seat; a refused call
    changes nothing."""

    __slots__ = ("brought", "buy_in_range", "departed", "next_occupancy", "seats", "taken")

    def __init__(self, count: int, buy_in_range: tuple[int, int]) -> None:
        self.seats: list[Seat | None] = [None] * count
        self.buy_in_range = buy_in_range
        self.next_occupancy = 0
        self.brought = 0
        self.taken = 0
        self.departed: dict[str, Departure] = {}

    def check_number(self, seat: object) -> None:
        """Refuses anything but a seat number of this table."""
        count = len(self.seats)
        if type(seat) is int and 0 <= seat < count:
            return
        if not is_int(seat) or not 0 <= seat < count:  # type: ignore[operator]
            raise NoSuchSeat(
                not_a_seat(seat, count),
                seat=seat if is_int(seat) else None,  # type: ignore[arg-type]
                seats=count,
            )

    def occupant(self, seat: int) -> Seat:
        """The occupant of ``seat``; refused if it is not a seat or empty."""
        seats = self.seats
        if type(seat) is not int or not 0 <= seat < len(seats):
            self.check_number(seat)
        occupant = seats[seat]
        if occupant is None:
            raise SeatEmpty(Wording(seat_said(seat), " is empty"), seat=seat)
        return occupant

    def at(self, seat: int) -> Seat:
        """The occupant of ``seat``, known to be there."""
        occupant = self.seats[seat]
        assert occupant is not None
        return occupant

    def seat_of(self, player: str) -> int | None:
        """The seat of ``player``, or ``None``."""
        for number, seat in enumerate(self.seats):
            if seat is not None and seat.player == player:
                return number
        return None

    def occupancy(self, seat: int | None) -> int | None:
        """The occupancy of whoever sits in ``seat`` now (``None``: empty, or no seat)."""
        occupant = None if seat is None else self.seats[seat]
        return None if occupant is None else occupant.occupancy

    def sit_down(
        self, seat: int, player: str, buy_in: int, *, post: bool, stranger: bool = False
    ) -> Seat:
        """Seats ``player`` with ``buy_in`` chips (TH-36: in the table's range) under a
        new occupancy. A player who left owing blinds owes them again (TH-37) instead of
        the new player's big blind, unless ``stranger`` (another person took the name:
        the one who left is forgotten)."""
        self.check_number(seat)
        occupant = self.seats[seat]
        if occupant is not None:
            raise SeatTaken(Wording(seat_said(seat), f" is taken by {occupant.player}"), seat=seat)
        if not isinstance(player, str) or not player:
            raise TableError(
                Wording(seat_said(seat), f": a player needs a name, not {player!r}"), seat=seat
            )
        taken = self.seat_of(player)
        if taken is not None:
            raise SeatTaken(
                Wording(f"{player} already sits in ", seat_said(taken, "taken")), seat=seat
            )
        low, high = self.buy_in_range
        _check_amount(seat, buy_in, low, high, "buy-in")
        occupant = Seat(player, buy_in, buy_in, self.next_occupancy, post=post)
        departure = self.departed.pop(player, None)
        if departure is not None and departure.owes and not stranger:
            occupant.new = False
            occupant.missed_small = departure.missed_small
            occupant.missed_big = departure.missed_big
        self.next_occupancy += 1
        self.seats[seat] = occupant
        self.brought += buy_in
        return occupant

    def top_up(self, seat: int, amount: int) -> None:
        """Adds ``amount`` chips to ``seat``, up to the maximum buy-in."""
        occupant = self.at(seat)
        high = self.buy_in_range[1] - occupant.stack
        if high < 1:
            raise BuyInOutOfRange(
                Wording(
                    seat_said(seat), f" cannot top up: its {occupant.stack} chips are the maximum"
                ),
                seat=seat,
                amount=amount,
                low=0,
                high=0,
            )
        _check_amount(seat, amount, 1, high, "top-up")
        occupant.stack += amount
        occupant.bought_in += amount
        occupant.busted_at = None
        self.brought += amount

    def adjust(self, seat: int, amount: int) -> None:
        """Adds ``amount`` chips to ``seat`` (fewer when negative), leaving it at least
        one: a tournament's chip race (TRN-10)."""
        occupant = self.at(seat)
        low = 1 - occupant.stack
        if not is_int(amount) or amount < low:
            raise BuyInOutOfRange(
                Wording(
                    seat_said(seat), f" cannot change its {occupant.stack} chips by {amount!r}"
                ),
                seat=seat,
                amount=amount,
                low=low,
                high=self.buy_in_range[1] - occupant.stack,
            )
        occupant.stack += amount
        occupant.bought_in += amount
        if amount > 0:
            self.brought += amount
        else:
            self.taken -= amount

    def remove(self, seat: int, *, now: float) -> Seat:
        """Empties ``seat`` at time ``now``; its occupant takes their chips (returned with
        them) and is remembered with the blinds it owes."""
        occupant = self.at(seat)
        self.seats[seat] = None
        self.taken += occupant.stack
        self.departed[occupant.player] = Departure(
            seat, now, occupant.missed_small, occupant.missed_big
        )
        return occupant

    def forget_departures(self, before: float) -> None:
        """Forgets the players who left before time ``before``."""
        for player, departure in list(self.departed.items()):
            if departure.left_at < before:
                del self.departed[player]

    def able(self, *, absent_dealt_in: bool = False) -> list[int]:
        """The seats able to play the next hand: sitting in (or sitting out too, with
        ``absent_dealt_in``: TRN-21), with chips, not leaving."""
        return [
            number
            for number, seat in enumerate(self.seats)
            if seat is not None
            and (absent_dealt_in or not seat.sitting_out)
            and seat.stack > 0
            and not seat.leaving
        ]

    def debts(self) -> list[Debts | None]:
        """What each seat owes and who sits there, for the plan of the blinds."""
        return [
            None if s is None else Debts(s.occupancy, s.new, s.missed_small, s.missed_big, s.post)
            for s in self.seats
        ]

    def settle_debts(self, dealt: Sequence[int]) -> None:
        """The seats ``dealt`` into a hand owe nothing any more: they posted, or were
        dealt in as a blind (TH-36, TH-37)."""
        seats = self.seats
        for seat in dealt:
            occupant = seats[seat]
            assert occupant is not None
            occupant.new = occupant.missed_small = occupant.missed_big = False

    def passed_departed(self, button: int, small: int, big: int) -> None:
        """TH-37: the blinds of a hand with the ``button``, the ``small`` blind position
        and the ``big`` blind pass the seats of departed players: they owe them."""
        for departure in self.departed.values():
            passed = passed_blind(button, small, big, departure.seat, len(self.seats))
            if passed == "big":
                departure.missed_big = True
            elif passed == "small":
                departure.missed_small = True

    def miss(self, seat: int, blind: str) -> None:
        """``seat`` missed the ``"big"`` or ``"small"`` blind (TH-37)."""
        occupant = self.at(seat)
        if blind == "big":
            occupant.missed_big = True
        else:
            occupant.missed_small = True

    def chips(self) -> int:
        """The chips in front of the seats (before the hand being played)."""
        return sum(seat.stack for seat in self.seats if seat is not None)


def _check_amount(seat: int, amount: object, low: int, high: int, what: str) -> None:
    if not is_int(amount) or not low <= amount <= high:  # type: ignore[operator]
        raise BuyInOutOfRange(
            Wording(seat_said(seat), f": a {what} of {amount!r} is outside {low}..{high}"),
            seat=seat,
            amount=amount,
            low=low,
            high=high,
        )
