"""The operator's log: one line per event a host wants to know of (sign-ups, sign-ins
refused, buy-ins, top-ups, cash-outs, removals, accounts frozen or closed, failed
commits, wallet failures, start and shutdown), through Python's :mod:`logging` on the
``doubleholdem.server`` logger, as text or as one JSON object a line
(``serve --log-format json``), with uvicorn's access lines if asked
(``serve --access-log``). See docs/server.md, "The operator's log".

An event names people by their account or seat name, tables and seats from 1, and
chips as integers; it never carries a password, a session or seat token, or a card:
:func:`event` takes only the fields its callers name, and none of them is one of those.

>>> import io
>>> stream = io.StringIO()
>>> configure(level="info", style="json", stream=stream)
>>> event("sign_up", account="ann", address="127.0.0.1")
>>> line = json.loads(stream.getvalue())
>>> line["event"], line["account"], line["level"]
('sign_up', 'ann', 'info')
>>> unconfigure()
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, TextIO

from doubleholdem.table.entries import Entry, Join, Leave, TopUp

__all__ = [
    "EVENTS",
    "FORMATS",
    "LEVELS",
    "JsonFormatter",
    "Logged",
    "TextFormatter",
    "configure",
    "event",
    "removal",
    "seating",
    "unconfigure",
]

LOGGER = "doubleholdem.server"
LEVELS = ("debug", "info", "warning", "error")
FORMATS = ("text", "json")
# every event the room logs, with its level
EVENTS = {
    "start": logging.INFO,
    "shutdown": logging.INFO,
    "sign_up": logging.INFO,
    "sign_in": logging.INFO,
    "sign_in_refused": logging.WARNING,
    "buy_in": logging.INFO,
    "top_up": logging.INFO,
    "cash_out": logging.INFO,
    "removal": logging.INFO,
    "tournament_sale": logging.INFO,
    "tournament_refund": logging.INFO,
    "tournament_prize": logging.INFO,
    "tournament_end": logging.INFO,
    "account_blocked": logging.WARNING,
    "commit_failed": logging.ERROR,
    "leases_lost": logging.WARNING,
    "writes_fenced": logging.WARNING,
    "tables_taken": logging.INFO,
    "tables_let_go": logging.INFO,
    "tournaments_taken": logging.INFO,
    "tournaments_lost": logging.WARNING,
    "writes_again": logging.WARNING,
    "wallet_failed": logging.ERROR,
}
_log = logging.getLogger(LOGGER)
_MAX_TEXT = 80  # characters of a text field (a name typed by anyone) kept in a line
_handlers: list[tuple[logging.Logger, logging.Handler]] = []


def event(name: str, /, **fields: object) -> None:
    """Logs the event ``name`` (one of :data:`EVENTS`, at its level) with ``fields``:
    names, numbers and reasons, never a secret or a card."""
    level = EVENTS[name]
    if not _log.isEnabledFor(level):
        return
    kept = {key: _kept(value) for key, value in fields.items()}
    text = " ".join([name, _pairs(kept)]) if kept else name
    _log.log(level, "%s", text, extra={"event": name, "fields": kept})


def _kept(value: object) -> object:
    """``value`` as a line holds it: numbers and booleans as they are, text cut to
    :data:`_MAX_TEXT` characters."""
    if value is None or isinstance(value, (bool, int)):
        return value
    text = str(value)
    return text if len(text) <= _MAX_TEXT else text[:_MAX_TEXT] + "..."


def _pairs(fields: dict[str, object]) -> str:
    """``key=value`` pairs, a value with a blank, a quote or an ``=`` in JSON quotes."""
    parts = []
    for key, value in fields.items():
        text = value if isinstance(value, str) else json.dumps(value)
        if not text or any(c in text for c in ' "=\\') or not text.isprintable():
            text = json.dumps(text, ensure_ascii=False)
        parts.append(f"{key}={text}")
    return " ".join(parts)


def _timestamp(record: logging.LogRecord) -> str:
    """The record's UTC time, ISO 8601 to the millisecond."""
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{seconds}.{int(record.msecs):03d}Z"


class TextFormatter(logging.Formatter):
    """``TIME LEVEL MESSAGE`` on one line; an exception's type and message follow it
    on that line (not its traceback: one line per event)."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{_timestamp(record)} {record.levelname.lower()} {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line += " " + _pairs({"error": f"{type(error).__name__}: {error}"})
        return line.replace("\n", " ")


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time``, ``level``, ``logger``, and ``event`` with its
    fields for an event, ``message`` for any other line (uvicorn's access lines as
    ``event: "access"`` with ``address``, ``method``, ``path``, ``status``)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        name = getattr(record, "event", None)
        if name is not None:
            line["event"] = name
            line.update(getattr(record, "fields", {}))
        elif record.name == "uvicorn.access" and isinstance(record.args, tuple):
            line.update(_access(record.args))
        else:
            line["message"] = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line["error"] = f"{type(error).__name__}: {error}"
        return json.dumps(line, ensure_ascii=False, default=str)


def _access(args: tuple[Any, ...]) -> dict[str, Any]:
    """The fields of a uvicorn access line (its arguments: the client's address, the
    method, the path, the HTTP version and the status)."""
    if len(args) != 5:
        return {"event": "access", "message": " ".join(map(str, args))}
    address, method, path, version, status = args
    return {
        "event": "access",
        "address": address,
        "method": method,
        "path": path,
        "http": version,
        "status": status,
    }


def configure(
    *, level: str = "info", style: str = "text", access: bool = False, stream: TextIO | None = None
) -> None:
    """Sends the room's log (``level`` and above) and uvicorn's warnings to ``stream``
    (standard error by default) in ``style`` (:data:`FORMATS`); with ``access``,
    uvicorn's access lines too (one per HTTP request and WebSocket handshake)."""
    if level not in LEVELS:
        raise ValueError(f"log level: one of {', '.join(LEVELS)}, not {level!r}")
    if style not in FORMATS:
        raise ValueError(f"log format: one of {', '.join(FORMATS)}, not {style!r}")
    unconfigure()
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(JsonFormatter() if style == "json" else TextFormatter())
    room = logging.getLogger(LOGGER)
    room.setLevel(level.upper())
    loggers = [room, logging.getLogger("uvicorn.error")]
    access_log = logging.getLogger("uvicorn.access")
    access_log.setLevel(logging.INFO if access else logging.CRITICAL + 1)
    access_log.propagate = False
    if access:
        loggers.append(access_log)
    for logger in loggers:
        logger.addHandler(handler)
        _handlers.append((logger, handler))
    room.propagate = False


def unconfigure() -> None:
    """Takes back what :func:`configure` did (the loggers log as before)."""
    while _handlers:
        logger, handler = _handlers.pop()
        logger.removeHandler(handler)
    room = logging.getLogger(LOGGER)
    room.setLevel(logging.NOTSET)
    room.propagate = True


class Logged:
    """The event ``name`` with ``fields``, logged when sent: handed to the group commit
    (:meth:`~doubleholdem.server.storage.commit.GroupCommit.post`), it is logged once the change
    it tells of is committed, and never if that commit fails."""

    def __init__(self, name: str, /, **fields: object) -> None:
        self.name, self.fields = name, fields

    def send(self, text: str) -> None:
        event(self.name, **self.fields)


def seating(table_id: int, entries: list[Entry]) -> list[Logged]:
    """The buy-ins, top-ups and cash-outs among a table's own ``entries`` (``table_id``
    from 0), to log once committed."""
    events = []
    for entry in entries:
        if type(entry) is Join:
            name = "buy_in"
        elif type(entry) is TopUp:
            name = "top_up"
        elif type(entry) is Leave:
            name = "cash_out"
        else:
            continue
        fields = {"table": table_id + 1, "seat": entry.seat + 1, "player": entry.player}
        events.append(Logged(name, **fields, chips=entry.amount))
    return events


def removal(table_id: int, seat: int, occupant: dict[str, Any]) -> Logged:
    """The removal of ``occupant`` (the table's view of it) from ``seat`` of table
    ``table_id`` (both from 0): ``busted`` without chips, else ``away`` (sat out), to
    log once committed."""
    why = "busted" if occupant.get("stack") == 0 else "away"
    fields = {"table": table_id + 1, "seat": seat + 1, "player": occupant.get("player")}
    return Logged("removal", **fields, reason=why)
