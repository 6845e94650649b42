"""The ``hands`` request (:class:`HandsReplies`, a part the
:class:`~doubleholdem.server.tables.room.Room` holds): the last hands a client's seat
played, as that seat saw them, found through the hand index and read off the event
loop. It spends from the chat's bucket: reading hands costs the server."""

from __future__ import annotations

import asyncio
import logging

from starlette.concurrency import run_in_threadpool

from doubleholdem.database.failure import database_errors
from doubleholdem.server.protocol import encode
from doubleholdem.server.storage.commit import running_loop
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.connection import CHAT_BURST, CHAT_SECONDS, Connection
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.table.history import seat_hands

__all__ = ["HandsReplies"]

_log = logging.getLogger("doubleholdem.server")


class HandsReplies:
    """Answers ``hands`` requests from ``store`` for the seats of ``runners``' tables;
    the replies being read are :attr:`reading` (tasks the room cancels when it stops)."""

    def __init__(self, store: Storage, runners: dict[int, TableRunner]) -> None:
        self.store = store
        self.runners = runners
        self.reading: set[asyncio.Task[None]] = set()

    def ask(self, connection: Connection, last: int) -> None:
        """The last hands ``connection``'s seat played (a reply of at most ``last``
        hands), or an error reply."""
        seat, table_id = connection.seat, connection.table
        if seat is None or table_id is None:
            connection.error("unauthorised", "hands: take a seat or resume with its token first")
            return
        if not connection.chat_allowed():
            connection.error(
                "rate_limited",
                f"hands: at most {CHAT_BURST:.0f} requests at once, then one every "
                f"{CHAT_SECONDS:.0f} s (with the chat's messages)",
            )
            return
        runner = self.runners[table_id]
        player, occupancy = runner.humans[seat][1], runner.table.occupancy(seat)
        if occupancy is None:  # a seat being freed
            connection.error("unauthorised", "hands: take a seat or resume with its token first")
            return
        reply = self._send(connection, table_id, (seat, occupancy), player, last)
        if running_loop() is None or self.store.path == ":memory:":
            # a script or a test without an event loop, or an in-memory database (tests),
            # which has no connection of its own for another thread: read here
            reply.close()
            connection.send(self._read(table_id, (seat, occupancy), player, last))
            return
        task = asyncio.create_task(reply)
        self.reading.add(task)
        task.add_done_callback(self.reading.discard)

    async def _send(
        self,
        connection: Connection,
        table_id: int,
        seat: tuple[int, int],
        player: str,
        last: int,
    ) -> None:
        """Reads the hands in a worker thread (as the server runs its other blocking
        work) and sends them; a database that fails the read is an error reply."""
        try:
            text = await run_in_threadpool(self._read, table_id, seat, player, last)
        except database_errors():
            _log.warning("could not read the hands of table %d", table_id + 1, exc_info=True)
            connection.error("unavailable", "hands: the database cannot be read now; try again")
            return
        connection.send(text)

    def _read(self, table_id: int, seat: tuple[int, int], player: str, last: int) -> str:
        """The ``hands`` reply: the last ``last`` hands ``player`` played in ``seat``
        (the seat and its occupancy: this seating's hands only)."""
        logs = self.store.seat_hands(table_id, (seat[1], player, seat[0]), last=last)[::-1]
        found = seat_hands(logs, seat=seat[0], player=player)
        return encode("hands", table=table_id, seat=seat[0], hands=[h.to_dict() for h in found])
