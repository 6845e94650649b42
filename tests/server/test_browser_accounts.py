"""The account box of the browser table in a real browser (Debian's Chromium through
Playwright, issue 19): sign up on an open room, see the name and the welcome chips,
a reload keeps the session (the HttpOnly cookie, which no script can read), take a seat
under the account's name, read the statement, sign out, sign in again; a wrong
password is told, and the cookie never reaches the page's scripts."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.accounts.accounts import Passwords
from doubleholdem.server.desk import Desk
from doubleholdem.server.room import Room
from doubleholdem.server.settings import RoomSettings
from server_harness import ServerThread

playwright = pytest.importorskip("playwright.async_api")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs chromium")
PASSWORD = "correct horse battery"


async def _scenario(url: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with playwright.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await (await browser.new_context()).new_page()
            await page.goto(url)
            await page.locator("#signin-form").wait_for(state="visible")
            seen["name_box_hidden"] = not await page.locator("#name").is_visible()
            await page.fill("#account-name", "ann")
            await page.fill("#account-password", PASSWORD)
            await page.click("#signup")
            await page.locator("#account-who").wait_for(state="visible")
            seen["who"] = await page.inner_text("#account-who")
            seen["balance"] = await page.inner_text("#account-balance")
            seen["script_cookie"] = await page.evaluate("document.cookie")
            await page.reload()
            await page.locator("#account-who").wait_for(state="visible")
            seen["after_reload"] = await page.inner_text("#account-who")
            await page.locator('button[data-sit="0"]').click()
            await page.locator("#table").wait_for(state="visible")
            await page.locator(".seat.mine").wait_for(state="visible")
            seen["seat"] = await page.inner_text(".seat.mine")
            await page.click("#statement summary")
            await page.locator(".statement-line").first.wait_for(state="visible")
            seen["statement"] = await page.inner_text("#statement-lines")
            await page.click("#signout")
            await page.locator("#signin-form").wait_for(state="visible")
            await page.fill("#account-name", "ann")
            await page.fill("#account-password", "wrong horse")
            await page.click("#signin")
            await page.locator("#account-message", has_text="wrong").wait_for()
            seen["wrong"] = await page.inner_text("#account-message")
            await page.fill("#account-password", PASSWORD)
            await page.click("#signin")
            await page.locator("#account-who").wait_for(state="visible")
            seen["again"] = await page.inner_text("#account-who")
            return seen
        finally:
            await browser.close()


def test_sign_up_sign_in_reload_and_sign_out_in_the_browser(tmp_path: Path) -> None:
    settings = RoomSettings(
        tables=1, bots=0, bot_delay=0.0, pause=30.0, signup=True, welcome_chips=1000
    )
    room = Room.open(str(tmp_path / "tables.db"), settings)
    fast = Passwords(time_cost=1, memory_cost=8, insecure=True)  # tests only
    with ServerThread(room, desk=Desk(room.store.path, settings, passwords=fast)) as server:
        seen = asyncio.run(_scenario(server.url))
        seated = [s["player"] for s in room.runners[0].table.seats() if s is not None]
    assert seen["name_box_hidden"]
    assert (seen["who"], seen["balance"], seen["after_reload"]) == ("ann", "1000", "ann")
    assert seen["script_cookie"] == ""  # HttpOnly
    assert "ann" in seen["seat"] and seated == ["ann"]
    assert "welcome +1000" in seen["statement"]
    assert "wrong name or password" in seen["wrong"]
    assert seen["again"] == "ann"
