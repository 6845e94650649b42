"""The reverse proxy's configuration of docs/deploy/nginx.conf, as the docs give it (its
ports templated), in front of one PostgreSQL room served by two real ``serve``
processes (issue 33), each run as docs/postgres.md says (``--address`` its own port's
URL, ``--origin`` the room's): Debian's nginx, started by the test as a process of its
own on 127.0.0.1 (skipped, saying so, where nginx is not installed; .ci/run installs
it). The room's port and each process's port list the whole room, each table with the
address of the process serving it; a client that came in on the room's port and asks
for the table the other process serves is told its address and follows it there;
WebSocket handshakes go through (upgraded, the Origin checked: the page's own, the
room's, never another site's), and each process's /metrics is scraped on its own port
with the operator's token, never on the room's."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from ports import free_port
from server_harness import serve_process

CONFIG = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "nginx.conf"
TOKEN = "operator-token-of-at-least-32-characters"


def _nginx() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


pytestmark = pytest.mark.skipif(
    _nginx() is None, reason="nginx is not installed (apt-get install nginx-light)"
)


def _serve(db: str, token: Path, own: int, room: int) -> tuple[subprocess.Popen[str], int]:
    return serve_process(
        "--db", db, "--guests", "--tables", "2", "--bots", "0",
        "--operator-token", str(token), "--forwarded-allow-ips", "127.0.0.1",
        "--address", f"http://127.0.0.1:{own}", "--origin", f"http://127.0.0.1:{room}",
    )  # fmt: skip


def _main_config(folder: Path, site: Path) -> str:
    """A whole nginx.conf around the site file, everything nginx writes in ``folder``."""
    user = "user root root;" if os.geteuid() == 0 else ""  # workers reach the test's folder
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user} worker_processes 1; pid {folder / 'nginx.pid'};"
        f" error_log {folder / 'error.log'} warn;"
        " events { worker_connections 256; }"
        f" http {{ access_log off; {temp} include {site}; }}"
    )


class Proxy:
    def __init__(self, room: int, own: list[int]) -> None:
        self.room, self.own = room, own


@pytest.fixture
def proxy(tmp_path: Path, postgres_url: str) -> Iterator[Proxy]:
    token = tmp_path / "operator-token"
    token.write_text(TOKEN)
    processes: list[subprocess.Popen[str]] = []
    try:
        room, own = free_port(), [free_port(), free_port()]
        backends = []
        for port in own:  # the second takes its share of the room's two tables
            process, backend = _serve(postgres_url, token, port, room)
            processes.append(process)
            backends.append(backend)
        ports = {"8080": room, "8081": own[0], "8082": own[1]}
        ports |= {"8001": backends[0], "8002": backends[1]}
        text = re.sub(
            r"\b(808[012]|800[12])\b", lambda m: str(ports[m.group()]), CONFIG.read_text()
        )
        site = tmp_path / "doubleholdem.conf"
        site.write_text(text)
        main = tmp_path / "nginx.conf"
        main.write_text(_main_config(tmp_path, site))
        nginx = _nginx()
        assert nginx is not None
        command = [nginx, "-p", str(tmp_path), "-c", str(main), "-g", "daemon off;"]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        processes.append(subprocess.Popen(command, stderr=subprocess.PIPE, text=True))
        _until_listening(room)
        _until_spread([room, *own], {_url(port) for port in own})
        yield Proxy(room, own)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(30)


def _url(port: int) -> str:
    return f"http://127.0.0.1:{port}"


def _until_spread(ports: list[int], addresses: set[str]) -> None:
    """Waits (a minute at most) until the lobby on each of ``ports`` shows each process
    serving one of the room's two tables (a process that handed a table over lists it
    as its own until its reader reads who took it)."""
    served: list[Any] = []
    for _ in range(600):
        served = [[table["address"] for table in _lobby(port)] for port in ports]
        if all(set(each) == addresses and len(each) == 2 for each in served):
            return
        time.sleep(0.1)
    raise AssertionError(f"the tables are served by {served}, not one by each of {addresses}")


def _until_listening(port: int) -> None:
    for _ in range(1000):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.01)
    raise AssertionError(f"nothing listens on {port}")


def _get(port: int, path: str, **headers: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _lobby(port: int) -> list[dict[str, Any]]:
    status, body = _get(port, "/api/tables")
    assert status == 200
    tables: list[dict[str, Any]] = json.loads(body)
    return tables


def test_every_port_lists_the_room_with_the_process_serving_each_table(proxy: Proxy) -> None:
    owners = {table["id"]: table["address"] for table in _lobby(proxy.room)}
    assert sorted(owners.values()) == sorted(_url(port) for port in proxy.own)
    for port in proxy.own:
        assert {table["id"]: table["address"] for table in _lobby(port)} == owners
    assert _get(proxy.room, "/healthz") == (200, "ok")


async def _answers(port: int, origin: str, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """On one WebSocket to 127.0.0.1:``port`` with ``origin``: the welcome, then the
    first reply to each of ``messages`` (sent one after another)."""
    url = f"ws://127.0.0.1:{port}/ws"
    async with websockets.connect(url, origin=origin) as socket:  # type: ignore[arg-type]
        said = [json.loads(await socket.recv())]
        for message in messages:
            await socket.send(json.dumps({"v": 2, **message}))
            reply = json.loads(await asyncio.wait_for(socket.recv(), 30))
            while reply["type"] in ("lobby", "pong"):
                reply = json.loads(await asyncio.wait_for(socket.recv(), 30))
            said.append(reply)
        return said


def test_websockets_are_upgraded_through_the_proxy(proxy: Proxy) -> None:
    room = _url(proxy.room)
    for port in proxy.own:
        for origin in (_url(port), room):  # the page's own, or the room's (--origin)
            (said,) = asyncio.run(_answers(port, origin))
            assert (said["type"], said["tables"]) == ("welcome", 1)
    with pytest.raises(websockets.InvalidStatus) as refused:  # another site's page
        asyncio.run(_answers(proxy.own[0], "https://evil.example"))
    assert refused.value.response.status_code == 403


def test_a_client_of_the_room_follows_a_table_to_the_process_serving_it(proxy: Proxy) -> None:
    """A page loaded through the room's port reaches one process or the other; asking
    there for the table the other serves, it is told that process's own address, and
    watching it there (through nginx, from the room's origin) it is sent the table."""
    room = _url(proxy.room)
    watches = ({"type": "watch", "table": 0}, {"type": "watch", "table": 1})
    _, *replies = asyncio.run(_answers(proxy.room, room, *watches))
    told = [reply for reply in replies if reply["type"] == "elsewhere"]
    assert len(told) == 1  # the process reached serves the other table itself
    assert told[0]["address"] in {_url(port) for port in proxy.own}
    there = int(told[0]["address"].rsplit(":", 1)[1])
    table = told[0]["table"]
    _, said = asyncio.run(_answers(there, room, {"type": "watch", "table": table}))
    assert (said["type"], said["table"]) == ("state", table)


def test_metrics_on_each_process_port_with_the_token_only(proxy: Proxy) -> None:
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    for port in proxy.own:
        status, text = _get(port, "/metrics", **bearer)
        assert status == 200 and "doubleholdem_tables_owned 1.0" in text
        assert _get(port, "/metrics")[0] == 401
    assert _get(proxy.room, "/metrics", **bearer)[0] == 404  # one process or the other: off
