"""The group commit: what the changes of every table made in one turn of the event loop
store is committed in one transaction, and only then are their replies and states sent.

The parts that change hand it callbacks: the *steps* of a change (functions of the
:class:`~doubleholdem.server.storage.Storage`), an *undo* that takes their table back to
its last committed state if the commit fails, and the messages to *post* after the
commit (to anything with a ``send(text)``). It holds no table and no connection."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

from doubleholdem.server.storage import Storage

__all__ = ["FLUSH_RETRY", "LOCK_PATIENCE", "GroupCommit", "Recipient", "Step", "running_loop"]

_log = logging.getLogger("doubleholdem.server")
FLUSH_RETRY = 0.001  # seconds before a commit tries again for the database's write lock
LOCK_PATIENCE = 5.0  # seconds of such tries before a commit waits for the lock (and may fail)

Step = Callable[[Storage], None]


class Recipient(Protocol):
    """Whatever a message is posted to (a connection)."""

    def send(self, text: str) -> None: ...


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop, or ``None`` (a script or a test without one)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # no event loop
        return None


class GroupCommit:
    """Commits to ``store`` what the changes of one turn of the event loop store."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._steps: list[Step] = []
        self._sends: list[tuple[Recipient, str]] = []
        self._undo: set[Callable[[], None]] = set()
        self.applying: set[tuple[str, str]] = set()  # (token hash, action id) not committed
        self._flush: asyncio.Handle | None = None
        self.stopping = False  # the last commit waits for the database
        self._locked_since: float | None = None  # when a commit first found the lock held

    def later(self, steps: list[Step], undo: Callable[[], None]) -> None:
        """Stores ``steps`` at the next :meth:`flush`; if that commit fails, ``undo`` is
        called (once however often it is handed in)."""
        self._steps += steps
        self._undo.add(undo)
        self._flush_soon()

    def post(self, recipient: Recipient, text: str) -> None:
        """Sends ``text`` to ``recipient`` after the next :meth:`flush`'s commit (in the
        order posted)."""
        self._sends.append((recipient, text))
        self._flush_soon()

    def _flush_soon(self) -> None:
        if self._flush is not None:
            return
        loop = running_loop()
        if loop is None:  # a script or a test: at once
            self.flush()
            return
        self._flush = loop.call_soon(self.flush)

    def flush(self) -> None:
        """Commits what the changes since the last flush store, in one transaction, then
        sends what they post. If the commit fails, their undos are called and nothing is
        sent. While the database is locked for a moment (a checkpoint resetting its log)
        it tries again a millisecond later, and the event loop serves meanwhile; once
        :attr:`stopping`, without a running event loop, or after ``LOCK_PATIENCE``
        seconds of tries (another process holds the lock), it waits for the lock, and
        fails if it is not freed."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if self._steps and not self.stopping and not self.store.reserve():
            now = time.monotonic()
            if self._locked_since is None:
                self._locked_since = now
            loop = running_loop()
            if loop is not None and now - self._locked_since < LOCK_PATIENCE:
                self._flush = loop.call_later(FLUSH_RETRY, self.flush)
                return
        self._locked_since = None
        steps, self._steps = self._steps, []
        sends, self._sends = self._sends, []
        undo, self._undo = self._undo, set()
        self.applying.clear()
        try:
            if steps:
                with self.store.transaction():
                    for step in steps:
                        step(self.store)
        except Exception:
            _log.exception("a commit failed; %d tables go back to their last one", len(undo))
            for back in undo:
                back()
            return
        for recipient, text in sends:
            recipient.send(text)
