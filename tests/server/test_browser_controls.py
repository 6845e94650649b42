"""The table fits the game and the screen (issue 32 item 2), in a real browser (Debian's
Chromium through Playwright): on every decision of several hands, at a fixed-limit table
on a 1280x800 screen and a no-limit table of six seats on a 375x812 phone, the page
offers exactly the legal actions the server sent, each once (never an "All in" the
server refuses: going all in is the call or the raise that puts the stack in, labelled
so), a bet or raise named by the total it goes to; every button and the clock lie inside
the viewport without scrolling; and after a refusal the legal controls come back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from doubleholdem.game import Structure
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from server_harness import NEEDS_BROWSER, ServerThread, chromium

pytestmark = NEEDS_BROWSER
FIXED = TableConfig(small_blind=5, big_blind=10, seats=2, structure=Structure.FIXED_LIMIT)
NO_LIMIT = TableConfig(small_blind=5, big_blind=10, seats=6, structure=Structure.NO_LIMIT)
MY_TURN = (
    "() => { const s = window.dh.state; return s && s.view.hand && s.view.hand.legal &&"
    " s.view.to_act === window.dh.seat && document.querySelector('#actions button'); }"
)
EXPECTED = """() => {
  const legal = window.dh.state.view.hand.legal;
  const found = [];
  if (legal.can_fold) found.push("fold");
  if (legal.can_check) found.push("check"); else if (legal.call_amount > 0) found.push("call");
  if (legal.min_raise_to !== null) found.push(legal.is_bet ? "bet" : "raise");
  return found;
}"""
OFFERED = "() => [...document.querySelectorAll('#actions button')].map((b) => b.dataset.action)"


async def _inside(page: Any, selector: str, size: dict[str, int]) -> list[str]:
    """The elements of ``selector`` that are not wholly inside the viewport."""
    outside = []
    for box in [await e.bounding_box() for e in await page.query_selector_all(selector)]:
        if box is None:
            continue
        right, bottom = box["x"] + box["width"], box["y"] + box["height"]
        if box["x"] < 0 or box["y"] < 0 or right > size["width"] or bottom > size["height"]:
            outside.append(f"{selector} at {box}")
    return outside


async def _play(page: Any, size: dict[str, int], decisions: int) -> dict[str, Any]:
    seen: dict[str, Any] = {"wrong": [], "outside": [], "labels": set(), "refusals": 0}
    for turn in range(decisions):
        await page.wait_for_function(MY_TURN, timeout=30_000)
        expected, offered = await page.evaluate(EXPECTED), await page.evaluate(OFFERED)
        if expected != offered:
            seen["wrong"].append((expected, offered))
        for selector in ("#actions button", "#clock", "#hole .card"):
            seen["outside"] += await _inside(page, selector, size)
        seen["scrolled"] = await page.evaluate("window.scrollY")
        labels = await page.locator("#actions button").all_inner_texts()
        seen["labels"].update(labels)
        if turn % 3 == 0:  # an action the server refuses: the legal controls come back
            await page.evaluate("window.dh.act('raise', 1)")  # below any raise
            await page.locator("#act-note.error").wait_for()
            await page.wait_for_function(MY_TURN, timeout=30_000)
            seen["refusals"] += 1
            if await page.evaluate(EXPECTED) != await page.evaluate(OFFERED):
                seen["wrong"].append("after a refusal")
        legal = await page.evaluate("window.dh.state.view.hand.legal")
        action = "check" if legal["can_check"] else "call"
        await page.locator(f'#actions button[data-action="{action}"]').click()
    return seen


async def _scenario(url: str) -> dict[str, Any]:
    sizes = {"desk": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 812}}
    async with chromium() as browser:
        pages = {}
        for (name, size), table in zip(sizes.items(), (0, 1), strict=True):
            page = await (await browser.new_context(viewport=size)).new_page()
            await page.goto(url)
            await page.fill("#name", name)
            await page.locator(f'button[data-sit="{table}"]').click()
            await page.locator("#table").wait_for(state="visible")
            pages[name] = page
        desk, phone = await asyncio.gather(
            _play(pages["desk"], sizes["desk"], 8), _play(pages["phone"], sizes["phone"], 8)
        )
        return {"desk": desk, "phone": phone}


def test_the_controls_fit_the_game_and_the_screen(tmp_path: Path) -> None:
    settings = RoomSettings(
        tables=2, bots=1, bot_delay=0.0, pause=0.2, configs=[FIXED, NO_LIMIT], seed=11
    )
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room) as server:
        seen = asyncio.run(_scenario(server.url))
    for name in ("desk", "phone"):
        found = seen[name]
        assert found["wrong"] == [], name
        assert found["outside"] == [], name
        assert found["refusals"] >= 2
        assert not any("All in" in label for label in found["labels"]), found["labels"]
        words = {label.split()[0] for label in found["labels"]}
        assert words <= {"Fold", "Check", "Call", "Bet", "Raise"}, found["labels"]
    assert any(label.startswith("Raise to ") for label in seen["desk"]["labels"])
