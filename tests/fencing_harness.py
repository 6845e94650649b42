"""A stale owner and the new one, for the tests of the database's fencing
(python/doubleholdem/server/cluster/fencing.py): two processes' storages of one room in
PostgreSQL, the old owner frozen while the new one took every table (and the
tournaments' lease), the old one's own check made :func:`blind`."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from doubleholdem.database.connection import Connection
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.fencing import Fence
from doubleholdem.server.cluster.leases import LeaseLost
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.storage import Storage
from server_harness import stored_mid_hand

__all__ = ["BLINDS", "blind", "owning", "refused_then_written", "stale_and_new"]

BLINDS = ("its check sees nothing lost", "it fences nothing")


def blind(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """This process's own fencing is wrong: its lease query runs (declaring what it
    declares) but its answer is ignored, or it never fences at all."""
    if how == BLINDS[0]:
        real = leases.fence

        def sees_nothing(db: Connection, process: str, epochs: Any) -> set[int]:
            real(db, process, epochs)
            return set()

        monkeypatch.setattr(leases, "fence", sees_nothing)
    else:
        monkeypatch.setattr(Fence, "fence_epochs", lambda self, db, epochs: set())


def owning(store: Storage, process: str, only: tuple[int, ...] = ()) -> dict[int, int]:
    """``store`` writes as ``process``, which takes the tables' leases (epochs raised)
    and the tournaments' (a table of ``only`` alone: the tables' only)."""
    store.fencing.process = process
    taken = leases.acquire(store.db, process, want=100, steal=True, only=only)
    if not only:
        part = leases.acquire_part(store.db, process, leases.TOURNAMENTS, steal=True)
        assert part is not None
        taken[leases.TOURNAMENTS] = part
    store.fencing.epochs.update(taken)
    return taken


@contextlib.contextmanager
def stale_and_new(postgres_url: str) -> Iterator[tuple[Storage, Storage]]:
    """Two processes' storages of a room of two tables: the old owner froze, and the
    new one took every table and the tournaments (epochs raised)."""
    stored_mid_hand(postgres_url, RoomSettings(tables=2, bots=2, seed=3))
    with contextlib.ExitStack() as stack:
        pair = tuple(stack.enter_context(contextlib.closing(
            Storage(postgres_url, shared=True))) for _ in range(2)
        )  # fmt: skip
        owning(pair[0], "old")
        owning(pair[1], "new")
        yield pair[0], pair[1]


def refused_then_written(
    pair: tuple[Storage, Storage],
    monkeypatch: pytest.MonkeyPatch,
    how: str,
    write: Callable[[Storage], object],
    rows: Callable[[], Any],
    lease: int,
) -> None:
    """``write`` by the stale owner of ``pair`` made blind (``how``: :data:`BLINDS`) is
    refused by the database (:class:`LeaseLost` found by it, of ``lease``) and nothing of
    it written (``rows()`` as before); by the new owner it is written."""
    old, new = pair
    before = rows()
    blind(monkeypatch, how)
    with pytest.raises(LeaseLost) as refused, old.transaction():
        write(old)
    assert refused.value.by_database and refused.value.tables == (lease,)
    assert rows() == before  # nothing written
    monkeypatch.undo()
    with new.transaction():  # the owner writes
        write(new)
