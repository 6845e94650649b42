"""The WebSocket protocol (``docs/PROTOCOL.md``): one pure function, :func:`decode`,
turns the text a client sent into a typed message or raises
:class:`ProtocolError` with the code the server replies with;
:func:`encode` writes a server message; :func:`diff` and :func:`apply_patch` are the two
sides of an ``update`` (a view's change since the last one a connection was sent:
:mod:`doubleholdem.server.patches`).

>>> decode('{"v": 2, "type": "act", "id": "a1", "hand": 3, "action": "raise", "amount": 40}')
Act(id='a1', hand=3, action='raise', amount=40)
>>> decode('{"v": 2, "type": "sit", "table": 0, "seat": 2, "name": "ann", "buy_in": 1000}')
Sit(table=0, seat=2, name='ann', buy_in=1000)
>>> decode('{"v": 2, "type": "act", "id": "a1", "hand": 3, "action": "steal"}')
Traceback (most recent call last):
...
doubleholdem.server.protocol.ProtocolError: act: action must be one of fold, check, call, bet, ...
>>> decode('{"v": 2, "type": "sit", "table": 0, "name": "\u0430nn", "buy_in": 1000}')
Traceback (most recent call last):
...
doubleholdem.server.protocol.ProtocolError: sit: name must be 1 to 24 ASCII letters, digits or ...
>>> decode("x" * 5000)
Traceback (most recent call last):
...
doubleholdem.server.protocol.ProtocolError: a message is at most 4096 bytes, this one has 5000
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from typing import Any, NamedTuple, Union

from doubleholdem.errors import DoubleHoldemError
from doubleholdem.game import words
from doubleholdem.server.patches import Patch, apply_patch, diff

__all__ = [
    "ACTIONS",
    "LOBBY_PAGE",
    "MAX_CHAT",
    "MAX_HANDS",
    "MAX_MESSAGE_BYTES",
    "MAX_NAME",
    "NAME_CHARACTERS",
    "PROTOCOL_VERSION",
    "TOURNAMENT_MESSAGES",
    "UNAVAILABLE",
    "Act",
    "Chat",
    "Hands",
    "Leave",
    "Lobby",
    "Message",
    "Patch",
    "Ping",
    "Preferences",
    "ProtocolError",
    "Resume",
    "Sit",
    "SitIn",
    "SitOut",
    "TopUp",
    "TournamentAct",
    "TournamentBuy",
    "TournamentDeal",
    "TournamentLobby",
    "TournamentRegister",
    "TournamentUnregister",
    "TournamentUnwatch",
    "TournamentWatch",
    "TournamentsOver",
    "Watch",
    "account_blocked",
    "apply_patch",
    "decode",
    "diff",
    "encode",
    "unavailable",
]

UNAVAILABLE = "the database refuses writes for now; nothing was changed, try again later"


class ProtocolError(DoubleHoldemError, ValueError):
    """A game server message that cannot be taken: malformed, oversized, of an unknown
    type or version, or with fields of the wrong kind. ``code`` is the short error code
    the server replies with (``bad_json``, ``too_large``, ``bad_version``,
    ``bad_type``, ``bad_field``; the server also uses ``no_table``)."""

    def __init__(self, message: str, *, code: str = "bad_message") -> None:
        super().__init__(message)
        self.code = code


PROTOCOL_VERSION = 2
MAX_MESSAGE_BYTES = 4096
LOBBY_PAGE = 100  # tables in one lobby reply at most
MAX_NAME = 24  # a player's name: 1 to 24 of NAME_CHARACTERS, no space at either end
MAX_ID = 64
MAX_CHAT = 200  # characters in a chat message
MAX_HANDS = 20  # hands in one ``hands`` reply at most
_ALNUM = frozenset(string.ascii_letters + string.digits)
NAME_CHARACTERS = "".join(sorted(_ALNUM)) + " _-."  # ASCII only: no look-alike letters
ACTIONS = words.ACTIONS


class Lobby(NamedTuple):
    """Asks for the list of tables: at most ``LOBBY_PAGE`` of them, from table id
    ``first`` on."""

    first: int = 0


class Sit(NamedTuple):
    """Takes ``seat`` (or the first open one when ``None``) at ``table``; ``name``: the
    name a guest sits under (``None`` when left out: a signed-in account's is its own)."""

    table: int
    seat: int | None
    name: str | None
    buy_in: int


class Resume(NamedTuple):
    """Takes back the seat that ``token`` was given for or, in a room with accounts, the
    signed-in account's own seat at ``table`` (one of the two is given)."""

    token: str | None
    table: int | None = None


class Watch(NamedTuple):
    """Watches ``table`` as a spectator."""

    table: int


class Act(NamedTuple):
    """A decision in hand number ``hand``; ``id`` is the client's action id (a retried
    id is applied once). ``amount``: the total to bet or raise to, or the point index."""

    id: str
    hand: int
    action: str
    amount: int | None


class TopUp(NamedTuple):
    """Adds chips between hands."""

    amount: int


class SitIn(NamedTuple):
    """Comes back after sitting out: posts the blinds it missed at the next hand, or
    with ``wait`` waits for the big blind (TH-37)."""

    wait: bool = False


class SitOut(NamedTuple):
    """Sits out from the next hand on (the blinds that pass are missed, TH-37)."""


class Leave(NamedTuple):
    """Leaves the seat (after the hand being played)."""


class Chat(NamedTuple):
    """Says ``text`` at the table the client sits at or watches: 1 to ``MAX_CHAT``
    printable characters (no control characters), shown as text, never as HTML."""

    text: str


class Hands(NamedTuple):
    """Asks for the ``last`` hands the client's seat played, as that seat saw them: its
    seat at a cash table, or with ``tournament`` its account's seat in that tournament."""

    last: int = 10
    tournament: int | None = None


class Preferences(NamedTuple):
    """The seat's showdown preferences (TH-22): ``None`` leaves one as it is."""

    muck_losing: bool | None
    show_uncontested: bool | None


class Ping(NamedTuple):
    """Asks for a ``pong`` (keep-alive, clock)."""


class TournamentLobby(NamedTuple):
    """Asks for the room's tournaments, and for the list anew whenever it changes."""


class TournamentsOver(NamedTuple):
    """Asks for a page of the tournaments over, newest first: those with an id below
    ``before`` (``None``: the newest)."""

    before: int | None = None


class TournamentWatch(NamedTuple):
    """Watches tournament ``tournament`` (the connection's one: it replaces another),
    with the signed-in account's own entry and table."""

    tournament: int


class TournamentUnwatch(NamedTuple):
    """Stops watching the tournament watched."""


class TournamentRegister(NamedTuple):
    """Enters the signed-in account in ``tournament`` (paid from its balance)."""

    tournament: int


class TournamentUnregister(NamedTuple):
    """Takes the signed-in account's entry in ``tournament`` back (before the start)."""

    tournament: int


class TournamentAct(NamedTuple):
    """A decision at the signed-in account's table of ``tournament``, as :class:`Act`."""

    tournament: int
    id: str
    hand: int
    action: str
    amount: int | None


class TournamentBuy(NamedTuple):
    """Buys a ``re-entry``, a ``rebuy`` or an ``add-on`` in ``tournament``."""

    tournament: int
    what: str


class TournamentDeal(NamedTuple):
    """Asks for a final-table deal, or accepts or declines the one offered (``answer``:
    ``ask``, ``accept``, ``decline``)."""

    tournament: int
    answer: str


TOURNAMENT_MESSAGES = (
    TournamentLobby,
    TournamentsOver,
    TournamentWatch,
    TournamentUnwatch,
    TournamentRegister,
    TournamentUnregister,
    TournamentAct,
    TournamentBuy,
    TournamentDeal,
)

Message = Union[
    Lobby, Sit, Resume, Watch, Act, TopUp, SitIn, SitOut, Leave, Chat, Hands, Preferences, Ping,
    TournamentLobby, TournamentsOver, TournamentWatch, TournamentUnwatch, TournamentRegister,
    TournamentUnregister, TournamentAct, TournamentBuy, TournamentDeal,
]  # fmt: skip


def decode(text: str | bytes) -> Message:
    """The message in ``text`` (a JSON object with ``"v": 2`` and a ``type``), or
    :class:`ProtocolError`. Pure: no state, no I/O; every input either decodes or raises
    :class:`ProtocolError`."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            f"a message is at most {MAX_MESSAGE_BYTES} bytes, this one has {size}",
            code="too_large",
        )
    try:
        data = json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:
        raise ProtocolError(f"not JSON: {error}", code="bad_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object", code="bad_json")
    if data.get("v") != PROTOCOL_VERSION or type(data.get("v")) is not int:
        raise ProtocolError(
            f"protocol version {data.get('v')!r} is not {PROTOCOL_VERSION}", code="bad_version"
        )
    kind = data.get("type")
    decoder = _DECODERS.get(kind) if isinstance(kind, str) else None
    if decoder is None:
        raise ProtocolError(f"unknown message type {kind!r}", code="bad_type")
    fields = _Fields(str(kind), data)
    message = decoder(fields)
    fields.done()
    return message


def encode(kind: str, **fields: Any) -> str:
    """A server message: ``{"v": 2, "type": kind, ...fields}`` as compact JSON."""
    return json.dumps({"v": PROTOCOL_VERSION, "type": kind, **fields}, separators=(",", ":"))


def unavailable(ident: str | None) -> str:
    """The error a change gets while the database refuses writes (``ident``: the
    request's id, if it had one)."""
    fields: dict[str, Any] = {"code": "unavailable", "message": UNAVAILABLE}
    if ident is not None:
        fields["id"] = ident
    return encode("error", **fields)


class _Fields:
    """Reads a message's fields, each once, and refuses fields it did not read."""

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.kind = kind
        self.data = data
        self.read = {"v", "type"}

    def _get(self, name: str, required: bool) -> Any:
        self.read.add(name)
        if name not in self.data and required:
            raise self.error(f"{name} is missing")
        return self.data.get(name)

    def error(self, reason: str) -> ProtocolError:
        return ProtocolError(f"{self.kind}: {reason}", code="bad_field")

    def integer(self, name: str, low: int, high: int, *, optional: bool = False) -> int | None:
        value = self._get(name, not optional)
        if value is None and optional:
            return None
        if type(value) is not int or not low <= value <= high:
            raise self.error(f"{name} must be a whole number in {low}..{high}")
        return value

    def text(self, name: str, pattern: str, longest: int) -> str:
        value = self._get(name, True)
        ok = isinstance(value, str) and 1 <= len(value) <= longest
        if not ok or not all(c in _ALNUM or c in pattern for c in value):
            raise self.error(f"{name} must be 1 to {longest} ASCII letters, digits or {pattern!r}")
        return str(value)

    def flag(self, name: str) -> bool | None:
        """An optional true or false (``None`` when left out)."""
        value = self._get(name, False)
        if value is not None and type(value) is not bool:
            raise self.error(f"{name} must be true or false")
        return value

    def done(self) -> None:
        extra = sorted(set(self.data) - self.read)
        if extra:
            raise self.error(f"unknown fields {', '.join(extra)}")


_BIG = 2**53


def _sit(f: _Fields) -> Sit:
    table = f.integer("table", 0, 100_000)
    seat = f.integer("seat", 0, 9, optional=True)
    name = f.text("name", " _-.", MAX_NAME) if "name" in f.data else None
    if name is not None and name != name.strip(" "):
        raise f.error("name must not start or end with a space")
    buy_in = f.integer("buy_in", 1, _BIG)
    assert table is not None and buy_in is not None
    return Sit(table, seat, name, buy_in)


def _act(f: _Fields) -> Act:
    ident = f.text("id", "_-.:", MAX_ID)
    hand = f.integer("hand", 1, _BIG)
    action = f._get("action", True)
    if action not in ACTIONS:
        raise f.error(f"action must be one of {', '.join(ACTIONS)}")
    amount = f.integer("amount", 0, _BIG, optional=True)
    if action == words.POINT and amount is None:
        raise f.error("a point card needs amount: its index 0, 1 or 2")
    assert hand is not None
    return Act(ident, hand, str(action), amount)


def _resume(f: _Fields) -> Resume:
    if "table" not in f.data:
        return Resume(f.text("token", "_-", 128))
    if "token" in f.data:
        raise f.error("give a token or a table, not both")
    return Resume(None, f.integer("table", 0, 100_000))


def _watch(f: _Fields) -> Watch:
    table = f.integer("table", 0, 100_000)
    assert table is not None
    return Watch(table)


def _top_up(f: _Fields) -> TopUp:
    amount = f.integer("amount", 1, _BIG)
    assert amount is not None
    return TopUp(amount)


def _chat(f: _Fields) -> Chat:
    value = f._get("text", True)
    if not isinstance(value, str) or not 1 <= len(value.strip()) <= MAX_CHAT:
        raise f.error(f"text must be 1 to {MAX_CHAT} characters (not only spaces)")
    if not value.isprintable():
        raise f.error("text must be printable: no control characters or line breaks")
    return Chat(value.strip())


def _hands(f: _Fields) -> Hands:
    last = f.integer("last", 1, MAX_HANDS, optional=True)
    tournament = f.integer("tournament", 0, 1_000_000_000, optional=True)
    return Hands(10 if last is None else last, tournament)


def _tournament(f: _Fields) -> int:
    number = f.integer("tournament", 0, 1_000_000_000)
    assert number is not None
    return number


def _before(f: _Fields) -> int | None:
    return f.integer("before", 0, 1_000_000_000, optional=True)


def _tournament_act(f: _Fields) -> TournamentAct:
    act = _act(f)
    return TournamentAct(_tournament(f), act.id, act.hand, act.action, act.amount)


def _choice(f: _Fields, name: str, choices: tuple[str, ...]) -> str:
    value = f._get(name, True)
    if value not in choices:
        raise f.error(f"{name} must be one of {', '.join(choices)}")
    return str(value)


_DECODERS: dict[str, Callable[[_Fields], Message]] = {
    "lobby": lambda f: Lobby(f.integer("from", 0, 100_000, optional=True) or 0),
    "sit": _sit,
    "resume": lambda f: _resume(f),
    "watch": _watch,
    "act": _act,
    "top_up": _top_up,
    "sit_in": lambda f: SitIn(bool(f.flag("wait"))),
    "sit_out": lambda f: SitOut(),
    "chat": _chat,
    "hands": _hands,
    "leave": lambda f: Leave(),
    "preferences": lambda f: Preferences(f.flag("muck_losing"), f.flag("show_uncontested")),
    "ping": lambda f: Ping(),
    "tournament_lobby": lambda f: TournamentLobby(),
    "tournaments_over": lambda f: TournamentsOver(_before(f)),
    "tournament_watch": lambda f: TournamentWatch(_tournament(f)),
    "tournament_unwatch": lambda f: TournamentUnwatch(),
    "tournament_register": lambda f: TournamentRegister(_tournament(f)),
    "tournament_unregister": lambda f: TournamentUnregister(_tournament(f)),
    "tournament_act": _tournament_act,
    "tournament_buy": lambda f: TournamentBuy(
        _tournament(f), _choice(f, "what", ("re-entry", "rebuy", "add-on"))
    ),
    "tournament_deal": lambda f: TournamentDeal(
        _tournament(f), _choice(f, "answer", ("ask", "accept", "decline"))
    ),
}


def account_blocked(state: str) -> str:
    """The error that tells a page of an account frozen or closed (``state``) by the
    room's operator why it is closed, at once, before it is."""
    if state == "closed":
        return encode(
            "error",
            code="account_closed",
            message="your account was closed by the room's operator: you are signed out",
        )
    return encode(
        "error",
        code="account_frozen",
        message="your account was frozen by the room's operator: you may watch, but not "
        "sit, play or chat; a seat you hold stays away until it is removed and its chips "
        "go back to your balance",
    )
