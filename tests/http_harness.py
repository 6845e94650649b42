"""Shared by the tests of the accounts' HTTP API: a client that speaks to a served room
from its own page (:class:`Browser`), its replies, and fast Argon2id that counts its
work from any thread (:class:`CountingPasswords`)."""

from __future__ import annotations

import http.client
import json
import threading
from typing import Any

from doubleholdem.accounts.accounts import Passwords

PASSWORD = "correct horse battery"


class CountingPasswords(Passwords):
    """Fast Argon2id (tests only) that counts its verifications and hashes, safely from
    the server's threads."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, insecure=True)
        self._counting = threading.Lock()
        self.verified = 0
        self.hashed = 0

    def verify(self, hashed: str, password: str) -> bool:
        with self._counting:
            self.verified += 1
        return super().verify(hashed, password)

    def hash(self, password: str) -> str:
        with self._counting:
            self.hashed += 1
        return super().hash(password)


class Reply:
    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.status = response.status
        self.headers = response.headers
        body = response.read()
        json_body = response.headers.get("content-type", "").startswith("application/json")
        self.body: Any = json.loads(body) if body and json_body else body.decode()

    @property
    def token(self) -> str:
        cookie = self.headers["set-cookie"]
        return str(cookie.split(";")[0].split("=", 1)[1])


class Browser:
    """Requests to the server at ``port`` from its own page (``Origin``), keeping no
    cookie of its own: each call says which session it carries."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"

    def request(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        sent = {"Origin": self.origin, "Content-Type": "application/json"}
        if token is not None:
            sent["Cookie"] = f"dh_session={token}"
        sent.update(headers or {})
        data = body if isinstance(body, bytes) else None if body is None else json.dumps(body)
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=data, headers=sent)
            return Reply(connection.getresponse())
        finally:
            connection.close()

    def sign_up(self, name: str, password: str = PASSWORD, **options: Any) -> Reply:
        return self.request("POST", "/api/signup", {"name": name, "password": password}, **options)

    def sign_in(self, name: str, password: str = PASSWORD, **options: Any) -> Reply:
        return self.request("POST", "/api/signin", {"name": name, "password": password}, **options)
