"""The browser page follows a table to the process that serves it (issue 33 item 3):
opened on one process, it sits at a table another process serves, is told
``elsewhere``, opens its socket there without the player doing anything, and plays
there. Debian's Chromium through Playwright, as the other browser tests."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cluster_harness import ServedRoom
from doubleholdem.server.http.load_client import ws_url
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.directory import Place
from doubleholdem.server.tables.room import Room
from server_harness import DOUBLE_THREE, NEEDS_BROWSER, ServerThread, chromium

pytestmark = NEEDS_BROWSER

CONFIG = replace(DOUBLE_THREE, action_time=120, point_time=120)


def _room(path: Path, tables: int, bots: int) -> Room:
    settings = RoomSettings(tables=tables, bots=bots, bot_delay=0.0, pause=0.2, configs=[CONFIG])
    return Room.open(str(path), settings)


async def play_a_decision(page: Any, name: str) -> None:
    """Makes ``name``'s next decision on the page (a point card, else a check or a call)
    once the page offers one, and waits for the hand's history to tell it."""
    point = page.locator("#hole button[data-point]")
    either = page.locator("#actions button[data-action=check], #actions button[data-action=call]")
    await point.or_(either).first.wait_for()
    said = page.locator("#history li", has_text=name)
    before = await said.count()
    if await point.count():
        await point.first.click()
    else:
        await either.first.click()
    await said.nth(before).wait_for()


async def _sit_elsewhere(home: str, there: str) -> dict[str, Any]:
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1100, "height": 900})
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        await page.goto(home)
        await page.fill("#name", "ann")
        await page.locator('button[data-sit="1"]').click()  # served by the other process
        await page.locator("#table").wait_for(state="visible")
        await play_a_decision(page, "ann")
        await play_a_decision(page, "ann")
        return {"sockets": sockets, "title": await page.inner_text("#table-title")}


def test_the_page_follows_a_table_to_the_process_serving_it(tmp_path: Path) -> None:
    near = _room(tmp_path / "near.db", tables=1, bots=0)  # serves table 0
    far = _room(tmp_path / "far.db", tables=2, bots=1)  # serves table 1 (and a 0 of its own)
    with ServerThread(far) as there, ServerThread(near) as home:
        # what the room's database would say: table 1 is served there, and the page of
        # the process here may open a socket there
        summary = far.runners[1].summary()
        near.tables.directory.replace({1: (Place("far", there.url), summary)})
        far.tables.directory.replace({}, [Place("near", home.url)])
        outcome = asyncio.run(_sit_elsewhere(home.url, there.url))
        assert [h[1] for h in far.runners[1].humans.values()] == ["ann"]  # seated there
        assert near.runners[0].humans == {}
        assert home.leaks == [] and there.leaks == [] and there.mismatches == []
    # told, it went there (once); the page's other sockets (the tournaments') stay home
    sockets = outcome["sockets"]
    assert sockets[-1] == there.ws_url and sockets.count(there.ws_url) == 1
    assert set(sockets) == {home.ws_url, there.ws_url}
    assert outcome["title"].startswith("Table 2")


async def _follow_over_a_takeover(room: ServedRoom, table: int, how: str) -> dict[str, Any]:
    """The page opened on the process that does not serve ``table`` sits there: it
    plays at the owner; the owner stops (``how``: cleanly, or ``kill -9``), and the
    page, by itself, finds the table at the process that took it over and plays on in
    its seat."""
    owner = room.owners()[table]
    assert owner is not None
    home = next(p for p in room.processes if p is not owner)
    found: dict[str, Any] = {}
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1100, "height": 900})
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        await page.goto(home.url)
        await page.fill("#name", "ann")
        await page.locator(f'button[data-sit="{table}"]').click()
        await page.locator("#table").wait_for(state="visible")
        await play_a_decision(page, "ann")
        found["before"] = list(sockets)
        home_socket = ws_url(home.url)
        async with page.expect_websocket(lambda s: s.url == home_socket, timeout=60_000):
            await asyncio.to_thread(owner.stop if how == "stop" else owner.kill)
        # the page reconnected by itself, to where the table is now
        await page.locator("#seats li.mine").wait_for()
        await play_a_decision(page, "ann")
        found["after"] = list(sockets)
        found["status"] = await page.inner_text("#status")
    found["owner"], found["home"] = owner, home
    return found


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_the_page_follows_its_table_to_its_new_owner(
    postgres_url: str, tmp_path: Path, how: str
) -> None:
    extra = ("--bot-delay", "0.05", "--pause", "0.3", "--guests")
    with ServedRoom(postgres_url, 2, tmp_path, tables=2, bots=1, extra=extra) as room:
        room.wait_served([0, 1])
        newer = room.processes[1]
        while not room.tables_of(newer):  # the first process hands it its share
            time.sleep(0.01)
        table = room.tables_of(newer)[0]
        outcome = asyncio.run(_follow_over_a_takeover(room, table, how))
        assert room.owners()[table] is outcome["home"]
    owner, home = outcome["owner"], outcome["home"]
    assert outcome["before"][-1] == ws_url(owner.url)  # it played at the owner
    assert outcome["after"][-1] == ws_url(home.url)  # then, by itself, at the new one
    assert outcome["status"].startswith("seat ")  # its seat, resumed there
