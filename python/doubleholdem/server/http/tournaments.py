"""The tournaments' HTTP API (docs/tournaments.md, "The API"): the lobby, one
tournament as the signed-in account sees it, and the account's requests (register,
unregister, act at its table, a deal). Every ``POST`` comes from the server's own page
(its ``Origin``) with a JSON body of at most :data:`MAX_BODY` bytes, signed in by the
session cookie; a refusal is a JSON ``{"error", "message"}`` and changes nothing.
Tournaments are numbered from 0 in the API, as tables are."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from doubleholdem.accounts.accounts import Account
from doubleholdem.errors import (
    AccountError,
    DatabaseBusy,
    DoubleHoldemError,
    IllegalAction,
    TournamentError,
)
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.http.gate import SESSION_COOKIE, same_origin
from doubleholdem.server.protocol import MAX_ID
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.tournaments.action_ids import ActionIdReused
from doubleholdem.server.tournaments.host import TournamentsHost
from doubleholdem.server.tournaments.room import Tournaments

__all__ = ["MAX_BODY", "NotAnOperator", "tournament_routes"]

MAX_BODY = 1024
_ACTION_ID = re.compile(f"[A-Za-z0-9_.:-]{{1,{MAX_ID}}}")  # as the WebSocket's (PROTOCOL.md)
Handler = Callable[[Request], Awaitable[Response]]
Apply = Callable[[Tournaments, int, Account, dict[str, Any]], Any]  # a request's change


class NotAnOperator(AccountError):
    """A request only an operator's (``admin``) account may make."""

    code = "not_an_operator"


def _refused(status: int, code: str, message: str) -> Response:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any] | Response:
    """The JSON object a ``POST`` from the server's own page carries, or the refusal."""
    if not same_origin(request.headers, request.url.scheme):
        return _refused(403, "cross_origin", "this request comes from another site's page")
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _refused(415, "bad_body", "send a JSON body (Content-Type: application/json)")
    body = await request.body()
    if len(body) > MAX_BODY:
        return _refused(413, "too_large", f"a body of at most {MAX_BODY} bytes")
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict):
        return _refused(400, "bad_body", "the body is a JSON object")
    return data


class _Settles:
    """A recipient of the group commit that settles ``future`` with ``value`` when its
    message is due (after the commit, or instead of it when it failed or left the
    tournaments' changes out: their lease lost)."""

    table = TOURNAMENTS

    def __init__(self, future: asyncio.Future[bool], value: bool) -> None:
        self.future = future
        self.value = value

    def send(self, text: str) -> None:
        if not self.future.done():
            self.future.set_result(self.value)


async def _committed(commit: GroupCommit) -> bool:
    """Waits until the changes made so far are committed (True) or their commit failed
    (False): a reply is sent only after its change is stored, as the WebSocket's."""
    future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    commit.post(_Settles(future, True), "")
    commit.instead(_Settles(future, False), "")
    return await future


def _elsewhere(request: Request, host: TournamentsHost) -> Response:
    """The answer of a process that does not run the room's tournaments
    (:mod:`~doubleholdem.server.tournaments.host`): a redirect (307, method and body
    kept) to the same request at the process that runs them, or 503 ``elsewhere``
    while none does (ask again in a moment)."""
    owner = host.owner
    if owner is None or owner.address == host.settings.address:
        response = _refused(503, "elsewhere", "the tournaments are moving to another process:"
                            " ask again in a moment")  # fmt: skip
        response.headers["Retry-After"] = "1"
        return response
    query = f"?{request.url.query}" if request.url.query else ""
    location = owner.address.rstrip("/") + request.url.path + query
    body = {"error": "elsewhere", "message": f"the tournaments run at {owner.address}",
            "address": owner.address}  # fmt: skip
    return JSONResponse(body, status_code=307, headers={"Location": location})


def tournament_routes(host: TournamentsHost, desk: Desk) -> list[Route]:
    """The routes of the tournaments' API over ``host``'s tournaments (answered
    :func:`_elsewhere` while another process runs them), signed in by ``desk``."""

    def here(handler: Callable[[Request, Tournaments], Awaitable[Response]]) -> Handler:
        async def answer(request: Request) -> Response:
            tournaments = host.run
            if tournaments is None:
                return _elsewhere(request, host)
            return await handler(request, tournaments)

        return answer

    async def signed_in(request: Request) -> Account | None:
        token = request.cookies.get(SESSION_COOKIE)
        return await run_in_threadpool(desk.session, token) if token else None

    async def viewer(request: Request) -> str | None:
        account = await signed_in(request)
        return None if account is None else account.name

    def number(request: Request) -> int | None:
        text = str(request.path_params["number"])
        return int(text) if text.isdecimal() and len(text) <= 9 else None

    async def lobby(request: Request, tournaments: Tournaments) -> Response:
        return JSONResponse(tournaments.lobby())

    async def over(request: Request, tournaments: Tournaments) -> Response:
        text = request.query_params.get("before")
        if text is not None and not (text.isdecimal() and len(text) <= 9):
            return _refused(400, "bad_request", "before: a tournament id (0 to 999999999)")
        page, after = tournaments.over_page(None if text is None else int(text))
        return JSONResponse({"tournaments": page, "next": after})

    async def detail(request: Request, tournaments: Tournaments) -> Response:
        found = number(request)
        try:
            view = tournaments.detail(-1 if found is None else found, await viewer(request))
        except TournamentError:
            return _refused(404, "no_tournament", "no such tournament")
        return JSONResponse(view)

    def request_route(path: str, apply: Apply) -> Route:
        async def handler(request: Request, tournaments: Tournaments) -> Response:
            data = await _body(request)
            if isinstance(data, Response):
                return data
            account = await signed_in(request)
            if account is None:
                return _refused(401, "not_signed_in", "sign in first")
            found = number(request)
            if found is None or found not in tournaments.runners:
                return _refused(404, "no_tournament", "no such tournament")
            if not tournaments.commit.writable():
                return _refused(503, "unavailable", "the database refuses writes for now")
            try:
                answer = apply(tournaments, found, account, data)
            except ActionIdReused as error:
                return _refused(409, error.code, str(error))
            except AccountError as error:
                return _refused(402 if error.code == "insufficient_funds" else 403,
                                error.code, str(error))  # fmt: skip
            except DatabaseBusy as error:
                return _refused(503, "unavailable", str(error))
            except (IllegalAction, DoubleHoldemError) as error:
                return _refused(409, "refused", str(error))
            if not await _committed(tournaments.commit):
                return _refused(503, "unavailable", "the change could not be stored: try again")
            return JSONResponse({"ok": True, **(answer or {})})

        return Route(f"/api/tournaments/{{number}}/{path}", here(handler), methods=["POST"])

    def register(
        tournaments: Tournaments, number: int, account: Account, data: dict[str, Any]
    ) -> dict[str, Any]:
        return {"entry": tournaments.register(number, account.name)}

    def unregister(
        tournaments: Tournaments, number: int, account: Account, data: dict[str, Any]
    ) -> None:
        tournaments.runner(number).unregister(account.name)

    def cancel(
        tournaments: Tournaments, number: int, account: Account, data: dict[str, Any]
    ) -> None:
        if account.role != "admin":
            raise NotAnOperator(f"{account.name} is not an operator: only an admin cancels")
        tournaments.cancel(number)

    def act(
        tournaments: Tournaments, number: int, account: Account, data: dict[str, Any]
    ) -> dict[str, Any]:
        hand, action, amount = data.get("hand"), data.get("action"), data.get("amount")
        ident = data.get("id")
        if (
            type(hand) is not int
            or not isinstance(action, str)
            or (amount is not None and type(amount) is not int)
            or not (ident is None or (isinstance(ident, str) and _ACTION_ID.fullmatch(ident)))
        ):
            raise IllegalAction(
                'act: {"hand": N, "action": "call", "amount": N or null, "id": an optional'
                f" action id of 1 to {MAX_ID} letters, digits or '_-.:'}}"
            )
        repeated = tournaments.runner(number).act(account.name, hand, action, amount, ident)
        return {"repeated": True} if repeated else {}

    def buy(tournaments: Tournaments, number: int, account: Account, data: dict[str, Any]) -> None:
        what = data.get("what")
        if what not in ("re-entry", "rebuy", "add-on"):
            raise IllegalAction('buy: {"what": "re-entry", "rebuy" or "add-on"}')
        tournaments.runner(number).buy(account.name, str(what))

    def deal(tournaments: Tournaments, number: int, account: Account, data: dict[str, Any]) -> None:
        name = account.name
        answer = data.get("answer")
        runner = tournaments.runner(number)
        if answer == "ask":
            runner.offer_deal(name)
        elif answer in ("accept", "decline"):
            runner.answer_deal(name, answer == "accept")
        else:
            raise IllegalAction('deal: {"answer": "ask", "accept" or "decline"}')

    return [
        Route("/api/tournaments", here(lobby)),
        Route("/api/tournaments/over", here(over)),
        Route("/api/tournaments/{number}", here(detail)),
        request_route("register", register),
        request_route("unregister", unregister),
        request_route("act", act),
        request_route("buy", buy),
        request_route("deal", deal),
        request_route("cancel", cancel),
    ]
