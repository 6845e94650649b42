"""The multi-process harness (tests/cluster_harness.py) and the load test across
processes (issue 33): real ``serve`` processes on PostgreSQL, the load's signed-in
clients spread over all of them, and what the failover tests check afterwards (the
audit, every hand settled once, every acknowledged decision in the database) found
true of a room nobody killed. Until tables are leased each process serves a room of its
own (a schema each): the failover tests (test_failover.py) put them in one."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from cluster_harness import (
    ServedRoom,
    audit_problems,
    hands_stored,
    health,
    missing_moves,
    unsettled_hands,
    wait_hands,
)
from doubleholdem.cli import main
from doubleholdem.server.http.loadtest import LoadResult, run_load
from postgres_cluster import Cluster


def test_the_load_spreads_its_clients_over_every_process(
    postgres: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with contextlib.ExitStack() as stack:
        dbs = [stack.enter_context(postgres.schema()) for _ in range(2)]
        with ServedRoom(dbs, 2, tmp_path, tables=2, bots=1) as room:
            result = asyncio.run(run_load(room.urls, 8, 3.0, think=0.01))
            assert main(["loadtest", "--url", *room.urls, "--clients", "99", "--seconds", "1"])
            # both processes: 2 x (2 tables of 6 seats, a bot at each)
            assert "has 20 open seats" in capsys.readouterr().err
        assert result["accounts"] == "signed_in" and result["tables"] == 4
        assert result["processes"] == {url: 4 for url in room.urls}
        assert result["errors"] == 0 and result["chip_errors"] == 0
        assert result["still_seated"] == 0 and result["reconnects"] == 0
        assert len(result.moves) == result["actions"] > 0
        for served, db in zip(room.processes, dbs):
            moves = [m for m in result.moves if m.url == served.url]
            assert moves and missing_moves(db, moves) == []
            assert audit_problems(db) == [] and unsettled_hands(db) == []
            # the check can fail: a decision acknowledged that the log does not hold
            ghost = moves[-1]._replace(hand=10**6)
            assert missing_moves(db, [*moves, ghost]) == [ghost]


def test_a_process_is_killed_frozen_and_woken(postgres_url: str, tmp_path: Path) -> None:
    with ServedRoom(postgres_url, 1, tmp_path, tables=1) as room:
        (served,) = room.processes
        assert health(served.url) == "ok" and room.live == [served]
        served.freeze()
        assert room.live == [] and health(served.url, timeout=0.5) is None
        served.thaw()
        assert health(served.url) == "ok" and room.live == [served]
        served.kill()
        assert not served.alive and health(served.url) is None and room.live == []
    assert unsettled_hands(postgres_url) == [] and audit_problems(postgres_url) == []


def test_the_load_follows_a_table_through_kill_9_and_restart(room_db: str, tmp_path: Path) -> None:
    """The load's clients with ``follow``: the process serving their tables is killed
    (``kill -9``) in play and started again on its port; each client finds its table
    served again, resumes its seat and sends its unanswered decision again. Every
    decision the server acknowledged is in the database, no hand is settled twice and
    the audit is clean (on either database)."""
    with ServedRoom(room_db, 1, tmp_path, tables=2, bots=1) as room:
        (served,) = room.processes

        async def load_and_kill() -> LoadResult:
            stop = asyncio.Event()
            load = asyncio.create_task(
                run_load(room.urls, 4, 120.0, think=0.01, follow=True, stop=stop)
            )
            await asyncio.to_thread(wait_hands, room_db, 3)  # play is going on
            served.kill()
            await asyncio.to_thread(room.start, None, served.port)
            await asyncio.to_thread(wait_hands, room_db, hands_stored(room_db) + 3)
            stop.set()  # the clients leave, on the process started again
            return await load

        result = asyncio.run(load_and_kill())
    assert result["reconnects"] >= 4 and result["still_seated"] == 0 and result.moves
    assert missing_moves(room_db, result.moves) == []
    assert unsettled_hands(room_db) == [] and audit_problems(room_db) == []
