"""Helpers of the tournament room tests (issue 34 item 3): a room of accounts with one
sit-and-go of bots and people, driven step by step on a clock the test moves (no event
loop: each change is committed at once), and the audit of its database."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import money_room
from doubleholdem.accounts import ledger
from doubleholdem.game.betting import LegalActions
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments.host import TournamentsHost
from doubleholdem.server.tournaments.room import Tournaments
from doubleholdem.server.tournaments.runner import TournamentRunner
from doubleholdem.server.tournaments.spec import TournamentSpec, spec_from_entry

BUY_IN, FEE = 100, 10


def sit_and_go(capacity: int = 4, bots: int = 2, **more: Any) -> TournamentSpec:
    """A sit-and-go of ``capacity`` (``bots`` of them bots) with levels of 3 hands."""
    entry = {"name": "sng", "kind": "sit-and-go", "capacity": capacity, "seats": 4,
             "starting_stack": 500, "buy_in": BUY_IN, "fee": FEE, "bots": bots,
             "level_by": "hands", "level_length": 3, "pause": 0, **more}  # fmt: skip
    return spec_from_entry(entry)


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def open_room(
    path: str, spec: TournamentSpec, clock: Callable[[], float], seed: int = 7
) -> tuple[Room, Tournaments]:
    """The room at ``path`` with the tournaments of ``spec``, opened (not started)."""
    settings = RoomSettings(tables=0, bots=0, bot_delay=0.0, pause=0.0, seed=seed,
                            clock=clock)  # fmt: skip
    room = Room.open(path, settings)
    return room, run_here(room, settings, [spec])


def run_here(room: Room, settings: RoomSettings, specs: list[TournamentSpec]) -> Tournaments:
    """The tournaments of ``specs`` run by ``room``'s process, opened (not started): on
    PostgreSQL it holds their lease (:mod:`doubleholdem.server.tournaments.host`)."""
    made = Tournaments(room.store, settings, room.commit, specs)
    host = TournamentsHost(made, room.tables.membership)
    host.open()
    assert host.run is not None, "another process of the room runs its tournaments"
    return host.run


def sign_up(room: Room, name: str, chips: int) -> None:
    """A new account with ``chips`` deposited."""
    money_room.sign_up(room, name, chips)


def balance(room: Room, name: str) -> int:
    return ledger.balance(room.store.db, ledger.player(name))


def audit(room: Room) -> list[str]:
    """The audit's problems (none when the ledger and every pool hold)."""
    return list(audit_room(room.store.db)["problems"])


def passive(legal: LegalActions) -> tuple[str, int | None]:
    """Check, or fold facing a bet."""
    return ("check" if legal.can_check else "fold"), None


def all_in(legal: LegalActions) -> tuple[str, int | None]:
    """Every chip in: the largest bet or raise, else a call (or a check)."""
    if legal.max_raise_to is not None:
        return ("bet" if legal.is_bet else "raise"), legal.max_raise_to
    return ("call" if legal.call_amount else "check"), None


def people_act(
    runner: TournamentRunner,
    people: tuple[str, ...],
    choose: Callable[[LegalActions], tuple[str, int | None]] = passive,
) -> bool:
    """Each person whose turn it is acts as ``choose`` says: True if one did."""
    acted = False
    for name in people:
        own = runner.tournament.entries_of(name)
        entry = own[-1] if own else None
        if entry is None or entry.table is None:
            continue
        table = runner.tournament.tables[entry.table]
        if table.in_hand and table.to_act == entry.seat:
            legal = table.legal_actions()
            assert legal is not None
            runner.act(name, table.hand_number, *choose(legal))
            acted = True
    return acted


def play(
    runner: TournamentRunner,
    clock: Clock,
    people: tuple[str, ...],
    *,
    until: Callable[[], bool],
    each: Callable[[], None] | None = None,
    most: int = 20_000,
    choose: Callable[[LegalActions], tuple[str, int | None]] = passive,
) -> int:
    """Steps the tournament (people acting as :func:`people_act`) until ``until()``;
    ``each()`` after every step. Returns the steps taken."""
    for steps in range(most):
        if until():
            return steps
        if not people_act(runner, people, choose):
            wait = runner.step(clock.now)
            clock.now += 0.01 if wait is None else max(0.01, min(wait, 5.0))
        if each is not None:
            each()
    raise AssertionError("the tournament did not get there")


def registered(
    path: str, spec: TournamentSpec, people: tuple[str, ...] = ("ann", "bob")
) -> tuple[Room, Tournaments, TournamentRunner, Clock]:
    """The room at ``path`` with ``people`` signed up with 1000 chips each and
    registered in tournament 0 of ``spec``."""
    clock = Clock()
    room, tournaments = open_room(path, spec, clock)
    for name in people:
        sign_up(room, name, 1000)
        tournaments.register(0, name)
    return room, tournaments, tournaments.runner(0), clock
