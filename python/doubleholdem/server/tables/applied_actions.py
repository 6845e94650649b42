"""Which action ids a cash table applied (docs/PROTOCOL.md, ``act``: a decision resent
with the id of one applied is answered ``repeated``, never applied twice), answered on
the event loop from memory instead of a database read a decision.

For each runner (one table served by this process, from its restore until it goes) the
ids applied during its current hand: read from what is committed once, at its first
decision (:func:`~doubleholdem.server.storage.action_rows.hand_actions`: those applied
before this process served the table), then kept as this runner applies them. A hand
that begins later begins while the runner serves the table, so every id of it goes
through the runner: no read. An id whose commit is in flight counts as applied (it is
also in the group commit's ``applying``); once a commit failed (its changes undone:
:attr:`GroupCommit.failures <doubleholdem.server.storage.commit.GroupCommit.failures>`
counts them) every runner forgets what it knew and reads again at its next decision. A
table taken over again is a new runner: read again. A decision sent for another hand
than the table's current one is looked up in the database (it is answered ``stale``
unless it was applied)."""

from __future__ import annotations

import weakref

from doubleholdem.server.storage.action_rows import hand_actions
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.runner import TableRunner

__all__ = ["AppliedActions"]

Applied = tuple[str, str]  # (token hash, action id)


class _Hand:
    """A runner's current hand and the ids applied during it."""

    __slots__ = ("ids", "number")

    def __init__(self, number: int, ids: set[Applied]) -> None:
        self.number = number
        self.ids = ids


class AppliedActions:
    """The action ids applied at the tables of ``store``'s room, committed by
    ``commit`` (see the module)."""

    def __init__(self, store: Storage, commit: GroupCommit) -> None:
        self.store = store
        self.commit = commit
        self._failures = commit.failures  # the failed commits before what is known
        self._hands: weakref.WeakKeyDictionary[TableRunner, _Hand] = weakref.WeakKeyDictionary()

    def applied(self, runner: TableRunner, hand: int, done: Applied) -> bool:
        """Whether ``done`` was applied at ``runner``'s table during hand ``hand`` (or
        is being committed)."""
        if self.commit.failures != self._failures:  # changes undone: what they added too
            self._failures = self.commit.failures
            self._hands.clear()
        current = runner.table.hand_number
        if hand != current:
            return done in hand_actions(self.store.committed(), runner.id, hand)
        known = self._hands.get(runner)
        if known is None:
            known = _Hand(current, hand_actions(self.store.committed(), runner.id, current))
            self._hands[runner] = known
        elif current > known.number:  # a hand begun while this runner serves the table
            known.number, known.ids = current, set()
        return done in known.ids

    def add(self, runner: TableRunner, hand: int, done: Applied) -> None:
        """``done`` is applied now at ``runner``'s table, during hand ``hand`` (forgotten
        if the commit of the change fails)."""
        known = self._hands.get(runner)
        if known is not None and known.number == hand:
            known.ids.add(done)
