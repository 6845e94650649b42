"""Faster play, chat and the hand history in a real browser (Debian's Chromium driven by
Playwright, as test_browser.py): bet presets from the server's legal range, pre-action
boxes that act at once and clear when a bet comes in front, chat lines with HTML in them
shown as text, muting, the replay of the hand just played and its PHH without the other
player's cards, and a phone width without horizontal scrolling."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from doubleholdem.game import phh
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from server_harness import NEEDS_BROWSER, ServerThread, chromium, screenshots

pytestmark = NEEDS_BROWSER

NO_LIMIT = TableConfig(small_blind=5, big_blind=10, seats=3, action_time=120)
FRAGMENTS = ["<script>window.owned = 1</script>", '<img src=x onerror="window.owned = 2">']


async def _mine(page: Any) -> bool:
    """Whether it is this page's turn (as the server last said)."""
    return bool(
        await page.evaluate(
            "() => { const s = window.dh.state; return Boolean(s && s.view.hand && "
            "s.view.hand.legal && s.view.to_act === window.dh.seat); }"
        )
    )


async def _until(page: Any, script: str, timeout: float = 20.0) -> None:
    await page.wait_for_function(script, timeout=timeout * 1000)


async def _board(page: Any) -> int:
    return int(await page.locator("#board .card").count())


async def _scenario(url: str, shots: Path) -> dict[str, Any]:
    async with chromium() as browser:
        desk = await browser.new_context(viewport={"width": 1100, "height": 900})
        phone = await browser.new_context(viewport={"width": 375, "height": 812})
        ann, bob = await desk.new_page(), await phone.new_page()
        dialogs: list[str] = []
        for page, name in ((ann, "ann"), (bob, "bob")):
            page.on("dialog", lambda d: dialogs.append(d.message))
            await page.goto(url)
            await page.fill("#name", name)
            await page.locator('button[data-sit="0"]').click()
            await page.locator("#table").wait_for(state="visible")
        await _until(ann, "() => window.dh.state && window.dh.state.view.hand")
        await _until(ann, "() => window.dh.state.view.to_act !== null")
        first, other = (ann, bob) if await _mine(ann) else (bob, ann)
        found: dict[str, Any] = {"sound_default": await ann.is_checked("#sound")}

        # pre-action "check" ticked by the big blind, then a bet comes in front of it
        await other.locator("#pre-actions").wait_for(state="visible")
        await other.check("#pre-check")
        await first.locator("#presets button").first.wait_for()
        presets = await first.evaluate("() => window.dh.state.view.hand.legal.presets")
        labels = await first.locator("#presets button").all_inner_texts()
        found["presets"], found["labels"] = presets, labels
        await first.locator('#presets button[data-preset="pot"]').click()
        found["amount"] = await first.input_value("#amount-value")
        found["raise_label"] = await first.inner_text('#actions button[data-action="raise"]')
        await first.locator('#actions button[data-action="raise"]').click()
        await _until(other, "() => document.querySelector('#actions button')")
        found["check_cleared"] = not await other.is_checked("#pre-check")
        found["other_can_act"] = await _mine(other)
        await other.locator('#actions button[data-action="call"]').click()

        # on the flop the big blind acts first; the button's check/fold acts at once
        await _until(first, "() => document.querySelectorAll('#board .card').length === 3")
        await first.locator("#pre-actions").wait_for(state="visible")
        await first.check("#pre-check_fold")
        await other.locator('#actions button[data-action="check"]').click()
        await _until(first, "() => document.querySelectorAll('#board .card').length === 4")
        found["auto_checked"] = await first.inner_text("#history")

        # chat, with HTML in it, and muting
        for text in FRAGMENTS:
            await ann.fill("#chat-text", text)
            await ann.press("#chat-text", "Enter")
        await _until(bob, "() => document.querySelectorAll('#chat li').length === 2")
        found["chat"] = await bob.locator("#chat .said").all_inner_texts()
        found["chat_elements"] = await bob.locator("#chat script, #chat img").count()
        found["owned"] = await bob.evaluate("() => window.owned === undefined")
        await bob.locator("#chat button.mute").first.click()
        await ann.fill("#chat-text", "can you hear me")
        await ann.press("#chat-text", "Enter")
        await _until(bob, "() => document.querySelectorAll('#chat li').length === 3")
        found["muted_visible"] = await bob.locator("#chat li:visible").count()

        # play the hand out: check or call
        for _ in range(200):
            if "wins" in await ann.inner_text("#results"):
                break
            for page in (ann, bob):
                if await _mine(page):
                    check = page.locator('#actions button[data-action="check"]')
                    if await check.count():
                        await check.click()
                    else:
                        await page.locator('#actions button[data-action="call"]').click()
                    await page.wait_for_timeout(200)
            await ann.wait_for_timeout(100)

        # the hand history: the list, a replay street by street, the PHH
        hole = await ann.locator("#hole [data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        found["hole"] = hole
        await ann.locator("#my-hands").click()
        await ann.locator("#hands li").first.wait_for()
        await ann.locator("button[data-replay]").first.click()
        found["street0"] = await ann.inner_text("#replay h4")
        await ann.locator('#replay button[data-step="next"]').click()
        found["street1"] = await ann.inner_text("#replay h4")
        found["replay_lines"] = await ann.inner_text("#replay")
        found["replay_board"] = await ann.locator("#replay .replay-board .card").count()
        found["replay_pot"] = await ann.inner_text("#replay .replay-pot")
        found["replay_own"] = await ann.locator("#replay .replay-seats [data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        await ann.screenshot(path=str(shots / "table-replay.png"), full_page=True)
        found["phh"] = await ann.evaluate(
            "async () => (await fetch(document.querySelector('a[data-phh]').href)).text()"
        )
        found["bob_hole"] = await bob.locator("#hole [data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        found["phone_scroll"] = await bob.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth]"
        )
        await bob.screenshot(path=str(shots / "table-phone-chat.png"), full_page=True)
        found["dialogs"] = dialogs
        return found


def test_presets_pre_actions_chat_and_replay_in_the_browser(tmp_path: Path) -> None:
    shots = screenshots(tmp_path)
    settings = RoomSettings(
        tables=1, bots=0, bot_delay=0.0, pause=120.0, configs=[NO_LIMIT], guests=True
    )
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room) as server:
        found = asyncio.run(_scenario(server.url + "/", shots))
        assert server.leaks == []
    assert found["sound_default"] is False  # the sound is off until asked for
    presets = found["presets"]
    # heads-up preflop the button's half pot raise is the minimum raise: shown once
    assert presets == {"min": 20, "pot": 30, "all_in": 1000}
    assert [int(label.split()[-1]) for label in found["labels"]] == list(presets.values())
    assert int(found["amount"]) == presets["pot"] and str(presets["pot"]) in found["raise_label"]
    assert found["check_cleared"] and found["other_can_act"]
    assert "checks" in found["auto_checked"]  # the button's pre-action acted, no click
    assert found["chat"] == FRAGMENTS  # as text
    assert found["chat_elements"] == 0 and found["owned"] and found["dialogs"] == []
    assert found["muted_visible"] == 0  # ann muted: her lines hidden, the new one too
    assert found["street0"].endswith("preflop") and found["street1"].endswith("flop")
    # the replayer speaks the live history's words, on a felt: the flop's three cards,
    # ann's own cards, the pot as it stood
    assert "Flop:" in found["replay_lines"] and "posts the small blind 5" in found["replay_lines"]
    assert found["replay_board"] == 3 and found["replay_pot"].startswith("Pot ")
    assert set(found["hole"]) <= set(found["replay_own"])
    history = phh.loads(found["phh"])
    assert "".join(found["hole"]) in found["phh"]
    assert "".join(found["bob_hole"]) not in found["phh"] or any(
        " sm " in a for a in history.actions
    )
    assert any(a.endswith("????") for a in history.actions)
    width, viewport = found["phone_scroll"]
    assert width <= viewport == 375
