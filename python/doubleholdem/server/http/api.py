"""The accounts' HTTP API (docs/PROTOCOL.md, "The accounts' HTTP API"): sign-up,
sign-in, sign-out, the signed-in account and its statement. Every ``POST`` must come
from the server's own page (its ``Origin``) with a JSON body of at most
:data:`MAX_BODY` bytes; the session travels in an HttpOnly, SameSite=Strict cookie
(:func:`~doubleholdem.server.http.gate.session_cookie`). Hashing runs in the thread pool
(:class:`~doubleholdem.server.http.desk.Desk`), never on the event loop."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from doubleholdem.accounts.accounts import Account
from doubleholdem.accounts.sessions import SESSION_SECONDS, token_hash
from doubleholdem.errors import (
    AccountClosed,
    AccountError,
    AccountExists,
    BadCredentials,
    SignInThrottled,
)
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.http.gate import SESSION_COOKIE, same_origin, set_session_cookie
from doubleholdem.server.oplog import event

__all__ = ["MAX_BODY", "account_routes"]

MAX_BODY = 1024  # bytes of a sign-up or sign-in body
_MAX_SEQ = 2**63 - 1
Handler = Callable[[Request], Awaitable[Response]]


class Refusal(Exception):
    """A request refused: the HTTP status, the error code and a message."""

    def __init__(self, status: int, code: str, message: str, **headers: str) -> None:
        super().__init__(message)
        self.status, self.code, self.headers = status, code, headers

    def response(self) -> Response:
        body = {"error": self.code, "message": str(self)}
        return JSONResponse(body, status_code=self.status, headers=self.headers or None)


_STATUS = {AccountExists: 409, AccountClosed: 403, BadCredentials: 401}


def _refusal(error: AccountError) -> Refusal:
    """The HTTP refusal of an accounts error (400 unless it says otherwise)."""
    if isinstance(error, SignInThrottled):
        wait = str(error.retry_after)
        return Refusal(429, error.code, str(error), **{"Retry-After": wait})
    return Refusal(_STATUS.get(type(error), 400), error.code, str(error))


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


async def _credentials(request: Request, origins: tuple[str, ...]) -> tuple[str, str]:
    """The ``name`` and ``password`` of a JSON body from the server's own page."""
    if not same_origin(request.headers, request.url.scheme, origins):
        raise Refusal(403, "cross_origin", "this request comes from another site's page")
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refusal(415, "bad_body", "send a JSON body (Content-Type: application/json)")
    length = request.headers.get("content-length", "0")
    if not length.isdecimal() or int(length) > MAX_BODY:
        raise Refusal(413, "too_large", f"a body of at most {MAX_BODY} bytes")
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise Refusal(413, "too_large", f"a body of at most {MAX_BODY} bytes")
    except ClientDisconnect:  # gone, or closed for a body too slow (limits): nobody hears
        raise Refusal(400, "bad_body", "the body did not arrive whole") from None
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        data = None
    if (
        not isinstance(data, dict)
        or set(data) != {"name", "password"}
        or not all(isinstance(v, str) and _encodable(v) for v in data.values())
    ):
        raise Refusal(
            400, "bad_body", 'the body is {"name": "...", "password": "..."} (Unicode text)'
        )
    return data["name"], data["password"]


def _encodable(text: str) -> bool:
    """True unless ``text`` holds what no UTF-8 can carry (a lone surrogate: JSON's
    ``"\\ud800"`` decodes to one), which no password hasher could read."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _signed_in(response: Response, request: Request, token: str) -> Response:
    secure = request.url.scheme == "https"
    set_session_cookie(response, token, secure=secure, max_age=int(SESSION_SECONDS))
    return response


def account_routes(desk: Desk, signed_out: Callable[[str], None]) -> list[Route]:
    """The routes of the accounts' API, served by ``desk``; ``signed_out(hash)`` is told
    the hash of each session token revoked (the room closes its sockets)."""

    def guarded(handler: Handler) -> Handler:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except Refusal as refusal:
                return refusal.response()
            except AccountError as error:
                return _refusal(error).response()

        return run

    async def session(request: Request) -> Account:
        token = request.cookies.get(SESSION_COOKIE)
        account = await run_in_threadpool(desk.session, token) if token else None
        if account is None:
            signup = desk.settings.signup
            raise Refusal(401, "not_signed_in", "sign in first", **{"X-Signup": str(signup)})
        return account

    async def sign_up(request: Request) -> Response:
        if not desk.settings.signup:
            raise Refusal(403, "signup_closed", "this room makes accounts only by its operator")
        name, password = await _credentials(request, desk.settings.origins)
        account, token = await run_in_threadpool(
            desk.sign_up, name, password, address=_address(request)
        )
        event("sign_up", account=account.name, address=_address(request))
        me = await run_in_threadpool(desk.me, account.name)
        return _signed_in(JSONResponse(me, status_code=201), request, token)

    async def sign_in(request: Request) -> Response:
        name, password = await _credentials(request, desk.settings.origins)
        address = _address(request)
        try:
            account, token = await run_in_threadpool(desk.sign_in, name, password, address=address)
        except AccountError as error:
            event("sign_in_refused", name=name, address=address, reason=error.code)
            raise
        event("sign_in", account=account.name, address=address)
        me = await run_in_threadpool(desk.me, account.name)
        return _signed_in(JSONResponse(me), request, token)

    async def sign_out(request: Request) -> Response:
        if not same_origin(request.headers, request.url.scheme, desk.settings.origins):
            raise Refusal(403, "cross_origin", "this request comes from another site's page")
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            await run_in_threadpool(desk.sign_out, token)
            signed_out(token_hash(token))
        response = JSONResponse({"ok": True})
        set_session_cookie(response, "", secure=request.url.scheme == "https", max_age=0)
        return response

    async def me(request: Request) -> Response:
        account = await session(request)
        return JSONResponse(await run_in_threadpool(desk.me, account.name))

    async def hands(request: Request) -> Response:
        account = await session(request)
        return JSONResponse(await run_in_threadpool(desk.hands, account.name))

    async def statement(request: Request) -> Response:
        account = await session(request)
        text = request.query_params.get("before")
        if text is not None and (not text.isdecimal() or not 0 < int(text) <= _MAX_SEQ):
            raise Refusal(400, "bad_field", "before: a transaction number")
        before = None if text is None else int(text)
        page: dict[str, Any] = await run_in_threadpool(desk.statement, account.name, before=before)
        return JSONResponse(page)

    return [
        Route("/api/signup", guarded(sign_up), methods=["POST"]),
        Route("/api/signin", guarded(sign_in), methods=["POST"]),
        Route("/api/signout", guarded(sign_out), methods=["POST"]),
        Route("/api/me", guarded(me)),
        Route("/api/me/statement", guarded(statement)),
        Route("/api/me/hands", guarded(hands)),
    ]
