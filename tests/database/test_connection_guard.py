"""The tests' guard against two threads using one PostgreSQL connection at once
(:mod:`connection_guard`) finds them: a check that can fail."""

from __future__ import annotations

import contextlib
import threading

import pytest

from connection_guard import SharedUse, no_shared_use
from doubleholdem.database.postgres import connect
from postgres_cluster import Cluster


def _until(found: SharedUse, *, running: bool) -> None:
    """Until a statement runs (``running``) or a shared use was found (a minute at
    most)."""
    for _ in range(60_000):
        if found.running() if running else found.found:
            return
        threading.Event().wait(0.001)
    raise AssertionError("never seen")


def test_two_threads_on_one_connection_at_once_are_found(
    postgres: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    with postgres.schema() as url, contextlib.closing(connect(url)) as holder:
        db = connect(url)
        holder.execute("SELECT pg_advisory_lock(1)").close()
        raised = pytest.raises(AssertionError, match="two threads at once")
        with raised, no_shared_use(monkeypatch) as use:
            first = threading.Thread(target=lambda: db.execute("SELECT pg_advisory_lock(1)"))
            first.start()  # it runs its statement on db until the lock is free
            _until(use, running=True)
            second = threading.Thread(target=lambda: db.execute("SELECT 1"))
            second.start()  # (psycopg makes it wait for the first's)
            _until(use, running=False)
            holder.execute("SELECT pg_advisory_unlock(1)").close()
            first.join()
            second.join()
        db.close()
