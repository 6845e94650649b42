"""What the :class:`~doubleholdem.server.tables.room.Room` hands its tournaments'
WebSocket messages to (:class:`TournamentRequests`): the room reads every message off
its connections, and a part above it (the HTTP app's
:class:`~doubleholdem.server.http.tournament_sockets.TournamentSockets`, which knows the
tournaments) answers those of docs/PROTOCOL.md, "Tournaments", and says where an account
sits in a tournament (:class:`TournamentSeat`: its ``hands`` are read from there)."""

from __future__ import annotations

from typing import NamedTuple, Protocol

from doubleholdem.server.protocol import Message
from doubleholdem.server.tables.connection import Connection

__all__ = ["TournamentRequests", "TournamentSeat"]


class TournamentSeat(NamedTuple):
    """An account's seat in a tournament: the ``key`` its table's hands are stored under
    (:func:`~doubleholdem.server.storage.hands.tournament_key`), the ``table``'s number
    in the tournament, the ``seat``, its ``occupancy`` (the seating) and the ``player``."""

    key: int
    table: int
    seat: int
    occupancy: int
    player: str


class TournamentRequests(Protocol):
    """Answers a connection's tournament messages, and forgets a connection gone."""

    def handle(self, connection: Connection, message: Message) -> None: ...

    def drop(self, connection: Connection) -> None: ...

    def seat(self, account: str, tournament: int) -> TournamentSeat | None:
        """Where ``account``'s entry sits in tournament ``tournament`` (``None``: it
        holds no seat there); :class:`~doubleholdem.errors.TournamentError` when there
        is no such tournament."""
        ...
