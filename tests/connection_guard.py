"""Two threads using one PostgreSQL connection at once, found in every test of a room on
PostgreSQL (``postgres_url``). psycopg lets them, one statement after the other, but the
room's write connection is the group commit's thread's while a commit runs its
transaction (a pipeline of statements) on it: a read on the event loop meanwhile joins
that transaction unawares, or breaks the pipeline and the connection for good ("cannot
exit pipeline mode while busy": the accounts' watch, the wallet's notes and its health
did, CI's runs of test_cluster_room). Reads on the loop go through
``Storage.committed``; this finds any that does not."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from doubleholdem.database.postgres import PostgresConnection


class SharedUse:
    """What statements ran on a connection while another thread's ran on it."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self._lock = threading.Lock()
        self._running: dict[int, tuple[int, str]] = {}  # connection -> (thread, statement)

    def running(self) -> bool:
        """Whether a statement is running on a connection now."""
        with self._lock:
            return bool(self._running)

    def wrap(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def run(connection: PostgresConnection, sql: str, parameters: Any = (), /) -> Any:
            me, key = threading.get_ident(), id(connection)
            with self._lock:
                running = self._running.get(key)
                if running is None:
                    self._running[key] = (me, sql)
                elif running[0] != me:
                    self.found.append(
                        f"{sql[:70]!r} ran while another thread ran {running[1][:70]!r}"
                    )
            try:
                return method(connection, sql, parameters)
            finally:
                if running is None:
                    with self._lock:
                        del self._running[key]

        return run


@contextmanager
def no_shared_use(monkeypatch: pytest.MonkeyPatch) -> Iterator[SharedUse]:
    """Watches every PostgreSQL connection while the block runs; fails if two threads
    used one at once."""
    use = SharedUse()
    for name in ("execute", "executemany"):
        monkeypatch.setattr(PostgresConnection, name, use.wrap(getattr(PostgresConnection, name)))
    yield use
    assert not use.found, "a connection used by two threads at once: " + "; ".join(use.found[:3])
