"""Shared by the tests of the accounts' HTTP API: a client that speaks to a served room
from its own page (:class:`Browser`) and its replies (the fast Argon2id that counts its
work is :mod:`passwords_double`'s)."""

from __future__ import annotations

import http.client
import json
from typing import Any

PASSWORD = "correct horse battery"


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
