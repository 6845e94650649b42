"""The connections watching one table, and the seat each holds there (:class:`Watchers`):
the one owner of a connection's binding, its ``table``, ``seat`` and seat ``token``,
and of the position it was sent up to (``since``, ``view``). The room binds a client
when it watches, sits or resumes; the table's runner unseats the holders of a seat that
ends, and puts back the bindings a failed commit undid; its messages note what each
connection was sent. Nothing else writes these fields of a
:class:`~doubleholdem.server.tables.connection.Connection`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from doubleholdem.server.tables.connection import Connection

__all__ = ["Bindings", "Watchers"]

Bindings = dict[Connection, tuple[int, str]]  # a connection -> the seat and token it held


class Watchers:
    """The clients watching table :attr:`id` (iterated, counted and tested as a set)."""

    def __init__(self, table_id: int) -> None:
        self.id = table_id
        self._all: set[Connection] = set()

    def __iter__(self) -> Iterator[Connection]:
        return iter(self._all)

    def __len__(self) -> int:
        return len(self._all)

    def __contains__(self, connection: object) -> bool:
        return connection in self._all

    def watch(self, connection: Connection, seat: int | None, token: str | None) -> None:
        """``connection`` (watching no other table) watches this one: in ``seat``
        holding the seat token hashed ``token``, or as a spectator (``seat`` ``None``,
        no token); it is sent the whole state next."""
        connection.table = self.id
        connection.seat = seat
        connection.token = None if seat is None else token
        connection.since = 0
        self._all.add(connection)

    def drop(self, connection: Connection) -> None:
        """``connection`` stops watching this table (its seat, if any, stays its own
        until another connection resumes it)."""
        self._all.discard(connection)
        connection.table = None

    def let_go(self) -> list[Connection]:
        """Every connection watching the table, which this process serves no more: they
        hold no seat and watch no table here any more."""
        gone = list(self._all)
        for connection in gone:
            connection.seat = connection.token = None
            self.drop(connection)
        return gone

    def replace(self, token: str, keeper: Connection) -> list[Connection]:
        """The connections other than ``keeper`` holding the seat of ``token``, which
        another connection resumed: they hold no seat and watch no table any more."""
        older = [c for c in self._all if c is not keeper and c.token == token]
        for connection in older:
            connection.seat = connection.token = None
            self.drop(connection)
        return older

    def unseat(self, token: str) -> list[Connection]:
        """The connections holding the seat of ``token``, whose seat ended: they hold
        none from now on, and watch on as spectators."""
        told = [c for c in self._all if c.token == token]
        for connection in told:
            connection.seat = connection.token = None
        return told

    def held(self) -> Bindings:
        """The seat and token each seated connection holds now."""
        return {
            c: (c.seat, c.token) for c in self._all if c.seat is not None and c.token is not None
        }

    def reload(self, seated: set[str]) -> None:
        """After a failed commit: every connection is sent the whole state again, and
        one whose seat token is not among ``seated`` (the tokens as last committed)
        holds no seat."""
        for connection in self._all:
            self.start_over(connection)
            connection.view = None
            if connection.token is not None and connection.token not in seated:
                connection.seat = connection.token = None

    def put_back(self, kept: Bindings, tokens: dict[int, str]) -> None:
        """After a failed commit: the seats whose end was not committed go back to the
        connections of ``kept`` that held them (``tokens``: each seat's token as last
        committed), if still watching, holding no seat and not resumed by another."""
        held = {connection.token for connection in self._all}
        for connection, (seat, token) in kept.items():
            back = tokens.get(seat) == token and token not in held
            if back and connection in self._all and connection.seat is None:
                connection.seat, connection.token = seat, token
                held.add(token)

    @staticmethod
    def start_over(connection: Connection) -> None:
        """``connection`` is sent the table's log from its start again (a hand ended:
        the table's log starts over)."""
        connection.since = 0

    @staticmethod
    def sent(connection: Connection, since: int, view: dict[str, Any]) -> None:
        """``connection`` was sent the log up to ``since`` and ``view``."""
        connection.since = since
        connection.view = view
