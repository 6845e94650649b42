"""The browser table in a real browser: Debian's Chromium driven by Playwright's async
API. Two players in two browser contexts (one phone-width) sit down at a Double Hold'em
table and play a hand through the point cards (DH-5) to the showdown; one reloads the page
mid-hand and carries on with the same seat and cards. Screenshots are kept as test output
(in ``$DOUBLEHOLDEM_SCREENSHOTS`` when set)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from server_harness import (
    DOUBLE_THREE,
    NEEDS_BROWSER,
    ServerThread,
    chromium,
    screenshots,
    served,
)

pytestmark = NEEDS_BROWSER

CONFIG = replace(DOUBLE_THREE, action_time=120, point_time=120)


async def _decide(page: Any) -> bool:
    """Makes the page's decision if it has one: point card 0 by keyboard ("1"), check
    ("k") or call ("c"). True if it acted."""
    if await page.locator("#hole button[data-point]").count():
        await page.keyboard.press("1")
        return True
    actions = page.locator("#actions button")
    if await actions.count():
        if await page.locator('#actions button[data-action="check"]').count():
            await page.keyboard.press("k")
        else:
            await page.locator('#actions button[data-action="call"]').click()
        return True
    return False


async def _hole(page: Any) -> list[str]:
    cards = page.locator("#hole [data-card], #hole button[data-point]")
    await cards.first.wait_for()
    names = []
    for index in range(await cards.count()):
        item = cards.nth(index)
        names.append(
            await item.get_attribute("data-card") or await item.get_attribute("aria-label")
        )
    return [name.replace("point card ", "") for name in names]


async def _scenario(url: str, shots: Path) -> dict[str, Any]:
    async with chromium() as browser:
        desk = await browser.new_context(viewport={"width": 1100, "height": 900})
        phone = await browser.new_context(viewport={"width": 390, "height": 844})
        ann, bob = await desk.new_page(), await phone.new_page()
        for page, name in ((ann, "ann"), (bob, "bob")):
            await page.goto(url)
            await page.fill("#name", name)
            await page.locator('button[data-sit="0"]').click()
            await page.locator("#table").wait_for(state="visible")
        await ann.locator("#hole .card").first.wait_for()
        before = await _hole(ann)
        assert len(before) == 3  # DH-1
        decisions, reloaded, shown = 0, False, {}
        for _ in range(600):
            if "wins" in (await ann.inner_text("#results")):
                break
            acted = False
            for page in (ann, bob):
                if await _decide(page):
                    acted = True
                    decisions += 1
                    await page.wait_for_timeout(150)
            # bob's page never shows ann's cards before the showdown
            seats_text = await bob.inner_html("#seats")
            if "show" not in (await bob.inner_text("#history")):
                assert not any(f'data-card="{c}"' in seats_text for c in before)
            if decisions >= 4 and not reloaded:  # on the flop, after the point cards
                await ann.screenshot(path=str(shots / "table-before-reload.png"))
                await ann.reload()
                await ann.locator("#table").wait_for(state="visible")
                assert sorted(await _hole(ann)) == sorted(before)
                reloaded = True
            if not acted:
                await ann.wait_for_timeout(100)
        results = await ann.inner_text("#results")
        history = await ann.inner_text("#history")
        shown["results"] = results
        shown["history"] = history
        shown["reloaded"] = reloaded
        shown["decisions"] = decisions
        await ann.screenshot(path=str(shots / "table-showdown.png"), full_page=True)
        await bob.screenshot(path=str(shots / "table-phone.png"), full_page=True)
        return shown


def test_two_players_play_a_double_holdem_hand_in_the_browser(tmp_path: Path) -> None:
    shots = screenshots(tmp_path)
    settings = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=30.0, configs=[CONFIG])
    room = Room.open(str(tmp_path / "tables.db"), settings)
    outcome = served(room, lambda server: _scenario(server.url, shots))
    assert outcome["reloaded"]
    assert "wins" in outcome["results"]
    assert "picks point card" in outcome["history"]  # DH-5, the player's own choice
    assert "shows" in outcome["history"] or "wins" in outcome["history"]
    assert (shots / "table-showdown.png").stat().st_size > 10_000


async def _second_tab(url: str) -> dict[str, Any]:
    """ann sits in one tab, opens the table in a second tab of the same browser, closes
    it and reloads the first."""
    async with chromium() as browser:
        context = await browser.new_context(viewport={"width": 1100, "height": 900})
        first = await context.new_page()
        await first.goto(url)
        await first.fill("#name", "ann")
        await first.locator('button[data-sit="0"]').click()
        await first.locator("#table").wait_for(state="visible")
        second = await context.new_page()
        await second.goto(url)
        await second.locator("#lobby").wait_for(state="visible")
        await second.wait_for_timeout(500)
        outcome = {"second_in_lobby": await second.locator("#lobby").is_visible()}
        await second.close()
        await first.reload()
        await first.locator("#table").wait_for(state="visible", timeout=10_000)
        outcome["status"] = await first.inner_text("#status")
        return outcome


def test_a_second_tab_does_not_orphan_the_first_tabs_seat(tmp_path: Path) -> None:
    settings = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=30.0, configs=[CONFIG])
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room) as server:
        outcome = asyncio.run(_second_tab(server.url))
        assert [s["player"] if s else None for s in room.lobby()[0][0]["seats"]] == [
            "ann",
            None,
            None,
        ]
        assert len(room.runners[0].humans) == 1  # the seat's token still holds it
    assert outcome["second_in_lobby"]
    assert "seat 1" in outcome["status"]  # the first tab resumed its seat after a reload


async def _sit_out_and_leave(url: str, shots: Path) -> dict[str, Any]:
    """ann sits beside a bot; during her hand she sits out, comes back, and leaves: the
    page says what her seat does at each step, as the table shows it to everyone."""
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1100, "height": 900})
        await page.goto(url)
        await page.fill("#name", "ann")
        await page.locator('button[data-sit="0"]').click()  # the first open seat: 1
        await page.locator("#hole .card, #hole button").first.wait_for()  # her hand
        seen: dict[str, Any] = {"sit_in_hidden": await page.locator("#sit-in").is_hidden()}
        await page.locator("#sit-out").click()
        await page.locator("#sit-in").wait_for(state="visible")
        seen["sitting_out"] = await page.inner_text("#seat-state")
        seen["seats_sitting_out"] = await page.inner_text('#seats li[data-seat="1"]')
        await page.locator("#sit-in").click()
        await page.locator("#sit-out").wait_for(state="visible")
        seen["back"] = await page.inner_text("#seat-state")
        await page.locator("#leave").click()
        await page.locator("#status", has_text="leaving after this hand").wait_for()
        seen["status"] = await page.inner_text("#status")
        seat = page.locator('#seats li[data-seat="1"]', has_text="leaving after this hand")
        await seat.wait_for()
        seen["seats_leaving"] = await seat.inner_text()
        seen["table_visible"] = await page.locator("#table").is_visible()
        await page.screenshot(path=str(shots / "table-leaving.png"), full_page=True)
        return seen


def test_sit_out_sit_in_and_leaving_after_this_hand_in_the_browser(tmp_path: Path) -> None:
    shots = screenshots(tmp_path)
    settings = RoomSettings(tables=1, bots=1, bot_delay=0.2, pause=30.0, configs=[CONFIG])
    room = Room.open(str(tmp_path / "tables.db"), settings)
    seen = served(room, lambda server: _sit_out_and_leave(server.url, shots))
    assert seen["sit_in_hidden"]
    assert seen["sitting_out"] == "sitting out" and "(sitting out)" in seen["seats_sitting_out"]
    assert seen["back"] == ""
    assert "leaving after this hand" in seen["status"] and seen["table_visible"]
    assert "ann" in seen["seats_leaving"]
