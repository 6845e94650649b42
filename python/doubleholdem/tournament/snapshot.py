"""A tournament as JSON text that survives a restart (RULES.md TRN-20): its settings,
its random generator, its entries and places, and every table's own snapshot
(:meth:`Table.to_json <doubleholdem.table.Table.to_json>`), under a checksum. Without its
tables (``tables=False``) it names their numbers only, and is read back with the tables
given (each restored from its own snapshot): a server stores each table apart, and
writes again only those that changed.

>>> from doubleholdem.tournament import Tournament, TournamentConfig
>>> tournament = Tournament(TournamentConfig(kind="sit-and-go", capacity=2), seed=4)
>>> _ = tournament.register("ann"); _ = tournament.register("bob")
>>> copy = Tournament.from_json(tournament.to_json())
>>> copy.to_json() == tournament.to_json()
True
>>> core = tournament.to_json(tables=False)
>>> tables = {n: Table.from_json(t.to_json()) for n, t in tournament.tables.items()}
>>> Tournament.from_json(core, tables=tables).to_json() == tournament.to_json()
True
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import random
from collections.abc import Mapping
from typing import Any, TypeVar

from doubleholdem.errors import DoubleHoldemError, InvalidSnapshot, TamperedSnapshot
from doubleholdem.table.table import Table
from doubleholdem.tournament.config import TournamentConfig
from doubleholdem.tournament.records import Entry

__all__ = [
    "VERSION",
    "dump",
    "from_parts",
    "load",
    "part_groups",
    "part_name",
    "part_names",
    "parts",
]

T = TypeVar("T")

VERSION = 1
_PLAIN = ("state", "started_at", "hands", "most_hands", "issued", "pool", "fees",
          "remaining", "hand_for_hand", "level")  # fmt: skip


def dump(tournament: Any, key: bytes | None = None, *, tables: bool = True) -> str:
    """The text of a :class:`~doubleholdem.tournament.Tournament`:
    ``{"version":1,"sha256":...,"tournament":{...}}``; with a secret ``key``, an HMAC
    (``"hmac"``) over it and over every table's snapshot instead. Without ``tables``,
    its ``tables`` are their numbers only (each table's snapshot stored apart)."""
    body = _body(parts(tournament))
    if tables:
        body["tables"] = {str(n): table.to_json(key) for n, table in tournament.tables.items()}
    text = _text(body)
    kind = "sha256" if key is None else "hmac"
    return f'{{"version":{VERSION},"{kind}":"{_digest(text, key)}","tournament":{text}}}'


def parts(tournament: Any) -> dict[str, Any]:
    """The tournament without its tables as named parts (JSON values), the snapshot's
    body cut so that no part holds more than one entry's, one table's or one placing's
    share of it: ``tournament`` (its counters, its tables' numbers, how many entries and
    placings), ``config``, ``rng``, ``entry/N`` (entry ``N``), ``table/N`` (the seats, the
    level and the chips at the start of the hand of table ``N``) and ``placing/I`` (the
    ``I``-th placing made). A server stores each apart and writes again only those that
    changed: a hand changes a few. :func:`from_parts` reads them back (JSON writes the
    tuples as lists)."""
    single, families = part_groups(tournament)
    for family, members in families.items():
        single.update((part_name(family, number), value) for number, value in members.items())
    return single


def part_groups(tournament: Any) -> tuple[dict[str, Any], dict[str, dict[Any, Any]]]:
    """:func:`parts` in groups: the single parts by name, and each family's (``entry``,
    ``table``, ``placing``) by number, so that a family unchanged is seen so at once."""
    t = tournament
    version, inner, gauss = t.rng.getstate()
    core: dict[str, Any] = {name: getattr(t, name) for name in _PLAIN}
    core.update(
        tables=list(t.tables),
        entries=len(t.entries),
        placings=len(t.placings),
        pending=[[list(pair) for pair in group] for group in t.pending],
        round_played=sorted(t.round_played),
        round_out=[list(pair) for pair in t.round_out],
    )
    if t.tables_opened > max(t.tables, default=0):  # a broken table's number is not reused
        core["tables_opened"] = t.tables_opened  # (else it is the highest table's)
    single = {"tournament": core, "config": _config(t.config), "rng": (version, inner, gauss)}
    entries = {e.number: (e.number, e.player, e.table, e.seat, e.place, e.shared, e.prize,
                          e.rebuys, e.add_on) for e in t.entries}  # fmt: skip
    tables = {}
    for number, seats in t.seats.items():
        chips = t.start_chips.get(number)
        tables[number] = (
            dict(seats),
            t.table_levels[number],
            None if chips is None else dict(chips),
        )
    placings = {index: (entry, place, shared, t.entrants_then[index])
                for index, (entry, place, shared) in enumerate(t.placings)}  # fmt: skip
    return single, {"entry": entries, "table": tables, "placing": placings}


_CONFIGS: dict[int, tuple[TournamentConfig, dict[str, Any]]] = {}


def _config(config: TournamentConfig) -> dict[str, Any]:
    """The JSON of a (frozen) config, made once (found by identity: hashing a config
    reads all of it)."""
    known = _CONFIGS.get(id(config))
    if known is None or known[0] is not config:
        if len(_CONFIGS) > 64:
            _CONFIGS.clear()
        known = _CONFIGS[id(config)] = (config, config.to_dict())
    return known[1]


@functools.lru_cache(maxsize=100_000)
def part_name(family: str, number: Any) -> str:
    """The name of part ``number`` of ``family`` (``entry/3``), made once."""
    return f"{family}/{number}"


def part_names(core: Any) -> set[str]:
    """The names of the parts (:func:`parts`) of the tournament whose part
    ``tournament`` is ``core``, as JSON read it."""
    return {"tournament", "config", "rng",
            *(f"entry/{n}" for n in range(core["entries"])),
            *(f"table/{n}" for n in core["tables"]),
            *(f"placing/{i}" for i in range(core["placings"]))}  # fmt: skip


def from_parts(
    cls: type[T], found: Mapping[str, Any], key: bytes | None, tables: Mapping[int, Table]
) -> T:
    """The tournament whose :func:`parts` are ``found`` (name -> JSON value, exactly
    those :func:`part_names` says), with its ``tables`` (number -> table);
    :class:`~doubleholdem.errors.TamperedSnapshot` if they do not make one."""
    try:
        names = part_names(found["tournament"])
        if names != set(found):
            odd = sorted(names ^ set(found))
            raise TamperedSnapshot(f"tournament parts: missing or foreign parts {odd[:5]}")
        body = _body(found)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise TamperedSnapshot(f"tournament parts: {type(error).__name__}: {error}") from None
    return _built(cls, body, key, tables)


def _texts(numbered: Mapping[Any, Any]) -> dict[str, Any]:
    """``numbered`` with its keys as text (as JSON has them: a table's part holds them as
    numbers in memory, as text once read back)."""
    return {str(key): value for key, value in numbered.items()}


def _body(found: Mapping[str, Any]) -> dict[str, Any]:
    """The snapshot's body (without its tables' snapshots) made of the parts ``found``."""
    body = dict(found["tournament"])
    entries, placings = body.pop("entries"), body.pop("placings")
    tables = [(n, found[f"table/{n}"]) for n in body["tables"]]
    placed = [found[f"placing/{i}"] for i in range(placings)]
    body.update(
        config=found["config"],
        rng=found["rng"],
        entries=[found[f"entry/{n}"] for n in range(entries)],
        seats={str(n): _texts(table[0]) for n, table in tables},
        table_levels={str(n): table[1] for n, table in tables},
        start_chips={str(n): _texts(table[2]) for n, table in tables if table[2] is not None},
        placings=[p[:3] for p in placed],
        entrants_then=[p[3] for p in placed],
    )
    return body


def load(
    cls: type[T],
    text: str | bytes,
    key: bytes | None = None,
    tables: Mapping[int, Table] | None = None,
) -> T:
    """The tournament :func:`dump` wrote (with the same ``key``); one written without
    its tables takes ``tables`` (number -> table, exactly the numbers it names);
    :class:`~doubleholdem.errors.InvalidSnapshot` (:class:`~doubleholdem.errors.TamperedSnapshot`
    if its checksum, its HMAC, its tables or its chips do not add up) if it is not one."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:
        raise InvalidSnapshot(f"a tournament snapshot is JSON text: {error}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise InvalidSnapshot(f"not a version {VERSION} tournament snapshot")
    body = data.get("tournament")
    digest = data.get("sha256" if key is None else "hmac")
    if not isinstance(body, dict):
        raise InvalidSnapshot("tournament snapshot: not in the form to_json writes")
    if not isinstance(digest, str):
        keyed = "hmac" in data
        raise TamperedSnapshot(
            "tournament snapshot: it is keyed (hmac): read it with its key"
            if keyed
            else "tournament snapshot: not keyed, but a key was given"
        )
    if not hmac.compare_digest(_digest(_text(body), key), digest):
        what = "checksum" if key is None else "HMAC"
        raise TamperedSnapshot(f"tournament snapshot: the {what} does not match")
    return _built(cls, body, key, tables)


def _built(
    cls: type[T], body: dict[str, Any], key: bytes | None, tables: Mapping[int, Table] | None
) -> T:
    """The tournament of the snapshot's ``body`` (checked), with its tables (its own,
    or those given); :class:`~doubleholdem.errors.TamperedSnapshot` if it is not one or
    its chips do not add up."""
    try:
        tournament = _restore(cls, body, key, _tables(body["tables"], tables, key))
    except DoubleHoldemError as error:
        raise TamperedSnapshot(f"tournament snapshot: {error}") from None
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise TamperedSnapshot(f"tournament snapshot: {type(error).__name__}: {error}") from None
    restored = tournament.tables.values()  # type: ignore[attr-defined]
    if sum(table.bought_in for table in restored) != tournament.issued:  # type: ignore[attr-defined]
        raise TamperedSnapshot("tournament snapshot: the chips do not add up")
    return tournament


def _tables(
    stored: Any, given: Mapping[int, Table] | None, key: bytes | None
) -> list[tuple[int, Table]]:
    """The tables of a snapshot, by number: its own (an object of snapshots), or those
    ``given`` for the numbers it names (a list)."""
    if isinstance(stored, dict):
        if given is not None:
            raise InvalidSnapshot("its tables are in it: none may be given")
        return [(int(n), Table.from_json(text, key)) for n, text in _by_number(stored)]
    if given is None:
        raise InvalidSnapshot("it was written without its tables: they must be given")
    if sorted(stored) != sorted(given):
        raise InvalidSnapshot(f"it has tables {sorted(stored)}, not {sorted(given)}")
    return [(int(n), given[n]) for n in stored]


def _restore(
    cls: type[T], body: dict[str, Any], key: bytes | None, tables: list[tuple[int, Table]]
) -> T:
    rng = random.Random()
    version, inner, gauss = body["rng"]
    rng.setstate((version, tuple(inner), gauss))
    t: Any = cls(TournamentConfig.from_dict(body["config"]), rng=rng)  # type: ignore[call-arg]
    for name in _PLAIN:
        setattr(t, name, body[name])
    t.entries = [Entry(n, p, tb, st, pl, tuple(sh), pr, rb, ad)
                 for n, p, tb, st, pl, sh, pr, rb, ad in body["entries"]]  # fmt: skip
    t.tables = dict(tables)
    for number, table in t.tables.items():  # the settings of its level, as this version
        table.config = t.config.table_config(body["table_levels"][str(number)])  # has them
    t.seats = {int(n): {int(s): e for s, e in _by_number(seats)}
               for n, seats in _by_number(body["seats"])}  # fmt: skip
    t.table_levels = {int(n): level for n, level in _by_number(body["table_levels"])}
    t.start_chips = {int(n): {int(e): c for e, c in chips.items()}
                     for n, chips in body["start_chips"].items()}  # fmt: skip
    t.placings = [(e, place, tuple(shared)) for e, place, shared in body["placings"]]
    t.entrants_then = list(body["entrants_then"])
    t.pending = [[(e, c) for e, c in group] for group in body["pending"]]
    t.round_played = set(body["round_played"])
    t.round_out = [(e, c) for e, c in body["round_out"]]
    # written where a table above those it holds was opened (and broke); else theirs
    t.tables_opened = int(body.get("tables_opened", max(t.tables, default=0)))
    return t  # type: ignore[no-any-return]


def _by_number(items: dict[str, Any]) -> list[tuple[str, Any]]:
    """The items of a JSON object whose keys are numbers, in the numbers' order (the
    order the tournament made them in)."""
    return sorted(items.items(), key=lambda item: int(item[0]))


def _text(body: dict[str, Any]) -> str:
    return json.dumps(body, separators=(",", ":"), sort_keys=True)


def _digest(text: str, key: bytes | None = None) -> str:
    if key is None:
        return hashlib.sha256(text.encode()).hexdigest()
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()
