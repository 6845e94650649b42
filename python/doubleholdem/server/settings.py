"""How a room runs: :class:`RoomSettings`, the tables a server runs by default
(:func:`default_configs`), and table settings from a TOML file (:func:`load_configs`:
``[[table]]`` entries of :class:`~doubleholdem.table.TableConfig` fields, with the kinds
of bots at such a table: :func:`load_tables`), and room settings (:func:`load_room`: a
``[room]`` table)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from doubleholdem.game import Structure, Variant
from doubleholdem.table import TableConfig
from doubleholdem.textfile import read_text

__all__ = [
    "DAY",
    "DEFAULT_BOTS",
    "HASH_SLOTS",
    "MAX_CONFIG_BYTES",
    "MAX_HASH_SLOTS",
    "MAX_KEEP_DAYS",
    "MAX_SEAT_TIME",
    "MAX_WELCOME",
    "ROOM_OPTIONS",
    "RoomSettings",
    "default_configs",
    "load_configs",
    "load_room",
    "load_tables",
    "read_toml",
]

MAX_CONFIG_BYTES = 1 << 20
"""The largest settings file :func:`load_configs` reads (1 MiB)."""

DEFAULT_BOTS = ("random", "station")
"""The bots of a table whose settings name none, seat by seat in turn."""

MAX_SEAT_TIME = 86_400.0
"""The longest ``remove_after`` and ``busted_after`` (a day, in seconds)."""

DAY = 86_400.0
"""A day in seconds: the unit of ``keep_hands_days``."""

MAX_KEEP_DAYS = 36_500.0
"""The longest ``keep_hands_days`` (a hundred years)."""


def default_configs() -> list[TableConfig]:
    """The tables a server runs without a config file, in turn: six-seat fixed-limit
    Double Hold'em 10/20 (DH-9) and six-seat no-limit Texas Hold'em 5/10."""
    return [
        TableConfig(
            small_blind=5,
            big_blind=10,
            seats=6,
            variant=Variant.DOUBLE,
            structure=Structure.FIXED_LIMIT,
        ),
        TableConfig(small_blind=5, big_blind=10, seats=6),
    ]


HASH_SLOTS = 4
"""The Argon2 hashes a room's desk runs at once by default (19 MiB each)."""
MAX_HASH_SLOTS = 64
"""The most hash slots a room may have."""


@dataclass
class RoomSettings:
    """How a room runs: ``tables`` tables, ``bots`` seats per new table taken by bots
    that act after ``bot_delay`` seconds; ``pause`` seconds between hands; ``configs``
    the new tables' settings, in turn, and ``bot_kinds`` the kinds of bots
    (:data:`~doubleholdem.table.bots.BOTS`) at each of them, seat by seat in turn (a
    missing entry: :data:`DEFAULT_BOTS`); ``clock`` the server's clock (seconds, wall time
    so that deadlines survive a restart); ``seed`` seeded deals (``None``: strong);
    ``keep_hands`` the finished hands each table keeps in the database (``None``: all;
    else the last ``keep_hands``, older ones forgotten in small steps as hands end) and
    ``keep_hands_days`` for how long (``None``: for ever; else hands that ended longer
    ago are forgotten likewise, and every ``RETENTION_SECONDS`` at tables without hands);
    neither forgets the last hands a seat held by a person may ask for (docs/server.md,
    "Retention");
    ``snapshot_key`` a secret under which the tables' snapshots carry an HMAC instead of a
    checksum (:meth:`~doubleholdem.table.Table.to_json`), so that whoever can write the
    database but lacks the key cannot forge a table (``None``: checksums);
    ``spectator_chat`` whether spectators may write in a table's chat (they always read
    it; ``None``, the default: in a guest room only, :attr:`chat_for_spectators`);
    ``chat_lines`` the recent chat lines a client is sent when it starts watching.

    Accounts (docs/server.md, "Accounts and sign-in"): by default a seat is taken only
    by a signed-in account, under its name; ``guests`` lets anyone sit under a chosen
    name with chips from nowhere (demos, tests, the load test's old mode). ``signup``
    opens ``POST /api/signup`` to anyone; ``welcome_chips`` new accounts get from the
    house; ``households`` refuses a second account from one address at one table;
    ``signups_per_address`` bounds the sign-ups from one address in an hour (0: no
    bound), so that an open room's welcome chips cannot be farmed; ``hash_slots`` is the
    number of Argon2 hashes (sign-ins and sign-ups) the desk runs at once, 1 to
    :data:`MAX_HASH_SLOTS` (19 MiB each at OWASP's parameters; beyond them a request is
    refused at once, 429).

    Money (docs/server.md, "Money at the tables"): unless ``guests``, every seat is paid
    from an account's balance through the room's wallet, and each bot is an account
    with a bankroll of ``bot_bankroll`` chips from the house (0: ten maximum buy-ins of
    its table). A table keeps its ``bots`` seats filled: a bot that left (no chips, no
    bankroll) is replaced by one with a new bankroll while the house's balance stays at
    or above ``-house_limit`` (``None``: no bound).

    The seat lifecycle (docs/tables.md, "Seats that free themselves"): a seat sat out for
    ``remove_after`` seconds, or without chips for ``busted_after`` seconds, is removed
    and its chips go back; a player who left owes the blinds it missed if it sits down
    again at the table within ``remove_after`` seconds (TH-37).

    Many processes, one room (docs/postgres.md): ``process`` is this process's id in
    the room (random by default) and ``address`` the URL clients reach it at (``serve``
    says ``http://HOST:PORT`` unless told ``--address``; ``""``: unknown); the lobby
    names them beside each table this process serves, and a client asking another
    process for such a table is sent here (``elsewhere``, docs/PROTOCOL.md). ``origins``: the
    room's public origins (``serve --origin``: a reverse proxy's, in front of the
    processes), whose pages may sign in and open a WebSocket here besides the page's
    own and the room's other processes' (``Origin``, docs/PROTOCOL.md)."""

    tables: int = 4
    bots: int = 2
    bot_delay: float = 1.0
    pause: float = 2.0
    configs: list[TableConfig] = field(default_factory=default_configs)
    bot_kinds: list[tuple[str, ...]] = field(default_factory=list)
    clock: Callable[[], float] = time.time
    seed: int | None = None
    keep_hands: int | None = None
    keep_hands_days: float | None = None
    spectator_chat: bool | None = None
    chat_lines: int = 50
    snapshot_key: bytes | None = None
    guests: bool = False
    signup: bool = False
    welcome_chips: int = 0
    households: bool = False
    signups_per_address: int = 20
    hash_slots: int = HASH_SLOTS
    bot_bankroll: int = 0
    house_limit: int | None = None
    remove_after: float = 300.0
    busted_after: float = 60.0
    process: str = field(default_factory=lambda: secrets.token_hex(6))
    address: str = ""
    origins: tuple[str, ...] = ()

    @property
    def chat_for_spectators(self) -> bool:
        """Whether spectators may write in a table's chat: ``spectator_chat`` if set,
        else only in a guest room (in a room of accounts only seated players chat)."""
        return self.guests if self.spectator_chat is None else self.spectator_chat


def read_toml(path: str) -> dict[str, Any]:
    """The TOML file at ``path`` as a dict, or :class:`~doubleholdem.errors.InvalidConfig`
    (also read by :func:`doubleholdem.server.tournaments.spec.load_tournaments`)."""
    import rtoml

    from doubleholdem.errors import InvalidConfig

    text = read_text(path, MAX_CONFIG_BYTES, lambda reason: InvalidConfig(f"{path}: {reason}"))
    try:
        data = rtoml.loads(text)
    except (rtoml.TomlParsingError, ValueError, TypeError) as error:
        raise InvalidConfig(f"{path}: {error}") from None
    return dict(data)


def load_configs(path: str) -> list[TableConfig]:
    """The table settings in the TOML file at ``path``: a regular file of UTF-8 text of at
    most :data:`MAX_CONFIG_BYTES` bytes, else :class:`~doubleholdem.errors.InvalidConfig`.
    A file with a ``[room]`` table (:func:`load_room`) may leave the tables out: then
    they are :func:`default_configs`.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
    ...     _ = f.write('[[table]]\\nvariant = "double"\\nstructure = "fixed-limit"\\n'
    ...                 'small_blind = 10\\nbig_blind = 20\\nseats = 4\\n')
    >>> [(c.variant.value, c.structure.value, c.big_blind, c.seats) for c in load_configs(f.name)]
    [('double', 'fixed-limit', 20, 4)]
    >>> os.unlink(f.name)
    """
    return load_tables(path)[0]


def load_tables(path: str) -> tuple[list[TableConfig], list[tuple[str, ...]]]:
    """The table settings in the TOML file at ``path`` (:func:`load_configs`) and the
    kinds of bots at each such table (an entry's ``bots``: a kind of
    :data:`~doubleholdem.table.bots.BOTS` or a list of them, seat by seat in turn;
    default :data:`DEFAULT_BOTS`).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
    ...     _ = f.write('[[table]]\\nsmall_blind = 5\\nbig_blind = 10\\nbots = "equity"\\n'
    ...                 '[[table]]\\nsmall_blind = 1\\nbig_blind = 2\\nseats = 2\\n')
    >>> configs, bots = load_tables(f.name)
    >>> [c.seats for c in configs], bots
    ([10, 2], [('equity',), ('random', 'station')])
    >>> os.unlink(f.name)
    """
    from doubleholdem.errors import InvalidConfig
    from doubleholdem.game import Rake

    data = read_toml(path)
    if "table" not in data and (isinstance(data.get("room"), dict) or "tournament" in data):
        return default_configs(), []
    entries = data.get("table")
    if (
        not isinstance(entries, list)
        or not entries
        or not all(isinstance(e, dict) for e in entries)
    ):
        raise InvalidConfig(f"{path}: needs a [[table]] list")
    configs = []
    kinds = []
    for entry in entries:
        fields = dict(entry)
        kinds.append(_bot_kinds(path, fields.pop("bots", list(DEFAULT_BOTS))))
        try:
            if isinstance(fields.get("rake"), dict):
                fields["rake"] = Rake(**fields["rake"])
            configs.append(TableConfig(**fields))
        except TypeError as error:
            raise InvalidConfig(f"{path}: {error}") from None
    return configs, kinds


def _bot_kinds(path: str, value: object) -> tuple[str, ...]:
    """An entry's ``bots``: kinds of :data:`~doubleholdem.table.bots.BOTS`."""
    from doubleholdem.errors import InvalidConfig
    from doubleholdem.table.bots import BOTS

    kinds = [value] if isinstance(value, str) else value
    if not isinstance(kinds, list) or not kinds or not all(k in BOTS for k in kinds):
        known = ", ".join(sorted(BOTS))
        raise InvalidConfig(f"{path}: bots must be a kind of bot or a list of them: {known}")
    return tuple(kinds)


ROOM_OPTIONS: dict[str, type] = {
    "guests": bool,
    "signup": str,
    "welcome_chips": int,
    "signups_per_address": int,
    "hash_slots": int,
    "households": bool,
    "spectator_chat": bool,
    "bot_bankroll": int,
    "house_limit": int,
    "remove_after": float,
    "busted_after": float,
    "keep_hands": int,
    "keep_hands_days": float,
}
"""The keys of a settings file's ``[room]`` table and their types."""


def _seconds(path: str, key: str, value: object) -> float:
    """A number of seconds in 1..:data:`MAX_SEAT_TIME`, else InvalidConfig."""
    from doubleholdem.errors import InvalidConfig

    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not 1 <= value <= MAX_SEAT_TIME:  # type: ignore[operator]
        raise InvalidConfig(
            f"{path}: [room] {key} must be a number of seconds in 1..{MAX_SEAT_TIME:.0f},"
            f" not {value!r}"
        )
    return float(value)  # type: ignore[arg-type]


def _days(path: str, value: object) -> float:
    """``keep_hands_days``: a number of days in (0, :data:`MAX_KEEP_DAYS`], else
    InvalidConfig."""
    from doubleholdem.errors import InvalidConfig

    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not 0 < value <= MAX_KEEP_DAYS:  # type: ignore[operator]
        raise InvalidConfig(
            f"{path}: [room] keep_hands_days must be a number of days in (0, "
            f"{MAX_KEEP_DAYS:.0f}], not {value!r}"
        )
    return float(value)  # type: ignore[arg-type]


def load_room(path: str, settings: RoomSettings) -> None:
    """Applies the ``[room]`` table of the TOML file at ``path`` to ``settings``:
    ``guests`` (true: anyone sits under a chosen name), ``signup`` (``"open"`` or
    ``"closed"``), ``welcome_chips``, ``signups_per_address`` (a sign-up bound, 0: none),
    ``hash_slots`` (Argon2 hashes at once, 1 to :data:`MAX_HASH_SLOTS`),
    ``bot_bankroll`` and ``house_limit`` (0 to 10**12), ``households``
    (true: one account per address at a table), ``spectator_chat`` (false: spectators
    read the chat but may not write in it), ``remove_after`` and ``busted_after``
    (seconds, 1 to a day: the seat lifecycle), ``keep_hands`` (0 to 10**12 hands) and
    ``keep_hands_days`` (days: the retention). A missing table changes nothing; an unknown
    key or a value of the wrong kind is :class:`~doubleholdem.errors.InvalidConfig`.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
    ...     _ = f.write('[room]\\nsignup = "open"\\nwelcome_chips = 1000\\n')
    >>> settings = RoomSettings()
    >>> load_room(f.name, settings)
    >>> settings.guests, settings.signup, settings.welcome_chips
    (False, True, 1000)
    >>> _ = open(f.name, "w").write("[room]\\nremove_after = 600\\nbusted_after = 30\\n")
    >>> load_room(f.name, settings)
    >>> settings.remove_after, settings.busted_after
    (600.0, 30.0)
    >>> os.unlink(f.name)
    """
    from doubleholdem.errors import InvalidConfig

    room = read_toml(path).get("room", {})
    if not isinstance(room, dict):
        raise InvalidConfig(f"{path}: [room] must be a table")
    for key, value in room.items():
        kind = ROOM_OPTIONS.get(key)
        if kind is None:
            raise InvalidConfig(
                f"{path}: [room] has no option {key!r} (it has {list(ROOM_OPTIONS)})"
            )
        if key == "keep_hands_days":
            settings.keep_hands_days = _days(path, value)
            continue
        if kind is float:  # a number of seconds
            setattr(settings, key, _seconds(path, key, value))
            continue
        if type(value) is not kind:
            raise InvalidConfig(f"{path}: [room] {key} must be a {kind.__name__}")
        if key == "signup":
            if value not in ("open", "closed"):
                raise InvalidConfig(f'{path}: [room] signup is "open" or "closed"')
            settings.signup = value == "open"
        elif key == "hash_slots":
            assert isinstance(value, int)
            if not 1 <= value <= MAX_HASH_SLOTS:
                raise InvalidConfig(f"{path}: [room] hash_slots must be in 1..{MAX_HASH_SLOTS}")
            settings.hash_slots = value
        elif key in (
            "welcome_chips",
            "signups_per_address",
            "bot_bankroll",
            "keep_hands",
            "house_limit",
        ):
            assert isinstance(value, int)
            if not 0 <= value <= MAX_WELCOME:
                raise InvalidConfig(f"{path}: [room] {key} must be in 0..{MAX_WELCOME}")
            setattr(settings, key, value)
        else:
            setattr(settings, key, value)


MAX_WELCOME = 10**12
"""The most welcome chips a room may give a new account."""
