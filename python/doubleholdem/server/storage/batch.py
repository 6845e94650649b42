"""What the group commit (:mod:`~doubleholdem.server.storage.commit`) gathers for one
commit (:class:`Batch`): its steps (a table's fenced by the lease it was made under:
:class:`TableStep`), what it sends once committed, what it sends instead if it fails,
its undos and what waits for it to end. An :class:`Answer` is sent either way: a reply
that no change made (an error, an ``elsewhere``, a watch's state), which waits for the
commit only to keep its place behind what was posted before it."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Iterator
from typing import Any, Generic, Protocol, TypeVar

from doubleholdem.server.storage.storage import Storage

__all__ = [
    "Answer",
    "Awaiting",
    "Batch",
    "Recipient",
    "Step",
    "TableStep",
    "Written",
    "answers",
]

Step = Callable[[Storage], None]
_T = TypeVar("_T")


class TableStep:
    """A step of table ``table``'s change, made under the lease of ``epoch`` (as this
    process held it when the change was made): left out of the commit if that lease is
    lost, even if the table was taken back since under another."""

    __slots__ = ("epoch", "step", "table")

    def __init__(self, table: int, epoch: int, step: Step) -> None:
        self.table = table
        self.epoch = epoch
        self.step = step

    def __call__(self, store: Storage) -> None:
        self.step(store)


class Written:
    """A step that notes that it ran, handed in with a change whose end must wait for
    its own commit: once the commit that ran it ended (the change's ``ended`` after
    it), the change was committed, or failed and its table went back to its last
    committed state. A commit may end after the change was handed in and not have run
    it (on PostgreSQL the commit in flight, another's): its step has not run."""

    __slots__ = ("ran",)

    def __init__(self) -> None:
        self.ran = False

    def __call__(self, store: Storage) -> None:
        self.ran = True


class Awaiting(Generic[_T]):
    """What waits for the commit of the change it came with (a bot's seat to refill, a
    wallet's notes to forget): each item's :class:`Written` step goes with its change;
    once a commit of the table's changes ended, the items whose step it ran are done
    with (:meth:`ended`: committed, or failed and the table reloaded); a reload drops
    those whose change was undone before any commit ran it (:meth:`reloaded`)."""

    def __init__(self) -> None:
        self._items: list[tuple[Written, _T]] = []

    def add(self, item: _T) -> Written:
        """``item`` waits: the step to hand in with its change."""
        written = Written()
        self._items.append((written, item))
        return written

    def ended(self) -> list[_T]:
        """A commit of the table's changes ended: the items it wrote, no longer waiting."""
        done = [item for written, item in self._items if written.ran]
        self._items = [(written, item) for written, item in self._items if not written.ran]
        return done

    def reloaded(self) -> None:
        """The table went back to its last committed state: the items whose change was
        not written are undone."""
        self._items = [(written, item) for written, item in self._items if written.ran]

    def __iter__(self) -> Iterator[_T]:
        return iter([item for _, item in self._items])

    def __bool__(self) -> bool:
        return bool(self._items)


class Recipient(Protocol):
    """Whatever a message is posted to (a connection)."""

    def send(self, text: str) -> None: ...


class Answer:
    """``recipient`` as an answer is posted to it: sent after the commit whether that
    commit succeeds or fails (:meth:`GroupCommit.answer
    <doubleholdem.server.storage.commit.GroupCommit.answer>`)."""

    __slots__ = ("recipient",)

    def __init__(self, recipient: Recipient) -> None:
        self.recipient = recipient

    def send(self, text: str) -> None:
        self.recipient.send(text)

    def __getattr__(self, name: str) -> Any:  # the recipient's own (a connection's table)
        return getattr(self.recipient, name)


def answers(sends: list[tuple[Recipient, str]]) -> list[tuple[Recipient, str]]:
    """The answers among ``sends``, in order: what a failed commit still sends."""
    return [(recipient, text) for recipient, text in sends if isinstance(recipient, Answer)]


class Batch:
    """The changes of one commit and what follows it."""

    __slots__ = ("applying", "ended", "future", "instead", "lost", "sends", "steps", "undo")

    def __init__(
        self,
        steps: list[Step],
        sends: list[tuple[Recipient, str]],
        instead: list[tuple[Recipient, str]],
        undo: set[Callable[[], None]],
        ended: dict[Callable[[], None], None],
        applying: set[tuple[str, str]],
    ) -> None:
        self.steps, self.sends, self.instead = steps, sends, instead
        self.undo, self.ended, self.applying = undo, ended, applying
        self.future: concurrent.futures.Future[BaseException | None] | None = None
        self.lost: set[int] = set()  # tables left out, their leases lost
