"""Each seat's showdown preferences (RULES.md TH-22): muck a hand that cannot win
(default on) and show a hand nobody contested (default off). The seat keeps them
(:class:`~doubleholdem.table.seats.Seat`), every hand dealt to it carries them in its
:class:`~doubleholdem.game.GameConfig`, and a change holds in the hand being played too.

While every seat keeps the defaults (the usual table) a hand's config carries none:
:attr:`Preferences.defaults` is checked again only when a seat's preferences change.

>>> from doubleholdem.table.seats import Seating
>>> seating = Seating(6, (200, 1000))
>>> ann, bob = (seating.sit_down(s, name, 500, post=True) for s, name in ((0, "ann"), (1, "bob")))
>>> preferences = Preferences(seating)
>>> preferences.of_hand([ann, bob])
((), ())
>>> preferences.set(1, muck_losing=False, show_uncontested=None)
>>> preferences.of_hand([ann, bob]), preferences.of_seat(1)
(((True, False), ()), {'muck_losing': False, 'show_uncontested': False})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from doubleholdem.errors import TableError
from doubleholdem.game.hand import Hand
from doubleholdem.table.seats import Seat, Seating
from doubleholdem.wording import Wording, seat_said

__all__ = ["Preferences", "prefer"]

MUCK_LOSING = True  # the defaults (TH-22)
SHOW_UNCONTESTED = False


class Preferences:
    """The showdown preferences of the seats of ``seating``; ``defaults``: no seat has
    changed its own (kept true only when sure)."""

    __slots__ = ("defaults", "seating")

    def __init__(self, seating: Seating) -> None:
        self.seating = seating
        self.defaults = self._all_defaults()

    def _all_defaults(self) -> bool:
        return all(
            s is None or (s.muck_losing is MUCK_LOSING and s.show_uncontested is SHOW_UNCONTESTED)
            for s in self.seating.seats
        )

    def set(self, seat: int, *, muck_losing: bool | None, show_uncontested: bool | None) -> None:
        """``seat``'s preferences (``None``: unchanged), true or false; a refusal
        changes nothing."""
        occupant = self.seating.occupant(seat)
        for name, value in (("muck_losing", muck_losing), ("show_uncontested", show_uncontested)):
            if value is not None and not isinstance(value, bool):
                raise TableError(
                    Wording(seat_said(seat), f": {name} is true or false, not {value!r}"), seat=seat
                )
        if muck_losing is not None:
            occupant.muck_losing = muck_losing
        if show_uncontested is not None:
            occupant.show_uncontested = show_uncontested
        self.defaults = self._all_defaults()

    def of_seat(self, seat: int | None) -> dict[str, bool] | None:
        """The preferences of the player in ``seat``, for its own view (none for a
        spectator or an empty seat)."""
        occupant = None if seat is None else self.seating.seats[seat]
        return None if occupant is None else occupant.preferences()

    def of_hand(self, occupants: Sequence[Seat]) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
        """The ``muck_losing`` and ``show_uncontested`` of a hand dealt to
        ``occupants`` (in hand order), as its config takes them: empty when all are the
        defaults."""
        if self.defaults:
            return (), ()
        return (
            _or_empty([o.muck_losing for o in occupants], MUCK_LOSING),
            _or_empty([o.show_uncontested for o in occupants], SHOW_UNCONTESTED),
        )


def prefer(hand: Hand, index: int, muck_losing: bool, show_uncontested: bool) -> None:
    """Hand index ``index``'s preferences change while ``hand`` is played: its config
    says so from now on (the showdown reads them at the end; a snapshot keeps them)."""
    config = hand.config
    n = config.players
    mucks = list(config.muck_losing or (MUCK_LOSING,) * n)
    shows = list(config.show_uncontested or (SHOW_UNCONTESTED,) * n)
    mucks[index], shows[index] = muck_losing, show_uncontested
    hand.config = replace(
        config,
        muck_losing=_or_empty(mucks, MUCK_LOSING),
        show_uncontested=_or_empty(shows, SHOW_UNCONTESTED),
    )


def _or_empty(flags: list[bool], default: bool) -> tuple[bool, ...]:
    """``flags`` as a config's per-seat preferences: empty when all are the ``default``."""
    return () if (not default) not in flags else tuple(flags)
