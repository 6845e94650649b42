"""The LOWs of issue 30 item 8 at the HTTP layer: text no password hasher can encode (a
lone surrogate, valid JSON) is a ``bad_body``, never a 500, and costs no guess; a body
trickled after complete headers is timed out; the documented 16 KiB bound on a request's
line and headers holds (431 beyond); the bots' names (``bot-TABLE-SEAT``) are reserved;
names that look alike (the TR39 skeleton rule of docs/accounts.md) are one name."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from doubleholdem.server.http.desk import Desk
from doubleholdem.server.http.limits import Limits
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from http_harness import PASSWORD, Browser
from passwords_double import CountingPasswords
from server_harness import ServerThread


class Served:
    def __init__(self, server: ServerThread, hasher: CountingPasswords) -> None:
        self.server, self.hasher = server, hasher
        self.browser = Browser(server.port)


def _serve(tmp_path: Path, limits: Limits | None = None) -> Iterator[Served]:
    settings = RoomSettings(tables=1, bots=0, pause=600.0, signup=True, welcome_chips=100)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    hasher = CountingPasswords()
    desk = Desk(room.store.path, settings, passwords=hasher)
    with ServerThread(room, limits, desk=desk) as server:
        yield Served(server, hasher)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    yield from _serve(tmp_path)


def _raw(name: str, password: str) -> bytes:
    """A JSON body whose strings are written as given (escapes and all)."""
    return ('{"name": "' + name + '", "password": "' + password + '"}').encode()


@pytest.mark.parametrize(
    ("name", "password"),
    [("ann", "\\ud800horse-battery"), ("ann", "horse\\udfff1234"), ("\\ud83d", PASSWORD)],
)
def test_unencodable_text_is_a_bad_body_and_no_guess(
    served: Served, name: str, password: str
) -> None:
    assert served.browser.sign_up("ann").status == 201
    for path in ("/api/signin", "/api/signup") * 15:
        reply = served.browser.request("POST", path, _raw(name, password))
        assert (reply.status, reply.body["error"]) == (400, "bad_body")
    assert served.hasher.verified == 0
    assert served.browser.sign_in("ann", "wrong horse battery").status == 401  # not throttled


def test_a_body_trickled_after_its_headers_is_timed_out(tmp_path: Path) -> None:
    limits = Limits(header_timeout=0.5, per_address=0)
    for served in _serve(tmp_path, limits):
        sock = socket.create_connection(("127.0.0.1", served.server.port), timeout=5)
        head = (
            "POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 200\r\n\r\n"
        )
        sock.sendall(head.encode() + b'{"name": ')
        sock.settimeout(30)  # the server's deadline is 0.5 s: this only bounds a failure
        answer = b""
        try:
            while chunk := sock.recv(4096):
                answer += chunk
        except ConnectionResetError:
            pass
        sock.close()
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer
        assert limits.timed_out == 1
        assert served.browser.sign_in("ann").status == 401  # the server goes on


def _get_with_header(port: int, size: int) -> bytes:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    request = f"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: {'a' * size}\r\n\r\n"
    sock.sendall(request.encode())
    answer = sock.recv(4096)
    sock.close()
    return answer


def test_headers_over_16_kib_are_refused(served: Served) -> None:
    port = served.server.port
    assert _get_with_header(port, 15 * 1024).startswith(b"HTTP/1.1 200")
    for size in (17 * 1024, 100 * 1024):
        assert _get_with_header(port, size).startswith(b"HTTP/1.1 431")
    assert served.browser.request("GET", "/healthz").status == 200


def test_a_long_head_pipelined_behind_a_short_one_is_refused(served: Served) -> None:
    sock = socket.create_connection(("127.0.0.1", served.server.port), timeout=30)
    short = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    long = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100 * 1024 + b"\r\n\r\n"
    sock.sendall(short + long)
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    sock.close()
    assert answer.startswith(b"HTTP/1.1 200")
    assert b"HTTP/1.1 431" in answer and answer.count(b"HTTP/1.1 200") == 1


@pytest.mark.parametrize("name", ["bot-1-2", "BOT-0-0", "bot-12-3", "b0t-1-1", "bot.1.2"])
def test_the_bots_names_are_reserved(served: Served, name: str) -> None:
    reply = served.browser.sign_up(name)
    assert (reply.status, reply.body["error"]) == (400, "bad_name")
    assert served.hasher.hashed == 0


@pytest.mark.parametrize(
    ("first", "lookalikes"),
    [
        ("bob1", ["bobl", "bobI", "BOBL", "b0b1", "bob-1"]),
        ("ann", ["ann.", "a.nn", "Ann_", "ANN-"]),
        ("am", ["arn", "AM"]),
    ],
)
def test_names_that_look_alike_are_one_name(
    served: Served, first: str, lookalikes: list[str]
) -> None:
    assert served.browser.sign_up(first).status == 201
    hashed = served.hasher.hashed
    for name in lookalikes:
        reply = served.browser.sign_up(name)
        assert (reply.status, reply.body["error"]) == (409, "name_taken"), name
    assert served.hasher.hashed == hashed
    assert served.browser.sign_up(first + "x").status == 201  # a different name is fine
