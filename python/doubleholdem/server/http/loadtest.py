"""``doubleholdem loadtest``: bot clients over WebSockets against a running server.

C clients take open seats at the server's tables (``GET /api/tables``) and play for S
seconds like calling stations (point card by DH-6's automatic choice, then check or call),
each waiting ``--think`` seconds before it answers, then leave: each sits out, plays
out the hand it is in, leaves and waits for ``left``. Prints one JSON object:
``clients``, ``actions``, ``p50_ms`` and ``p99_ms`` (an action sent to its result
received, over the actions sent once every client has its seat and before the time is
up: steady play), ``actions_per_s`` (steady play's actions a second), ``seated_s`` (how
long the clients took to sit), ``p99_all_ms`` (over every action, the seating and the
leaving included), ``p99_leaving_ms`` (the actions sent while every client sits out and
leaves at once, the hands played out), ``errors`` (refused actions, failed
connections), ``chip_errors`` (tables whose chips and rake do not add up to what was
bought in, checked at the end), ``sit_refused`` (the clients whose sit the server
refused for good, a seat taken say, or for the moment more than a few times: each
gives up rather than wait; ``sit_refused_codes`` counts them by the error's code)
and ``still_seated`` (the clients' seats still taken at the end: 0), with
``still_seated_trails``: for each such client (by index) its table, seat and process
and the last messages it sent and was told, to tell why.

A room served by several processes is tested through all of them: given their URLs,
the load reads each one's lobby, takes each table where it is served (the ``address``
the lobby names, else the process that lists it) and spreads the clients over every
table, seat k of every table before seat k+1 of any; ``processes`` counts the clients
each URL got. With ``follow`` (``--follow``) a client whose connection drops (its
process killed), or that is told its table is served ``elsewhere``, asks the processes
where its table is served now, connects there, resumes its seat and sends its
unanswered decision again with the same ``id``; ``reconnects`` counts these. Every
decision the server acknowledged is kept in :attr:`LoadResult.moves` (for the failover
tests to find each in the database).

Against an account room (the default of ``serve``) each client first signs up through
the open sign-up (``serve --signup open --welcome-chips N --signups-per-address 0``:
N at least the buy-in; every client comes from one address),
signs in, and opens its WebSocket with the session cookie; a client that busts stops
(its balance is spent) instead of buying back in. Against ``serve --guests`` clients sit
under chosen names. ``accounts`` says which (``"signed_in"`` or ``"guests"``), and
``sign_in_s`` how long the sign-ups and sign-ins took (before the play is timed). With
``db`` (the server's database file, on this machine) the accounts audit runs at the end
of an account room's test (``audit_ok``, ``audit_problems``; each stored table's chips are
compared with its ledger account); else ``audit_ok`` is ``None`` and ``audit`` says why.
Only for servers on this machine or your own test hosts."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable
from typing import Any

from doubleholdem.server.http.load_client import Client, Move, ws_url
from doubleholdem.server.process import GC_YOUNG

__all__ = ["LoadResult", "Move", "run_load"]


class LoadResult(dict[str, Any]):
    """The load test's figures (a dict, printed as JSON); :attr:`moves`, every decision
    the server acknowledged, is not among them."""

    moves: list[Move]


def _all_tables(base: str, timeout: float = 30.0, first: int | None = None) -> list[Any]:
    """Every table of the server at ``base``: ``GET /api/tables`` page after page (a
    page's ``X-Next-Table`` header says where the next one starts); from ``first``
    on, only its first page."""
    tables: list[Any] = []
    start: str | None = str(first or 0)
    while start is not None:
        address = f"{base}/api/tables?from={start}"
        with urllib.request.urlopen(address, timeout=timeout) as response:
            tables += json.loads(response.read())
            start = None if first is not None else response.headers.get("X-Next-Table")
    return tables


class Signed:
    """The signed-in clients' side of the load: each client's account, made through the
    open sign-up, and the session cookie of its sign-in."""

    def __init__(self, base: str, prefix: str) -> None:
        self.base = base
        self.origin = base
        self.prefix = prefix  # one run's accounts: ld1a2b3c-17

    def _post(self, path: str, body: dict[str, str]) -> tuple[int, Any, str]:
        """POSTs ``body`` as JSON: the status, the JSON answer and the session cookie;
        while every hash slot of the server is taken (429 ``busy``), tries again after
        the second it asks for (a minute at most)."""
        for _ in range(60):
            status, answer, cookie = self._post_once(path, body)
            if status != 429 or not answer or answer.get("error") != "busy":
                break
            time.sleep(1.0)
        return status, answer, cookie

    def _post_once(self, path: str, body: dict[str, str]) -> tuple[int, Any, str]:
        request = urllib.request.Request(
            self.base + path,
            json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Origin": self.origin},
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                cookie = response.headers.get("Set-Cookie", "")
                return response.status, json.loads(response.read()), cookie.split(";")[0]
        except urllib.error.HTTPError as error:
            with contextlib.suppress(ValueError):
                return error.code, json.loads(error.read()), ""
            return error.code, None, ""

    def account(self, index: int, buy_in: tuple[int, int]) -> tuple[str, int]:
        """Signs client ``index`` up and in: its cookie header and the buy-in its
        balance pays (the table's maximum, or all of a smaller balance)."""
        name, password = f"{self.prefix}-{index}", secrets.token_urlsafe(12)
        status, answer, _ = self._post("/api/signup", {"name": name, "password": password})
        if status == 403 and answer and answer.get("error") == "signup_closed":
            raise ValueError(
                "the server's sign-up is closed: start it with --signup open and "
                "--welcome-chips N (or --guests)"
            )
        if status == 429:
            raise ValueError(
                "the server bounds the sign-ups from one address: start it with "
                "--signups-per-address 0 for the load test"
            )
        if status != 201:
            raise ValueError(f"sign-up refused: {status} {answer}")
        status, answer, cookie = self._post("/api/signin", {"name": name, "password": password})
        if status != 200 or not cookie:
            raise ValueError(f"sign-in refused: {status} {answer}")
        if answer["balance"] < buy_in[0]:
            raise ValueError(
                f"a new account gets {answer['balance']} chips, under the buy-in of "
                f"{buy_in[0]}: start the server with more --welcome-chips"
            )
        return cookie, min(buy_in[1], answer["balance"])


def _room_kind(base: str) -> str:
    """``"guests"`` when the server at ``base`` takes guests, else ``"signed_in"``."""
    try:
        with urllib.request.urlopen(f"{base}/api/me", timeout=30):
            return "signed_in"
    except urllib.error.HTTPError as error:
        return "guests" if error.code == 404 else "signed_in"


def _audit(db: str | None, kind: str) -> dict[str, Any]:
    """The accounts audit of the server's database ``db``, each stored table's chips
    (pots included) against its ledger account, read in one snapshot of the file
    (:func:`~doubleholdem.server.money.money.audit_room`); none in a guest room, whose chips
    are not money."""
    if db is None:
        return {"audit_ok": None, "audit": "not run: no --db (the server's database file)"}
    if kind == "guests":
        return {"audit_ok": None, "audit": "not run: a guest room's chips are not in the ledger"}
    from doubleholdem.accounts.bank import Bank
    from doubleholdem.server.money.money import audit_room

    with Bank(db) as bank:
        found = audit_room(bank.db)
    return {"audit_ok": found["ok"], "audit_problems": found["problems"][:10]}


def _trails(players: list[Client], still: list[tuple[str, tuple[int, int]]]) -> dict[str, Any]:
    """For each client whose seat a process listed as still taken (by ``still``: the
    process and the table and seat), what it knows: where it was, whether it was told
    ``left``, and its trail (:attr:`Client.trail`)."""
    listed: dict[tuple[int, int], list[str]] = {}
    for base, place in still:
        listed.setdefault(place, []).append(base)
    return {
        str(p.index): {
            "table": p.table,
            "seat": p.seat,
            "listed_by": listed[p.table, p.seat],
            "at": p.base,
            "left": p.left,
            "refused": p.refused,
            "trail": list(p.trail),
        }
        for p in players
        if (p.table, p.seat) in listed and p.seated_at is not None
    }


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _sign_in(players: list[Client], ranges: dict[tuple[str, int], list[int]]) -> None:
    """Signs every client up and in, at the process serving its table (a few at a time:
    the server hashes each password)."""
    prefix = "ld" + secrets.token_hex(3)  # one run's accounts: ld1a2b3c-17
    signed = {base: Signed(base, prefix) for base, _ in ranges}
    gate = asyncio.Semaphore(8)

    async def one(player: Client) -> None:
        at = signed[player.base]
        async with gate:
            low, high = ranges[player.base, player.table][:2]
            cookie, buy_in = await asyncio.to_thread(at.account, player.index, (low, high))
        player.cookie, player.buy_in, player.origin = cookie, buy_in, at.origin

    await asyncio.gather(*(one(p) for p in players))


def _served_at(table: dict[str, Any], listed_by: str) -> str | None:
    """The process serving ``table`` as the lobby of the process ``listed_by`` lists it
    (every process of a room lists the whole room's tables, each with the ``process``
    serving it and its ``address``): ``None`` while no process serves it (``process``
    ``null``), else its address, or ``listed_by`` where the entry names none (a process
    that does not know its own, or a server of one process that names neither)."""
    if "process" in table and table["process"] is None:
        return None
    address = table.get("address")
    return listed_by if address is None else str(address).rstrip("/")


def _room_tables(bases: list[str], timeout: float = 30.0) -> list[tuple[str, Any]]:
    """The room's tables as its processes at ``bases`` list them, each once with the
    process that serves it (its summary as that process lists it, where it answers);
    each process that answers is the one to say which tables it serves (another's word
    on them may be older: a table it handed over), a process that does not answer
    within ``timeout`` seconds is left out, and so is a table no process serves for
    the moment. Processes serving rooms of their own list theirs each."""
    lobbies: dict[str, list[Any]] = {}
    for base in bases:
        try:
            lobbies[base] = _all_tables(base, timeout)
        except (OSError, ValueError):  # gone, frozen or failing: another serves its tables
            continue
    found: dict[tuple[str, int], tuple[str, Any]] = {}
    for base, tables in lobbies.items():
        for table in tables:
            served = _served_at(table, base)
            if served is not None and (served == base or served not in lobbies):
                found.setdefault((served, table["id"]), (served, table))
    return list(found.values())


def _locator(bases: list[str]) -> Callable[[int], str | None]:
    """Where table ``id`` is served now, as the first process at ``bases`` that answers
    (each asked for 2 s at most) says, or ``None``."""

    def locate(table: int) -> str | None:
        for base in bases:
            with contextlib.suppress(OSError, ValueError):
                page = _all_tables(base, 2.0, first=table)
                if page and page[0]["id"] == table:
                    return _served_at(page[0], base)
        return None

    return locate


def _players(tables: list[tuple[str, Any]], clients: int, think: float) -> list[Client]:
    """The clients, at the open seats of ``tables``, filled evenly: seat k of every
    table before seat k+1 of any, the processes taken in turn."""
    seats = [
        (s, t["id"], base, t["buy_in"][1])
        for base, t in tables
        for s, occupant in enumerate(t["seats"])
        if occupant is None
    ]
    if len(seats) < clients:
        raise ValueError(f"the server has {len(seats)} open seats, not {clients}")
    seats.sort(key=lambda item: item[:3])
    players = []
    for index, (seat, table, base, buy_in) in enumerate(seats[:clients]):
        player = Client(index, table, seat, buy_in, think)
        player.base, player.ws_url = base, ws_url(base)
        players.append(player)
    return players


async def run_load(
    urls: str | list[str],
    clients: int,
    seconds: float,
    *,
    think: float = 0.5,
    seed: int = 1,
    db: str | None = None,
    follow: bool = False,
    stop: asyncio.Event | None = None,
    record: list[Move] | None = None,
    all_seated: asyncio.Event | None = None,
) -> LoadResult:
    """Runs the load test against the room served at ``urls`` (one process's or
    several's); with ``follow`` each client whose connection drops finds where its
    table is served now and goes on there; ``stop``, once set, ends the play before
    ``seconds`` (the leaving is then timed from the end of ``seconds`` all the same);
    ``record`` gets each acknowledged decision as it comes (to be read during the
    run); ``all_seated`` is set once every client's sit is settled: it sat, or was
    refused for good (counted in ``sit_refused``). See the module docstring."""
    bases = [u.rstrip("/") for u in ([urls] if isinstance(urls, str) else urls)]
    tables = await asyncio.to_thread(_room_tables, bases)
    kind = await asyncio.to_thread(_room_kind, bases[0])
    players = _players(tables, clients, think)
    signing = time.perf_counter()
    if kind == "signed_in":
        await _sign_in(players, {(b, t["id"]): t["buy_in"] for b, t in tables})
    signing = time.perf_counter() - signing
    waiting = [clients]

    def settled() -> None:  # a client sat, or its sit was refused for good
        waiting[0] -= 1
        if waiting[0] == 0:  # everyone sits: the connections are old objects from here on
            gc.freeze()  # (and the clients make next to no reference cycles)
            gc.set_threshold(GC_YOUNG, 10, 10)  # as the server does
            if all_seated is not None:
                all_seated.set()

    locate = _locator(bases) if follow else None
    stopped = stop or asyncio.Event()
    for player in players:
        player.on_settled, player.locate, player.stopped = settled, locate, stopped
        if record is not None:
            player.acknowledged = record
    gate = asyncio.Semaphore(64)
    started, clock_start = time.monotonic(), time.perf_counter()
    stop_at = started + seconds
    thresholds = gc.get_threshold()
    try:
        outcomes = await asyncio.gather(
            *(p.play(stop_at, gate) for p in players), return_exceptions=True
        )
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    failed = sum(1 for o in outcomes if isinstance(o, BaseException))
    await asyncio.sleep(0.5)  # let the server apply the leaves
    after = await asyncio.to_thread(_room_tables, bases, 5.0)
    chip_errors = sum(1 for _, t in after if t["chips"] + t["rake"] != t["bought_in"])
    taken = {(p.table, p.seat) for p in players if p.seated_at is not None}
    occupied = [(base, (t["id"], s)) for base, t in after for s, o in enumerate(t["seats"]) if o]
    still = [(base, place) for base, place in occupied if place in taken]
    refused = Counter(p.refused for p in players if p.refused is not None)
    timed = [x for p in players for x in p.latencies]
    seated = [p.seated_at for p in players if p.seated_at is not None]
    everyone = max(seated) if len(seated) == len(players) else None  # the last one sat
    leaving_from = clock_start + seconds  # from here the clients sit out and leave at once
    steady = [ms for sent, ms in timed if everyone is not None and everyone <= sent < leaving_from]
    window = leaving_from - everyone if everyone is not None and steady else 0.0
    steady = steady or [ms for _, ms in timed]  # nobody played after the last one sat
    leaving = [ms for sent, ms in timed if sent >= leaving_from]
    result = LoadResult(
        accounts=kind,
        sign_in_s=round(signing, 2),
        clients=clients,
        tables=len({(p.base, p.table) for p in players}),
        processes=dict(Counter(p.base for p in players)),
        seconds=round(time.monotonic() - started, 2),
        actions=len(timed),
        actions_per_s=round(len(steady) / window, 1) if window > 0 else None,
        p50_ms=round(_percentile(steady, 0.50), 3),
        p99_ms=round(_percentile(steady, 0.99), 3),
        seated_s=None if everyone is None else round(everyone - clock_start, 2),
        p99_all_ms=round(_percentile([ms for _, ms in timed], 0.99), 3),
        p99_leaving_ms=round(_percentile(leaving, 0.99), 3) if leaving else None,
        errors=failed + sum(p.errors for p in players),
        chip_errors=chip_errors,
        sit_refused=sum(refused.values()),
        sit_refused_codes=dict(refused),
        still_seated=len(still),
        still_seated_trails=_trails(players, still),
        reconnects=sum(p.reconnects for p in players),
        **await asyncio.to_thread(_audit, db, kind),
    )
    # with ``record`` every client's decisions went there
    result.moves = record if record is not None else [m for p in players for m in p.acknowledged]
    return result
