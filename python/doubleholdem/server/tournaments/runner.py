"""One tournament of the room: :class:`TournamentRunner` holds the library's
:class:`~doubleholdem.tournament.Tournament` and runs the task that plays its tables by
its state machine (RULES.md TRN): a scheduled tournament starts at its time (or is
cancelled, refunded, without its minimum of entrants); each table the tournament says
is ready starts a hand after the pause; bots act after the room's bot delay; deadlines
pass on the server's clock (TH-40); a hand over is finished by the tournament (places,
hand-for-hand, breaking and balancing, the level); the winner's end pays the prizes.

Every change happens inside :meth:`TournamentRunner.change`, synchronously: afterwards
what it changed (:mod:`~doubleholdem.server.tournaments.stored`: a decision as a move of
its table, a table otherwise changed as its snapshot, the tournament's own row when it
changed) goes to the group commit with the ledger entries of the change, in one
transaction. A change that pays (a registration) writes its entries at once in a
savepoint of that transaction (:meth:`GroupCommit.paying
<doubleholdem.server.storage.commit.GroupCommit.paying>`), so a refusal is known before
the reply and undoes both. If the commit fails the runner goes back to the stored row."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import Callable, Iterator

from doubleholdem.errors import DoubleHoldemError, IllegalAction, TournamentError
from doubleholdem.server import oplog
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage import journal
from doubleholdem.server.storage.commit import GroupCommit, Step
from doubleholdem.server.storage.read_back import AGAIN_SECONDS, ReadBack
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tournaments import payments, views
from doubleholdem.server.tournaments.action_ids import ActionIds
from doubleholdem.server.tournaments.payments import Sale
from doubleholdem.server.tournaments.settle import settlement
from doubleholdem.server.tournaments.shared_view import Touched
from doubleholdem.server.tournaments.stored import (
    CANCELLED,
    FINISHED,
    OVER,
    REGISTERING,
    RUNNING,
    Pending,
    Stored,
    hand_step,
    load,
)
from doubleholdem.table import Decision
from doubleholdem.table.bots import BOTS, Bot
from doubleholdem.table.table import Table
from doubleholdem.tournament import HandReport, Tournament

__all__ = ["TournamentRunner"]

_log = logging.getLogger("doubleholdem.server")
IDLE_LOOK = 1.0  # seconds between looks at a running tournament with nothing due (breaks)
DEAL_SECONDS = 60.0  # how long a deal offered waits for every player's answer
AWAY_AFTER = 10.0  # seconds without a look from its page before a player is away


class TournamentRunner:
    """Tournament ``stored.id``: ``tournament`` as ``stored`` says, run with the room's
    ``settings``, ``store`` and group ``commit``."""

    def __init__(
        self,
        stored: Stored,
        tournament: Tournament,
        *,
        settings: RoomSettings,
        store: Storage,
        commit: GroupCommit,
    ) -> None:
        self.stored = stored
        self.tournament = tournament
        self.settings = settings
        self.store = store
        self.commit = commit
        self.wake = asyncio.Event()
        self.version = 0  # changes since the room started (the page polls it)
        self.gone = False  # its creation's commit failed
        self.reload = ReadBack(f"tournament {stored.id + 1}", self._reload)
        self._steps: list[Step] = []
        self.ids = ActionIds(stored.id, store, commit)  # the decisions' ids
        self._pending = Pending.of(stored, tournament)
        self._logged: list[oplog.Logged] = []  # the change's events, logged once committed
        self._bots: dict[str, Bot] = {}
        self._next_start: dict[int, float] = {}
        self._bot_at: dict[int, float] = {}
        self._seen: dict[str, float] = {}  # player -> when its page last looked
        self.watching: dict[str, int] = {}  # player -> its connections watching (present)
        self.on_change: Callable[[TournamentRunner], None] = _unheard  # after each change
        self.touched = Touched()  # what changed since its shared view was last made

    @property
    def id(self) -> int:
        return self.stored.id

    def now(self) -> float:
        return self.settings.clock()

    # ------------------------------------------------------------------ changes

    @contextlib.contextmanager
    def change(self, *, decisions: bool = False) -> Iterator[None]:
        """Wraps a change: afterwards what it changed is stored with the ledger entries
        of the change (its steps) in the next commit. ``decisions``: a change at the
        tables (decisions, deadlines), which stores their moves, and the tournament's
        row only where it notes more (:meth:`_changed`); any other stores the row. If
        the change raises, nothing is stored (a payment written at once is undone by its
        savepoint), but for what it did at the tables (stored with the next change)."""
        self.reload.before_change()
        pending = self._pending
        try:
            yield
        except BaseException:
            self._steps.clear()
            self._logged.clear()
            raise
        pending.state = pending.state or not decisions
        self.touched.tables |= pending.tables | pending.moves.keys() | self.tournament.touched
        steps, self._steps = self._steps, []
        summary = None
        if self.stored.status in OVER:  # its lobby line, stored with its row
            summary = json.dumps(views.summary(self.stored, self.tournament, self.now()))
        steps += pending.steps(self.stored, self.tournament, self.settings.snapshot_key, summary)
        self.commit.later(steps, self.reload, table=TOURNAMENTS)  # fenced: its lease
        logged, self._logged = self._logged, []
        for line in logged:  # logged once committed, never if the commit fails
            self.commit.post(line, "")
        self.version += 1
        self.wake.set()
        self.on_change(self)

    def _reload(self) -> None:
        """Back to the tournament as last stored (a commit failed), through :attr:`reload`."""
        found = load(self.store.db, self.id, self.settings.snapshot_key)
        if found is None:
            self.gone = True
            return
        self.stored, self.tournament = found
        self._pending = Pending.of(self.stored, self.tournament)
        self._bots.clear()
        self.touched.everything = True
        self.version += 1
        self.wake.set()
        self.on_change(self)

    def pay(self, step: Step) -> None:
        """Adds a ledger step (never refused) to the change being made."""
        self._steps.append(step)

    def log(self, name: str, sale: Sale | None = None, /, **fields: object) -> None:
        """Logs the event ``name`` of :data:`~doubleholdem.server.oplog.EVENTS` (about
        ``sale``) once the change being made is committed."""
        if sale is not None:
            fields.update(player=sale.player, what=sale.what, chips=sale.price, fee=sale.fee)
        self._logged.append(oplog.Logged(name, tournament=self.id + 1, **fields))

    # ------------------------------------------------------------------ entries

    def register(self, player: str, *, bot: str | None = None) -> int:
        """Enters ``player`` (TRN-1), paid from its balance at once: refused
        (:class:`~doubleholdem.errors.RegistrationRefused`,
        :class:`~doubleholdem.errors.InsufficientFunds`, ...) with nothing changed. A
        sit-and-go this fills starts (TRN-2). ``bot``: the kind of a bot entrant."""
        config, stored = self.tournament.config, self.stored
        if stored.status not in (REGISTERING, RUNNING) or stored.cancelling:
            raise TournamentError("registration is closed", player=player)
        sales, before = stored.sales, dict(stored.open_sales)
        sale = stored.sale(player, config.buy_in, config.fee, "entry")
        try:
            with self.change(), self.commit.paying(TOURNAMENTS):
                payments.sell(self.store.db, self.id, sale)
                entry = self.tournament.register(player, now=self.now())
                self.log("tournament_sale", sale)
                if self.tournament.state == RUNNING:
                    stored.status = RUNNING  # a sit-and-go filled (TRN-2), or a late entry
                    stored.open_sales.clear()  # no refund by unregistration any more
                else:
                    stored.open_sales[player] = [sale]
                if bot is not None:
                    stored.bots[player] = bot
        except BaseException:
            stored.sales, stored.open_sales = sales, before
            stored.bots.pop(player, None)
            raise
        return entry

    def buy(self, player: str, what: str) -> None:
        """``player`` buys a ``re-entry`` (TRN-5: all its entries out, during late
        registration; the buy-in and the fee), a ``rebuy`` or an ``add-on`` (TRN-6: their
        price, no fee), paid from its balance at once; refused
        (:class:`~doubleholdem.errors.TournamentError`,
        :class:`~doubleholdem.errors.InsufficientFunds`, ...) with nothing changed."""
        config, stored, now = self.tournament.config, self.stored, self.now()
        rules = config.rebuys
        apply: Callable[..., object]
        if stored.status != RUNNING or stored.cancelling:
            raise TournamentError(f"no {what} now: the tournament is not running", player=player)
        if what == "re-entry":
            price, fee, apply = config.buy_in, config.fee, self.tournament.re_enter
        elif what in ("rebuy", "add-on") and rules is not None:
            rebuy = what == "rebuy"
            price = rules.price if rebuy else rules.add_on_price
            fee, apply = 0, self.tournament.rebuy if rebuy else self.tournament.add_on
        else:
            raise TournamentError(f"this tournament sells no {what}", player=player)
        sales = stored.sales
        sale = stored.sale(player, price, fee, what)
        try:
            with self.change(), self.commit.paying(TOURNAMENTS):
                payments.sell(self.store.db, self.id, sale)
                apply(player, now=now)
                self.log("tournament_sale", sale)
        except BaseException:
            stored.sales = sales
            raise

    def unregister(self, player: str) -> None:
        """Takes ``player``'s entry back before the start (TRN-2): its buy-in and fee
        are refunded."""
        stored = self.stored
        sold = stored.open_sales.get(player)
        if stored.status != REGISTERING or not sold:
            raise TournamentError(f"{player} is not registered", player=player)
        with self.change(), self.commit.paying(TOURNAMENTS):
            self.tournament.unregister(player)
            self.touched.everything = True  # the entries after it renumbered
            for sale in sold:
                payments.refund(self.store.db, self.id, sale)
                self.log("tournament_refund", sale)
            del stored.open_sales[player]

    # ------------------------------------------------------------------ play

    def act(
        self, player: str, hand: int, action: str, amount: int | None, action_id: str | None = None
    ) -> bool:
        """``player``'s decision in hand ``hand`` at its table (refused: IllegalAction,
        TournamentError, changing nothing but the time's passing); True, not applied
        again, if sent with an ``action_id`` applied already (:class:`ActionIds`)."""
        if self.ids.repeated(player, action_id, decided := (hand, action, amount)):
            return True
        entries = self.tournament.entries_of(player)
        entry = entries[-1] if entries else None
        if entry is None or entry.table is None or entry.seat is None:
            raise TournamentError(f"{player} has no seat in this tournament", player=player)
        table = self.tournament.tables[entry.table]
        if table.hand_number != hand or not table.in_hand:
            raise IllegalAction(f"hand {hand} is not being played at your table")
        refused: DoubleHoldemError | None = None
        self.seen(player)
        with self.change(decisions=True):
            now = self.now()
            self.catch_up(table, now, entry.table)
            try:
                self._decide(entry.table, entry.seat, Decision(action, amount), now)
                self._steps += self.ids.applied(player, action_id, decided, entry.table)
            except DoubleHoldemError as error:
                refused = error
            self._after_decision(entry.table, now)
        if refused is not None:
            raise refused
        return False

    def catch_up(self, table: Table, now: float, number: int) -> None:
        """The deadlines ``table`` (number ``number``) passed by ``now`` (TH-40), applied
        before a decision, a bot's or a player's, and by the task: the one place it is
        done; stored as a move when it changed anything but the time."""
        start = table.log_length
        table.advance(now)
        if table.log_length != start:
            self._pending.move(number, journal.advance_move(now))

    def _decide(self, number: int, seat: int, decision: Decision, now: float) -> None:
        """``decision`` of ``seat`` at table ``number`` (after :meth:`catch_up`), stored
        as a move: the one place a decision is made."""
        self.tournament.tables[number].decide(seat, decision, now=now)
        self._pending.move(number, journal.decide_move(seat, decision, now))

    def _changed(self, *tables: int) -> None:
        """The change being made changed the tournament (its row is stored) and
        ``tables`` otherwise than by moves (their snapshots are)."""
        self._pending.state = True
        self._pending.tables.update(tables)

    def seen(self, player: str) -> None:
        """``player`` looked at the tournament through the HTTP API now."""
        self._seen[player] = self.now()

    def away(self, player: str, now: float) -> bool:
        """Whether ``player`` has no WebSocket connection watching the tournament and no
        request of the HTTP API looked at it for ``AWAY_AFTER`` seconds (or since the
        room started): its seat then gets the action time without the time bank, and
        its decisions left in a hand it timed out in time out at once (TH-40)."""
        if self.watching.get(player):
            return False  # a connection watches the tournament for it
        return now - self._seen.get(player, -math.inf) > AWAY_AFTER

    def _after_decision(self, number: int, now: float) -> None:
        """A decision, a deadline or a hand's start at table ``number``: if its hand is
        over, the tournament finishes it."""
        table = self.tournament.tables.get(number)
        if table is not None and not table.in_hand and number in self.tournament.start_chips:
            self._finish_hand(number, now)
        self._bot_at[number] = now + self.settings.bot_delay

    def _finish_hand(self, number: int, now: float) -> None:
        tournament = self.tournament
        table = tournament.tables[number]
        self._store_hand(number, table)
        report = tournament.finish_hand(number, now=now)
        self._changed(number)
        self._note_moves(report, now)
        for moved in (number, *(m.to_table for m in report.moves)):
            self._next_start[moved] = now + self.stored.spec.pause
        if report.finished:
            self._pay_out({e.number: e.prize for e in tournament.entries}, "play")

    def _store_hand(self, number: int, table: Table) -> None:
        """The hand table ``number`` just ended goes to the hand history with the change
        (:func:`~doubleholdem.server.tournaments.stored.hand_step`)."""
        self._steps.append(hand_step(self.id, number, table, self.stored.spec.name))
        self._steps.append(self.ids.hand_over(number, table.hand_number))  # ids kept a hand more

    def _note_moves(self, report: HandReport, now: float) -> None:
        for move in report.moves:
            self.stored.note_move({
                "player": move.player, "from_table": move.from_table, "from_seat": move.from_seat,
                "to_table": move.to_table, "to_seat": move.to_seat, "at": now,
                "broken": move.from_table in report.broken,
            })  # fmt: skip

    def _pay_out(self, amounts: dict[int, int], ended_by: str) -> None:
        """Pays each entry its amount (adding up to the pool) in the change being made;
        the tournament is then over, ended by ``play``, a ``deal`` or ``cancelled``."""
        stored, entries = self.stored, self.tournament.entries
        for entry, amount in sorted(amounts.items()):
            player = entries[entry].player
            self.pay(payments.prize_step(self.id, entry, player, amount))
            if amount:
                self.log("tournament_prize", player=player, entry=entry, chips=amount)
        self.pay(self.ids.over())
        self._changed()
        stored.paid = {e: a for e, a in amounts.items() if a}
        stored.status = CANCELLED if ended_by == "cancelled" else FINISHED
        stored.cancelling, stored.ended_by = False, ended_by
        if ended_by == "cancelled":
            stored.deal = None  # a deal asked for or offered is void
        self.log("tournament_end", ended_by=ended_by, pool=self.tournament.pool)

    # ------------------------------------------------------------------ a deal

    def offer_deal(self, player: str) -> None:
        """``player``, still in at the final table, asks for a deal: at the end of the
        hand in play (or at once between hands) the table stops, and each player left
        is offered its ICM share (:func:`~doubleholdem.server.tournaments.settle.settlement`);
        bots accept. It is applied once every player left accepts, and lapses after
        ``DEAL_SECONDS`` or when one declines."""
        tournament, stored = self.tournament, self.stored
        if stored.status != RUNNING or stored.cancelling or len(tournament.tables) != 1:
            raise TournamentError("a deal is made at the final table", player=player)
        if stored.deal is not None:
            raise TournamentError("a deal is already asked for", player=player)
        if player not in tournament.players():
            raise TournamentError(f"{player} is not in the tournament any more", player=player)
        with self.change():
            stored.deal = {"by": player, "amounts": None, "accepted": [], "until": None}
            self._offer(self.now())

    def _offer(self, now: float) -> None:
        """The deal asked for is computed once no hand is in play."""
        deal = self.stored.deal
        tables = self.tournament.tables.values()
        if deal is None or deal["amounts"] is not None or any(t.in_hand for t in tables):
            return
        amounts = settlement(self.tournament)
        self._changed()
        entries = self.tournament.entries
        deal["amounts"] = {str(e): a for e, a in amounts.items()}
        deal["players"] = sorted(entries[e].player for e in amounts if entries[e].place is None)
        deal["accepted"] = sorted(p for p in deal["players"] if p in self.stored.bots)
        deal["until"] = now + DEAL_SECONDS
        self._deal_if_agreed()

    def answer_deal(self, player: str, accept: bool) -> None:
        """``player`` accepts or declines the deal offered."""
        deal = self.stored.deal
        if deal is None or deal["amounts"] is None or player not in deal["players"]:
            raise TournamentError("no deal is offered to you", player=player)
        with self.change():
            if not accept:
                self.stored.deal = None
                return
            if player not in deal["accepted"]:
                deal["accepted"] = sorted([*deal["accepted"], player])
            self._deal_if_agreed()

    def _deal_if_agreed(self) -> None:
        deal = self.stored.deal
        if deal is not None and set(deal["accepted"]) == set(deal["players"]):
            self._pay_out({int(e): a for e, a in deal["amounts"].items()}, "deal")

    # ------------------------------------------------------------------ cancelling

    def cancel(self) -> None:
        """The room cancels the tournament: before the start every sale is refunded
        (buy-in and fee); after it, once no hand is in play, the pool is paid out by
        :func:`~doubleholdem.server.tournaments.settle.settlement` (fees are kept)."""
        stored = self.stored
        if stored.status in OVER:
            raise TournamentError("the tournament is over")
        with self.change():
            if stored.status == REGISTERING:
                for sold in stored.open_sales.values():
                    for sale in sold:
                        self.pay(payments.refund_step(self.id, sale))
                        self.log("tournament_refund", sale)
                stored.open_sales.clear()
                stored.status, stored.ended_by = CANCELLED, "cancelled"
                self.log("tournament_end", ended_by="cancelled", pool=self.tournament.pool)
            else:
                stored.cancelling = True
                self._settle_if_idle()

    def _settle_if_idle(self) -> bool:
        """A tournament being cancelled is paid out once no hand is in play."""
        tables = self.tournament.tables.values()
        if not self.stored.cancelling or any(table.in_hand for table in tables):
            return False
        self._pay_out(settlement(self.tournament), "cancelled")
        return True

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        """Plays the tournament until it is over or the task is cancelled. A step that
        fails unexpectedly is logged and the tournament goes on from its stored row
        (reloaded once the commit of its earlier changes ended)."""
        ready = self.commit.ready
        while self.stored.status not in OVER and not self.gone:
            while not ready.is_set():  # (the next commit may take off before it runs)
                await ready.wait()
            self.wake.clear()
            try:
                wait = self.step(self.now())
            except Exception:
                _log.exception("tournament %d stopped on an error; restoring it", self.id + 1)
                self.commit.after(self.reload)
                wait = 1.0
            if wait == 0:  # the commit of the change runs before the next one
                await asyncio.sleep(0)
                continue
            waiter = asyncio.ensure_future(self.wake.wait())
            try:  # until woken, or ``wait`` seconds (None: until woken)
                await asyncio.wait({waiter}, timeout=wait)
            finally:
                waiter.cancel()

    def step(self, now: float) -> float | None:
        """Does what is due at ``now`` (in one change) and returns the seconds until
        something may be due next (0: at once; ``None``: when woken)."""
        if not self.reload.read():  # (what is due is read from it)
            return AGAIN_SECONDS
        stored = self.stored
        if stored.status == REGISTERING:
            start_at = stored.spec.start_at
            if start_at is None:
                return None
            if now < start_at:
                return start_at - now
            self._start_scheduled(now)
            return 0
        if stored.status != RUNNING:
            return None
        due: list[tuple[int, str]] = []
        soonest = IDLE_LOOK
        for number, table in self.tournament.tables.items():
            what, when = self._due(number, table, now)
            if what is not None:
                due.append((number, what))
            elif when is not None:
                soonest = min(soonest, when - now)
        deal = stored.deal
        if deal is not None and deal["until"] is not None and now >= deal["until"]:
            due.append((0, "deal_lapses"))
        starting = self._startable(now)
        if not due and not starting and not stored.cancelling and not self._deal_due():
            return max(0.0, soonest)
        with self.change(decisions=True):
            for number, what in due:
                self._do(number, what, now)
            if not self._settle_if_idle():
                self._offer(now)
                if stored.status == RUNNING:
                    self._start_ready(now)
        return 0

    def _due(self, number: int, table: Table, now: float) -> tuple[str | None, float | None]:
        """What is due at table ``number`` now (``advance``, ``bot``) or when next."""
        if not table.in_hand:
            if number in self.tournament.start_chips:  # a hand over, not yet finished
                return "finish", None
            return None, self._next_start.get(number)
        deadline = table.deadline
        if deadline is not None and deadline <= now:
            return "advance", None
        seat = table.to_act
        if seat is not None and table.player(seat) not in self.stored.bots:
            occupant = table.seats()[seat]
            if occupant is not None and occupant["away"] != self.away(table.player(seat), now):
                return "away", None
        if seat is not None and table.player(seat) in self.stored.bots:
            at = self._bot_at.get(number, 0.0)
            return (
                ("bot", None)
                if now >= at
                else (None, at if deadline is None else min(at, deadline))
            )
        return None, deadline

    def _do(self, number: int, what: str, now: float) -> None:
        if what == "deal_lapses":
            self.stored.deal = None
            self._changed()
            return
        table = self.tournament.tables.get(number)
        if table is not None and what == "finish" and not table.in_hand:
            self._finish_hand(number, now)
        if table is None or not table.in_hand:
            return
        if what == "away" and table.to_act is not None:  # TH-40: no time bank while away
            player = table.player(table.to_act)
            table.set_away(table.to_act, self.away(player, now), now=now)
            self._pending.tables.add(number)
            return
        self.catch_up(table, now, number)
        seat = table.to_act
        if what == "bot" and seat is not None:
            player = table.player(seat)
            self._decide(number, seat, self._bot(player).choose(table.observe(seat)), now)
        self._after_decision(number, now)

    def _bot(self, player: str) -> Bot:
        bot = self._bots.get(player)
        if bot is None:
            seed = (self.settings.seed or 0) * 1_000_003 + self.id * 10_007 + len(self._bots)
            bot = self._bots[player] = BOTS[self.stored.bots[player]](seed)
        return bot

    def _startable(self, now: float) -> list[int]:
        """The tables the tournament says are ready (TRN-8, TRN-15, TRN-16) whose pause
        is over, unless a deal is asked for or the tournament is being cancelled."""
        if self.stored.deal is not None or self.stored.cancelling:
            return []
        return [n for n in self.tournament.ready_tables(now) if now >= self._next_start.get(n, 0.0)]

    def _deal_due(self) -> bool:
        """A deal asked for is to be computed now: no hand is in play any more (while
        one is, nothing is due for it)."""
        deal = self.stored.deal
        in_play = any(table.in_hand for table in self.tournament.tables.values())
        return deal is not None and deal["amounts"] is None and not in_play

    def _start_ready(self, now: float) -> None:
        """Starts a hand at each of :meth:`_startable`. Players sat out by timeouts are
        dealt in (a tournament deals every player with chips)."""
        tournament = self.tournament
        for number in self._startable(now):
            if number not in tournament.tables:
                continue
            table = tournament.tables[number]
            for seat, occupant in enumerate(table.seats()):
                if occupant is not None and occupant["sitting_out"]:
                    table.sit_in(seat, now=now)
                    self._pending.tables.add(number)
            if number in tournament.ready_tables(now):
                tournament.start_hand(number, now=now)
                self._after_decision(number, now)  # the blinds may have put all in

    def _start_scheduled(self, now: float) -> None:
        """A scheduled tournament's time: it starts with its minimum of entrants, else
        it is cancelled and every sale refunded (TRN-2)."""
        tournament = self.tournament
        if len(tournament.entries) >= tournament.config.minimum:
            with self.change():
                tournament.start(now=now)
                self.stored.status = RUNNING
                self.stored.open_sales.clear()
        else:
            self.cancel()


def _unheard(runner: TournamentRunner) -> None:
    """The default :attr:`TournamentRunner.on_change`: nobody listens."""
