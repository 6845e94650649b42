"""The page's own files (issue 32 item 8): the icon the page names in a link, also at
/favicon.ico, where browsers and other clients ask for it (it answered 404)."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path
from xml.etree import ElementTree

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from server_harness import DOUBLE_THREE, ServerThread


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers["Content-Type"], response.read()


def test_the_icon_is_served_where_the_page_and_browsers_ask(tmp_path: Path) -> None:
    settings = RoomSettings(tables=1, bots=0, configs=[DOUBLE_THREE], seed=1)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room) as server:
        status, _, page = _get(f"{server.url}/")
        linked = re.search(rb'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
        assert status == 200 and linked is not None
        icons = [_get(server.url + path) for path in (linked.group(1).decode(), "/favicon.ico")]
    for status, kind, body in icons:
        assert status == 200 and kind.startswith("image/svg+xml")
        assert ElementTree.fromstring(body).tag == "{http://www.w3.org/2000/svg}svg"
    assert icons[0][2] == icons[1][2]
