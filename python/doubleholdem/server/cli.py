"""``doubleholdem serve``: the game server (needs ``doubleholdem[server]``).

Tables come from ``--config tables.toml`` or the defaults (:func:`room.default_configs`),
a ``[[table]]`` list whose entries take :class:`~doubleholdem.table.TableConfig` fields
(``variant``, ``structure``, ``small_blind``, ``big_blind``, ``seats``, ``action_time``,
...); the ``--tables`` tables use them in turn. A database that already holds tables
restores them where they were."""

from __future__ import annotations

import argparse
import gc
import socket
from typing import Any

from doubleholdem.table import TableConfig

__all__ = ["add_parser", "load_configs"]


def add_parser(subparsers: Any) -> None:
    """Registers ``serve``."""
    p = subparsers.add_parser("serve", help="run the game server with its browser table")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (8000; 0 picks a free one)")
    p.add_argument("--db", default="tables.db", help="SQLite database (tables.db)")
    p.add_argument("--tables", type=_count, default=4, help="tables (4)")
    p.add_argument("--bots", type=_count, default=2, help="bot seats at each new table (2)")
    p.add_argument("--bot-delay", type=_seconds, default=1.0, help="seconds a bot thinks (1)")
    p.add_argument("--pause", type=_seconds, default=2.0, help="seconds between hands (2)")
    p.add_argument("--config", help="a TOML file of table settings")
    p.add_argument("--seed", type=int, help="seeded deals (reproducible; default: strong)")
    p.add_argument(
        "--sync", choices=("normal", "full"), default="normal", help="SQLite synchronous mode"
    )
    p.set_defaults(run=run)


def _count(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 10_000:
        raise argparse.ArgumentTypeError(f"{text} is not a count in 0..10000")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} is not a number of seconds in 0..3600")
    return value


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


def load_configs(path: str) -> list[TableConfig]:
    """The table settings in the TOML file at ``path``.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
    ...     _ = f.write('[[table]]\\nvariant = "double"\\nstructure = "fixed-limit"\\n'
    ...                 'small_blind = 10\\nbig_blind = 20\\nseats = 4\\n')
    >>> [(c.variant.value, c.structure.value, c.big_blind, c.seats) for c in load_configs(f.name)]
    [('double', 'fixed-limit', 20, 4)]
    >>> os.unlink(f.name)
    """
    import rtoml

    from doubleholdem.errors import InvalidConfig
    from doubleholdem.game import Rake

    try:
        with open(path, encoding="utf-8") as file:
            data = rtoml.load(file)
    except (OSError, rtoml.TomlParsingError, ValueError, TypeError) as error:
        raise InvalidConfig(f"{path}: {error}") from None
    entries = data.get("table")
    if (
        not isinstance(entries, list)
        or not entries
        or not all(isinstance(e, dict) for e in entries)
    ):
        raise InvalidConfig(f"{path}: needs a [[table]] list")
    configs = []
    for entry in entries:
        fields = dict(entry)
        if isinstance(fields.get("rake"), dict):
            fields["rake"] = Rake(**fields["rake"])
        try:
            configs.append(TableConfig(**fields))
        except TypeError as error:
            raise InvalidConfig(f"{path}: {error}") from None
    return configs


GC_YOUNG = 50_000  # allocations between collections of the youngest generation


def quiet_collector() -> None:
    """Tunes Python's cycle collector for a server that makes next to no reference
    cycles but keeps many objects alive (its connections, views and tables): what exists
    now is collected once and frozen out of later collections (``gc.freeze``), and the
    young generation is collected after ``GC_YOUNG`` allocations instead of 700, so that
    the collector pauses the event loop seldom and briefly."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)


def run(args: argparse.Namespace) -> int:
    """Runs the server until interrupted."""
    try:
        import uvicorn

        from doubleholdem.server.app import create_app
    except ImportError as error:
        raise ValueError(f"serve needs pip install doubleholdem[server] ({error})") from None
    from doubleholdem.server.room import Room, RoomSettings

    settings = RoomSettings(
        tables=args.tables, bots=args.bots, bot_delay=args.bot_delay, pause=args.pause
    )
    settings.seed = args.seed
    if args.config:
        settings.configs = load_configs(args.config)
    from doubleholdem.server.loadtest import _raise_file_limit

    _raise_file_limit()
    listener = _listen(args.host, args.port)
    port = listener.getsockname()[1]
    room = Room.open(args.db, settings, synchronous=args.sync)
    quiet_collector()
    config = uvicorn.Config(
        create_app(room),
        log_level="warning",
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        lifespan="on",
    )
    server = uvicorn.Server(config)

    async def serve() -> None:
        task = asyncio.create_task(server.serve(sockets=[listener]))
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started:
            host = "127.0.0.1" if args.host in ("0.0.0.0", "", "::") else args.host
            tables = len(room.runners)
            print(f"doubleholdem: {tables} tables; open http://{host}:{port}/", flush=True)
        await task

    import asyncio
    import contextlib

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())
    return 0
