"""The account box of the browser table in a real browser (Debian's Chromium through
Playwright, issue 19): sign up on an open room, see the name and the welcome chips,
a reload keeps the session (the HttpOnly cookie, which no script can read), take a seat
under the account's name, read the statement, sign out, sign in again and take the seat
back from a new window ("Back to my table"); a wrong password is told, and the cookie
never reaches the page's scripts."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from doubleholdem.accounts.bank import Bank
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from passwords_double import FAST
from server_harness import NEEDS_BROWSER, ServerThread, chromium, signed_up_page

pytestmark = NEEDS_BROWSER
PASSWORD = "correct horse battery"


async def _scenario(url: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with chromium() as browser:
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
        window = await page.context.new_page()  # a new window: it never saw the seat token
        await window.goto(url)
        await window.locator('button[data-back="0"]').click()  # "Back to my table 1"
        await window.locator(".seat.mine").wait_for(state="visible")
        seen["back"] = await window.inner_text(".seat.mine")
        return seen


def test_sign_up_sign_in_reload_and_sign_out_in_the_browser(tmp_path: Path) -> None:
    settings = RoomSettings(
        tables=1, bots=0, bot_delay=0.0, pause=30.0, signup=True, welcome_chips=1000
    )
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room, desk=Desk(room.store.path, settings, passwords=FAST)) as server:
        seen = asyncio.run(_scenario(server.url))
        seated = [s["player"] for s in room.runners[0].table.seats() if s is not None]
    assert seen["name_box_hidden"]
    assert (seen["who"], seen["balance"], seen["after_reload"]) == ("ann", "1000", "ann")
    assert seen["script_cookie"] == ""  # HttpOnly
    assert "ann" in seen["seat"] and seated == ["ann"]
    assert "welcome +1000" in seen["statement"]
    assert "wrong name or password" in seen["wrong"]
    assert seen["again"] == "ann"
    assert "ann" in seen["back"]


async def _money_scenario(url: str, ledger_balance: Callable[[], int]) -> dict[str, Any]:
    """Sign up, buy in with the page's amount, play a hand out against a bot (point card
    and check or call by the keyboard), leave between hands, and read the balance and
    the statement."""
    seen: dict[str, Any] = {}
    async with chromium() as browser:
        page = await signed_up_page(browser, url, "ann", PASSWORD)
        await page.locator("#account-balance", has_text="5000").wait_for()
        await page.fill("#buyin", str(BUY_IN))
        await page.locator("button[data-sit]").first.click()
        await page.locator(".seat.mine").wait_for(state="visible")
        await page.evaluate("window.dispatchEvent(new Event('focus'))")  # asks /api/me
        await page.locator("#account-balance", has_text=str(5000 - BUY_IN)).wait_for()
        for _ in range(600):  # her first hand, played to its end
            if "wins" in await page.inner_text("#results"):
                break
            if await page.locator("#hole button[data-point]").count():
                await page.keyboard.press("1")
            elif await page.locator('#actions button[data-action="check"]').count():
                await page.keyboard.press("k")
            elif await page.locator('#actions button[data-action="call"]').count():
                await page.locator('#actions button[data-action="call"]').click()
            await page.wait_for_timeout(100)
        seen["results"] = await page.inner_text("#results")
        await page.locator("#leave").click()  # between hands: the room pauses 5 s
        await page.locator("#status", has_text="you left the table").wait_for()
        seen["left"] = await page.inner_text("#status")
        expected = str(ledger_balance())
        await page.evaluate("window.dispatchEvent(new Event('focus'))")
        await page.locator("#account-balance", has_text=expected).wait_for()
        seen["balance"] = int(await page.inner_text("#account-balance"))
        await page.click("#statement summary")
        await page.locator(".statement-line", has_text="cash out").wait_for()
        seen["statement"] = await page.inner_text("#statement-lines")
        return seen


BUY_IN = 600


def test_buy_in_play_leave_and_the_statement_in_the_browser(tmp_path: Path) -> None:
    """Issue 19's browser proof: the buy-in leaves the balance when the seat is taken,
    a hand is played, leaving brings the stack back, and the page's balance and
    statement are the ledger's, whose audit holds."""
    settings = RoomSettings(
        tables=1, bots=1, bot_delay=0.0, pause=5.0, signup=True, welcome_chips=5000
    )
    room = Room.open(str(tmp_path / "tables.db"), settings)

    def ledger_balance() -> int:
        with Bank(room.store.path) as bank:
            return int(bank.show("ann")["balance"])

    with ServerThread(room, desk=Desk(room.store.path, settings, passwords=FAST)) as server:
        seen = asyncio.run(_money_scenario(server.url, ledger_balance))
        with Bank(room.store.path) as bank:
            assert bank.show("ann")["seats"] == []
    assert "wins" in seen["results"]
    assert "buy in -600" in seen["statement"] and "cash out" in seen["statement"]
    assert seen["balance"] == ledger_balance()
    cash_out = seen["balance"] - (5000 - BUY_IN)  # the stack she took away, told on leaving
    assert seen["left"] == f"you left the table with {cash_out} chips"
    db = sqlite3.connect(room.store.path, isolation_level=None)
    try:
        assert audit_room(db) == {"ok": True, "problems": [], "unchecked": []}
    finally:
        db.close()
