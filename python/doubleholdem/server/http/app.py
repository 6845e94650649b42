"""The ASGI app (starlette): the browser page, ``/healthz``, ``/metrics`` (operators
only: :mod:`~doubleholdem.server.http.metrics`), ``/api/tables`` and the
WebSocket ``/ws`` that speaks ``docs/PROTOCOL.md``, whose handshake is refused from
another site's page (:func:`~doubleholdem.server.http.gate.same_origin`) and signed in by the
session cookie. Needs ``doubleholdem[server]``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from doubleholdem.accounts.sessions import token_hash
from doubleholdem.server.http.api import account_routes
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.http.gate import SESSION_COOKIE, same_origin
from doubleholdem.server.http.metrics import metrics_route
from doubleholdem.server.http.tournament_place import TournamentPlace
from doubleholdem.server.http.tournaments import tournament_routes
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments.host import TournamentsHost
from doubleholdem.server.tournaments.room import Tournaments
from doubleholdem.server.tournaments.spec import TournamentSpec

__all__ = ["STATIC", "create_app"]

_log = logging.getLogger("doubleholdem.server")
STATIC = Path(__file__).resolve().parent / "static"


def create_app(
    room: Room,
    desk: Desk | None = None,
    *,
    tournaments: Sequence[TournamentSpec] = (),
    operator_token: bytes | None = None,
) -> Starlette:
    """The app serving ``room`` (its tables run while the app runs). Unless the room
    takes guests, its accounts are served by ``desk`` (by default a :class:`Desk` on
    the room's database), and it runs ``tournaments`` (docs/room-tournaments.md).
    ``/metrics`` answers requests that carry ``operator_token``, and none without one."""
    if desk is None and not room.settings.guests:
        desk = Desk(room.store.path, room.settings)
    run = None  # tournaments are paid through the ledger: a room of accounts only
    if desk is not None and tournaments:  # run here, or by another process of the room
        member = room.tables.membership
        made = Tournaments(room.store, room.settings, room.commit, tournaments)
        run = TournamentsHost(made, member)
        process = "" if member is None else member.id
        room.tournaments = TournamentPlace(run, process)
        run.open()

    metrics = room.commit.metrics  # what the process counts (GET /metrics)
    metrics.gauge("clients_connected", lambda: len(room.connections))

    async def signed_in(websocket: WebSocket) -> dict[str, Any]:
        """The name of the account whose session cookie the handshake carries, the hash
        of its token and whether the account is active (:meth:`Room.connect`'s
        arguments; none without a live session)."""
        token = websocket.cookies.get(SESSION_COOKIE)
        if desk is None or not token:
            return {}
        account = await run_in_threadpool(desk.session, token)
        if account is None:
            return {}
        return {
            "account": account.name,
            "session": token_hash(token),
            "active": account.state == "active",
        }

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def favicon(request: Request) -> Response:
        """The page's icon (it names it in a link; other clients ask this path)."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def healthz(request: Request) -> Response:
        problem = room.health()
        if problem is None:
            return PlainTextResponse("ok")
        return PlainTextResponse(problem, status_code=503)

    async def tables(request: Request) -> Response:
        text = request.query_params.get("from", "0")
        if not text.isdecimal() or len(text) > 6:
            return PlainTextResponse("from: a table id", status_code=400)
        page, after = room.lobby(int(text))
        headers = {} if after is None else {"X-Next-Table": str(after)}
        return JSONResponse(page, headers=headers)

    async def socket(websocket: WebSocket) -> None:
        room_origins = {*room.settings.origins, *room.tables.directory.origins()}
        if not same_origin(websocket.headers, websocket.url.scheme, room_origins):
            await websocket.close(code=1008)  # before accept: the handshake gets 403
            return
        signed = await signed_in(websocket)
        address = websocket.client.host if websocket.client else ""
        await websocket.accept()
        connection = room.connect(address=address, **signed)
        writer = asyncio.create_task(_write(websocket, connection))
        try:
            while not connection.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                data = text if text is not None else message.get("bytes") or b""
                room.handle(connection, data)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.disconnect(connection)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(writer, 1.0)
            writer.cancel()

    async def no_accounts(request: Request) -> Response:
        body = {"error": "guest_room", "message": "this room takes guests: it has no accounts"}
        return JSONResponse(body, status_code=404)

    guest_room = Route("/api/{rest:path}", no_accounts, methods=["GET", "POST"])

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await room.start()
        if run is not None:
            await run.start()
        try:
            yield
        finally:
            if run is not None:
                await run.stop()
            await room.stop()
            if desk is not None:
                desk.close()

    return Starlette(
        routes=[
            Route("/", index),
            Route("/favicon.ico", favicon),
            Route("/healthz", healthz),
            metrics_route(metrics, operator_token),
            Route("/api/tables", tables),
            *(tournament_routes(run, desk) if run and desk else []),
            *(account_routes(desk, room.signed_out) if desk is not None else [guest_room]),
            WebSocketRoute("/ws", socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


async def _write(websocket: WebSocket, connection: Connection) -> None:
    """Sends the connection's queued messages until it closes."""
    try:
        while True:
            text = await connection.outbox.get()
            if text is None:
                break
            await websocket.send_text(text)
            connection.written()
    except Exception:
        connection.closed = True
        return
    with contextlib.suppress(Exception):
        await websocket.close(code=1008 if connection.closed else 1000)
