"""What the :class:`~doubleholdem.server.tables.room.Room` hands its tournaments'
WebSocket messages to (:class:`TournamentRequests`): the room reads every message off
its connections, and a part above it (the HTTP app's
:class:`~doubleholdem.server.http.tournament_sockets.TournamentSockets`, which knows the
tournaments) answers those of docs/PROTOCOL.md, "Tournaments"."""

from __future__ import annotations

from typing import Protocol

from doubleholdem.server.protocol import Message
from doubleholdem.server.tables.connection import Connection

__all__ = ["TournamentRequests"]


class TournamentRequests(Protocol):
    """Answers a connection's tournament messages, and forgets a connection gone."""

    def handle(self, connection: Connection, message: Message) -> None: ...

    def drop(self, connection: Connection) -> None: ...
