"""Cancelling a room's tournament from the command line (``doubleholdem tournament
cancel``), on the room's database while no server serves it: a running server owns its
tournaments, so the room's lock (:func:`~doubleholdem.server.storage.lock.room_lock`)
refuses the command with :class:`~doubleholdem.server.storage.lock.DatabaseInUse`
naming the server's process; an operator then cancels through the server
(``POST /api/tournaments/{id}/cancel``, docs/room-tournaments.md). The rule is the
room's own (:meth:`TournamentRunner.cancel
<doubleholdem.server.tournaments.runner.TournamentRunner.cancel>`): before the start
every buy-in and fee goes back; after it, with no hand in play, the pool is paid out
at once by the settlement; with a hand in play the tournament is left *cancelling*, and
the room pays it out when that hand has ended, at its next start."""

from __future__ import annotations

import os
from typing import Any

from doubleholdem.database.connection import has_table
from doubleholdem.database.url import is_postgres
from doubleholdem.errors import TournamentError
from doubleholdem.server.cluster import leases
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.lock import DatabaseInUse
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tournaments.room import Tournaments
from doubleholdem.server.tournaments.stored import CANCELLED, OVER

__all__ = ["RoomServed", "cancel_stored"]


class RoomServed(TournamentError):
    """The room's database is served by a running server, which owns its tournaments:
    the command line changes none of them."""


def cancel_stored(target: str, tournament_id: int, key: bytes | None = None) -> dict[str, Any]:
    """Cancels tournament ``tournament_id`` (from 0) of the room at ``target`` (a SQLite
    file or a PostgreSQL URL; ``key`` its snapshot key) and says what happened: ``id``,
    ``name``, ``status`` (``cancelled``, or ``cancelling`` while a hand is in play),
    ``refunded`` (each sale given back: player, buy-in, fee, what) and ``paid`` (each
    entry paid: its number from 0, player, chips). Refused, changing nothing, with
    :class:`~doubleholdem.errors.TournamentError` (no such tournament, one over or being
    cancelled already) or
    :class:`RoomServed` (a server serves the room: its lock is held)."""
    if not is_postgres(target) and not os.path.isfile(target):
        raise TournamentError(f"{target}: no such room database")
    try:
        store = Storage(target)
    except DatabaseInUse as error:
        raise RoomServed(
            f"{error}: a running server owns its tournaments; cancel through it as an "
            f"operator (POST /api/tournaments/{tournament_id}/cancel), or stop it first"
        ) from None
    try:
        if not has_table(store.db, "tournaments"):
            raise TournamentError(f"{target} holds no tournaments (is it a room's database?)")
        with store.transaction():  # held alone: the leases a kill -9 left name nobody
            leases.vacate(store.db)
        commit = GroupCommit(store)
        tournaments = Tournaments(store, RoomSettings(snapshot_key=key), commit, ())
        tournaments.open()
        runner = tournaments.runner(tournament_id)
        stored = runner.stored
        if stored.status in OVER:
            raise TournamentError(f"tournament {tournament_id + 1} is over ({stored.status})")
        if stored.cancelling:
            raise TournamentError(
                f"tournament {tournament_id + 1} is being cancelled already: the room pays "
                "it out when the hands in play end"
            )
        refunded = [
            {"player": sale.player, "buy_in": sale.price, "fee": sale.fee, "what": sale.what}
            for sold in stored.open_sales.values()
            for sale in sold
        ]
        runner.cancel()
        commit.flush()
        if commit.refusing is not None:
            raise TournamentError(f"the cancellation was not stored: {commit.refusing}")
        stored, entries = runner.stored, runner.tournament.entries
        cancelled = stored.status == CANCELLED
        return {
            "id": tournament_id,
            "name": stored.spec.name,
            "status": "cancelled" if cancelled else "cancelling",
            "refunded": refunded if cancelled else [],
            "paid": [
                {"entry": entry, "player": entries[entry].player, "chips": chips}
                for entry, chips in sorted(stored.paid.items())
            ],
        }
    finally:
        store.close()
