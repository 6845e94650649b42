"""Where a connection's tournament messages go (:class:`TournamentPlace`): to the
tournaments run here (:class:`~doubleholdem.server.http.tournament_sockets.TournamentSockets`)
or, while another process of the room runs them
(:mod:`~doubleholdem.server.tournaments.host`), answered ``elsewhere`` with that
process's address (docs/PROTOCOL.md, "Tournaments": ``address`` ``null`` while none
does, as for a table). When this process stops running them (another took them over),
each connection that spoke to them here is told ``elsewhere`` and closed: it connects
again, and is sent where they run now."""

from __future__ import annotations

from doubleholdem.errors import TournamentError
from doubleholdem.server import protocol
from doubleholdem.server.http.tournament_sockets import TournamentSockets
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.tournament_requests import TournamentSeat
from doubleholdem.server.tournaments.host import TournamentsHost
from doubleholdem.server.tournaments.room import Tournaments

__all__ = ["TournamentPlace"]


class TournamentPlace:
    """The room's tournament messages, for ``host``'s tournaments (see the module)."""

    def __init__(self, host: TournamentsHost, process: str) -> None:
        self.host = host
        self.process = process  # this process's id in the room
        self.sockets: TournamentSockets | None = None
        self._spoke: set[Connection] = set()  # sent a tournament message while run here
        host.listeners.append(self._moved)
        if host.run is not None:
            self._moved(host.run)

    def handle(self, connection: Connection, message: protocol.Message) -> None:
        """One tournament message of ``connection``."""
        if self.sockets is None:
            self.host.commit.answer(connection, self.elsewhere())
            return
        self._spoke.add(connection)
        self.sockets.handle(connection, message)

    def drop(self, connection: Connection) -> None:
        """``connection`` has gone."""
        self._spoke.discard(connection)
        if self.sockets is not None:
            self.sockets.drop(connection)

    def seat(self, account: str, tournament: int) -> TournamentSeat | None:
        """Where ``account``'s entry sits in ``tournament``
        (:meth:`TournamentSockets.seat`); :class:`TournamentError` while another
        process runs the tournaments (ask it)."""
        if self.sockets is None:
            owner = self.host.owner
            where = "" if owner is None else f" ({owner.address})"
            raise TournamentError(f"another process of the room runs the tournaments{where}")
        return self.sockets.seat(account, tournament)

    def elsewhere(self) -> str:
        """The ``elsewhere`` reply: the process that runs the tournaments, as last read
        (``null`` while none does, or this one is taking them over)."""
        owner = self.host.owner
        if owner is not None and owner.process == self.process:
            owner = None
        return protocol.encode(
            "elsewhere",
            tournaments=True,
            process=None if owner is None else owner.process,
            address=None if owner is None else owner.address,
        )

    def _moved(self, run: Tournaments | None) -> None:
        """The tournaments run here from now on (``run``), or elsewhere (``None``)."""
        if run is not None:
            self.sockets = TournamentSockets(run)
            return
        self.sockets = None
        spoke, self._spoke = self._spoke, set()
        for connection in spoke:
            connection.send(self.elsewhere())
            connection.close()
