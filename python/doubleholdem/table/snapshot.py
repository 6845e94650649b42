"""A whole table as versioned JSON text (the server's durable state): :func:`dump`
writes a :class:`TableState` (every part of a table), :func:`load` reads one back and
refuses text that is not a snapshot, was edited (a checksum) or does not add up.

The checksum is a SHA-256 of the body, which catches damage but not a deliberate edit
(anyone can compute it again). Where tampering matters, give a secret ``key``: the text then
carries an HMAC-SHA256 of the body under that key, which nobody without the key can forge,
and a snapshot read with a key must carry a valid HMAC under it.

Version 1 snapshots written before occupancy ids (issue 17) are read too: each seated
player gets an id on load, and a player dealt into the last hand keeps the right to see
their cards only if they still sit in that seat and nobody sat down there since the
hand started (which the log says). Snapshots written before the seat lifecycle (issue
20) are read too: a seat sitting out then is taken as sat out since the snapshot's time,
and nobody is remembered as departed.

The log's entries are written as the dicts of the event log (``to_dict`` of each
:mod:`~doubleholdem.table.entries` record) and read back as those dicts
(:class:`~doubleholdem.table.entries.Stored`): a snapshot holds nothing more of them."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from typing import Any, NamedTuple

from doubleholdem.errors import InvalidSnapshot, TamperedSnapshot
from doubleholdem.game.config import Rake
from doubleholdem.game.hand import Hand
from doubleholdem.table.blinds import Positions
from doubleholdem.table.clock import PHASES, Clock
from doubleholdem.table.config import TableConfig, is_int
from doubleholdem.table.deal import Deal
from doubleholdem.table.entries import Stored
from doubleholdem.table.log import StoredEvent, TableLog
from doubleholdem.table.seats import Departure, Seat, Seating
from doubleholdem.wording import Wording, seat_said

__all__ = ["VERSION", "TableState", "dump", "load"]

VERSION = 1  # of the text; occupancy ids were added within it, read both ways
_FRAME = re.compile(r'\{"version":\d+,"(sha256|hmac)":"([0-9a-f]{64})","table":(.*)\}', re.S)


class TableState(NamedTuple):
    """Every part of a table, as a snapshot holds it."""

    config: TableConfig
    rng: random.Random | None
    seating: Seating
    positions: Positions
    deal: Deal | None  # the hand being played or last played
    log: TableLog
    clock: Clock
    hand_number: int
    rake: int


def dump(state: TableState, key: bytes | None = None) -> str:
    """The table as text: ``{"version":1,"sha256":...,"table":{...}}``, the hand's own
    snapshot inside (its deck included: keep it on the server); with a ``key``,
    ``"hmac"`` instead of ``"sha256"``."""
    body = json.dumps(_body(state), separators=(",", ":"))
    if state.deal is not None:  # the hand's own snapshot text, as it is
        body = f'{body[:-1]},"hand":{state.deal.hand.to_json()}}}'
    kind, digest = _digest(body, key)
    return f'{{"version":{VERSION},"{kind}":"{digest}","table":{body}}}'


def _digest(body: str, key: bytes | None) -> tuple[str, str]:
    if key is None:
        return "sha256", hashlib.sha256(body.encode()).hexdigest()
    return "hmac", hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def load(text: str | bytes, key: bytes | None = None) -> TableState:
    """The table :func:`dump` wrote; :class:`~doubleholdem.errors.InvalidSnapshot`
    (:class:`~doubleholdem.errors.TamperedSnapshot` when the checksum, the HMAC under
    ``key`` or the consistency checks fail) if it is not one. With a ``key`` only a
    snapshot written with that key is read; without one, a keyed snapshot is refused."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode()
        except UnicodeDecodeError as error:
            raise InvalidSnapshot(f"a table snapshot is JSON text: {error}") from None
    if not isinstance(text, str):
        raise InvalidSnapshot(f"a table snapshot is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise InvalidSnapshot(f"a table snapshot is JSON: {error}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        found = data.get("version") if isinstance(data, dict) else None
        raise InvalidSnapshot(f"not a version {VERSION} table snapshot (version {found!r})")
    body = data.get("table")
    framed = _FRAME.fullmatch(text)
    if not isinstance(body, dict) or framed is None:
        raise InvalidSnapshot("table snapshot: not in the form to_json writes")
    _verify(framed.group(1), framed.group(2), framed.group(3), key)
    try:
        return _state(body)
    except InvalidSnapshot:
        raise
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise TamperedSnapshot(f"table snapshot: {type(error).__name__}: {error}") from None


def _verify(kind: str, digest: str, body: str, key: bytes | None) -> None:
    if kind == "hmac" and key is None:
        raise InvalidSnapshot("table snapshot: it is keyed (hmac): read it with its key")
    if kind == "sha256" and key is not None:
        raise TamperedSnapshot("table snapshot: not keyed, but a key was given")
    if not hmac.compare_digest(_digest(body, key)[1], digest):
        what = "checksum" if key is None else "HMAC"
        raise TamperedSnapshot(f"table snapshot: the {what} does not match")


def check(ok: bool, what: str, seat: int | None = None) -> None:
    """A consistency check of a table snapshot: ``what`` is not consistent (``what`` of
    ``seat``, when it names one: ``"seat 3 stack"``, its number kept)."""
    if not ok:
        said = what if seat is None else Wording(seat_said(seat), what and " " + what)
        raise TamperedSnapshot(Wording("table snapshot: ", said, " is not consistent"))


# ---------------------------------------------------------------------- writing


def _body(state: TableState) -> dict[str, Any]:
    config, seating, positions, deal, clock = (
        state.config,
        state.seating,
        state.positions,
        state.deal,
        state.clock,
    )
    log, hand_start = state.log.written_out()
    fields = {f: getattr(config, f) for f in config.__dataclass_fields__}
    for setting in ("absent_dealt_in", "blind_before_ante"):  # TRN-21, TRN-9: written
        if not fields[setting]:  # only when on, a cash table's snapshot is as before
            del fields[setting]
    for name in ("structure", "variant", "ante_type", "button_rule"):
        fields[name] = fields[name].value
    if config.rake is not None:
        rake = config.rake
        fields["rake"] = {
            "basis_points": rake.basis_points,
            "cap": rake.cap,
            "no_flop_no_drop": rake.no_flop_no_drop,
        }
    rng = None
    if state.rng is not None:
        version, inner, gauss = state.rng.getstate()
        rng = [version, list(inner), gauss]
    last_big = positions.last_big
    body = {
        "config": fields,
        "rng": rng,
        "seats": [None if s is None else dict(s.__dict__) for s in seating.seats],
        "button": positions.button,
        "small": positions.small,
        "big": positions.big,
        "last_big": None if last_big is None else list(last_big),
        "hand_start": None if deal is None else hand_start,
        "dealt": [] if deal is None else list(deal.seats),
        "dealt_players": [] if deal is None else list(deal.players),
        "dealt_occupancies": [] if deal is None else list(deal.occupancies),
        "next_occupancy": seating.next_occupancy,
        "departed": [
            [player, d.seat, d.left_at, d.missed_small, d.missed_big]
            for player, d in seating.departed.items()
        ],
        "synced": state.log.synced,
        "hand_number": state.hand_number,
        "log": log,
        "bought_in": seating.brought,
        "cashed_out": seating.taken,
        "rake": state.rake,
        "now": clock.now,
        "deadline": clock.deadline,
        "phase": clock.phase,
    }
    if deal is not None and deal.dead:  # TRN-21, written only when there are some
        body["dead"] = sorted(deal.dead)
    return body


# ---------------------------------------------------------------------- reading


def _state(body: dict[str, Any]) -> TableState:
    fields = dict(body["config"])
    if fields.get("rake") is not None:
        fields["rake"] = Rake(**fields["rake"])
    config = TableConfig(**fields)
    rng = None
    if body["rng"] is not None:
        version, inner, gauss = body["rng"]
        rng = random.Random()
        rng.setstate((version, tuple(inner), gauss))
    log = body["log"]
    check(isinstance(log, list), "log")
    legacy = "next_occupancy" not in body  # written before occupancy ids
    seating = _seating(body, config, legacy)
    for name in ("hand_number", "bought_in", "cashed_out", "rake", "synced"):
        check(is_int(body[name]) and body[name] >= 0, name)
    seating.brought, seating.taken = body["bought_in"], body["cashed_out"]
    clock = _clock(body, config)
    _lifecycle(body, config, seating, clock.now)
    table_log = TableLog()
    table_log.items = [_stored(item) for item in log]
    table_log.synced = body["synced"]
    joined = _joined_since_last_hand(log, body["hand_number"]) if legacy else set()
    positions = _positions(body, config, seating, joined)
    deal = _deal(body, config, seating, table_log, joined)
    if deal is None:
        check(all(isinstance(item, dict) for item in log), "log entry")
        check(clock.deadline is None and not body["dealt"], "no hand")
    return TableState(
        config,
        rng,
        seating,
        positions,
        deal,
        table_log,
        clock,
        body["hand_number"],
        body["rake"],
    )


def _stored(item: Any) -> Stored | StoredEvent | Any:
    """A log item as stored: a table entry's or an older hand's event's dict (the
    events of the last hand stay numbers)."""
    if not isinstance(item, dict):
        return item
    return StoredEvent(item) if "hand_number" in item else Stored(item)


def _seating(body: dict[str, Any], config: TableConfig, legacy: bool) -> Seating:
    seating = Seating(config.seats, config.buy_in_range)
    seats = body["seats"]
    check(isinstance(seats, list) and len(seats) == config.seats, "seats")
    for number, seat in enumerate(seats):
        if seat is None:
            continue
        check(isinstance(seat, dict) and ("occupancy" in seat) is not legacy, "", number)
        if legacy:
            seat = {**seat, "occupancy": seating.next_occupancy}
            seating.next_occupancy += 1
        occupant = Seat(**seat)
        check(is_int(occupant.stack) and occupant.stack >= 0, "stack", number)
        check(isinstance(occupant.player, str) and occupant.player != "", "player")
        check(is_int(occupant.occupancy) and occupant.occupancy >= 0, "", number)
        preferences = (occupant.muck_losing, occupant.show_uncontested)
        check(all(isinstance(flag, bool) for flag in preferences), "preferences", number)
        seating.seats[number] = occupant
    if not legacy:
        seating.next_occupancy = body["next_occupancy"]
        taken = [s.occupancy for s in seating.seats if s is not None]
        check(is_int(seating.next_occupancy), "next_occupancy")
        check(len(set(taken)) == len(taken), "occupancies")
        check(all(o < seating.next_occupancy for o in taken), "next_occupancy")
    return seating


def _lifecycle(body: dict[str, Any], config: TableConfig, seating: Seating, now: float) -> None:
    """The seats' lifecycle fields checked, and the departed players read."""
    for number, occupant in enumerate(seating.seats):
        if occupant is None:
            continue
        check(type(occupant.away) is bool and type(occupant.leaving) is bool, "", number)
        check(is_int(occupant.timeouts) and occupant.timeouts >= 0, "timeouts", number)
        for when in (occupant.sat_out_at, occupant.busted_at):
            check(when is None or _is_time(when), "times", number)
        if occupant.sitting_out and occupant.sat_out_at is None:  # an older snapshot
            occupant.sat_out_at = now
    departed = body.get("departed", [])
    check(isinstance(departed, list), "departed")
    for item in departed:
        ok = isinstance(item, list) and len(item) == 5
        check(ok and isinstance(item[0], str) and item[0] not in seating.departed, "departed")
        player, seat, left_at, small, big = item
        check(is_int(seat) and 0 <= seat < config.seats and _is_time(left_at), "departed")
        check(type(small) is bool and type(big) is bool, "departed")
        seating.departed[player] = Departure(seat, left_at, small, big)


def _is_time(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _clock(body: dict[str, Any], config: TableConfig) -> Clock:
    clock = Clock(
        action_time=config.action_time, time_bank=config.time_bank, point_time=config.point_time
    )
    for name in ("now", "deadline"):
        value = body[name]
        ok = value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))
        check(ok and (value is not None or name == "deadline"), name)
    clock.now, clock.deadline = body["now"], body["deadline"]
    check(body["phase"] in PHASES, "phase")
    clock.phase = body["phase"]
    return clock


def _positions(
    body: dict[str, Any], config: TableConfig, seating: Seating, joined: set[int]
) -> Positions:
    places = []
    for name in ("button", "small", "big"):
        value = body[name]
        check(value is None or (is_int(value) and 0 <= value < config.seats), name)
        places.append(value)
    last_big = body["last_big"]
    if last_big is not None:
        seat, who = last_big
        check(is_int(seat) and 0 <= seat < config.seats, "last_big")
        if isinstance(who, str):  # a name: written before occupancy ids
            who = _occupancy_of(seating, seat, who, joined)
        check(is_int(who), "last_big")
        last_big = (seat, who)
    return Positions(places[0], places[1], places[2], last_big)


def _deal(
    body: dict[str, Any], config: TableConfig, seating: Seating, log: TableLog, joined: set[int]
) -> Deal | None:
    dealt, players = body["dealt"], body["dealt_players"]
    check(isinstance(dealt, list) and isinstance(players, list), "dealt")
    check(len(dealt) == len(players) == len(set(dealt)), "dealt")
    check(all(is_int(s) and 0 <= s < config.seats for s in dealt), "dealt")
    players = [str(p) for p in players]
    if "dealt_occupancies" in body:
        occupancies = body["dealt_occupancies"]
        check(isinstance(occupancies, list) and len(occupancies) == len(dealt), "dealt")
        check(all(is_int(o) for o in occupancies), "dealt")
    else:
        occupancies = [_occupancy_of(seating, s, p, joined) for s, p in zip(dealt, players)]
    if body.get("hand") is None:
        return None
    hand = Hand.from_json(json.dumps(body["hand"], separators=(",", ":")))
    check(hand.players == len(dealt), "the hand's players")
    check(hand.event_count >= log.synced, "synced")
    start = body["hand_start"]
    items = log.items
    check(is_int(start) and 0 <= start <= len(items), "hand_start")
    for index, item in enumerate(items):
        if index < start:
            check(isinstance(item, (Stored, StoredEvent)), "log entry")
        elif not isinstance(item, (Stored, StoredEvent)):
            ok = isinstance(item, int) and is_int(item) and 0 <= item < log.synced
            check(ok, "log entry")  # a hand event's number in its hand
    deal = Deal(hand, body["hand_number"], list(dealt), list(occupancies), players)
    dead = body.get("dead", [])  # TRN-21; older snapshots have none
    check(isinstance(dead, list) and all(s in dealt for s in dead), "dead")
    deal.dead = frozenset(dead)
    log.starts = [start]
    played = hand.records if hand.over else hand  # as the log keeps them
    log.hands = [(played, deal.number, deal.seats, deal.occupancies)]
    if hand.over:
        check(body["deadline"] is None, "deadline")
        return deal
    for index, seat in enumerate(dealt):
        occupant = seating.seats[seat]
        if occupant is None:
            check(False, "dealt " + seat_said(seat) + " is empty")
        assert occupant is not None
        check(occupant.player == players[index], "", seat)
        check(occupant.occupancy == occupancies[index], "", seat)
        check(occupant.stack == hand.config.stacks[index], "stack", seat)
    check(deal.next_turn() is not None, "actor")
    check(body["deadline"] is not None and body["phase"] is not None, "deadline")
    return deal


def _joined_since_last_hand(log: list[Any], number: int) -> set[int]:
    """The seats someone sat down in after hand ``number`` started, as the log says (a
    log without that hand's start holds only what came after it)."""
    since = 0
    for index, item in enumerate(log):
        if (
            isinstance(item, dict)
            and item.get("kind") == "hand_start"
            and item.get("number") == number
        ):
            since = index
    return {
        item["seat"]
        for item in log[since:]
        if isinstance(item, dict) and item.get("kind") == "join" and is_int(item.get("seat"))
    }


def _occupancy_of(seating: Seating, seat: int, player: str, joined: set[int]) -> int:
    """For a snapshot written before occupancy ids: the occupancy of the player named
    ``player`` who was in ``seat`` in the last hand, if they still sit there (nobody sat
    down in it since); else a new occupancy that nobody holds."""
    occupant = seating.seats[seat]
    if occupant is not None and occupant.player == player and seat not in joined:
        return occupant.occupancy
    seating.next_occupancy += 1
    return seating.next_occupancy - 1
