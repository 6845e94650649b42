"""The accounts' HTTP API over a real server (issue 19): sign-up (closed by default,
welcome chips in its transaction), sign-in (401 alike for a wrong name and a wrong
password, after the same Argon2 work; throttled with 429 and Retry-After), sign-out
(revokes), ``/api/me`` and its statement; the cookie's attributes; tokens never issued
refused; another account's records unreachable; names made of SQL or HTML harmless;
no password or token in the logs or in the database file."""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.accounts.bank import Bank
from doubleholdem.accounts.sessions import Throttle
from doubleholdem.cli import main
from doubleholdem.server.http.desk import STATEMENT_PAGE, Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from http_harness import PASSWORD, Browser
from passwords_double import CountingPasswords
from server_harness import ServerThread


class Served:
    def __init__(self, server: ServerThread, desk: Desk, clock: list[float]) -> None:
        self.server, self.desk, self.clock = server, desk, clock
        self.browser = Browser(server.port)
        self.path = desk.path


def _serve(target: Path | str, *, trust: str = "", **options: Any) -> Iterator[Served]:
    """A room with accounts served at ``target``: a folder (its SQLite file made there)
    or a database's URL."""
    settings = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=600.0, **options)
    room = Room.open(target if isinstance(target, str) else str(target / "tables.db"), settings)
    clock = [0.0]
    throttle = Throttle(clock=lambda: clock[0], per_account=(3, 60.0), per_address=(6, 60.0))
    desk = Desk(room.store.path, settings, passwords=CountingPasswords(), throttle=throttle)
    with ServerThread(room, desk=desk, forwarded_allow_ips=trust) as server:
        yield Served(server, desk, clock)


@pytest.fixture
def served(room_db: str) -> Iterator[Served]:
    """Served from each database (the SQLite file, a PostgreSQL schema)."""
    yield from _serve(room_db, signup=True, welcome_chips=1500)


@pytest.fixture
def served_file(tmp_path: Path) -> Iterator[Served]:
    """Served from a SQLite file (a test of what the file holds)."""
    yield from _serve(tmp_path, signup=True, welcome_chips=1500)


@pytest.fixture
def closed(tmp_path: Path) -> Iterator[Served]:
    yield from _serve(tmp_path)


def test_sign_up_is_closed_by_default(closed: Served) -> None:
    reply = closed.browser.sign_up("ann")
    assert (reply.status, reply.body["error"]) == (403, "signup_closed")
    assert "set-cookie" not in reply.headers
    with Bank(closed.path) as bank:
        assert bank.db.execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 0
        bank.create("ann", PASSWORD)  # the operator makes accounts
    assert closed.browser.sign_in("ann").status == 200


def test_sign_up_gives_the_welcome_chips_and_a_session(served: Served) -> None:
    reply = served.browser.sign_up("ann")
    assert reply.status == 201
    assert reply.body == {"name": "ann", "state": "active", "balance": 1500, "seats": []}
    me = served.browser.request("GET", "/api/me", token=reply.token)
    assert (me.status, me.body["balance"]) == (200, 1500)
    lines = served.browser.request("GET", "/api/me/statement", token=reply.token).body
    assert [(x["kind"], x["amount"], x["other"]) for x in lines["lines"]] == [
        ("welcome", 1500, "house")
    ]
    again = served.browser.sign_up("ANN")
    assert (again.status, again.body["error"]) == (409, "name_taken")
    with Bank(served.path) as bank:
        assert bank.audit()["ok"]


def test_the_cookie_is_http_only_strict_and_expires(served: Served) -> None:
    cookie = served.browser.sign_up("ann").headers["set-cookie"].lower()
    for attribute in ("httponly", "samesite=strict", "path=/", "max-age=1209600", "expires="):
        assert attribute in cookie
    assert "secure" not in cookie  # plain HTTP: a Secure cookie would never come back
    proxy = {"X-Forwarded-Proto": "https", "Origin": f"https://127.0.0.1:{served.server.port}"}
    untrusted = served.browser.sign_in("ann", headers=proxy)  # a proxy nobody trusts
    assert (untrusted.status, untrusted.body["error"]) == (403, "cross_origin")


def test_a_trusted_proxys_tls_makes_the_cookie_secure(tmp_path: Path) -> None:
    for served in _serve(tmp_path, trust="127.0.0.1", signup=True):
        assert served.browser.sign_up("ann").status == 201
        origin = f"https://127.0.0.1:{served.server.port}"
        proxy = {"X-Forwarded-Proto": "https", "Origin": origin}
        over_tls = served.browser.sign_in("ann", headers=proxy)
        assert "; secure" in over_tls.headers["set-cookie"].lower()
        gone = served.browser.request("POST", "/api/signout", token=over_tls.token)
        assert "max-age=0" in gone.headers["set-cookie"].lower()


def test_a_wrong_name_and_a_wrong_password_get_one_answer(served: Served) -> None:
    served.browser.sign_up("ann")
    hasher = served.desk.passwords
    assert isinstance(hasher, CountingPasswords)
    answers = []
    for name, password in [("ann", "wrong horse"), ("nobody", PASSWORD), ("<b>", PASSWORD)]:
        before = hasher.verified
        reply = served.browser.sign_in(name, password)
        answers.append((reply.status, reply.body, "set-cookie" in reply.headers))
        assert hasher.verified == before + 1  # the same Argon2 work
    assert (
        answers
        == [(401, {"error": "bad_credentials", "message": "wrong name or password"}, False)] * 3
    )


def test_guessing_is_throttled_per_account_and_per_address(served: Served) -> None:
    served.browser.sign_up("ann")
    for _ in range(3):
        assert served.browser.sign_in("ann", "wrong horse").status == 401
    refused = served.browser.sign_in("ann")  # even the right password waits
    assert (refused.status, refused.headers["retry-after"]) == (429, "60")
    assert refused.body["error"] == "throttled"
    served.clock[0] = 59.5
    assert served.browser.sign_in("ann").headers["retry-after"] == "1"
    served.clock[0] = 60.0
    assert served.browser.sign_in("ann").status == 200
    for name in ("bob", "cid", "dan", "eve", "fay", "gus"):  # 6 names from one address
        assert served.browser.sign_in(name, "wrong horse").status == 401
    refused = served.browser.sign_in("hal", "wrong horse")
    assert (refused.status, refused.headers["retry-after"]) == (429, "60")


def test_sign_out_revokes_and_tokens_never_issued_find_nobody(served: Served) -> None:
    token = served.browser.sign_up("ann").token
    assert served.browser.request("GET", "/api/me", token=token).status == 200
    assert served.browser.request("POST", "/api/signout", token=token).status == 200
    for forged in (token, "A" * 43, token[:-1], "", "x" * 4000):
        reply = served.browser.request("GET", "/api/me", token=forged)
        assert (reply.status, reply.body["error"]) == (401, "not_signed_in")
    assert served.browser.request("GET", "/api/me/statement").status == 401


def test_another_accounts_records_are_unreachable(served: Served) -> None:
    ann = served.browser.sign_up("ann").token
    served.browser.sign_up("bob")
    with Bank(served.path) as bank:
        bank.deposit("bob", 777, ref="bob-only")
    for path in ("/api/me?name=bob", "/api/me/statement?name=bob", "/api/me/statement?before=99"):
        reply = served.browser.request("GET", path, token=ann)
        assert reply.status == 200 and "bob" not in json.dumps(reply.body)
        assert 777 not in _numbers(reply.body)  # bob's deposit (a time may hold "777")
    bad = served.browser.request("GET", "/api/me/statement?before=-1", token=ann)
    assert (bad.status, bad.body["error"]) == (400, "bad_field")


def _numbers(body: object) -> list[object]:
    """Every number in a JSON body, however deep."""
    if isinstance(body, dict):
        return [n for value in body.values() for n in _numbers(value)]
    if isinstance(body, list):
        return [n for value in body for n in _numbers(value)]
    return [body] if isinstance(body, (int, float)) and not isinstance(body, bool) else []


def test_the_statement_comes_in_bounded_pages(served: Served) -> None:
    token = served.browser.sign_up("ann").token
    with Bank(served.path) as bank:
        for n in range(60):
            bank.deposit("ann", 10, ref=f"wire-{n}")
    first = served.browser.request("GET", "/api/me/statement", token=token).body
    assert len(first["lines"]) == STATEMENT_PAGE and first["lines"][0]["balance"] == 2100
    rest = served.browser.request("GET", f"/api/me/statement?before={first['next']}", token=token)
    lines = first["lines"] + rest.body["lines"]
    assert rest.body["next"] is None and len(lines) == 61
    for newer, older in zip(lines, lines[1:]):
        assert older["balance"] == newer["balance"] - newer["amount"]
    assert lines[-1]["kind"] == "welcome"


@pytest.mark.parametrize(
    "name",
    ["x'; DROP TABLE accounts;--", "<script>alert(1)</script>", "a\x00b", "Robert'); --", "é"],
)
def test_names_of_sql_or_html_are_refused_harmlessly(served: Served, name: str) -> None:
    reply = served.browser.sign_up(name)
    assert (reply.status, reply.body["error"]) == (400, "bad_name")
    assert name not in json.dumps(reply.body)
    assert served.browser.sign_in(name).status == 401
    assert served.browser.sign_up("ann").status == 201  # the tables are all there


def test_posts_from_another_site_or_not_json_are_refused(served: Served) -> None:
    body = {"name": "ann", "password": PASSWORD}
    evil = {"Origin": "http://evil.example"}
    for path in ("/api/signup", "/api/signin", "/api/signout"):
        reply = served.browser.request("POST", path, body, headers=evil)
        assert (reply.status, reply.body["error"]) == (403, "cross_origin")
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    assert served.browser.request("POST", "/api/signup", b"name=ann", headers=form).status == 415
    huge = {"name": "ann", "password": "p" * 5000}
    assert served.browser.request("POST", "/api/signup", huge).status == 413
    for wrong in ([1], {"name": "ann"}, {"name": 1, "password": PASSWORD}, b"{no json"):
        reply = served.browser.request("POST", "/api/signin", wrong)
        assert (reply.status, reply.body["error"]) == (400, "bad_body")
    short = served.browser.sign_up("ann", "short")
    assert (short.status, short.body["error"]) == (400, "bad_password")
    assert "short" not in json.dumps(short.body)


def test_no_password_or_token_in_logs_or_the_database(
    served_file: Served, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "zebra-unicorn-PASSWORD-91"
    tokens = [served_file.browser.sign_up("ann", secret).token]
    tokens.append(served_file.browser.sign_in("ann", secret).token)
    served_file.browser.sign_in("ann", secret + "x")
    served_file.browser.request("GET", "/api/me", token=tokens[1])
    served_file.browser.request("POST", "/api/signout", token=tokens[0])
    served_file.server.room.commit.flush()
    logged = caplog.text + "".join(capfd.readouterr())
    stored = b"".join(
        path.read_bytes() for path in Path(served_file.path).parent.iterdir() if path.is_file()
    )
    for needle in (secret, *tokens):
        assert needle not in logged
        assert needle.encode() not in stored
    db = sqlite3.connect(served_file.path)
    assert db.execute("SELECT password_hash FROM accounts").fetchone()[0].startswith("$argon2id$")


def test_shared_addresses_sees_the_servers_sign_ins(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    served.browser.sign_up("ann")
    served.browser.sign_up("bob")
    with Bank(served.path) as bank:
        shared = bank.shared_addresses()
    assert [(s.address, sorted(s.names)) for s in shared] == [("127.0.0.1", ["ann", "bob"])]
    assert main(["accounts", "shared-addresses", "--json", "--db", served.path]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert "127.0.0.1" in json.dumps(listed) and "bob" in json.dumps(listed)


def test_a_guest_room_has_no_accounts(tmp_path: Path) -> None:
    settings = RoomSettings(tables=1, bots=0, pause=600.0)
    with ServerThread(Room.open(str(tmp_path / "tables.db"), settings)) as server:
        reply = Browser(server.port).request("GET", "/api/me")
        assert (reply.status, reply.body["error"]) == (404, "guest_room")
        assert Browser(server.port).sign_in("ann").status == 404


class BlockedPasswords(CountingPasswords):
    """Verifications that wait until the test lets them go."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.go = threading.Event()

    def verify(self, hashed: str, password: str) -> bool:
        self.entered.set()
        assert self.go.wait(60)
        return super().verify(hashed, password)


def test_hashing_never_holds_the_event_loop(tmp_path: Path) -> None:
    settings = RoomSettings(tables=1, bots=0, pause=600.0, signup=True)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    hasher = BlockedPasswords()
    desk = Desk(room.store.path, settings, passwords=hasher)
    with ServerThread(room, desk=desk) as server:
        browser = Browser(server.port)
        hasher.go.set()
        assert browser.sign_up("ann").status == 201
        hasher.go.clear()
        waiting = concurrent.futures.ThreadPoolExecutor(1).submit(browser.sign_in, "ann")
        assert hasher.entered.wait(30)
        health = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        health.request("GET", "/healthz")  # answered while the sign-in hashes
        assert health.getresponse().status == 200
        health.close()
        with Bank(room.store.path) as bank:  # and the database is not locked meanwhile
            bank.create("bob", PASSWORD)
        hasher.go.set()
        assert waiting.result(30).status == 200


def test_sign_ups_from_one_address_are_bounded(tmp_path: Path) -> None:
    """An open room's welcome chips cannot be farmed: beyond ``signups_per_address``
    an hour, 429 with Retry-After, and nothing is written."""
    for served in _serve(tmp_path, signup=True, welcome_chips=10, signups_per_address=2):
        assert served.browser.sign_up("ann").status == 201
        assert served.browser.sign_up("bob").status == 201
        refused = served.browser.sign_up("cid")
        assert (refused.status, refused.body["error"]) == (429, "throttled")
        assert refused.headers["retry-after"] == "3600"
        with Bank(served.path) as bank:
            names = [row[0] for row in bank.db.execute("SELECT name FROM accounts")]
        assert sorted(names) == ["ann", "bob"]
