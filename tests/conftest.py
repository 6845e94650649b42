from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from connection_guard import no_shared_use
from postgres_cluster import Cluster, ClusterUnavailable, start_cluster


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """n rows of k distinct cards, uniformly random."""
    rng = np.random.default_rng(seed)
    return np.argpartition(rng.random((n, 52)), k, axis=1)[:, :k].astype(np.uint8)


@pytest.fixture
def hands7() -> np.ndarray:
    return random_hands(20_000, 7, seed=7)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Records every call the bots make to the core's equities."""
    from doubleholdem import _core
    from doubleholdem.table import bots

    recorded: list[tuple[Any, ...]] = []
    real: Callable[..., list[float]] = _core.equities

    def recording(*args: Any) -> list[float]:
        recorded.append(args)
        return real(*args)

    monkeypatch.setattr(bots._core, "equities", recording)
    return recorded


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the session (one per xdist worker). Where it
    cannot start the tests that need it are skipped, saying why; in CI (``CI=true``, or
    ``DOUBLEHOLDEM_REQUIRE_POSTGRES=1`` as .ci/run sets, which installs PostgreSQL) they
    fail instead."""
    try:
        cluster = start_cluster()
    except ClusterUnavailable as why:
        required = os.environ.get("DOUBLEHOLDEM_REQUIRE_POSTGRES") == "1"
        if required or os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL must start in CI: {why}")
        pytest.skip(f"PostgreSQL cannot start here: {why}")
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres: Cluster, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The URL of a PostgreSQL database of its own for one test (a fresh schema); the
    test fails if two threads used one connection at once (:mod:`connection_guard`)."""
    with postgres.schema() as url, no_shared_use(monkeypatch):
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def room_db(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A room's database, once of each kind: a SQLite file's path (not yet made) and
    the URL of a fresh PostgreSQL schema (:func:`postgres_url`)."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.db")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def more_room_dbs(
    room_db: str, request: pytest.FixtureRequest, tmp_path: Any
) -> Iterator[Callable[[], str]]:
    """Makes more databases of ``room_db``'s kind, for tests of several rooms: each call
    a SQLite file's path beside it (not yet made), or a fresh PostgreSQL schema's URL
    (dropped after the test)."""
    numbers = itertools.count(1)
    with contextlib.ExitStack() as schemas:

        def another() -> str:
            if not room_db.startswith("postgresql"):
                return str(tmp_path / f"tables-{next(numbers)}.db")
            cluster: Cluster = request.getfixturevalue("postgres")
            return str(schemas.enter_context(cluster.schema()))

        yield another
