"""Tournaments on the browser page (issue 34 item 3, Debian's Chromium through
Playwright): a signed-up player sees the tournament lobby (structure, entrants, prize
pool), registers (paid from its balance), opens the tournament, waits alone at its table
until the other table breaks and is told its move between tables, asks for a deal at the
final table, folds its hand, accepts the ICM deal offered, and sees its share of the
pool, paid to its balance; the ledger's audit holds after. The page does it all over
its WebSocket (docs/PROTOCOL.md, "Tournaments"): it asks nothing of the tournaments'
HTTP API, and what it draws comes in ``tournament_lobby``, ``tournament`` and
``tournament_update`` messages, its requests go out as ``tournament_*`` messages."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from doubleholdem.server.http.desk import Desk
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from passwords_double import FAST
from server_harness import NEEDS_BROWSER, ServerThread, chromium, screenshots, signed_up_page
from tournaments_room import BUY_IN, FEE, sit_and_go

pytestmark = NEEDS_BROWSER
PASSWORD = "correct horse battery"
# seed 1 draws ann alone at table 2 (of two two-seat tables): she moves when table 1 busts
SEED = 1


async def _until_deal_made(page: Any) -> None:
    """Folds or checks ann's hands and accepts the deal once it is offered, one event
    at a time: it waits for the first of the deal made, the deal's accept button and a
    fold or check button (in the page's order), clicks that very button, and waits for
    the page to draw its next state (the page draws every state anew, so the button
    goes). A button the page replaced before the click lands is not waited for again:
    a later state may never show one (the deal stops the hand)."""
    from playwright.async_api import Error as PlaywrightError  # only with a browser

    made = page.locator("#tournament-deal", has_text="Deal made")
    buttons = page.locator('#deal-accept, [data-act="fold"], [data-act="check"]')
    first = made.or_(buttons).first
    for _ in range(600):
        handle = await first.element_handle()  # waits for one
        if await handle.get_attribute("id") == "tournament-deal":
            return
        try:
            await handle.click()  # throws at once if the page replaced it meanwhile
        except PlaywrightError:
            if await handle.evaluate("node => node.isConnected"):
                raise
            continue
        await handle.wait_for_element_state("hidden")  # detached: the next state is drawn
    raise AssertionError("no deal was made")


async def _scenario(url: str, shots: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with chromium() as browser:
        page = await signed_up_page(browser, url, "ann", PASSWORD)
        asked: list[str] = []  # the page's HTTP requests of the tournaments' API
        page.on("request", lambda r: asked.append(r.url) if "/api/tournaments" in r.url else None)
        frames: dict[str, list[str]] = {"sent": [], "received": []}

        def socket(ws: Any) -> None:
            ws.on("framesent", lambda text: frames["sent"].append(str(text)))
            ws.on("framereceived", lambda text: frames["received"].append(str(text)))

        page.on("websocket", socket)
        await page.reload()  # its sockets opened again, seen from the start
        row = page.locator('[data-tournament-row="0"]')
        await row.wait_for(state="visible")
        seen["row"] = await row.inner_text()
        await page.click('[data-register="0"]')
        await page.locator("#account-balance", has_text=str(1000 - BUY_IN - FEE)).wait_for()
        await page.click('[data-open="0"]')
        await page.locator("#tournament-state", has_text="running").wait_for()
        seen["state"] = await page.inner_text("#tournament-state")
        seen["payouts"] = await page.inner_text("#tournament-payouts")
        await page.locator("#tournament-move", has_text="You moved").wait_for(timeout=60_000)
        seen["move"] = await page.inner_text("#tournament-move")
        await page.click("#deal-ask")
        await _until_deal_made(page)
        seen["deal"] = await page.inner_text("#tournament-deal")
        await page.locator("#tournament-mine:not(:empty)").wait_for()
        seen["mine"] = await page.inner_text("#tournament-mine")
        seen["entries"] = await page.inner_text("#tournament-entries")
        await page.screenshot(path=str(shots / "tournament-deal.png"), full_page=True)
        seen["asked"] = asked
        seen["sent"] = [json.loads(text)["type"] for text in frames["sent"]]
        seen["received"] = [json.loads(text)["type"] for text in frames["received"]]
    return seen


def test_a_tournament_in_the_browser_from_the_lobby_to_a_deal(tmp_path: Path) -> None:
    settings = RoomSettings(tables=0, bots=0, bot_delay=0.0, pause=0.2, seed=SEED,
                            signup=True, welcome_chips=1000)  # fmt: skip
    spec = sit_and_go(3, bots=2, seats=2, starting_stack=2000,
                      levels=[{"small_blind": 200, "big_blind": 400}])  # fmt: skip
    path = tmp_path / "tables.db"
    room = Room.open(str(path), settings)
    desk = Desk(room.store.path, settings, passwords=FAST)
    with ServerThread(room, desk=desk, tournaments=[spec]) as server:
        seen = asyncio.run(_scenario(server.url, screenshots(tmp_path)))
    assert "Turbo" not in seen["row"] and "registering 2/3" in seen["row"]
    assert "3 entrants" in seen["state"] and f"prize pool {3 * BUY_IN}" in seen["state"]
    assert f"1st: {3 * BUY_IN}" in seen["payouts"]
    assert "You moved from table 2" in seen["move"] and "to table 1" in seen["move"]
    assert "Deal made (ICM)" in seen["deal"] and "ann:" in seen["deal"]
    assert "ann" in seen["entries"]
    assert seen["asked"] == []  # nothing polled: the WebSocket only
    for kind in ("tournament_lobby", "tournament_watch", "tournament_register",
                 "tournament_act", "tournament_deal"):  # fmt: skip
        assert kind in seen["sent"], kind
    for kind in ("tournament_lobby", "tournament", "tournament_update", "result"):
        assert kind in seen["received"], kind
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        assert audit_room(db)["problems"] == []
        prize = db.execute(
            "SELECT COALESCE(SUM(e.amount), 0) FROM ledger_transactions t JOIN ledger_entries e "
            "ON e.seq = t.seq JOIN ledger_accounts a ON a.id = e.account_id "
            "WHERE t.kind = 'prize' AND a.name = 'ann'"
        ).fetchone()[0]
        balance = db.execute(
            "SELECT balance FROM ledger_accounts WHERE kind = 'player' AND name = 'ann'"
        ).fetchone()[0]
    assert prize > 0 and balance == 1000 - BUY_IN - FEE + prize
    assert seen["mine"] == f"Your share of the pool: {prize}"


async def _older(url: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with chromium() as browser:
        page = await signed_up_page(browser, url, "bo", PASSWORD)
        rows = page.locator("[data-tournament-row]")
        more = page.locator("#tournaments-more")
        await more.wait_for(state="visible")
        seen["first"] = await rows.evaluate_all("rs => rs.map(r => r.dataset.tournamentRow)")
        await more.click()
        await more.wait_for(state="hidden")
        seen["all"] = await rows.evaluate_all("rs => rs.map(r => r.dataset.tournamentRow)")
    return seen


def test_the_lobby_shows_the_newest_tournaments_over_and_older_ones_on_request(
    tmp_path: Path,
) -> None:
    """The page lists the tournaments not over, then the newest page of those over;
    *Older tournaments* adds the next page below them (``tournaments_over``)."""
    from doubleholdem.server.tournaments.room import OVER_PAGE, Tournaments

    settings = RoomSettings(tables=0, bots=0, bot_delay=0.0, pause=0.2, seed=SEED,
                            signup=True, welcome_chips=1000)  # fmt: skip
    spec = sit_and_go(3, bots=0)
    path = tmp_path / "tables.db"
    room = Room.open(str(path), settings)
    tournaments = Tournaments(room.store, settings, room.commit, [spec])
    tournaments.open()
    for number in range(OVER_PAGE + 5):  # each cancelled while registering opens the next
        tournaments.cancel(number)
    room.commit.flush()
    desk = Desk(room.store.path, settings, passwords=FAST)
    with ServerThread(room, desk=desk, tournaments=[spec]) as server:
        seen = asyncio.run(_older(server.url))
    live, over = [str(OVER_PAGE + 5)], [str(n) for n in range(OVER_PAGE + 4, -1, -1)]
    assert seen["first"] == live + over[:OVER_PAGE]
    assert seen["all"] == live + over
