"""The table's log: its own entries (seating, hand starts and ends, missed blinds, time
banks: the typed records of :mod:`doubleholdem.table.entries`) and every hand's events,
in table seats and numbered by hand, in one sequence. Both become dicts only when read
at an edge (:meth:`TableLog.entries`, :meth:`TableLog.written_out`).

A hand's events are not copied at every decision: the log notes each by its number in
the hand when it is read or a table entry follows, and writes it out as a table entry
only when read. Each hand event knows the occupancy it was dealt to, so what a viewer
may see is decided by :func:`doubleholdem.game.events.visible` for the very player
dealt in, never for whoever sits in the seat later under the same name."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any, NamedTuple, Union

from doubleholdem.game.events import Event, visible
from doubleholdem.game.hand import Hand
from doubleholdem.table.deal import entry_in_seats
from doubleholdem.table.entries import Entry

__all__ = ["StoredEvent", "TableLog"]

_new_tuple = tuple.__new__

# a hand as the log keeps it: the hand (its events as plain tuples once it is over: the
# garbage collector stops tracking those, not Event tuples), its number, the seats dealt
# in and their occupancies
Played = tuple[Union[Hand, tuple[tuple[Any, ...], ...]], int, list[int], list[int]]


class StoredEvent(NamedTuple):
    """A hand's event read back from a snapshot as the dict it was written out as (the
    events of hands before the last one the log holds): shown to nobody as its own."""

    fields: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return self.fields


class TableLog:
    """``items``: table entries (:data:`~doubleholdem.table.entries.Entry`), a hand
    event as its number in its hand (or a :class:`StoredEvent`);
    ``starts``: where each hand's events start in ``items``; ``hands``: each of those
    hands (:data:`Played`); ``synced``: the current hand's events noted so far."""

    __slots__ = ("hands", "items", "starts", "synced")

    def __init__(self) -> None:
        self.items: list[Entry | StoredEvent | int] = []
        self.starts: list[int] = []
        self.hands: list[Played] = []
        self.synced = 0

    def add(self, entry: Entry) -> None:
        """Appends the table's ``entry`` (after the hand events before it)."""
        self.sync()
        self.items.append(entry)

    def table_entries(self, since: int) -> list[Entry]:
        """The table's own entries from position ``since`` on, as records (the hands'
        events skipped, not written out)."""
        self.sync()
        return [item for item in self.items[since:] if not isinstance(item, (int, StoredEvent))]

    def begin(self, hand: Hand, number: int, seats: list[int], occupancies: list[int]) -> None:
        """Hand ``number`` starts: its events follow from here."""
        self.starts.append(len(self.items))
        self.hands.append((hand, number, seats, occupancies))
        self.synced = 0

    def end(self, hand: Hand) -> None:
        """The current hand is over: its events are kept as plain tuples."""
        self.sync()
        if self.hands and self.hands[-1][0] is hand:
            _, number, seats, occupancies = self.hands[-1]
            self.hands[-1] = (hand.records, number, seats, occupancies)

    def sync(self) -> None:
        """Notes the current hand's events the log does not have yet."""
        hands = self.hands
        hand = hands[-1][0] if hands else None  # a Hand while it is played
        if isinstance(hand, Hand):
            count = hand.event_count
            self.items.extend(range(self.synced, count))
            self.synced = count

    def __len__(self) -> int:
        self.sync()
        return len(self.items)

    def entries(self, since: int) -> list[dict[str, Any]]:
        """The log from entry ``since`` on (a slice start), hand events as dicts."""
        return [entry for entry, _ in self.owned(since)]

    def visible_to(
        self, since: int, occupancy: int | None, reveal_point: bool
    ) -> list[dict[str, Any]]:
        """:meth:`entries` as the player sitting down as ``occupancy`` may see them
        (``None``: a spectator, or an empty seat)."""
        return [
            visible(entry, owner is not None and owner == occupancy, reveal_point)
            for entry, owner in self.owned(since)
        ]

    def owned(
        self, since: int, until: int | None = None
    ) -> list[tuple[dict[str, Any], int | None]]:
        """:meth:`entries` (up to entry ``until``, if given), each with the occupancy a
        hand event's seat was dealt to (``None`` for the table's own entries): whose
        private cards it may carry."""
        self.sync()
        items, starts, hands = self.items, self.starts, self.hands
        entries: list[tuple[dict[str, Any], int | None]] = []
        events: dict[int, Sequence[Sequence[Any]]] = {}  # of each hand read, by its place
        for index in range(len(items))[since:until]:
            item = items[index]
            if not isinstance(item, int):
                entries.append((item.to_dict(), None))
                continue
            place = bisect.bisect_right(starts, index) - 1
            played, number, seats, occupancies = hands[place]
            if place not in events:
                events[place] = played if isinstance(played, tuple) else played.records
            event = _new_tuple(Event, events[place][item])
            owner = None if event.seat is None else occupancies[event.seat]
            entries.append((_table_entry(event, number, seats), owner))
        return entries

    def release(self, read: bool = True) -> list[dict[str, Any]]:
        """Returns every entry (none unless ``read``: not even turned into dicts) and
        forgets them, with the hands they came from."""
        entries = self.entries(0) if read else []
        self.items = []
        self.starts = []
        self.hands = []
        return entries

    def written_out(self) -> tuple[list[Any], int]:
        """For a snapshot: the items as dicts, but for the last hand's events, which
        stay numbers (its record is stored beside them), and where the last hand's
        events start (the end of the items if the log holds no hand)."""
        self.sync()
        items = self.items
        start = self.starts[-1] if self.hands else len(items)
        older = [entry for entry, _ in self.owned(0, start)]
        last = [item if isinstance(item, int) else item.to_dict() for item in items[start:]]
        return [*older, *last], start


def _table_entry(event: Event, number: int, seats: list[int]) -> dict[str, Any]:
    """The log entry of a hand's event, in table seats."""
    entry = entry_in_seats(event.to_dict(), seats)
    del entry["seq"]
    entry["hand_number"] = number
    return {"kind": entry.pop("kind"), **entry}
