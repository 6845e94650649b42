"""The server's front door (HTTP): the ASGI app and its browser page (``static/``), the
accounts' HTTP API and the desk behind it, the checks every request passes (its origin,
the session cookie) and the server's bounds at the HTTP layer; and ``loadtest``, bot
clients that play against a running server over WebSockets. Built on
:mod:`doubleholdem.server.tables`."""
