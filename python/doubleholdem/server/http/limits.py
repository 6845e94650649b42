"""The server's bounds at the HTTP layer, by construction: a request whose headers have
not all arrived within ``header_timeout`` seconds is closed (uvicorn has no such timeout
of its own: its keep-alive timer stops at the first byte of a request, and a connection
that sends nothing, or half a request, would hold a descriptor for ever), and so is one
whose body has not all arrived by then either (the same timer, from the request's first
byte; 408, unless the app has answered already); a request line and headers of more than
:data:`MAX_HEAD_BYTES` are answered 431 and closed (h11 bounds only a head that arrives
in pieces; :func:`bounded_head` counts a pipelined one again as parsed); an address
holds at most ``per_address`` connections at once (HTTP and WebSocket alike; one more is
answered 503 and closed at accept time), and a WebSocket's ping frames, answered by the
protocol without the app seeing them, are rate-limited as they arrive (``PING_RATE`` a
second, bursts of ``PING_BURST``; beyond, the connection is closed with code 1008: a
client sending pings without reading the pongs grew the server's write buffer without
end). :func:`uvicorn_config` is the one place both
the ``serve`` command and the tests configure uvicorn.

Behind a reverse proxy every connection comes from the proxy's address: raise
``per_address`` there and let the proxy bound its clients."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = [
    "HEADER_TIMEOUT",
    "MAX_HEAD_BYTES",
    "MAX_WS_BYTES",
    "PER_ADDRESS",
    "PING_BURST",
    "PING_RATE",
    "Limits",
    "bounded_head",
    "bounded_http",
    "bounded_ws",
    "uvicorn_config",
]

HEADER_TIMEOUT = 10.0  # seconds for a request's headers to arrive, whole
PER_ADDRESS = 64  # connections open at once from one address
MAX_WS_BYTES = 64 * 1024  # a WebSocket frame above this closes the connection
PING_RATE = 2.0  # ping frames a second a WebSocket client may send, on average
PING_BURST = 10.0  # and at once
_SWEEP_EVERY = 256  # accepts between sweeps of the closed connections out of the counts
MAX_HEAD_BYTES = 16 * 1024  # a request's line and headers (431 beyond)
_TOO_LONG = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain\r\n"
    b"Content-Length: 41\r\nConnection: close\r\n\r\n"
    b"the request line and headers pass 16 KiB\n"
)
_TOO_SLOW = (
    b"HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain\r\n"
    b"Content-Length: 35\r\nConnection: close\r\n\r\n"
    b"the request's body came too slowly\n"
)
_TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
    b"Content-Length: 39\r\nConnection: close\r\n\r\n"
    b"too many connections from your address\n"
)


@dataclass
class Limits:
    """The bounds of one server: ``header_timeout`` seconds for a request's headers,
    ``per_address`` connections at once from one address (0: no cap). It keeps the open
    connections of each address (their transports, whichever protocol serves them: a
    WebSocket takes over its HTTP connection's transport)."""

    header_timeout: float = HEADER_TIMEOUT
    per_address: int = PER_ADDRESS
    open: dict[str, set[asyncio.BaseTransport]] = field(default_factory=dict)
    timed_out: int = 0  # connections closed for their headers' or body's lateness
    too_long: int = 0  # requests refused for their line and headers' size
    refused: int = 0  # connections refused for their address's cap
    ping_floods: int = 0  # WebSockets closed for sending pings too fast
    _accepts: int = 0

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        """Counts ``transport`` for ``address``; False (uncounted) when the address
        holds ``per_address`` open connections already."""
        self._accepts += 1
        if self._accepts % _SWEEP_EVERY == 0:
            self.sweep()
        held = self.open.setdefault(address, set())
        for closed in [t for t in held if t.is_closing()]:
            held.discard(closed)
        if self.per_address and len(held) >= self.per_address:
            self.refused += 1
            return False
        held.add(transport)
        return True

    def sweep(self) -> None:
        """Forgets the connections that have closed."""
        for address, held in list(self.open.items()):
            live = {t for t in held if not t.is_closing()}
            if live:
                self.open[address] = live
            else:
                del self.open[address]

    def count(self, address: str) -> int:
        """The connections open from ``address`` now."""
        return sum(1 for t in self.open.get(address, ()) if not t.is_closing())


def bounded_http(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (h11) held to ``limits``: the per-address cap at accept
    time, and a timer from a request's first byte (or the connection's start) that closes
    the connection unless the request's headers have all arrived."""

    class BoundedH11Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _upgraded = False
        _head_bytes = 0  # of the request line and headers arrived so far
        _head_tail = b""  # the last bytes of them (an end split between two reads)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if not limits.admit(address, transport):
                transport.write(_TOO_MANY)
                transport.close()
                return
            self._watch_request()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_timer()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._head_too_long(data):
                limits.too_long += 1
                self.transport.write(_TOO_LONG)
                self.transport.close()
                return
            super().data_received(data)
            self._watch_request()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._upgraded = True
            self._stop_timer()
            super().handle_websocket_upgrade(event)

        def _between_requests(self) -> bool:
            """Before a request's headers are complete (not upgraded, not closing)."""
            if self._upgraded or self.transport.is_closing():
                return False
            return self.cycle is None or self.cycle.response_complete

        def _head_too_long(self, data: bytes) -> bool:
            """Counts ``data`` into the request line and headers being received: True
            once they pass ``MAX_HEAD_BYTES`` (counted here: h11 bounds only a head
            that arrives in pieces, not one sent whole)."""
            if not self._between_requests():
                return False
            seen = self._head_tail + data
            end = seen.find(b"\r\n\r\n")
            if end < 0:
                self._head_bytes += len(data)
                self._head_tail = seen[-3:]
                return self._head_bytes > MAX_HEAD_BYTES
            head = self._head_bytes - len(self._head_tail) + end
            self._head_bytes, self._head_tail = 0, b""
            return head > MAX_HEAD_BYTES

        def _waiting(self) -> bool:
            """Between requests, inside a request's headers, or inside its body before
            the app answers: the client is the one to send."""
            if self._between_requests():
                return True
            cycle = self.cycle
            return bool(
                not self._upgraded
                and not self.transport.is_closing()
                and cycle.more_body
                and not cycle.response_started
            )

        def _watch_request(self) -> None:
            if not self._waiting():
                self._stop_timer()
            elif self._timer is None:
                self._timer = self.loop.call_later(limits.header_timeout, self._too_late)

        def _stop_timer(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_late(self) -> None:
            self._timer = None
            if self._waiting():
                limits.timed_out += 1
                if not self._between_requests():  # a body that stopped coming
                    self.transport.write(_TOO_SLOW)
                self.transport.close()

    return BoundedH11Protocol


def bounded_ws(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol (websockets, sans-I/O) with its clients' ping
    frames rate-limited as they arrive (a token bucket of ``PING_BURST`` refilled at
    ``PING_RATE`` a second); a client beyond it is closed with code 1008."""

    class BoundedWebSocketProtocol(WebSocketsSansIOProtocol):
        _pings = PING_BURST
        _filled: float | None = None

        def handle_ping(self) -> None:
            now = self.loop.time()
            if self._filled is not None:
                self._pings = min(PING_BURST, self._pings + (now - self._filled) * PING_RATE)
            self._filled = now
            if self._pings < 1.0:
                if not self.close_sent:
                    limits.ping_floods += 1
                    self.conn.fail(1008, "too many pings")
                    self.transport.write(b"".join(self.conn.data_to_send()))
                    self.close_sent = True
                    self.transport.close()
                return
            self._pings -= 1.0
            super().handle_ping()

    return BoundedWebSocketProtocol


def bounded_head(app: Any, limits: Limits) -> Any:
    """``app`` behind a second count of each request's line and headers, as parsed: one
    that came behind another in a single read (pipelined), which the protocol's count
    does not see, is answered 431 too (a WebSocket handshake is refused)."""

    async def bounded(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and _head_size(scope) > MAX_HEAD_BYTES:
            limits.too_long += 1
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            headers = [(b"content-type", b"text/plain"), (b"connection", b"close")]
            await send({"type": "http.response.start", "status": 431, "headers": headers})
            await send({"type": "http.response.body", "body": _TOO_LONG.split(b"\r\n\r\n")[1]})
            return
        await app(scope, receive, send)

    return bounded


def _head_size(scope: Any) -> int:
    """About the bytes of a request's line and headers (its path, query and headers
    with their separators)."""
    line = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + 16
    return line + sum(len(name) + len(value) + 4 for name, value in scope["headers"])


def uvicorn_config(
    app: Any, limits: Limits, *, forwarded_allow_ips: str = "", **options: Any
) -> Any:
    """The uvicorn configuration of the server's ``app``, held to ``limits``
    (``options``: more :class:`uvicorn.Config` arguments, e.g. ``host`` and ``port``;
    ``log_level=None`` leaves uvicorn's loggers to
    :func:`~doubleholdem.server.oplog.configure`).
    ``forwarded_allow_ips``: the addresses (comma-separated; ``*`` for any) whose
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed; empty, the default,
    believes nobody's (uvicorn's own default, 127.0.0.1 or ``$FORWARDED_ALLOW_IPS``,
    would let any local process pick its address)."""
    import uvicorn

    trusted = forwarded_allow_ips.strip()
    options.setdefault("log_level", "warning")
    return uvicorn.Config(
        bounded_head(app, limits),
        http=bounded_http(limits),
        ws=bounded_ws(limits),
        ws_max_size=MAX_WS_BYTES,
        ws_per_message_deflate=False,
        lifespan="on",
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or None,
        **options,
    )
