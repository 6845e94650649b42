"""The tournaments' HTTP API over a real server (issue 34 item 3, docs/room-tournaments.md):
the lobby, a tournament's view for its signed-in entrant (its table from its seat),
registering and unregistering paid through the ledger, and every refusal (not signed
in, another site's page, a bad body, no such tournament, a second registration, a
decision out of turn) answered with a typed error that changes nothing. On SQLite and on
PostgreSQL (``room_db``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from doubleholdem.accounts.bank import Bank
from doubleholdem.database.url import connect
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from http_harness import PASSWORD, Browser
from passwords_double import FAST
from server_harness import ServerThread
from tournaments_room import BUY_IN, FEE, sit_and_go


@pytest.fixture
def browser(room_db: str) -> Iterator[Browser]:
    settings = RoomSettings(tables=0, bots=0, bot_delay=0.0, pause=0.0, signup=True,
                            welcome_chips=1000, signups_per_address=0)  # fmt: skip
    room = Room.open(room_db, settings)
    desk = Desk(room.store.path, settings, passwords=FAST)
    with ServerThread(room, desk=desk, tournaments=[sit_and_go(3, bots=1)]) as server:
        yield Browser(server.port)


def _balance(browser: Browser, token: str) -> int:
    return int(browser.request("GET", "/api/me", token=token).body["balance"])


def test_register_and_unregister_through_the_api(browser: Browser, room_db: str) -> None:
    ann = browser.sign_up("ann").token
    lobby = browser.request("GET", "/api/tournaments").body
    assert [(t["id"], t["status"], t["entrants"], t["pool"]) for t in lobby] == [
        (0, "registering", 1, BUY_IN)
    ]
    reply = browser.request("POST", "/api/tournaments/0/register", {}, token=ann)
    assert (reply.status, reply.body) == (200, {"ok": True, "entry": 1})
    assert _balance(browser, ann) == 1000 - BUY_IN - FEE
    again = browser.request("POST", "/api/tournaments/0/register", {}, token=ann)
    assert (again.status, again.body["error"]) == (409, "refused")
    assert "already registered" in again.body["message"]
    gone = browser.request("POST", "/api/tournaments/0/unregister", {}, token=ann)
    assert gone.status == 200 and _balance(browser, ann) == 1000
    view = browser.request("GET", "/api/tournaments/0", token=ann).body
    assert view["me"] == {"player": "ann", "registered": False}
    assert view["payouts"] == [BUY_IN] and view["structure"][0]["big"] == 20
    with contextlib.closing(connect(room_db, mode="ro")) as db:
        assert audit_room(db)["problems"] == []


def test_a_full_sit_and_go_starts_and_shows_each_entrant_its_table(browser: Browser) -> None:
    ann, bob = browser.sign_up("ann").token, browser.sign_up("bob").token
    for token in (ann, bob):
        assert browser.request("POST", "/api/tournaments/0/register", {}, token=token).status == 200
    view = browser.request("GET", "/api/tournaments/0", token=ann).body
    assert view["status"] == "running" and view["clock"]["level"] >= 1
    me = view["me"]
    assert me["registered"] and me["table"] == 1 and me["seat"] is not None
    assert me["view"]["seats"][me["seat"]]["player"] == "ann"
    assert [t["table"] for t in view["tables"]] == [1]
    lobby = browser.request("GET", "/api/tournaments").body
    assert next((t["id"], t["status"]) for t in lobby) == (1, "registering")  # the next one
    wrong = browser.request("POST", "/api/tournaments/0/act",
                            {"hand": 999, "action": "fold"}, token=ann)  # fmt: skip
    assert (wrong.status, wrong.body["error"]) == (409, "refused")


def test_refusals_name_what_was_wrong(browser: Browser) -> None:
    ann = browser.sign_up("ann").token
    post = browser.request
    assert post("POST", "/api/tournaments/0/register", {}).status == 401
    elsewhere = post("POST", "/api/tournaments/0/register", {}, token=ann,
                     headers={"Origin": "http://evil.example"})  # fmt: skip
    assert (elsewhere.status, elsewhere.body["error"]) == (403, "cross_origin")
    assert post("POST", "/api/tournaments/0/register", b"[1]", token=ann).status == 400
    assert post("POST", "/api/tournaments/7/register", {}, token=ann).status == 404
    assert post("GET", "/api/tournaments/x").status == 404
    bad = post("POST", "/api/tournaments/0/deal", {"answer": "maybe"}, token=ann)
    assert bad.status == 409 and "accept" in bad.body["message"]
    assert _balance(browser, ann) == 1000


def test_only_an_operator_cancels_and_every_entry_is_refunded(
    browser: Browser, room_db: str
) -> None:
    ann = browser.sign_up("ann").token
    assert browser.request("POST", "/api/tournaments/0/register", {}, token=ann).status == 200
    refused = browser.request("POST", "/api/tournaments/0/cancel", {}, token=ann)
    assert (refused.status, refused.body["error"]) == (403, "not_an_operator")
    with Bank(room_db, passwords=FAST) as bank:
        bank.create("boss", PASSWORD, admin=True)
    boss = browser.sign_in("boss").token
    assert browser.request("POST", "/api/tournaments/0/cancel", {}, token=boss).status == 200
    assert _balance(browser, ann) == 1000
    lobby = browser.request("GET", "/api/tournaments").body
    assert {t["id"]: t["status"] for t in lobby} == {1: "registering"}  # a sit-and-go anew
    over = browser.request("GET", "/api/tournaments/over").body
    assert [(t["id"], t["status"]) for t in over["tournaments"]] == [(0, "cancelled")]
    assert over["next"] is None
    with contextlib.closing(connect(room_db, mode="ro")) as db:
        assert audit_room(db)["problems"] == []


def test_a_decision_resent_with_its_id_is_answered_repeated(browser: Browser) -> None:
    tokens = {name: browser.sign_up(name).token for name in ("ann", "bob")}
    for token in tokens.values():
        assert browser.request("POST", "/api/tournaments/0/register", {}, token=token).status == 200
    for _ in range(2_000):  # until a person's turn (the bot acts at once)
        turns = [(token, browser.request("GET", "/api/tournaments/0", token=token).body["me"])
                 for token in tokens.values()]  # fmt: skip
        mine = [(t, me["view"]) for t, me in turns if (me["view"].get("hand") or {}).get("legal")]
        if mine:
            break
    else:
        raise AssertionError("never a person's turn")
    token, view = mine[0]
    legal = view["hand"]["legal"]
    action = "check" if legal["can_check"] else "call"
    decision = {"id": "h1", "hand": view["hand_number"], "action": action}
    post = browser.request
    bad = post("POST", "/api/tournaments/0/act", {**decision, "id": "no spaces"}, token=token)
    assert (bad.status, bad.body["error"]) == (409, "refused")
    assert "action id" in bad.body["message"]
    first = post("POST", "/api/tournaments/0/act", decision, token=token)
    assert (first.status, first.body) == (200, {"ok": True})
    again = post("POST", "/api/tournaments/0/act", decision, token=token)
    assert (again.status, again.body) == (200, {"ok": True, "repeated": True})
    other = post("POST", "/api/tournaments/0/act", {**decision, "action": "fold"}, token=token)
    assert (other.status, other.body["error"]) == (409, "id_reused")
