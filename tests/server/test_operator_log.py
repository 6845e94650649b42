"""The operator's log (issue 32 item 6): a scripted session over a real server (sign-ups,
a sign-in refused and one taken, two buy-ins and a hand dealt, a cash-out, an account
frozen by the operator, a commit that fails and the database taking writes again, the
shutdown) logs each of its events once, as one JSON object a line, and never a
password, a session or seat token, or a card; the wallet's failures and a removal are
logged once too, and a change whose commit failed is not logged as done. ``serve``
takes ``--log-level``, ``--log-format`` and ``--access-log``."""

from __future__ import annotations

import asyncio
import io
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from doubleholdem.accounts.bank import Bank
from doubleholdem.server import oplog
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from faults import database_error
from http_harness import Browser
from money_room import kinds, send
from passwords_double import FAST
from server_harness import DOUBLE_THREE, Client, ServerThread, play_seat
from wallets import FlakyWallet

SECRET = "zebra-unicorn-PASSWORD-91"
CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")


@pytest.fixture
def log() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    oplog.configure(level="info", style="json", access=True, stream=stream)
    yield stream
    oplog.unconfigure()


def _lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def _events(stream: io.StringIO) -> Counter[tuple[str, str]]:
    """How often each (event, who) was logged by the room."""
    found: Counter[tuple[str, str]] = Counter()
    for line in _lines(stream):
        if line["logger"] == "doubleholdem.server":
            who = line.get("account") or line.get("player") or line.get("name") or ""
            found[(line["event"], who)] += 1
    return found


def _cookie(token: str) -> dict[str, Any]:
    return {"additional_headers": {"Cookie": f"dh_session={token}"}}


async def _until_closed(client: Client) -> None:
    with pytest.raises(websockets.exceptions.ConnectionClosed):
        for _ in range(1000):
            await client.next(timeout=10)


def test_a_scripted_session_logs_each_event_once_and_no_secret(
    room_db: str, log: io.StringIO
) -> None:
    settings = RoomSettings(
        tables=1,
        bots=0,
        bot_delay=0.0,
        pause=600.0,
        configs=[DOUBLE_THREE],
        signup=True,
        welcome_chips=3000,
    )
    room = Room.open(room_db, settings)
    desk = Desk(room.store.path, room.settings, passwords=FAST)
    secrets: list[str] = [SECRET]
    with ServerThread(room, desk=desk, log_config=None, log_level=None) as server:
        browser = Browser(server.port)
        ann_session = browser.sign_up("ann", SECRET).token
        bob_session = browser.sign_up("bob", SECRET).token
        assert browser.sign_in("ann", SECRET + "x").status == 401
        reply = browser.sign_in("ann", SECRET)
        assert reply.status == 200
        secrets += [ann_session, bob_session, reply.token]

        async def scenario() -> None:
            ann = await Client.connect(server.ws_url, **_cookie(ann_session))
            bob = await Client.connect(server.ws_url, **_cookie(bob_session))
            for client in (ann, bob):
                await client.send(type="sit", table=0, buy_in=500)
                secrets.append((await client.next("seated"))["token"])
            await asyncio.gather(play_seat(ann, 0, 1), play_seat(bob, 1, 1))
            assert CARD.search("".join(ann.texts))  # ann was dealt her cards
            await ann.send(type="leave")  # between hands: cashed out at once
            left = await ann.next("left")
            assert left["cash_out"] is not None
            with Bank(room.store.path) as bank:
                bank.set_state("bob", "frozen")  # the operator freezes bob
            await _until_closed(bob)
            _fail_writes(room)  # ann's next sit is not committed (a full disk)
            await ann.send(type="sit", table=0, buy_in=500)
            assert (await ann.next("error"))["code"] == "unavailable"
            del room.store.put_table, room.store.writable  # mended: the heartbeat writes
            for _ in range(1000):
                if room.health() is None:
                    break
                await asyncio.sleep(0.01)
            assert room.health() is None
            await ann.close()

        asyncio.run(scenario())
    found = _events(log)
    assert {event: n for event, n in found.items() if n != 1} == {}
    assert set(found) == {
        ("sign_up", "ann"),
        ("sign_up", "bob"),
        ("sign_in_refused", "ann"),
        ("sign_in", "ann"),
        ("buy_in", "ann"),
        ("buy_in", "bob"),
        ("cash_out", "ann"),
        ("account_blocked", "bob"),
        ("commit_failed", ""),
        ("writes_again", ""),
        ("shutdown", ""),
    }
    text = log.getvalue()
    for secret in secrets:
        assert secret not in text
    assert CARD.findall(text) == []
    access = [line for line in _lines(log) if line["event"] == "access"]
    assert {(line["method"], line["path"], line["status"]) for line in access} >= {
        ("POST", "/api/signin", 401),
        ("POST", "/api/signup", 201),
    }
    refused = next(line for line in _lines(log) if line["event"] == "sign_in_refused")
    assert (refused["reason"], refused["address"]) == ("bad_credentials", "127.0.0.1")


def _fail_writes(room: Room) -> None:
    """Every table snapshot written fails, and so does the heartbeat that probes the
    database (a full disk), until ``del room.store.put_table, room.store.writable``:
    the heartbeat cannot find the disk mended before it is (and a change made then fail
    once more)."""

    def failing(*args: Any) -> None:
        database_error(room.store)

    room.store.put_table = failing  # type: ignore[method-assign]
    room.store.writable = lambda: False  # type: ignore[method-assign]


async def _served(room: Room, connection: Any, **fields: Any) -> list[dict[str, Any]]:
    """A request as a running server serves it (a wallet's call off the loop, the commit
    at the loop's next turn, on PostgreSQL on a thread of its own: each waited for)."""
    room.handle(connection, json.dumps({"v": 2, **fields}))
    await room.wallet_calls_ended()
    await asyncio.sleep(0)
    while not room.commit.idle():
        await asyncio.sleep(0.001)
    return send(room, connection, type="ping")


def _wallet_room(wallet: FlakyWallet, room_db: str) -> Room:
    settings = RoomSettings(
        tables=1, bots=0, pause=0.0, configs=[DOUBLE_THREE], seed=5, guests=False
    )
    settings.clock = lambda: 100.0
    return Room.open(room_db, settings, wallet=wallet)


def test_a_wallet_failure_and_a_removal_are_logged_once(room_db: str, log: io.StringIO) -> None:
    wallet = FlakyWallet({"ann": 1000, "bob": 1000})
    room = _wallet_room(wallet, room_db)
    ann, bob = room.connect(account="ann"), room.connect(account="bob")
    wallet.down.add("debit")
    assert kinds(send(room, ann, type="sit", table=0, buy_in=400)) == ["unavailable"]
    wallet.down.clear()
    assert kinds(send(room, bob, type="sit", table=0, buy_in=400)) == ["seated"]
    runner = room.runners[0]
    seat = bob.seat
    assert seat is not None
    room.disconnect(bob)
    with runner.change():
        runner.table.sit_out(seat, now=100.0)
    later = 100.0 + room.settings.remove_after
    assert runner.overstayed(later) == [seat]
    with runner.change():
        runner.remove_overstayed(later)
    found = _events(log)
    steps = [line["step"] for line in _lines(log) if line["event"] == "wallet_failed"]
    assert steps == ["payment", "give_back"]  # each failure once: asked, then given back
    assert found[("buy_in", "bob")] == 1 and found[("buy_in", "ann")] == 0
    assert found[("removal", "bob")] == 1
    assert found[("cash_out", "bob")] == 1
    failure = next(line for line in _lines(log) if line["event"] == "wallet_failed")
    assert (failure["owner"], failure["chips"], failure["table"]) == ("ann", 400, 1)


def test_a_change_whose_commit_failed_is_not_logged(room_db: str, log: io.StringIO) -> None:
    wallet = FlakyWallet({"ann": 1000})
    room = _wallet_room(wallet, room_db)
    ann = room.connect(account="ann")
    _fail_writes(room)
    assert kinds(asyncio.run(_served(room, ann, type="sit", table=0, buy_in=400))) == [
        "unavailable"
    ]
    found = _events(log)
    assert (found[("buy_in", "ann")], found[("commit_failed", "")]) == (0, 1)


def test_text_lines_hold_one_event_each(log: io.StringIO) -> None:
    stream = io.StringIO()
    oplog.configure(level="warning", style="text", stream=stream)
    oplog.event("sign_up", account="ann", address="127.0.0.1")  # info: below the level
    oplog.event("sign_in_refused", name='a "b"\nc', address="::1", reason="bad_credentials")
    (line,) = stream.getvalue().splitlines()
    assert line.endswith(
        'warning sign_in_refused name="a \\"b\\"\\nc" address=::1 reason=bad_credentials'
    )


def test_serve_logs_json_lines_with_access(room_db: str) -> None:
    command = [
        sys.executable,
        "-m",
        "doubleholdem.cli",
        "serve",
        "--port",
        "0",
        "--db",
        room_db,
        "--tables",
        "1",
        "--log-format",
        "json",
        "--access-log",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    try:
        opened = process.stdout.readline()
        port = int(re.findall(r":(\d+)/", opened)[0])
        import http.client

        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/healthz")
        assert connection.getresponse().status == 200
        connection.close()
        start = json.loads(process.stderr.readline())
        assert (start["event"], start["tables"]) == ("start", 1)
        access = json.loads(process.stderr.readline())
        assert (access["event"], access["path"], access["status"]) == ("access", "/healthz", 200)
    finally:
        process.send_signal(2)
        process.wait(60)
    shutdown = [json.loads(line) for line in process.stderr.read().splitlines()]
    assert [line["event"] for line in shutdown] == ["shutdown"]


def test_serve_refuses_an_unknown_log_level(capsys: pytest.CaptureFixture[str]) -> None:
    from doubleholdem.cli import main

    assert main(["serve", "--log-level", "loud"]) == 2
    assert "--log-level" in capsys.readouterr().err


def test_configure_refuses_what_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="log level"):
        oplog.configure(level="loud")
    with pytest.raises(ValueError, match="log format"):
        oplog.configure(style="xml")
