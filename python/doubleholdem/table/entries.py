"""A table's own entries as typed records: what the table did besides the hands' events
(seating, chips brought and taken, hand starts and ends, missed blinds, time banks),
each a named record made once where it happens and read by field name above it (a
server pays a :class:`Leave` by its ``occupancy`` and ``amount``).

They become dicts only at the edges (the event log, the released history, the
snapshot's JSON) through ``to_dict``, which writes exactly the dict the table wrote
before its entries were records: the same keys in the same order. A record may hold
more than its dict shows (the ``occupancy`` of a :class:`Join`, :class:`TopUp` or
:class:`Leave`, a top-up's ``player``): stored data stays as it was.

>>> leave = Leave(seat=2, player="bob", amount=485, occupancy=1, at=50.5)
>>> leave.to_dict()
{'kind': 'leave', 'seat': 2, 'player': 'bob', 'amount': 485, 'at': 50.5}
>>> HandEnd(number=3, stacks={0: 995, 4: 838}, rake=1, at=69.0).to_dict()["stacks"]
{'0': 995, '4': 838}

An entry read back from a snapshot is the dict it was stored as (:class:`Stored`): the
snapshot does not hold what a record holds beyond its dict."""

from __future__ import annotations

from typing import Any, NamedTuple, Union

__all__ = [
    "ChipRace",
    "Entry",
    "HandEnd",
    "HandStart",
    "Join",
    "Leave",
    "Leaving",
    "MissedBlind",
    "SitIn",
    "SitOut",
    "Stored",
    "TimeBank",
    "TopUp",
]


class Join(NamedTuple):
    """``player`` sat down in ``seat`` with ``amount`` chips (its buy-in) as
    ``occupancy``, the table's number of this sitting-down."""

    seat: int
    player: str
    amount: int
    occupancy: int
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "join", "seat": self.seat, "player": self.player,
                "amount": self.amount, "at": self.at}  # fmt: skip


class TopUp(NamedTuple):
    """``player``, sat down in ``seat`` as ``occupancy``, brought ``amount`` more
    chips."""

    seat: int
    player: str
    amount: int
    occupancy: int
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "top_up", "seat": self.seat, "amount": self.amount, "at": self.at}


class Leave(NamedTuple):
    """``player``, sat down in ``seat`` as ``occupancy``, left with ``amount`` chips
    (whatever ended the seat: a leave, a removal, a leave after the hand)."""

    seat: int
    player: str
    amount: int
    occupancy: int
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "leave", "seat": self.seat, "player": self.player,
                "amount": self.amount, "at": self.at}  # fmt: skip


class Leaving(NamedTuple):
    """``seat`` leaves once the hand it plays ends."""

    seat: int
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "leaving", "seat": self.seat, "at": self.at}


class SitOut(NamedTuple):
    """``seat`` sat out: it is dealt no hand until it sits in (TH-37)."""

    seat: int
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "sit_out", "seat": self.seat, "at": self.at}


class SitIn(NamedTuple):
    """``seat`` sat in again, posting what it owes or (``wait``) waiting for the big
    blind (TH-37)."""

    seat: int
    wait: bool
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "sit_in", "seat": self.seat, "wait": self.wait, "at": self.at}


class ChipRace(NamedTuple):
    """``seat``'s chips changed by ``amount`` in a tournament's colour-up (TRN-10)."""

    seat: int
    amount: int
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "chip_race", "seat": self.seat, "amount": self.amount, "at": self.at}


class MissedBlind(NamedTuple):
    """``seat`` missed the ``"small"`` or ``"big"`` ``blind`` (TH-37)."""

    seat: int
    blind: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "missed_blind", "seat": self.seat, "blind": self.blind, "at": self.at}


class HandStart(NamedTuple):
    """Hand ``number`` was dealt to ``seats`` with the ``button`` and the blinds'
    positions (TH-35, TH-38)."""

    number: int
    button: int
    small_blind: int | None
    big_blind: int
    seats: list[int]
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "hand_start", "number": self.number, "button": self.button,
                "small_blind": self.small_blind, "big_blind": self.big_blind,
                "seats": self.seats, "at": self.at}  # fmt: skip


class HandEnd(NamedTuple):
    """Hand ``number`` ended: the ``stacks`` of the seats dealt in (seat -> chips; the
    dict keys the seats as text, as JSON does) and the ``rake`` the house took (TH-31)."""

    number: int
    stacks: dict[int, int]
    rake: int
    at: float

    def to_dict(self) -> dict[str, Any]:
        stacks = {str(seat): chips for seat, chips in self.stacks.items()}
        return {"kind": "hand_end", "number": self.number, "stacks": stacks,
                "rake": self.rake, "at": self.at}  # fmt: skip


class TimeBank(NamedTuple):
    """``seat``'s time bank started ``at`` and runs ``until`` (TH-40)."""

    seat: int
    at: float
    until: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "time_bank", "seat": self.seat, "at": self.at, "until": self.until}


class Stored(NamedTuple):
    """An entry read back from a snapshot: the dict it was stored as (``fields``),
    handed on as it is."""

    fields: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return self.fields


Entry = Union[
    Join, TopUp, Leave, Leaving, SitOut, SitIn, ChipRace, MissedBlind, HandStart, HandEnd,
    TimeBank, Stored,
]  # fmt: skip
"""One of a table's own entries."""
