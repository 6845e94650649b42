"""Whose turn it is on the room's write connection. A PostgreSQL group commit runs on a
thread of its own (:mod:`~doubleholdem.server.storage.commit`) while the event loop goes
on; whatever else would begin a transaction on that connection meanwhile (a write that
must be committed now, a wallet call's note) waits for the commit to end, rather than
joining its transaction unawares, and reads go to a connection that sees only what is
committed (:meth:`~doubleholdem.server.storage.storage.Storage.committed`). SQLite's
commits run on the loop: its turn is never lent.

>>> turn = WriterTurn()
>>> turn.wait()  # free: at once
>>> turn.lend()  # the loop hands the connection to the commit's thread
>>> turn.lent_elsewhere()  # reads on the loop meanwhile go elsewhere
True
>>> import threading
>>> seen = []
>>> def commit():
...     turn.take()
...     turn.wait()  # the commit's own thread: at once
...     seen.append("committed")
...     turn.give_back()
>>> threading.Thread(target=commit).start()
>>> turn.wait()  # another thread: once the commit gave the connection back
>>> seen
['committed']
"""

from __future__ import annotations

import threading

__all__ = ["WriterTurn"]


class WriterTurn:
    """The write connection's turn (see the module's text)."""

    def __init__(self) -> None:
        self._free = threading.Event()
        self._free.set()
        self._holder: int | None = None

    def lend(self) -> None:
        """The connection goes to a commit about to run on another thread."""
        self._free.clear()

    def take(self) -> None:
        """Called by that commit's thread as it begins."""
        self._holder = threading.get_ident()

    def give_back(self) -> None:
        """Called by that commit's thread once its transaction ended."""
        self._holder = None
        self._free.set()

    def lent_elsewhere(self) -> bool:
        """Whether the connection is lent to a commit on another thread now (its
        transaction, in progress, is not this thread's to read)."""
        return not self._free.is_set() and self._holder != threading.get_ident()

    def wait(self) -> None:
        """Returns once this thread may use the connection: at once unless it is lent
        to a commit on another thread, then when that commit gave it back."""
        if not self._free.is_set() and self._holder != threading.get_ident():
            self._free.wait()
