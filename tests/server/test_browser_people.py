"""People read people's numbers in a real browser (Debian's Chromium through Playwright,
issue 32 item 4): in a room of accounts a signed-in spectator's chat is refused in
words beside the chat's form (not a code in the status line), and the operator freezing
the account is told on the open page at once, and stays told after it reconnects."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from doubleholdem.accounts.bank import Bank
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from passwords_double import FAST
from server_harness import NEEDS_BROWSER, ServerThread, chromium, signed_up_page

pytestmark = NEEDS_BROWSER
PASSWORD = "correct horse battery"


async def _scenario(url: str, path: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with chromium() as browser:
        page = await signed_up_page(browser, url, "ann", PASSWORD)
        await page.locator('button[data-watch="0"]').click()
        await page.locator("#chat-text").wait_for(state="visible")
        await page.fill("#chat-text", "hello")
        await page.press("#chat-text", "Enter")
        note = page.locator("#chat-note", has_text="spectators")
        await note.wait_for()
        seen["chat_note"] = await note.inner_text()
        seen["status"] = await page.inner_text("#status")
        with Bank(path) as bank:
            bank.set_state("ann", "frozen")
        told = page.locator("#status", has_text="frozen")
        await told.wait_for()
        seen["frozen"] = await told.inner_text()
        return seen


def test_refusals_in_words_beside_their_control_and_a_freeze_told(tmp_path: Path) -> None:
    settings = RoomSettings(tables=1, bots=0, pause=30.0, signup=True, welcome_chips=1000)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room, desk=Desk(room.store.path, settings, passwords=FAST)) as server:
        seen = asyncio.run(_scenario(server.url, room.store.path))
    assert seen["chat_note"] == "spectators read this table's chat but may not write in it"
    assert "read_only" not in seen["status"] and "_" not in seen["status"]
    assert "frozen by the room's operator" in seen["frozen"]
