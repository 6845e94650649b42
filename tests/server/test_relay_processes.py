"""Any process answers any client, with real ``serve`` processes on one room in
PostgreSQL (issue 33 item 3; tests/cluster_harness.py): each process's lobby lists
every table of the room with the process serving it, its address, as the leases say;
a client asking a process for a table the other serves is told ``elsewhere``, goes
there and plays; the lobby follows a table taken over."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from cluster_harness import Served, ServedRoom
from doubleholdem.server.http.load_client import ws_url
from server_harness import Client

GUESTS = ("--bot-delay", "0.05", "--pause", "0.3", "--guests")


def _lobby(served: Served) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{served.url}/api/tables", timeout=10) as response:
        return list(json.loads(response.read()))


def _places(room: ServedRoom) -> dict[int, str | None]:
    """Each table's address as the leases say (its owner's URL)."""
    return {t: None if p is None else p.url for t, p in room.owners().items()}


def _until_listed(room: ServedRoom, served: Served) -> list[dict[str, Any]]:
    """``served``'s lobby once it names, for every table, the process the leases name
    (the other process's tables as its directory read them: each change of hands or
    summary a commit it is notified of)."""
    deadline = time.monotonic() + 60
    while True:
        places = _places(room)
        tables = _lobby(served)
        if {t["id"]: t["address"] for t in tables} == places:
            return tables
        assert time.monotonic() < deadline, (tables, places)
        time.sleep(0.01)


def _balanced(room: ServedRoom) -> None:
    """Until each process serves a table (the first hands the second its share)."""
    room.wait_served(range(room.tables))
    deadline = time.monotonic() + 60
    while not all(room.tables_of(p) for p in room.processes):
        assert time.monotonic() < deadline, room.owners()
        time.sleep(0.01)


def test_each_process_lists_the_whole_room_and_sends_clients_where_a_table_is(
    postgres_url: str, tmp_path: Path
) -> None:
    with ServedRoom(postgres_url, 2, tmp_path, tables=4, bots=1, extra=GUESTS) as room:
        _balanced(room)
        first, second = room.processes
        for served in room.processes:
            tables = _until_listed(room, served)
            assert [t["id"] for t in tables] == [0, 1, 2, 3]
            assert {t["process"] for t in tables} == {o for o, _ in room.leases().values()}
        table = room.tables_of(second)[0]

        async def scenario() -> dict[str, Any]:
            client = await Client.connect(ws_url(first.url))
            await client.send(type="watch", table=table)
            told = await client.next("elsewhere")
            await client.close()
            there = await Client.connect(ws_url(told["address"]))
            await there.send(type="sit", table=table, seat=None, name="ann", buy_in=1000)
            seated = await there.next("seated")
            await there.close()
            return {"told": told, "seated": seated}

        outcome = asyncio.run(scenario())
    assert outcome["told"]["address"] == second.url and outcome["told"]["table"] == table
    assert outcome["seated"]["table"] == table


def test_the_lobby_follows_a_table_taken_over(postgres_url: str, tmp_path: Path) -> None:
    with ServedRoom(postgres_url, 2, tmp_path, tables=2, bots=1, extra=GUESTS) as room:
        _balanced(room)
        first, second = room.processes
        taken = room.tables_of(second)
        _until_listed(room, first)
        second.kill()
        room.wait_served(taken)
        tables = _until_listed(room, first)
    assert {t["id"]: t["address"] for t in tables} == {0: first.url, 1: first.url}
