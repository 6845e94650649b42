"""What the clients watching a table are sent (:class:`TableMessages`, the read side
of :class:`~doubleholdem.server.tables.runner.TableRunner`, a part it holds; what it
reads of the runner is :class:`Watched`): each receives what
:meth:`Table.view` allows its seat (spectators: seat ``None``) and the log entries new
to it, filtered for its seat by :meth:`Table.event_log`: a whole ``state`` when it starts
watching, then an ``update`` with only what changed in its view (:func:`protocol.diff`);
and the table's summary in the lobby."""

from __future__ import annotations

from collections import deque
from typing import Any, Protocol

from doubleholdem.server import protocol
from doubleholdem.server.protocol import encode
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.watchers import Watchers
from doubleholdem.table import Table
from doubleholdem.table.bots import Bot

__all__ = ["TableMessages", "Watched"]


class Watched(Protocol):
    """What the messages about a table read of its runner: the table's id, the table
    (replaced when a failed commit reloads it), the room's settings, the clients
    watching it, its bots by seat and its recent chat lines."""

    @property
    def id(self) -> int: ...

    @property
    def table(self) -> Table: ...

    @property
    def settings(self) -> RoomSettings: ...

    @property
    def connections(self) -> Watchers: ...

    @property
    def bots(self) -> dict[int, Bot]: ...

    @property
    def chat(self) -> deque[dict[str, Any]]: ...


class TableMessages:
    """The messages about the table ``watched``; ``unfunded``: the bot seats the room
    could not fill, seat -> why (the bots' bankrolls keep it)."""

    def __init__(self, watched: Watched, unfunded: dict[int, str]) -> None:
        self.watched = watched
        self.unfunded = unfunded

    def updates(self) -> list[tuple[Connection, str]]:
        """Each connection's :meth:`update_message` after a change. Spectators all see
        the same: their view is built once per change, and one text is shared by the
        spectators that hold the same view and log position (after one change, all of
        them), so a thousand watchers cost one view and one encoding, not a thousand."""
        messages: list[tuple[Connection, str]] = []
        shared: dict[tuple[int, int], str] = {}
        view: dict[str, Any] | None = None
        for connection in list(self.watched.connections):
            if connection.seat is not None:
                messages.append((connection, self.update_message(connection)))
                continue
            if view is None:
                view = self.watched.table.view(None, events=False)
            key = (connection.since, id(connection.view))
            text = shared.get(key)
            if text is None:
                text = shared[key] = self.update_message(connection, view)
            else:
                Watchers.sent(connection, self.watched.table.log_length, view)
            messages.append((connection, text))
        return messages

    def state_message(self, connection: Connection, view: dict[str, Any] | None = None) -> str:
        """The whole state for ``connection`` now: its seat's view (``view`` when it is
        built already) and the log entries new to it."""
        table = self.watched.table
        config = table.config
        view, log = self._news(connection, view)
        return encode(
            "state",
            table=self.watched.id,
            seat=connection.seat,
            now=table.now,
            clock=self.watched.settings.clock(),
            view=view,
            log=log,
            chat=list(self.watched.chat),
            times={
                "action": config.action_time,
                "bank": config.time_bank,
                "point": config.point_time,
            },
        )

    def update_message(self, connection: Connection, view: dict[str, Any] | None = None) -> str:
        """What changed for ``connection`` since its last message: the patch from the
        view it was sent last to its view now (``view`` when it is built already), and
        the log entries new to it (a whole state when it holds no view)."""
        before = connection.view
        if before is None:
            return self.state_message(connection, view)
        view, log = self._news(connection, view)
        return encode(
            "update",
            table=self.watched.id,
            seat=connection.seat,
            now=self.watched.table.now,
            clock=self.watched.settings.clock(),
            patch=protocol.diff(before, view),
            log=log,
        )

    def _news(
        self, connection: Connection, view: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The view of ``connection``'s seat now (``view`` when it is built already; it
        is never changed afterwards, so connections may share it) and the log entries
        new to it; both count as sent from here on."""
        table = self.watched.table
        seat = connection.seat
        log = table.event_log(seat, since=connection.since)
        if view is None:
            view = table.view(seat, events=False)
        Watchers.sent(connection, table.log_length, view)
        return view, log

    def summary(self) -> dict[str, Any]:
        """The table in ``GET /api/tables`` and the lobby."""
        table = self.watched.table
        config = table.config
        seats: list[dict[str, Any] | None] = []
        for seat, public in enumerate(table.seats()):
            if public is None:
                seats.append(None)
            else:
                seats.append(
                    {
                        "player": public["player"],
                        "stack": public["stack"],
                        "bot": seat in self.watched.bots,
                        "sitting_out": public["sitting_out"],
                    }
                )
        return {
            "id": self.watched.id,
            "variant": config.variant.value,
            "structure": config.structure.value,
            "blinds": [config.small_blind, config.big_blind],
            "buy_in": list(config.buy_in_range),
            "seats": seats,
            "hand_number": table.hand_number,
            "chips": table.chips(),
            "rake": table.rake,
            "bought_in": table.bought_in,
            "idle": self.idle(),
        }

    def idle(self) -> str | None:
        """Why no hand is played or about to start at the table (``None`` when one is):
        the seats taken and sitting out, and the bot seats the room could not fill."""
        table = self.watched.table
        if table.in_hand or table.can_start():
            return None
        seats = table.seats()
        taken = sum(p is not None for p in seats)
        out = sum(1 for p in seats if p is not None and p["sitting_out"])
        why = f"waiting for players: {taken} of {len(seats)} seats taken"
        if out:
            why += f", {out} sitting out"
        for seat, reason in sorted(self.unfunded.items()):
            if seats[seat] is None:
                why += f"; {reason}"
        return why
