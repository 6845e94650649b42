"""The account box when the server cannot be reached, in a real browser (issue 32 item 8):
a sign-in that gets no answer at all says so in words, where "Failed to fetch" came up
before, and the form stays to try again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from passwords_double import FAST
from server_harness import NEEDS_BROWSER, ServerThread, chromium

pytestmark = NEEDS_BROWSER


async def _sign_in_while_unreachable(url: str) -> dict[str, Any]:
    async with chromium() as browser:
        page = await (await browser.new_context()).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(url)
        await page.locator("#signin-form").wait_for(state="visible")
        await page.route("**/api/**", lambda route: route.abort("connectionrefused"))
        await page.fill("#account-name", "ann")
        await page.fill("#account-password", "correct horse battery")
        await page.click("#signin")
        message = page.locator("#account-message", has_text="cannot be reached")
        await message.wait_for()
        return {
            "message": await message.inner_text(),
            "form": await page.locator("#signin-form").is_visible(),
            "errors": errors,
        }


def test_a_sign_in_the_server_never_answers_is_told_in_words(tmp_path: Path) -> None:
    settings = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=30.0, signup=True)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room, desk=Desk(room.store.path, settings, passwords=FAST)) as server:
        seen = asyncio.run(_sign_in_while_unreachable(server.url))
    assert seen["message"] == "the server cannot be reached: try again in a moment"
    assert seen["form"] and seen["errors"] == []
