"""Where each table of the room is served (issue 33: any process answers any client).

A room may be served by many processes on one PostgreSQL database, each table by one of
them at a time. A process knows its own tables (its runners); the :class:`Directory`
knows the others: for each table served elsewhere the :class:`Place` that serves it
(the process's id and the address clients reach it at) and its lobby summary, as last
read from the database by a :class:`~doubleholdem.server.tables.directory_reader.DirectoryReader`
(off the event loop), which hands what it read to :meth:`Directory.replace` on the
loop. A room of one process (SQLite, or PostgreSQL served by one ``serve``) has no
table elsewhere: its directory stays empty and every table is here.

>>> here = Place("p1", "http://127.0.0.1:8001")
>>> directory = Directory(here)
>>> directory.where(3) is None  # nothing elsewhere: every table is here
True
>>> directory.replace({3: (Place("p2", "http://127.0.0.1:8002"), {"id": 3})})
>>> directory.where(3)
Place(process='p2', address='http://127.0.0.1:8002')
>>> entries, after = directory.page(0, 10, [0], lambda table_id: {"id": table_id})
>>> for entry in entries:
...     print(entry)
{'id': 0, 'process': 'p1', 'address': 'http://127.0.0.1:8001'}
{'id': 3, 'process': 'p2', 'address': 'http://127.0.0.1:8002'}
>>> after is None
True
>>> sorted(directory.origins())
['http://127.0.0.1:8002']
"""

from __future__ import annotations

import bisect
import urllib.parse
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

__all__ = ["NOWHERE", "Directory", "Place", "origin_of"]


class Place(NamedTuple):
    """A process of the room: its ``process`` id and the ``address`` (a URL, ``http``
    or ``https``, with a path prefix where a reverse proxy routes by path) where clients
    reach it; ``""`` where unknown."""

    process: str
    address: str


NOWHERE = Place("", "")
"""The place of a table no live process serves (its owner died and no other process
took it over yet): the lobby says ``null`` for both."""


def origin_of(address: str) -> str | None:
    """The origin (``scheme://host[:port]``, lower case, default port left out) of an
    ``http`` or ``https`` ``address``; ``None`` if it is not one.

    >>> origin_of("HTTPS://Room.Example:443/p2/")
    'https://room.example'
    >>> origin_of("http://127.0.0.1:8002") , origin_of("ftp://x")
    ('http://127.0.0.1:8002', None)
    """
    try:
        parts = urllib.parse.urlsplit(address.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in ("http", "https") or not host:
        return None
    default = 80 if scheme == "http" else 443
    shown = host if ":" not in host else f"[{host}]"
    return f"{scheme}://{shown}" + ("" if port in (None, default) else f":{port}")


class Directory:
    """The tables of the room served by other processes than this one (``here``)."""

    def __init__(self, here: Place) -> None:
        self.here = here
        self._elsewhere: dict[int, tuple[Place, dict[str, Any]]] = {}
        self._ids: list[int] = []  # the keys of ``_elsewhere``, in order
        self._origins: frozenset[str] = frozenset()
        # its reader started and has not read the room yet (a process just started):
        # where the tables not served here are is not known for the moment
        self.unread = False

    def where(self, table_id: int) -> Place | None:
        """The place that serves table ``table_id``, not served here, as the database
        said (:data:`NOWHERE` while no live process serves it, any table while
        :attr:`unread`, and one whose lease this process holds: see :meth:`_shown`),
        else ``None``: the room has no such table, or it has no leases (one process,
        which serves every table)."""
        found = self._elsewhere.get(table_id)
        if found is None:
            return NOWHERE if self.unread else None
        return self._shown(found[0])

    def _shown(self, place: Place) -> Place:
        """Where a table not served here is said to be: ``place``, or :data:`NOWHERE`
        where ``place`` is here (its lease is this process's as last read, but no table
        of it runs here: one taken over and not yet restored, or one handed over whose
        lease is not yet released or read as another's). Every process of a room lists
        a table as served by one process at most: never by two at a hand-over."""
        return NOWHERE if place.process == self.here.process else place

    def replace(
        self,
        elsewhere: Mapping[int, tuple[Place, dict[str, Any]]],
        processes: Iterable[Place] = (),
    ) -> None:
        """Takes what the database says now of the tables served elsewhere (their
        places and summaries) and of the room's ``processes`` (called on the event loop
        with what was read off it); the origins of processes once known stay."""
        self._elsewhere = dict(elsewhere)
        self.unread = False
        self._ids = sorted(self._elsewhere)
        places = [*processes, *(place for place, _ in self._elsewhere.values())]
        self._origins |= frozenset(  # once the room's, always: a page of a process
            origin  # that died follows its table here
            for place in places
            if place.process != self.here.process and (origin := origin_of(place.address))
        )

    def origins(self) -> frozenset[str]:
        """The origins of the other processes' addresses (those the room knows now or
        knew: a process that died included): a page one of them served may open a
        WebSocket here (:func:`~doubleholdem.server.http.gate.same_origin`)."""
        return self._origins

    def page(
        self,
        first: int,
        count: int,
        here: Sequence[int],
        summary: Callable[[int], dict[str, Any]],
    ) -> tuple[list[dict[str, Any]], int | None]:
        """At most ``count`` summaries of the room's tables from id ``first`` on, those
        served here (``here``: their ids in order, each one's live ``summary(id)``) and
        elsewhere (as last read), each with the ``process`` and ``address`` serving it;
        and the id the next page starts from (``None``: none). Bounded by ``count``
        whatever the room's size."""
        start = bisect.bisect_left(here, first)
        local = here[start : start + count + 1]
        start = bisect.bisect_left(self._ids, first)
        remote = self._ids[start : start + count + 1]
        ids = sorted({*local, *remote})
        mine = set(local)
        entries = []
        for table_id in ids[:count]:
            if table_id in mine:
                entry, place = summary(table_id), self.here
            else:
                place, entry = self._elsewhere[table_id]
                place = self._shown(place)
            entries.append({**entry, **_place_fields(place)})
        return entries, (ids[count] if len(ids) > count else None)


def _place_fields(place: Place) -> dict[str, str | None]:
    """A lobby entry's ``process`` and ``address`` (``null`` where unknown)."""
    return {"process": place.process or None, "address": place.address or None}
