"""The table read right, in a real browser (Debian's Chromium driven by Playwright, as
test_browser.py): two scripted hands of no-limit Double Hold'em on fixed decks, where
every line of ann's hand history is compared with the log entries the server sent her,
read by :func:`line` from the entries' own fields (docs/events.md): posts, a raise to its
total, calls, all-ins, point cards, a loser shown by ann's "Muck losing hands" box and
one mucked (TH-22), hand names and the Double Hold'em hand that played (DH-3, DH-4), an
uncalled bet returned (TH-20), a main and a side pot with who won each (TH-21, TH-23).
ann looks at the lobby and comes back to her seat's view; cy tops up with the amount box
and is refused next to it."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.game import GameConfig, Hand, Structure, Variant, stacked_deck
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from doubleholdem.table import deal as deal_module
from server_harness import NEEDS_BROWSER, ServerThread, chromium, screenshots

pytestmark = NEEDS_BROWSER

CONFIG = TableConfig(
    small_blind=5,
    big_blind=10,
    seats=3,
    variant=Variant.DOUBLE,
    structure=Structure.NO_LIMIT,
    action_time=120,
    point_time=120,
)
NAMES = {0: "ann", 1: "bob", 2: "cy"}
BUY_INS = {0: 1000, 1: 600, 2: 300}
# hand 1: ann (the button) raises, both call, checked down; bob's aces win, cy's queens are
# mucked, ann's kings shown by her preference. Hand 2: bob raises, cy and ann all in, bob
# calls all in: ann's uncalled 280 back, the main pot to cy's aces, the side pot to ann.
DECKS = [
    ({0: "KsKhTd", 1: "AsAdKc", 2: "QcQdTc"}, "2c7h9s3dJh"),
    ({0: "KsKdQd", 1: "JsJdTc", 2: "AsAdQc"}, "2c7h9s3d4c"),
]
SCRIPT = {
    0: ["raise 40", "check", "check", "check", "all_in"],
    1: ["call", "check", "check", "check", "raise 40", "call"],
    2: ["call", "check", "check", "check", "all_in"],
}
POSTS = {"ante": "an ante of ", "small_blind": "the small blind ", "big_blind": "the big blind "}


def _pot(index: int) -> str:
    return "the main pot" if index == 0 else f"side pot {index}"


def line(e: dict[str, Any]) -> str | None:
    """The history line of log entry ``e`` as a person should read it."""
    kind = e["kind"]
    name = NAMES.get(e.get("seat", -1), "")
    all_in = ", all in" if e.get("all_in") else ""
    cards = " ".join(e.get("cards", []))
    texts = {
        "hand_start": lambda: f"Hand #{e['number']}: button {NAMES[e['button']]}",
        "post": lambda: f"{name} posts {e['amount']}{all_in}",
        "post_dead": lambda: f"{name} posts {e['amount']} dead{all_in}",
        "deal": lambda: f"{name} is dealt {cards}" if cards else None,
        "fold": lambda: f"{name} folds",
        "check": lambda: f"{name} checks",
        "call": lambda: f"{name} calls {e['amount']}{all_in}",
        "bet": lambda: f"{name} bets {e['to']}{all_in}",
        "raise": lambda: f"{name} raises to {e['to']}{all_in}",
        "return": lambda: f"{e['amount']} returned to {name}",
        "point": lambda: (
            f"{name} picks point card {cards}" if cards else f"{name} picks a point card"
        ),
        "show": lambda: (
            f"{name} shows {cards}"
            + (f", point card {e['cards'][e['point']]}" if "point" in e else "")
        ),
        "hand": lambda: (
            f"{name} has {e['name']}"
            + (f" with Hand {e['hand']}, {' '.join(e['played'])}" if "played" in e else "")
            + f" ({cards})"
        ),
        "muck": lambda: f"{name} mucks",
        "pot": lambda: (
            ("Main pot" if e["pot"] == 0 else f"Side pot {e['pot']}")
            + f": {e['amount']}, for "
            + ", ".join(NAMES[s] for s in e["seats"])
        ),
        "rake": lambda: f"The house takes {e['amount']} from {_pot(e['pot'])}",
        "award": lambda: f"{name} wins {e['amount']} from {_pot(e['pot'])}",
        "join": lambda: f"{e['player']} sits down in seat {e['seat'] + 1} with {e['amount']}",
        "top_up": lambda: f"{name} tops up {e['amount']}",
    }
    if kind in POSTS:
        return f"{name} posts {POSTS[kind]}{e['amount']}{all_in}"
    if kind in ("flop", "turn", "river"):
        return f"{kind.capitalize()}: {cards}"
    text = texts.get(kind)
    return None if text is None else text()


class Seen:
    """The log entries the server sent to seat 0's connection since its last ``state``
    (the page starts its history over at a state)."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def audit(self, text: str) -> None:
        message = json.loads(text)
        if message["type"] in ("state", "update") and message.get("seat") == 0:
            with self.lock:
                if message["type"] == "state":
                    self.entries = []
                self.entries.extend(message["log"])

    def lines(self) -> list[str]:
        with self.lock:
            return [text for text in map(line, self.entries) if text is not None]

    def ended(self, number: int) -> bool:
        with self.lock:
            return any(e["kind"] == "hand_end" and e["number"] == number for e in self.entries)


async def _act(page: Any, scripts: list[str]) -> bool:
    """The page's decision if it has one: point card 0 by a click, else its next
    scripted action. True if it acted."""
    point = page.locator('#hole button[data-point="0"]')
    if await point.count():
        await point.click()
        return True
    if not await page.locator("#actions button").count():
        return False
    word, *amount = scripts.pop(0).split()
    if word == "all_in":  # the page's all-in key: the call or the raise that puts it all in
        await page.evaluate("document.activeElement && document.activeElement.blur()")
        await page.keyboard.press("a")
        return True
    if amount:
        await page.fill("#amount-value", amount[0])
        await page.locator("#amount-value").dispatch_event("input")
    await page.locator(f'#actions button[data-action="{word}"]').click()
    return True


async def _history_matches(page: Any, seen: Seen) -> tuple[list[str], list[str]]:
    shown: list[str] = []
    for _ in range(50):
        shown = await page.locator("#history li").all_inner_texts()
        if shown == seen.lines():
            break
        await page.wait_for_timeout(100)
    return shown, seen.lines()


async def _scenario(url: str, seen: Seen, shots: Path) -> dict[str, Any]:
    found: dict[str, Any] = {}
    async with chromium() as browser:
        context = await browser.new_context(viewport={"width": 1100, "height": 1000})
        pages = {}
        for seat in (0, 1, 2):
            page = pages[seat] = await context.new_page()
            await page.goto(url)
            await page.fill("#name", NAMES[seat])
            await page.fill("#buyin", str(BUY_INS[seat]))
            await page.locator('button[data-sit="0"]').click()
            await page.locator("#table").wait_for(state="visible")
            if seat == 0:
                await page.locator("#pref-muck").uncheck()  # show losing hands
                await page.locator("#seat-note").get_by_text("saved").wait_for()
        ann = pages[0]
        await ann.locator("#hole .card").first.wait_for()
        hole = await ann.locator("#hole .card").all_inner_texts()
        await ann.locator("#to-lobby").click()
        await ann.locator("#to-table").click()  # back to the seat's own view
        await ann.locator("#hole .card").first.wait_for()
        found["back_hidden"] = await ann.locator("#to-table").is_hidden()
        found["hole_back"] = await ann.locator("#hole .card").all_inner_texts() == hole
        found["back_lines"] = await _history_matches(ann, seen)
        scripts = {seat: list(actions) for seat, actions in SCRIPT.items()}
        for _ in range(400):
            if seen.ended(2):
                break
            acted = False
            for seat, page in pages.items():
                if await _act(page, scripts[seat]):
                    acted = True
                    await page.wait_for_timeout(150)
            if not acted:
                await ann.wait_for_timeout(100)
        found["lines"] = await _history_matches(ann, seen)
        found["results"] = await ann.inner_text("#results")
        await ann.screenshot(path=str(shots / "table-showdown-lines.png"), full_page=True)
        cy = pages[2]
        await cy.fill("#top-up-amount", "5000")
        await cy.locator("#top-up").click()
        await cy.locator("#seat-note.error").wait_for()
        found["refused"] = await cy.inner_text("#seat-note")
        await cy.fill("#top-up-amount", "100")
        await cy.locator("#top-up").click()
        await cy.locator("#seat-note").get_by_text("chips added").wait_for()
        found["topped_up"] = await _history_matches(ann, seen)
        return found


def test_every_history_line_is_true_to_its_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decks = list(DECKS)

    def stacked_hand(config: GameConfig, *, rng: Any = None) -> Hand:
        holes, board = decks.pop(0)
        return Hand(config, deck=stacked_deck(config, holes, board))

    monkeypatch.setattr(deal_module, "Hand", stacked_hand)
    shots = screenshots(tmp_path)
    settings = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=0.5, configs=[CONFIG])
    room = Room.open(str(tmp_path / "tables.db"), settings)
    runner = room.runners[0]
    runner._ready = lambda: len(runner.table.able()) == 3  # type: ignore[method-assign]
    seen = Seen()
    with ServerThread(room) as server:
        audit = room.audit
        assert audit is not None

        def both(connection: Any, runner: Any, text: str) -> None:
            audit(connection, runner, text)
            seen.audit(text)

        room.audit = both
        outcome = asyncio.run(_scenario(server.url, seen, shots))
        assert server.leaks == [] and server.mismatches == []
    assert outcome["hole_back"] and outcome["back_hidden"]
    shown, expected = outcome["back_lines"]
    assert shown == expected and "ann is dealt Ks Kh Td" in shown
    shown, expected = outcome["lines"]
    assert shown == expected
    for text in (
        "bob posts the small blind 5",
        "cy posts the big blind 10",
        "ann raises to 40",
        "bob calls 35",
        "bob picks a point card",
        "ann picks point card Ks",
        "bob shows As Ad Kc, point card As",
        "bob has Pair, Aces, kickers Jack, Nine, Seven with Hand 1, As Ad (As Ad Jh 9s 7h)",
        "cy mucks",
        "ann shows Ks Kh Td, point card Ks",
        "Main pot: 120, for ann, bob, cy",
        "bob wins 120 from the main pot",
        "bob raises to 40",
        "cy raises to 260, all in",
        "ann raises to 960, all in",
        "bob calls 640, all in",
        "280 returned to ann",
        "Side pot 1: 840, for ann, bob",
        "ann wins 840 from side pot 1",
        "Main pot: 780, for ann, bob, cy",
        "cy wins 780 from the main pot",
    ):
        assert text in shown, (text, "\n".join(shown))
    assert shown.index("Side pot 1: 840, for ann, bob") < shown.index(
        "Main pot: 780, for ann, bob, cy"
    )
    assert "cy wins 780 from the main pot" in outcome["results"]
    assert outcome["refused"].startswith("seat 3")  # cy's seat 2 in the protocol
    shown, expected = outcome["topped_up"]
    assert shown == expected and shown[-1] == "cy tops up 100"


async def _leave_mid_hand(url: str) -> dict[str, Any]:
    async with chromium() as browser:
        context = await browser.new_context(viewport={"width": 1100, "height": 900})
        pages = []
        for name in ("ann", "bob"):
            page = await context.new_page()
            await page.goto(url)
            await page.fill("#name", name)
            await page.locator('button[data-sit="0"]').click()
            await page.locator("#table").wait_for(state="visible")
            pages.append(page)
        ann = pages[0]
        await ann.locator("#hole .card").first.wait_for()
        await ann.locator("#leave").click()
        await ann.locator("#status").get_by_text("after this hand").wait_for()
        await ann.locator("#history li").get_by_text("ann leaves after this hand").wait_for()
        return {
            "table": await ann.locator("#table").is_visible(),
            "tools": await ann.locator("#seat-tools").is_hidden(),
        }


def test_leaving_mid_hand_says_so_and_watches_the_hand_out(tmp_path: Path) -> None:
    settings = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=30.0, configs=[CONFIG])
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room) as server:
        outcome = asyncio.run(_leave_mid_hand(server.url))
        assert server.leaks == []
    assert outcome == {"table": True, "tools": True}
