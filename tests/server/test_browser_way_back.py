"""Players find their way back in a real browser (Debian's Chromium through Playwright,
issue 32 item 3): ann sits in one browser; in a second browser context (another
browser: its own cookies and storage, no seat token) she signs in and the account box
offers "Back to my table 1", which gives her seat back; a third one takes it back by
the lobby's "Sit" at that table, which resumes her seat instead of refusing it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from passwords_double import FAST
from server_harness import NEEDS_BROWSER, ServerThread, chromium, signed_up_page

pytestmark = NEEDS_BROWSER
PASSWORD = "correct horse battery"


async def _signed_in_page(browser: Any, url: str) -> Any:
    page = await (await browser.new_context()).new_page()
    await page.goto(url)
    await page.fill("#account-name", "ann")
    await page.fill("#account-password", PASSWORD)
    await page.click("#signin")
    await page.locator("#account-who", has_text="ann").wait_for()
    return page


async def _scenario(url: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with chromium() as browser:
        first = await signed_up_page(browser, url, "ann", PASSWORD)
        await first.locator('button[data-sit="0"]').click()
        await first.locator(".seat.mine").wait_for(state="visible")
        second = await _signed_in_page(browser, url)
        back = second.locator('button[data-back="0"]')
        seen["back"] = await back.inner_text()
        await back.click()
        await second.locator(".seat.mine").wait_for(state="visible")
        seen["second"] = await second.inner_text(".seat.mine")
        third = await _signed_in_page(browser, url)
        await third.locator('button[data-sit="0"]').click()
        await third.locator(".seat.mine").wait_for(state="visible")
        seen["third"] = await third.inner_text(".seat.mine")
        seen["third_status"] = await third.inner_text("#status")
        await second.locator("#status", has_text="another window").wait_for()
        return seen


def test_back_to_my_table_from_another_browser(tmp_path: Path) -> None:
    settings = RoomSettings(tables=2, bots=0, pause=30.0, signup=True, welcome_chips=1000)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room, desk=Desk(room.store.path, settings, passwords=FAST)) as server:
        seen = asyncio.run(_scenario(server.url))
        seated = [s["player"] for s in room.runners[0].table.seats() if s is not None]
    assert seen["back"] == "Back to my table 1"
    assert "ann" in seen["second"] and "ann" in seen["third"]
    assert "already" not in seen["third_status"]
    assert seated == ["ann"]  # one seat, taken back twice
