"""A part of the room that goes back to its last committed state when a commit fails
(a table, a tournament: the undo it hands :meth:`GroupCommit.later
<doubleholdem.server.storage.commit.GroupCommit.later>`) and cannot read that state (the
database failing still: a woken process's new sessions ended again by the others, a
disk failing): it is *unread*, said in the operator's log, and read again before its
next change, which is refused meanwhile (:class:`~doubleholdem.errors.DatabaseBusy`:
nothing changed). Raising instead, the undo stopped the failed commit's landing half-way
and the room refused writes for good.

>>> tries = []
>>> def read() -> None:
...     tries.append(len(tries))
...     if len(tries) < 3:
...         raise OSError("the disk fails")
>>> reload = ReadBack("table 1", read)
>>> reload()  # the undo: logged, no error
>>> reload.unread
True
>>> reload.before_change()
Traceback (most recent call last):
...
doubleholdem.errors.DatabaseBusy: table 1 cannot be read back from the database now: try again
>>> reload.read()  # read at last: a task goes on
True
>>> reload.before_change()  # (read already: nothing read again)
>>> reload.unread, tries
(False, [0, 1, 2])
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from doubleholdem.errors import DatabaseBusy

__all__ = ["AGAIN_SECONDS", "ReadBack"]

AGAIN_SECONDS = 1.0  # how soon a task of the room tries again to read back its part
_log = logging.getLogger("doubleholdem.server")


class ReadBack:
    """Reads ``what`` (said as such: ``table 3``) back with ``read()``, which puts its
    last committed state back (see the module)."""

    def __init__(self, what: str, read: Callable[[], None]) -> None:
        self.what = what
        self._read = read
        self.unread = False

    def __call__(self) -> None:
        """Reads it back; if that fails, it is :attr:`unread`."""
        try:
            self._read()
        except Exception:
            self.unread = True
            _log.exception("%s could not be read back: again before its next change", self.what)
            return
        self.unread = False

    def read(self) -> bool:
        """Reads it back first if unread: whether it is read (a task tries again in
        :data:`AGAIN_SECONDS` if not, without an error of its own: the failure is
        logged once here)."""
        if self.unread:
            self()
        return not self.unread

    def before_change(self) -> None:
        """Before a change (a client's request): :meth:`read`, and
        :class:`~doubleholdem.errors.DatabaseBusy` if it still cannot be."""
        if not self.read():
            raise DatabaseBusy(f"{self.what} cannot be read back from the database now: try again")
