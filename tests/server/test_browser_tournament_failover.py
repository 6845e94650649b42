"""The tournament page follows the room's tournaments from process to process (issues 33
and 34, Debian's Chromium through Playwright): two real ``serve`` processes on one
PostgreSQL room, the first running its tournaments; the page, loaded from the second,
is answered ``elsewhere`` and shows the lobby of the first; a person registers there
through the page and opens the tournament; the first is killed (``kill -9``) and the
page, without a reload, asks its own process again and shows the tournament as the
second, having taken it over, serves it: the person still registered, and the view
updating there (unregistered through the page, the entrants drawn anew)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

from cluster_harness import BUY_IN, FEE, ROOM, SIT_AND_GO, ServedRoom, tournaments_runner
from doubleholdem.accounts import ledger
from doubleholdem.database.url import connect
from doubleholdem.server.http.load_client import ws_url
from server_harness import NEEDS_BROWSER, chromium, signed_up_page

pytestmark = NEEDS_BROWSER
PASSWORD = "correct horse battery"
WELCOME = 100000  # cluster_harness.ROOM's welcome chips
SNG = 0  # the room's one tournament (cluster_harness.SIT_AND_GO)


async def _follow(room: ServedRoom) -> dict[str, Any]:
    first, second = room.processes
    seen: dict[str, Any] = {}
    async with chromium() as browser:
        page = await signed_up_page(browser, second.url, "ann", PASSWORD)
        home = ws_url(second.url)
        sockets: list[str] = []
        views: list[dict[str, Any]] = []  # the views received at home after the kill
        viewed = asyncio.Event()
        killed = False

        def received(url: str, text: str) -> None:
            message = json.loads(text)
            if killed and url == home and message["type"] == "tournament":
                views.append(message["view"])
                viewed.set()

        def socket(ws: Any) -> None:
            sockets.append(ws.url)
            ws.on("framereceived", lambda text: received(ws.url, str(text)))

        page.on("websocket", socket)
        await page.reload()  # its sockets opened again, seen from the start
        row = page.locator(f'[data-tournament-row="{SNG}"]')
        await row.wait_for(state="visible")
        seen["row"] = await row.inner_text()
        await page.click(f'[data-register="{SNG}"]')
        await page.locator("#account-balance", has_text=str(WELCOME - BUY_IN - FEE)).wait_for()
        await page.click(f'[data-open="{SNG}"]')
        entries = page.locator("#tournament-entries")
        await entries.filter(has_text="ann").wait_for()
        await page.locator("#unregister").wait_for()
        seen["before"] = list(sockets)
        async with page.expect_websocket(lambda s: s.url == home, timeout=30_000):
            killed = True
            await asyncio.to_thread(first.kill)
        # the page, by itself, watches the tournament again where it runs now
        await asyncio.wait_for(viewed.wait(), 30)
        seen["after"], seen["views"] = list(sockets), list(views)
        seen["runner"] = tournaments_runner(room)
        seen["registered"] = await entries.inner_text()
        await page.click("#unregister")  # taken by the second: the first is dead
        await page.locator("#account-balance", has_text=str(WELCOME)).wait_for()
        await page.locator("#unregister").wait_for(state="detached")
        await entries.filter(has_not_text="ann").wait_for()
        seen["unregistered"] = await entries.inner_text()
    return seen


def test_the_tournament_page_follows_its_tournaments_to_the_process_taking_them_over(
    postgres_url: str, tmp_path: Path
) -> None:
    config = tmp_path / "room.toml"
    config.write_text(SIT_AND_GO)
    extra = ("--bot-delay", "0.01", "--pause", "0.02", *ROOM, "--config", str(config))
    with ServedRoom(postgres_url, 2, tmp_path, tables=0, bots=0, extra=extra) as room:
        first, second = room.processes
        assert tournaments_runner(room) is first  # the first started runs them
        seen = asyncio.run(_follow(room))
        assert seen["runner"] is second and tournaments_runner(room) is second
        with contextlib.closing(connect(room.db)) as db:
            assert ledger.balance(db, ledger.player("ann")) == WELCOME  # refunded
    there, home = ws_url(first.url), ws_url(second.url)
    assert "registering 1/3" in seen["row"]
    # loaded from the second, the page was sent to the first for its tournaments (its
    # sockets open in either order once it is reloaded: it remembers where they run)
    assert home in seen["before"] and there in seen["before"]
    # after the kill, without a reload, it asked its own process (told, until the lease
    # expired, that the dead one runs them, it may have tried there once more), which
    # serves them now: the view above came from there
    assert seen["after"][-1] == home and len(seen["after"]) > len(seen["before"])
    assert [e["player"] for e in seen["views"][0]["entries"]][-1] == "ann"
    assert "ann" in seen["registered"] and "ann" not in seen["unregistered"]
