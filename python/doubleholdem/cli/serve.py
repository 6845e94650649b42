"""``doubleholdem serve``: the game server (needs ``doubleholdem[server]``).

Tables come from ``--config tables.toml`` or the defaults
(:func:`~doubleholdem.server.settings.default_configs`): a ``[[table]]`` list whose
entries take :class:`~doubleholdem.table.TableConfig` fields (``variant``,
``structure``, ``small_blind``, ``big_blind``, ``seats``, ``action_time``, ...); the
``--tables`` tables use them in turn; a ``[room]`` table sets the room
(:func:`~doubleholdem.server.settings.load_room`: ``remove_after``, ``busted_after``). A
database that already holds tables restores them where they were; a damaged one is
refused (exit status 2, naming each table and its problem) unless ``--repair``, and so
is one whose ledger lost its append-only triggers (``--repair`` restores them). One
server per SQLite file: a second one exits with status 2 naming the process that holds
it. Any number of servers share a PostgreSQL room, each serving its share of the tables
(docs/postgres.md). See docs/server.md."""

from __future__ import annotations

import argparse
import socket
import sys
from typing import Any

from doubleholdem.cli.base import UsageError, bounded
from doubleholdem.database.url import shown
from doubleholdem.server.oplog import FORMATS, LEVELS
from doubleholdem.server.process import quiet_collector, raise_file_limit
from doubleholdem.server.settings import (
    MAX_HASH_SLOTS,
    MAX_KEEP_DAYS,
    MAX_WELCOME,
    RoomSettings,
    load_room,
    load_tables,
)
from doubleholdem.textfile import read_text

__all__ = ["add_parser", "run"]


_count = bounded(int, 0, 10_000, "a count")
_seconds = bounded(float, 0, 3600, "a number of seconds")


def add_parser(subparsers: Any) -> None:
    """Registers ``serve``."""
    p = subparsers.add_parser("serve", help="run the game server with its browser table")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument(
        "--port",
        type=bounded(int, 0, 65535, "a port"),
        default=8000,
        help="port (0 picks a free one)",
    )
    p.add_argument(
        "--db",
        default="tables.db",
        help="the room's database: a SQLite file (one server), or a postgresql:// URL "
        "(any number of servers share its tables)",
    )
    p.add_argument("--tables", type=_count, default=4, help="tables")
    p.add_argument("--bots", type=_count, default=2, help="bot seats at each new table")
    p.add_argument("--bot-delay", type=_seconds, default=1.0, help="seconds a bot thinks")
    p.add_argument("--pause", type=_seconds, default=2.0, help="seconds between hands")
    p.add_argument(
        "--config",
        help="a TOML file of table settings (default: fixed-limit Double Hold'em "
        "and no-limit Texas Hold'em tables in turn)",
    )
    p.add_argument(
        "--seed",
        type=int,
        help="seeded deals, to repeat a session (default: unpredictable deals from a "
        "strong generator, never printed)",
    )
    p.add_argument(
        "--sync", choices=("normal", "full"), default="normal", help="SQLite synchronous mode"
    )
    p.add_argument(
        "--repair",
        action="store_true",
        help="keep the tables of a damaged database that hold together, replace the others "
        "(a copy of the database is kept as DB.before-repair); restore the ledger's "
        "append-only triggers if someone dropped them (see `accounts audit` first)",
    )
    p.add_argument(
        "--snapshot-key",
        metavar="FILE",
        help="a file holding a secret of at least 32 characters: the tables' snapshots then "
        "carry an HMAC under it, which nobody who can edit the database but lacks the file "
        "can forge (default: checksums; keep the file away from the database)",
    )
    p.add_argument(
        "--keep-hands",
        type=bounded(int, 0, 10**9, "a number of hands"),
        help="finished hands each table keeps in the database (default: every hand)",
    )
    p.add_argument(
        "--keep-hands-days",
        type=bounded(float, 0.001, MAX_KEEP_DAYS, "a number of days"),
        help="days a finished hand is kept in the database (default: for ever)",
    )
    p.add_argument(
        "--header-timeout",
        type=bounded(float, 0.1, 3600, "a number of seconds"),
        default=10.0,
        help="seconds a request's headers and body may take to arrive",
    )
    p.add_argument(
        "--per-address",
        type=_count,
        default=64,
        help="connections open at once from one address (0: no cap)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="ADDRESSES",
        help="addresses of reverse proxies (comma-separated, '*' for any) whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed (default: none; uvicorn's "
        "option)",
    )
    p.add_argument(
        "--address",
        type=_address,
        metavar="URL",
        help="the URL clients reach this process at (http or https, a path prefix where a "
        "reverse proxy routes by path): the lobby names it beside the tables served here "
        "and other processes of the room send clients here (default: http://HOST:PORT)",
    )
    p.add_argument(
        "--origin",
        type=_address,
        action="append",
        default=[],
        metavar="URL",
        help="a public origin of the room (a reverse proxy's, in front of its processes) "
        "whose pages may sign in and open WebSockets here; repeatable",
    )
    p.add_argument(
        "--guests",
        action="store_true",
        default=None,
        help="let anyone sit under a chosen name with chips from nowhere (demos and tests; "
        "default: only signed-in accounts sit, under their own names)",
    )
    p.add_argument(
        "--signup",
        choices=("open", "closed"),
        help="whether anyone may create an account on the page (default: closed; "
        "accounts are made with `doubleholdem accounts create`)",
    )
    p.add_argument(
        "--welcome-chips",
        type=bounded(int, 0, MAX_WELCOME, "a number of chips"),
        help="chips a new account signing up gets from the house (default 0)",
    )
    p.add_argument(
        "--signups-per-address",
        type=bounded(int, 0, 10**9, "a number of sign-ups"),
        help="sign-ups from one address in an hour (default 20; 0: no bound, e.g. for "
        "the load test, whose clients all come from one address)",
    )
    p.add_argument(
        "--hash-slots",
        type=bounded(int, 1, MAX_HASH_SLOTS, "a number of hash slots"),
        help=f"Argon2 password hashes (sign-ins and sign-ups) run at once, 1..{MAX_HASH_SLOTS}, "
        "19 MiB each; beyond them a request is answered 429 at once (default 4; also "
        "hash_slots in [room])",
    )
    p.add_argument(
        "--households",
        action="store_true",
        default=None,
        help="refuse a second account from one address at a table",
    )
    p.add_argument(
        "--operator-token",
        metavar="FILE",
        help="a file holding the operator's secret token (32 characters or more): GET "
        "/metrics answers requests carrying it as 'Authorization: Bearer TOKEN' (default: "
        "none, /metrics is off)",
    )
    p.add_argument(
        "--log-level",
        choices=LEVELS,
        default="info",
        help="the least level of the operator's log on stderr: info has every sign-up, "
        "buy-in, cash-out and removal, warning only refusals and failures (default: info)",
    )
    p.add_argument(
        "--log-format",
        choices=FORMATS,
        default="text",
        help="the operator's log as text lines or one JSON object a line (default: text)",
    )
    p.add_argument(
        "--access-log",
        action="store_true",
        help="log each HTTP request and WebSocket handshake too (address, method, path, status)",
    )
    p.set_defaults(run=run)


def _address(text: str) -> str:
    """An ``http`` or ``https`` URL (``--address``, ``--origin``)."""
    from doubleholdem.server.tables.directory import origin_of

    if len(text) > 2000 or origin_of(text) is None:
        raise argparse.ArgumentTypeError(f"an http:// or https:// URL, not {text[:80]!r}")
    return text.rstrip("/")


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one), or one line saying why
    not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        listener = socket.socket(family, kind, proto)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(2048)
    except OSError as error:
        raise ValueError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listener.setblocking(False)
    return listener


def run(args: argparse.Namespace) -> int:
    """Runs the server until interrupted."""
    try:
        import uvicorn

        from doubleholdem.server.http.app import create_app
        from doubleholdem.server.http.limits import Limits, uvicorn_config
    except ImportError as error:
        from doubleholdem.extras import install_command

        raise ValueError(f"serve needs {install_command('server')} ({error})") from None
    from doubleholdem.server import oplog
    from doubleholdem.server.tables.room import Room
    from doubleholdem.server.tournaments.spec import load_tournaments

    settings = RoomSettings(
        tables=args.tables, bots=args.bots, bot_delay=args.bot_delay, pause=args.pause
    )
    settings.seed = args.seed
    if args.snapshot_key:
        settings.snapshot_key = read_key(args.snapshot_key)
    operator_token = (
        read_key(args.operator_token, "--operator-token") if args.operator_token else None
    )
    if args.config:
        settings.configs, settings.bot_kinds = load_tables(args.config)
        load_room(args.config, settings)
    _room_options(args, settings)
    tournaments = load_tournaments(args.config) if args.config else []
    raise_file_limit()
    listener = _listen(args.host, args.port)
    port = listener.getsockname()[1]
    settings.address = args.address or f"http://{_shown_host(args.host)}:{port}"
    settings.origins = tuple(args.origin)
    _announce_upgrade(args.db)
    oplog.configure(level=args.log_level, style=args.log_format, access=args.access_log)
    try:
        room = Room.open(args.db, settings, synchronous=args.sync, repair=args.repair)
        for line in room.repaired:
            print(f"doubleholdem: repaired {shown(args.db)}: {line}", file=sys.stderr, flush=True)
        quiet_collector()
        limits = Limits(header_timeout=args.header_timeout, per_address=args.per_address)
        config = uvicorn_config(
            create_app(room, tournaments=tournaments, operator_token=operator_token),
            limits,
            forwarded_allow_ips=args.forwarded_allow_ips,
            log_config=None,
            log_level=None,
        )
        server = uvicorn.Server(config)

        async def serve() -> None:
            task = asyncio.create_task(server.serve(sockets=[listener]))
            while not server.started and not task.done():
                await asyncio.sleep(0.01)
            if server.started:
                host = _shown_host(args.host)
                tables = len(room.runners)
                print(f"doubleholdem: {tables} tables; open http://{host}:{port}/", flush=True)
                print(f"doubleholdem: {_who_sits(settings, shown(args.db))}", flush=True)
                where = shown(args.db)
                oplog.event("start", tables=tables, address=f"{host}:{port}", db=where)
            await task

        import asyncio
        import contextlib

        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve())
        return 0
    finally:  # the log's handler goes with the command (a test's stderr closes after)
        oplog.unconfigure()


def _shown_host(host: str) -> str:
    """The host a local client reaches a server listening on ``host`` at."""
    return "127.0.0.1" if host in ("0.0.0.0", "", "::") else host


def _announce_upgrade(db: str) -> None:
    """Says on stderr, before it starts, that opening ``db`` upgrades it (the hand index
    is built from every stored hand, in one transaction: a Ctrl-C leaves it as it was)."""
    from doubleholdem.server.storage.database import SCHEMA_VERSION, pending_upgrade

    pending = pending_upgrade(db)
    if pending is not None:
        version, hands = pending
        indexing = f": indexing its {hands:,} stored hands" if version < 5 else ""
        print(
            f"doubleholdem: upgrading {db} from schema {version} to {SCHEMA_VERSION}"
            f"{indexing}, in one transaction",
            file=sys.stderr,
            flush=True,
        )


def _who_sits(settings: RoomSettings, db: str) -> str:
    """One line saying who may take a seat in the room."""
    if settings.guests:
        return "guests: anyone sits under a chosen name (--guests)"
    if settings.signup:
        return f"accounts: sign-up open, {settings.welcome_chips} welcome chips"
    return f"accounts: sign-up closed (make them with: doubleholdem accounts create NAME --db {db})"


def _room_options(args: argparse.Namespace, settings: RoomSettings) -> None:
    """The room's account and retention options given on the command line, over the
    settings file's."""
    if args.guests is not None:
        settings.guests = args.guests
    if args.signup is not None:
        settings.signup = args.signup == "open"
    if args.welcome_chips is not None:
        settings.welcome_chips = args.welcome_chips
    if args.signups_per_address is not None:
        settings.signups_per_address = args.signups_per_address
    if args.households is not None:
        settings.households = args.households
    if args.hash_slots is not None:
        settings.hash_slots = args.hash_slots
    if args.keep_hands is not None:
        settings.keep_hands = args.keep_hands
    if args.keep_hands_days is not None:
        settings.keep_hands_days = args.keep_hands_days


MIN_KEY_CHARACTERS = 32


def read_key(path: str, option: str = "--snapshot-key") -> bytes:
    """The secret in the file at ``path`` (its text, surrounding blanks aside): at least
    :data:`MIN_KEY_CHARACTERS` characters, in a regular file of at most 4 KiB, e.g.
    ``python -c "import secrets; print(secrets.token_hex(32))" > key``; a refusal names
    the ``option`` that gave it."""
    text = read_text(path, 4096, lambda reason: UsageError(f"{option} {path}: {reason}"))
    key = text.strip()
    if len(key) < MIN_KEY_CHARACTERS:
        raise UsageError(
            f"{option} {path}: a secret of at least {MIN_KEY_CHARACTERS} characters, not {len(key)}"
        )
    return key.encode()
