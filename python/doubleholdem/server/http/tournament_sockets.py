"""The room's tournaments over the WebSocket (docs/PROTOCOL.md, "Tournaments"):
:class:`TournamentSockets` answers a connection's tournament messages and pushes what
changed. A connection watches one tournament at a time (as it watches one table): it is
sent the tournament's whole view (:func:`~doubleholdem.server.tournaments.views.detail`
with its signed-in account's own entry and table, its cards among them, and never
another's), then, after the commit of each change, the patch from the view it was sent
last (``tournament_update``, as a table's ``update``: sized by what changed, not by the
entrants, :mod:`~doubleholdem.server.patches`); a watcher that fell behind (``BEHIND``
messages unread) is sent no patch, but the whole view once more when it has read them.
The account's table follows its entry, so a move between tables needs no new request.
A connection that asked for the lobby is sent it anew whenever it changes. A signed-in
account registers, unregisters, acts at its table, buys and answers a deal over the
same connection, each answered after the commit of its change. A player whose
connection watches the tournament is present (:meth:`TournamentRunner.away
<doubleholdem.server.tournaments.runner.TournamentRunner.away>`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from doubleholdem.errors import (
    AccountError,
    DatabaseBusy,
    DoubleHoldemError,
    IllegalAction,
    TournamentError,
)
from doubleholdem.server import protocol
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.protocol import UNAVAILABLE, Patch, diff, encode
from doubleholdem.server.storage.hands import tournament_key
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.tournament_requests import TournamentSeat
from doubleholdem.server.tournaments import views
from doubleholdem.server.tournaments.action_ids import ActionIdReused
from doubleholdem.server.tournaments.room import Tournaments
from doubleholdem.server.tournaments.runner import TournamentRunner
from doubleholdem.server.tournaments.shared_view import SharedView, frozen
from doubleholdem.wording import told

__all__ = ["BEHIND", "Sent", "TournamentSockets"]

BEHIND = 64  # messages waiting for a watcher: it is sent no patch, but the whole view
# once it has read them (a patch per change would only grow the queue of a slow client)


class Sent(NamedTuple):
    """The view a connection was sent: what every watcher sees, its own part, the
    tournament's version."""

    shared: dict[str, Any]
    me: Any
    version: int

    def view(self) -> dict[str, Any]:
        """The whole view (:func:`~doubleholdem.server.tournaments.views.detail`'s)."""
        return {**self.shared, "me": self.me, "version": self.version}


def _patch(held: Sent, new: Sent, common: Patch | None) -> Patch:
    """The patch from the view ``held`` to ``new``; ``common``: the patch of what every
    watcher sees, when ``held`` holds the same as the others (else compared whole)."""
    if common is None or any(not op[0] for op in common):
        return diff(held.view(), new.view())
    patch = list(common)
    patch += [[["me", *op[0]], *op[1:]] for op in diff(held.me, new.me)]
    if held.version != new.version:
        patch.append([["version"], new.version])
    return patch


class _Call:
    """A recipient of the group commit whose message, once due, is a call: what it
    sends is made then, after the commit, in order with the other replies."""

    def __init__(self, call: Callable[[], None]) -> None:
        self.call = call

    def send(self, text: str) -> None:
        self.call()


class _Fenced:
    """A reply to ``connection`` about a change of the tournaments: sent as any reply,
    or, when the commit leaves their changes out (their lease lost:
    :mod:`~doubleholdem.server.tournaments.host`), its ``instead``."""

    table = TOURNAMENTS

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def send(self, text: str) -> None:
        self.connection.send(text)


class TournamentSockets:
    """The WebSocket side of ``tournaments``: who watches what, and the requests."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.commit = tournaments.commit
        self._watched: dict[Connection, int] = {}  # connection -> the tournament it watches
        self._views: dict[Connection, Sent] = {}  # the view it was sent last
        self.shared_views: dict[int, SharedView] = {}  # each watched tournament's
        self._watchers: dict[int, int] = {}  # tournament -> the connections watching it
        self._lobby: set[Connection] = set()  # sent the lobby whenever it changes
        self._lobby_text: str | None = None  # the lobby as last sent
        self._dirty: set[int] = set()  # tournaments changed since the last push
        self._posted = False
        tournaments.listeners.append(self._changed)

    def clock(self) -> float:
        return self.tournaments.settings.clock()

    # ------------------------------------------------------------------ requests

    def handle(self, connection: Connection, message: protocol.Message) -> None:
        """One tournament message of ``connection``; every refusal is an error reply
        and changes nothing."""
        if isinstance(message, protocol.TournamentLobby):
            self._lobby.add(connection)
            self._after_commit(lambda: self._send_lobby(connection))
            return
        if isinstance(message, protocol.TournamentsOver):
            page, after = self.tournaments.over_page(message.before)
            connection.send(encode("tournaments_over", tournaments=page, next=after))
            return
        if isinstance(message, protocol.TournamentUnwatch):
            self.unwatch(connection)
            connection.send(encode("result", id=None, ok=True))
            return
        number = getattr(message, "tournament", -1)
        ident = getattr(message, "id", None)
        try:
            runner = self.tournaments.runner(number)
        except TournamentError as error:
            if not (
                isinstance(message, protocol.TournamentWatch) and self._over(connection, number)
            ):
                connection.error("no_tournament", told(error), ident)
            return
        if isinstance(message, protocol.TournamentWatch):
            self._watch(connection, runner)
            return
        account = connection.account
        if account is None:
            connection.error("not_signed_in", "sign in first (POST /api/signin)", ident)
        elif not connection.active:
            connection.error("account_frozen", "your account is frozen: you may watch only", ident)
        elif not self.commit.writable():
            connection.error("unavailable", UNAVAILABLE, ident)
        else:
            self._request(connection, runner, account, message)

    def _request(
        self,
        connection: Connection,
        runner: TournamentRunner,
        player: str,
        message: protocol.Message,
    ) -> None:
        """A request that changes the tournament, answered after its commit."""
        ident = getattr(message, "id", None)
        fields: dict[str, Any] = {}
        try:
            if isinstance(message, protocol.TournamentAct):
                decided = (message.hand, message.action, message.amount)
                if runner.ids.repeated(player, message.id, decided):  # a retry: not again
                    fields["repeated"] = True
                elif self._stale(runner, player, message.hand):
                    connection.error("stale", f"hand {message.hand} is not being played", ident)
                    return
                else:
                    runner.act(player, *decided, message.id)
            elif isinstance(message, protocol.TournamentRegister):
                fields["entry"] = self.tournaments.register(runner.id, player)
            elif isinstance(message, protocol.TournamentUnregister):
                runner.unregister(player)
            elif isinstance(message, protocol.TournamentBuy):
                runner.buy(player, message.what)
            elif isinstance(message, protocol.TournamentDeal):
                if message.answer == "ask":
                    runner.offer_deal(player)
                else:
                    runner.answer_deal(player, message.answer == "accept")
        except (AccountError, DatabaseBusy, ActionIdReused) as error:
            connection.error(error.code, told(error), ident)
            return
        except IllegalAction as error:
            connection.error("illegal", told(error), ident, reason=error.reason)
            return
        except DoubleHoldemError as error:
            connection.error("refused", told(error), ident)
            return
        reply = encode("result", id=ident, ok=True, tournament=runner.id, **fields)
        fenced = _Fenced(connection)  # not acknowledged if the commit leaves it out
        self.commit.post(fenced, reply)
        self.commit.instead(
            fenced, encode("error", code="unavailable", message=UNAVAILABLE, id=ident)
        )

    def seat(self, account: str, tournament: int) -> TournamentSeat | None:
        """Where ``account``'s last entry sits in ``tournament`` now (its ``hands`` are
        that seating's), ``None`` if nowhere; :class:`TournamentError` if there is no
        such tournament."""
        runner = self.tournaments.runner(tournament)
        own = runner.tournament.entries_of(account)
        number, seat = (own[-1].table, own[-1].seat) if own else (None, None)
        if number is None or seat is None:
            return None
        occupancy = runner.tournament.tables[number].occupancy(seat)
        if occupancy is None:
            return None
        return TournamentSeat(tournament_key(runner.id, number), number, seat, occupancy, account)

    @staticmethod
    def _stale(runner: TournamentRunner, player: str, hand: int) -> bool:
        """Whether hand number ``hand`` is not the one being played at ``player``'s
        table."""
        own = runner.tournament.entries_of(player)
        table = own[-1].table if own else None
        if table is None:
            return False  # refused as seatless by the runner
        played = runner.tournament.tables[table]
        return played.hand_number != hand or not played.in_hand

    # ------------------------------------------------------------------ watching

    def _watch(self, connection: Connection, runner: TournamentRunner) -> None:
        """``connection`` watches ``runner``'s tournament (instead of another): sent its
        whole view after the commit of what is pending, then patches."""
        self.unwatch(connection)
        self._watched[connection] = runner.id
        self._watchers[runner.id] = self._watchers.get(runner.id, 0) + 1
        player = connection.account
        if player is not None:
            runner.watching[player] = runner.watching.get(player, 0) + 1
            runner.wake.set()  # no longer away
        self._after_commit(lambda: self._send_whole(connection, runner))

    def _over(self, connection: Connection, number: int) -> bool:
        """Sends ``connection`` the view of tournament ``number``, over and read from the
        database (it changes no more: no patches follow): True; False if it is not one."""
        try:
            view = self.tournaments.detail(number, connection.account)
        except TournamentError:
            return False
        self.unwatch(connection)
        connection.send(encode("tournament", tournament=number, view=view, clock=self.clock()))
        return True

    def _after_commit(self, call: Callable[[], None]) -> None:
        """Calls ``call`` once the pending commit ended, committed or failed (then the
        tournament is as stored), in order with the replies."""
        recipient = _Call(call)
        self.commit.post(recipient, "")
        self.commit.instead(recipient, "")

    def unwatch(self, connection: Connection) -> None:
        """``connection`` stops watching its tournament (if any)."""
        number = self._watched.pop(connection, None)
        if number is not None:
            self._watchers[number] -= 1
            if not self._watchers[number]:  # nobody watches it: its view is not kept
                del self._watchers[number]
                self.shared_views.pop(number, None)
        self._views.pop(connection, None)
        runner = None if number is None else self.tournaments.runners.get(number)
        player = connection.account
        if runner is not None and player is not None:
            left = runner.watching.get(player, 0) - 1
            if left > 0:
                runner.watching[player] = left
            else:
                runner.watching.pop(player, None)
            runner.wake.set()  # away once its page has not looked for a while

    def drop(self, connection: Connection) -> None:
        """``connection`` has gone."""
        self.unwatch(connection)
        self._lobby.discard(connection)

    def _mine(self, runner: TournamentRunner, player: str | None) -> Any:
        """What ``player`` sees of its own (the view's ``me``)."""
        return frozen(views.me(runner.stored, runner.tournament, player))

    def _shared(self, runner: TournamentRunner, now: float) -> SharedView:
        """What every watcher of ``runner``'s tournament sees (``me`` aside), made from
        the last view's parts after what changed since (:class:`SharedView`)."""
        kept = self.shared_views.get(runner.id)
        if kept is None:
            kept = self.shared_views[runner.id] = SharedView()
        kept.update(runner.stored, runner.tournament, now, runner.touched)
        return kept

    def _send_whole(self, connection: Connection, runner: TournamentRunner) -> None:
        if self._watched.get(connection) != runner.id or connection.closed:
            return  # it watches another since, or has gone
        now = self.clock()
        shared = self._shared(runner, now).view
        assert shared is not None
        sent = Sent(shared, self._mine(runner, connection.account), runner.version)
        self._views[connection] = sent
        text = encode("tournament", tournament=runner.id, view=sent.view(), clock=now)
        connection.send(text)

    def _fell_behind(self, connection: Connection, runner: TournamentRunner) -> None:
        """``connection`` has ``BEHIND`` messages or more waiting: it holds no view from
        now on (sent no patch), and once it has read what waits it is sent the whole view
        (after the commit then pending, as a new watcher)."""
        del self._views[connection]

        def caught_up() -> None:
            if connection not in self._views:  # not sent a whole view meanwhile
                self._after_commit(lambda: self._send_whole(connection, runner))

        connection.when_caught_up(caught_up)

    def _changed(self, runner: TournamentRunner) -> None:
        """``runner``'s tournament changed: its watchers (and the lobby's) are sent what
        changed once the change's commit ended (or failed: then the tournament as it
        was stored)."""
        self._dirty.add(runner.id)
        if not self._posted:
            self._posted = True
            self._after_commit(self.push)

    def push(self) -> None:
        """Sends each watcher of a changed tournament its patch, and the lobby anew to
        those who asked for it if it changed. What every watcher sees is made once, from
        the last view's parts where the changes did not touch them, with its patch
        (:class:`SharedView`)."""
        self._posted = False
        dirty, self._dirty = self._dirty, set()
        now = self.clock()
        for number in sorted(dirty):
            runner = self.tournaments.runners.get(number)
            watchers = [c for c, n in self._watched.items() if n == number and c in self._views]
            if runner is None:
                self.shared_views.pop(number, None)
            if runner is None or not watchers:
                continue
            kept = self._shared(runner, now)
            shared = kept.view
            assert shared is not None
            for connection in watchers:
                if connection.outbox.qsize() >= BEHIND:
                    self._fell_behind(connection, runner)
                    continue
                held = self._views[connection]
                sent = Sent(shared, self._mine(runner, connection.account), runner.version)
                patch = _patch(held, sent, kept.patch_from(held.shared))
                self._views[connection] = sent
                if patch:
                    text = encode("tournament_update", tournament=number, patch=patch, clock=now)
                    connection.send(text)
            kept.forget()  # every watcher holds the view now, or none
        if dirty and self._lobby:
            text = self._lobby_message()
            if text != self._lobby_text:
                self._lobby_text = text
                for connection in self._lobby:
                    connection.send(text)

    def _lobby_message(self) -> str:
        over, after = self.tournaments.over_page()
        return encode("tournament_lobby", tournaments=self.tournaments.lobby(), over=over,
                      next=after)  # fmt: skip

    def _send_lobby(self, connection: Connection) -> None:
        if connection in self._lobby:
            connection.send(self._lobby_message())
