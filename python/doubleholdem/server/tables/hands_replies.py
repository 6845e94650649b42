"""The ``hands`` request (:class:`HandsReplies`, a part the
:class:`~doubleholdem.server.tables.room.Room` holds): the last hands a client's seat
played, as that seat saw them, found through the hand index and read off the event
loop: its seat at a cash table, or, asked with a ``tournament``, its signed-in account's
seat at its table of that tournament
(:class:`~doubleholdem.server.tables.tournament_requests.TournamentSeat`). Either way it
is one seating's hands (the seat, its occupancy and its player), never another's, at
most ``MAX_HANDS``. It spends from the chat's bucket: reading hands costs the server."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, NamedTuple

from starlette.concurrency import run_in_threadpool

from doubleholdem.database.failure import database_errors
from doubleholdem.errors import TournamentError
from doubleholdem.server.protocol import Hands, encode
from doubleholdem.server.storage.commit import running_loop
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.connection import CHAT_BURST, CHAT_SECONDS, Connection
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.server.tables.tournament_requests import TournamentRequests
from doubleholdem.table.history import seat_hands
from doubleholdem.wording import told

__all__ = ["HandsReplies"]

_log = logging.getLogger("doubleholdem.server")
NO_SEAT = "hands: take a seat or resume with its token first"


class _Seating(NamedTuple):
    """Whose hands a reply holds: the table they are stored under (``key``), the seat,
    its occupancy and its player; ``named``: the reply's fields naming the table."""

    key: int
    seat: int
    occupancy: int
    player: str
    named: dict[str, Any]


class HandsReplies:
    """Answers ``hands`` requests from ``store`` for the seats of ``runners``' tables;
    the replies being read are :attr:`reading` (tasks the room cancels when it stops)."""

    def __init__(self, store: Storage, runners: dict[int, TableRunner]) -> None:
        self.store = store
        self.runners = runners
        self.reading: set[asyncio.Task[None]] = set()

    def ask(
        self, connection: Connection, asked: Hands, tournaments: TournamentRequests | None
    ) -> None:
        """The last hands ``connection``'s seat played (a reply of at most
        ``asked.last`` hands; with ``asked.tournament``, its account's seat in that
        tournament of ``tournaments``), or an error reply."""
        if asked.tournament is None:
            seating = self._cash_seat(connection)
        else:
            seating = self._tournament_seat(connection, asked.tournament, tournaments)
        if seating is None:
            return
        if not connection.chat_allowed():
            connection.error(
                "rate_limited",
                f"hands: at most {CHAT_BURST:.0f} requests at once, then one every "
                f"{CHAT_SECONDS:.0f} s (with the chat's messages)",
            )
            return
        reply = self._send(connection, seating, asked.last)
        if running_loop() is None or self.store.path == ":memory:":
            # a script or a test without an event loop, or an in-memory database (tests),
            # which has no connection of its own for another thread: read here
            reply.close()
            connection.send(self._read(seating, asked.last))
            return
        task = asyncio.create_task(reply)
        self.reading.add(task)
        task.add_done_callback(self.reading.discard)

    def _cash_seat(self, connection: Connection) -> _Seating | None:
        """The seating of ``connection``'s seat at a cash table (else an error reply)."""
        seat, table_id = connection.seat, connection.table
        if seat is None or table_id is None:
            connection.error("unauthorised", NO_SEAT)
            return None
        runner = self.runners[table_id]
        player, occupancy = runner.humans[seat][1], runner.table.occupancy(seat)
        if occupancy is None:  # a seat being freed
            connection.error("unauthorised", NO_SEAT)
            return None
        return _Seating(table_id, seat, occupancy, player, {"table": table_id})

    @staticmethod
    def _tournament_seat(
        connection: Connection, number: int, tournaments: TournamentRequests | None
    ) -> _Seating | None:
        """The seating of the signed-in account of ``connection`` in tournament
        ``number`` (else an error reply): its own entry's seat, whoever asks."""
        account = connection.account
        if tournaments is None:
            connection.error("no_tournament", "this room runs no tournaments")
            return None
        if account is None:
            connection.error("not_signed_in", "sign in first (POST /api/signin)")
            return None
        try:
            found = tournaments.seat(account, number)
        except TournamentError as error:
            connection.error("no_tournament", told(error))
            return None
        if found is None:
            connection.error("unauthorised", "hands: your account holds no seat in it now")
            return None
        named = {"tournament": number, "table": found.table}
        return _Seating(found.key, found.seat, found.occupancy, found.player, named)

    async def _send(self, connection: Connection, seating: _Seating, last: int) -> None:
        """Reads the hands in a worker thread (as the server runs its other blocking
        work) and sends them; a database that fails the read is an error reply."""
        try:
            text = await run_in_threadpool(self._read, seating, last)
        except database_errors():
            _log.warning("could not read the hands of %s", seating.named, exc_info=True)
            connection.error("unavailable", "hands: the database cannot be read now; try again")
            return
        connection.send(text)

    def _read(self, seating: _Seating, last: int) -> str:
        """The ``hands`` reply: the last ``last`` hands of ``seating`` (this seating's
        hands only)."""
        key, seat, occupancy, player = seating.key, seating.seat, seating.occupancy, seating.player
        logs = self.store.seat_hands(key, (occupancy, player, seat), last=last)[::-1]
        found = seat_hands(logs, seat=seat, player=player)
        return encode("hands", **seating.named, seat=seat, hands=[h.to_dict() for h in found])
