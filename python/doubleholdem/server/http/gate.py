"""What the server's front door checks of every request before anything else: that a
browser's request comes from the server's own page (its ``Origin``: a WebSocket
handshake or a ``POST`` from another site is refused, against cross-site WebSocket
hijacking and request forgery), and the session cookie's name and attributes.

>>> same_origin({"origin": "http://room.example:8000", "host": "room.example:8000"}, "ws")
True
>>> same_origin({"origin": "https://evil.example", "host": "room.example"}, "wss")
False
>>> same_origin({"origin": "https://room.example", "host": "room.example:443"}, "wss")
True
>>> same_origin({"host": "room.example"}, "http")  # not a browser: nothing to hijack
True
>>> page = {"origin": "http://127.0.0.1:8001", "host": "127.0.0.1:8002"}
>>> same_origin(page, "ws"), same_origin(page, "ws", {"http://127.0.0.1:8001"})
(False, True)
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Collection, Mapping

from starlette.responses import Response

__all__ = ["SESSION_COOKIE", "same_origin", "set_session_cookie"]

SESSION_COOKIE = "dh_session"
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(url: str) -> tuple[str, str, int] | None:
    """An origin's (scheme, host, port), default ports filled in; ``None`` if it is
    not one (``null``, a path, a bad port)."""
    try:
        parts = urllib.parse.urlsplit(url.strip().lower())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme, parts.hostname
    if scheme not in _DEFAULT_PORTS or not host or parts.path not in ("", "/"):
        return None
    return scheme, host, _DEFAULT_PORTS[scheme] if port is None else port


def same_origin(headers: Mapping[str, str], scheme: str, room: Collection[str] = ()) -> bool:
    """True unless ``headers`` carry an ``Origin`` other than the request's own
    (``scheme``, ``http``/``ws`` or ``https``/``wss``, with the ``Host`` header) and
    other than the ``room``'s (the origins of its public address and of its other
    processes, whose pages may open a socket here: docs/postgres.md). Browsers send
    ``Origin`` with every WebSocket handshake and ``POST``; a request without one comes
    from a program, which holds its own cookies, and is let through."""
    origin = headers.get("origin")
    if origin is None:
        return True
    found = _origin(origin)
    if found is None:
        return False
    if any(found == _origin(other) for other in room):
        return True
    host = headers.get("host")
    if not host:
        return False
    own = "https" if scheme in ("https", "wss") else "http"
    return found == _origin(f"{own}://{host}")


def set_session_cookie(response: Response, token: str, *, secure: bool, max_age: int) -> None:
    """Sets the session cookie on ``response``: HttpOnly (no script reads it),
    SameSite=Strict (no other site's request carries it), Path=/, an expiry of
    ``max_age`` seconds, and Secure when the request came over TLS. ``token`` empty and
    ``max_age`` 0 clear it."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=max_age,
        expires=max_age,
        path="/",
        secure=secure,
        httponly=True,
        samesite="strict",
    )
