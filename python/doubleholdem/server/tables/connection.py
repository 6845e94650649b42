"""One client of the room: its outgoing queue, the table and seat it is bound to, and
its rate limit (a token bucket). It knows nothing of the room: replies that must wait
for the commit go through the ``post`` callable it is handed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from doubleholdem.server.protocol import encode
from doubleholdem.wording import Wording, for_people

__all__ = ["BURST", "CHAT_BURST", "CHAT_SECONDS", "FLOOD_LIMIT", "MAX_QUEUE", "RATE", "Connection"]

MAX_QUEUE = 512  # messages waiting for a slow client before it is dropped
RATE = 20.0  # messages a second a client may send, on average
BURST = 40.0  # and at once
FLOOD_LIMIT = 200  # messages refused for rate in a row before the connection is closed
CHAT_SECONDS = 2.0  # a chat message every 2 seconds, on average
CHAT_BURST = 5.0  # and 5 at once


class Connection:
    """One client. ``post(connection, text)`` sends ``text`` after the next commit, in
    order with the other replies (:meth:`GroupCommit.post
    <doubleholdem.server.storage.commit.GroupCommit.post>`)."""

    def __init__(
        self,
        post: Callable[[Connection, str], None],
        *,
        account: str | None = None,
        address: str = "",
    ) -> None:
        self._post = post
        self.account = account  # the signed-in account's name (the handshake's session)
        self.address = address  # the client's address, as the server sees it
        self.session: str | None = None  # the hash of the session token it signed in with
        self.active = True  # its account was active when it connected (else frozen already)
        # who the person is, for what a seat owes when it leaves (TH-37): its account in
        # a room with accounts; a guest's first connection (:meth:`Room.connect`), whose
        # seat a later connection resuming it stands for
        self.identity = "" if account is None else f"account:{account.lower()}"
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: int | None = None  # the table it watches or sits at
        self.seat: int | None = None
        self.token: str | None = None  # the hash of its seat token
        self.since = 0  # the table log position it has been sent up to
        self.view: dict[str, Any] | None = None  # the view it was sent last
        self.closed = False
        self.number = 0  # the room's number for it (a spectator's name in the chat)
        self._bucket = BURST
        self._filled = time.monotonic()
        self._refused = 0
        self._warned = 0.0
        self._chat_bucket = CHAT_BURST
        self._chat_filled = self._filled
        self._caught_up: list[Callable[[], None]] = []  # see when_caught_up

    def send(self, text: str) -> None:
        """Queues ``text`` for the client; a client too slow to read is dropped."""
        if self.closed:
            return
        if self.outbox.qsize() >= MAX_QUEUE:
            self.close()
            return
        self.outbox.put_nowait(text)

    def when_caught_up(self, call: Callable[[], None]) -> None:
        """Calls ``call`` once the client has been handed every message queued for it
        now (:meth:`written`): a watcher that fell behind is sent what it missed then."""
        self._caught_up.append(call)

    def written(self) -> None:
        """The writer handed the client a message from :attr:`outbox`: when none waits
        any more, the calls of :meth:`when_caught_up` are made, once each."""
        if self._caught_up and self.outbox.empty():
            calls, self._caught_up = self._caught_up, []
            for call in calls:
                call()

    def close(self) -> None:
        """Ends the connection (the writer sends nothing more)."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)

    def allow(self) -> bool:
        """Spends one message from the bucket; False when the client floods."""
        now = time.monotonic()
        self._bucket = min(BURST, self._bucket + (now - self._filled) * RATE)
        self._filled = now
        if self._bucket >= 1.0:
            self._bucket -= 1.0
            self._refused = 0
            return True
        self._refused += 1
        if self._refused >= FLOOD_LIMIT:
            self.close()
        elif now - self._warned >= 1.0:  # one error reply a second, not one per message
            self._warned = now
            self.send(encode("error", code="rate_limited", message="too many messages"))
        return False

    def chat_allowed(self) -> bool:
        """Spends one chat message from the chat bucket (``CHAT_BURST`` at once, then
        one every ``CHAT_SECONDS``); False when the client chats faster."""
        now = time.monotonic()
        refill = (now - self._chat_filled) / CHAT_SECONDS
        self._chat_bucket = min(CHAT_BURST, self._chat_bucket + refill)
        self._chat_filled = now
        if self._chat_bucket >= 1.0:
            self._chat_bucket -= 1.0
            return True
        return False

    def error(
        self, code: str, message: str, ident: str | None = None, *, reason: str | None = None
    ) -> None:
        """Replies with an error (the request changed nothing), in order after the
        replies posted before it. A ``message`` that is a :class:`Wording` is said for
        people (seats and tables from 1) and its numbers go in fields of their own, from
        0 as every field of the protocol (``seat``, ``table``, ``turn``...); ``reason``:
        what the seat was refused, without its seat (a refused decision's)."""
        fields: dict[str, Any] = {"code": code, "message": for_people(message)}
        if isinstance(message, Wording):
            fields.update(message.fields())
        if reason is not None:
            fields["reason"] = for_people(reason)
        if ident is not None:
            fields["id"] = ident
        self._post(self, encode("error", **fields))
