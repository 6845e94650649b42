"""The room's tournaments (:class:`Tournaments`): those not over restored from the
database where they were, opened from the room's settings (a sit-and-go anew each time
the last one starts, a scheduled one once), each with its
:class:`~doubleholdem.server.tournaments.runner.TournamentRunner` task, and the requests
of signed-in accounts routed to them (register, unregister, act, a deal). It shares the
room's database and group commit, so a tournament's changes and the tables' are
committed together. The tournaments over stay in the database: the lobby lists them a
page at a time (:meth:`Tournaments.over_page`), and one is read when asked for; the
last few over stay in memory."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from doubleholdem.accounts.accounts import create_bot, get_account
from doubleholdem.database.connection import Connection
from doubleholdem.errors import TournamentError, UnknownAccount
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.settings import DAY, RoomSettings
from doubleholdem.server.storage import tournament_rows
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tournaments import views
from doubleholdem.server.tournaments.hand_retention import RETENTION_SECONDS, forget_hands
from doubleholdem.server.tournaments.runner import TournamentRunner
from doubleholdem.server.tournaments.spec import TournamentSpec
from doubleholdem.server.tournaments.stored import OVER, REGISTERING, Stored, load, load_all
from doubleholdem.tournament import Kind, Tournament

__all__ = ["OVER_KEPT", "OVER_PAGE", "Tournaments"]

OVER_PAGE = 20  # tournaments over in one page of the lobby at most
OVER_KEPT = 8  # the tournaments over last held in memory (their runners), at most


class Tournaments:
    """Every tournament of a room, on its ``store`` and ``commit``, run by its
    ``settings``; ``specs`` the tournaments it opens."""

    def __init__(
        self,
        store: Storage,
        settings: RoomSettings,
        commit: GroupCommit,
        specs: Sequence[TournamentSpec],
    ) -> None:
        self.store = store
        self.settings = settings
        self.commit = commit
        self.specs = tuple(specs)
        self.runners: dict[int, TournamentRunner] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._running = False
        self.retained: set[int] = set()  # tournaments over whose hands all follow the retention
        self._over: list[int] = []  # the tournaments over held in memory, oldest first
        self._read: dict[int, tuple[Stored, Tournament]] = {}  # those over last read
        # each running tournament's parts of its view as last made for a request, with
        # the runner and its version they were made of: requests between two changes
        # make them once
        self._parts: dict[int, _Made] = {}
        # told of each change of a tournament (the WebSocket's watchers), after it
        self.listeners: list[Callable[[TournamentRunner], None]] = []

    def open(self) -> None:
        """Restores the stored tournaments (storing apart each table of one stored
        whole, as schema 5 did) and opens those the settings want."""
        for stored, tournament in load_all(self.store.db, self.settings.snapshot_key):
            runner = self.runners[stored.id] = self._runner(stored, tournament)
            if stored.whole:  # its state in its row (schema 7 or before): in parts now
                with runner.change():
                    pass
        for spec in self.specs:
            self._keep_open(spec)

    def _runner(self, stored: Stored, tournament: Tournament) -> TournamentRunner:
        runner = TournamentRunner(stored, tournament, settings=self.settings,
                                  store=self.store, commit=self.commit)  # fmt: skip
        runner.on_change = self._changed
        return runner

    def _changed(self, runner: TournamentRunner) -> None:
        for listener in self.listeners:
            listener(runner)
        if runner.stored.status in OVER and runner.id not in self._over:
            self._over.append(runner.id)  # the oldest over leaves memory: read on request
            while len(self._over) > OVER_KEPT:
                self.runners.pop(self._over.pop(0), None)

    def _keep_open(self, spec: TournamentSpec) -> None:
        """A sit-and-go with no tournament registering gets a new one; a scheduled one
        is made once. Bot entrants missing (a crash between their registrations) are
        registered."""
        own = [r for r in self.runners.values() if r.stored.spec.name == spec.name]
        if spec.config.kind is Kind.SIT_AND_GO:
            own = [r for r in own if r.stored.status == REGISTERING]
        elif not own and tournament_rows.named(self.store.committed(), spec.name):
            return  # made once, and over
        runner = own[-1] if own else self._create(spec)
        if runner.stored.status == REGISTERING:
            self._register_bots(runner)

    def _create(self, spec: TournamentSpec) -> TournamentRunner:
        stored_last = tournament_rows.last_id(self.store.committed())  # (reads on the loop:
        number = max(max(self.runners, default=-1), stored_last) + 1  # what is committed)
        seed = None if self.settings.seed is None else self.settings.seed * 1009 + number
        runner = self._runner(Stored(number, spec, whole=True),
                              Tournament(spec.config, seed=seed))  # fmt: skip
        with runner.change():
            pass  # its row
        self.runners[number] = runner
        if self._running:
            self._start(runner)
        return runner

    def _register_bots(self, runner: TournamentRunner) -> None:
        spec, tournament = runner.stored.spec, runner.tournament
        config = tournament.config
        for n in range(spec.bots):
            name = f"tbot-{runner.id}-{n + 1}"
            if tournament.entries_of(name):
                continue
            with self.commit.paying(TOURNAMENTS):
                try:
                    account = get_account(self.store.db, name)
                except UnknownAccount:
                    account = create_bot(self.store.db, name, max(1, config.buy_in + config.fee))
            if account.role != "bot":  # a person took the name: the seat stays for people
                continue
            runner.register(name, bot=spec.bot_kinds[n % len(spec.bot_kinds)])

    # ------------------------------------------------------------------ tasks

    async def start(self) -> None:
        """Starts every tournament's task."""
        self._running = True
        for runner in self.runners.values():
            self._start(runner)
        if self.settings.keep_hands is not None or self.settings.keep_hands_days is not None:
            self._tasks[-1] = asyncio.create_task(self._retention())

    async def _retention(self) -> None:
        while True:
            self.forget_old_hands()
            await asyncio.sleep(RETENTION_SECONDS)

    def forget_old_hands(self) -> None:
        """Hands the next commit the retention's step of each tournament over whose
        hands may still be forgotten
        (:mod:`~doubleholdem.server.tournaments.hand_retention`)."""
        keep, days = self.settings.keep_hands, self.settings.keep_hands_days
        if keep is None and days is None:
            return
        older_than = None if days is None else self.settings.clock() - days * DAY
        for tournament_id, _ in tournament_rows.rows(self.store.committed(), over=True):
            if tournament_id not in self.retained:

                def step(store: Storage, tournament_id: int = tournament_id) -> None:
                    forgot = forget_hands(store, tournament_id, keep=keep, older_than=older_than)
                    if not forgot and older_than is None:  # nothing will age: done
                        self.retained.add(tournament_id)

                self.commit.later([step], _nothing, table=TOURNAMENTS)

    def _start(self, runner: TournamentRunner) -> None:
        if runner.stored.status not in OVER:
            self._tasks[runner.id] = asyncio.create_task(runner.run())

    async def stop(self) -> None:
        """Stops the tasks (before the room's last commit)."""
        self._running = False
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()

    # ------------------------------------------------------------------ requests

    def runner(self, tournament_id: int) -> TournamentRunner:
        """Tournament ``tournament_id``, or :class:`TournamentError`."""
        runner = self.runners.get(tournament_id) if tournament_id >= 0 else None
        if runner is None or runner.gone:
            status = tournament_rows.status(self.store.committed(), tournament_id)
            if status in OVER:
                raise TournamentError(f"tournament {tournament_id + 1} is over ({status})")
            raise TournamentError(f"there is no tournament {tournament_id + 1}")
        return runner

    def register(self, tournament_id: int, player: str) -> int:
        """Enters the account ``player`` (paid from its balance); a sit-and-go it fills
        starts, and a new one opens."""
        runner = self.runner(tournament_id)
        entry = runner.register(player)
        if (
            runner.stored.status != REGISTERING
            and runner.stored.spec.config.kind is Kind.SIT_AND_GO
        ):
            self._keep_open(runner.stored.spec)
        return entry

    def cancel(self, tournament_id: int) -> None:
        """The room cancels the tournament (refunded by the rule of
        :meth:`TournamentRunner.cancel`); a sit-and-go cancelled while registering is
        opened anew."""
        runner = self.runner(tournament_id)
        registering = runner.stored.status == REGISTERING
        runner.cancel()
        if registering and runner.stored.spec.config.kind is Kind.SIT_AND_GO:
            self._keep_open(runner.stored.spec)

    def lobby(self) -> list[dict[str, Any]]:
        """The summary of every tournament not over, newest first (those over:
        :meth:`over_page`)."""
        now = self.settings.clock()
        found = [r for r in self.runners.values() if not r.gone and r.stored.status not in OVER]
        return [views.summary(r.stored, r.tournament, now)
                for r in sorted(found, key=lambda r: -r.id)]  # fmt: skip

    def over_page(self, before: int | None = None) -> tuple[list[dict[str, Any]], int | None]:
        """At most ``OVER_PAGE`` summaries of the tournaments over (finished or
        cancelled) with an id below ``before`` (``None``: the newest), newest first, as
        committed; and the ``before`` of the next page (``None``: there is none). Read
        from the database: its size is bounded whatever the number of tournaments."""
        db = self.store.reader()
        below = 2**62 if before is None else before
        found = tournament_rows.over_page(db, below, OVER_PAGE + 1)
        page = [self._summary(db, i, text) for i, text in found[:OVER_PAGE]]
        return page, (found[OVER_PAGE - 1][0] if len(found) > OVER_PAGE else None)

    def _summary(self, db: Connection, tournament_id: int, text: str | None) -> dict[str, Any]:
        """The lobby line of a tournament over (stored with it, else made from it:
        one over before schema 8)."""
        if text is not None:
            summary: dict[str, Any] = json.loads(text)
            return summary
        stored, tournament = self._over_read(db, tournament_id)
        return views.summary(stored, tournament, self.settings.clock())

    def _over_read(self, db: Connection, tournament_id: int) -> tuple[Stored, Tournament]:
        """Tournament ``tournament_id``, over, as stored (the last few read are kept);
        :class:`TournamentError` if there is none."""
        found = self._read.pop(tournament_id, None) or load(db, tournament_id,
                                                            self.settings.snapshot_key)  # fmt: skip
        if found is None:
            raise TournamentError(f"there is no tournament {tournament_id + 1}")
        self._read[tournament_id] = found
        while len(self._read) > OVER_KEPT:
            del self._read[next(iter(self._read))]
        return found

    def detail(self, tournament_id: int, viewer: str | None) -> dict[str, Any]:
        """One tournament as ``viewer`` may see it, with its version (changes made; one
        over and no longer in memory, read from the database: 0)."""
        runner = self.runners.get(tournament_id) if tournament_id >= 0 else None
        if runner is None and tournament_rows.status(self.store.reader(), tournament_id) in OVER:
            stored, tournament = self._over_read(self.store.reader(), tournament_id)
            return {**views.detail(stored, tournament, self.settings.clock(), viewer), "version": 0}
        runner = self.runner(tournament_id)
        if viewer is not None:
            runner.seen(viewer)
        stored, tournament = runner.stored, runner.tournament
        made = self._parts.get(tournament_id)
        if made is None or made.runner is not runner or made.version != runner.version:
            made = _Made(runner, runner.version, views.parts(stored, tournament))
            self._parts[tournament_id] = made
        view = views.shared(stored, tournament, self.settings.clock(), made.parts)
        view["me"] = views.me(stored, tournament, viewer)
        view["version"] = runner.version
        return view


class _Made(NamedTuple):
    """A tournament's view's parts, made of ``runner`` at its ``version``."""

    runner: TournamentRunner
    version: int
    parts: views.Parts


def _nothing() -> None:
    """The undo of the retention's step (it changed no tournament)."""
