"""The reverse proxy's configuration of docs/deploy/nginx.conf, as the docs give it (its
ports templated), in front of two real ``serve`` processes: Debian's nginx, started by
the test as a process of its own on 127.0.0.1 (skipped, saying so, where nginx is not
installed; .ci/run installs it). Each process answers on its own port, the room's port
reaches them both, WebSocket handshakes go through (upgraded, the browser's Origin
checked against the Host the proxy passes on), and each process's /metrics is scraped
on its own port with the operator's token, never on the room's."""

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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(db: Path, tables: int, token: Path) -> tuple[subprocess.Popen[str], int]:
    return serve_process(
        "--db", str(db), "--guests", "--tables", str(tables), "--bots", "0",
        "--operator-token", str(token), "--forwarded-allow-ips", "127.0.0.1",
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
def proxy(tmp_path: Path) -> Iterator[Proxy]:
    token = tmp_path / "operator-token"
    token.write_text(TOKEN)
    processes: list[subprocess.Popen[str]] = []
    try:
        backends = []
        for number in (1, 2):
            process, port = _serve(tmp_path / f"room{number}.db", number, token)
            processes.append(process)
            backends.append(port)
        room, own = _free_port(), [_free_port(), _free_port()]
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
        yield Proxy(room, own)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(30)


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


def _tables(port: int) -> int:
    status, body = _get(port, "/api/tables")
    assert status == 200
    return len(json.loads(body))


def test_each_process_on_its_own_port_and_the_room_reaches_both(proxy: Proxy) -> None:
    assert [_tables(port) for port in proxy.own] == [1, 2]
    assert _get(proxy.room, "/healthz") == (200, "ok")
    assert {_tables(proxy.room) for _ in range(4)} == {1, 2}  # nginx takes turns


def test_websockets_are_upgraded_through_the_proxy(proxy: Proxy) -> None:
    async def welcome(port: int, origin: str) -> Any:
        url = f"ws://127.0.0.1:{port}/ws"
        async with websockets.connect(url, origin=origin) as socket:  # type: ignore[arg-type]
            return json.loads(await socket.recv())

    for port, tables in zip(proxy.own, (1, 2)):
        said = asyncio.run(welcome(port, f"http://127.0.0.1:{port}"))  # the page's own
        assert (said["type"], said["tables"]) == ("welcome", tables)
    with pytest.raises(websockets.InvalidStatus) as refused:  # another site's page
        asyncio.run(welcome(proxy.own[0], "https://evil.example"))
    assert refused.value.response.status_code == 403


def test_metrics_on_each_process_port_with_the_token_only(proxy: Proxy) -> None:
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    for port, tables in zip(proxy.own, (1, 2)):
        status, text = _get(port, "/metrics", **bearer)
        assert status == 200 and f"doubleholdem_tables_owned {tables}.0" in text
        assert _get(port, "/metrics")[0] == 401
    assert _get(proxy.room, "/metrics", **bearer)[0] == 404  # one process or the other: off
