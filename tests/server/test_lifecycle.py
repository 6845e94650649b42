"""The seat lifecycle over real WebSockets, on a fake clock (issue 20; docs/tables.md,
RULES.md TH-37, TH-40): a player whose connection is gone at any point of a hand costs
its table one action time, without the bank, once, and is sat out; the sit-out clock
removes a seat and its chips go back; leaving and sitting down again owes the missed
blinds; the sit-out button and coming back."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.table import TableConfig
from server_harness import Client, ServerThread, served

ACTION, BANK = 10.0, 30.0
CONFIG = TableConfig(small_blind=5, big_blind=10, seats=4, action_time=ACTION, time_bank=BANK)
ANN = 3  # three bots sit in seats 0, 1 and 2
_PLAYING: list[_Autoplay] = []
BLINDS = ("post", "post_dead", "small_blind", "big_blind")


class FakeClock:
    """The room's clock: time passes only when a test says so."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _room(room_db: str, clock: FakeClock) -> Room:
    settings = RoomSettings(
        tables=1, bots=3, bot_delay=0.0, pause=0.0, configs=[CONFIG], seed=5, clock=clock
    )
    settings.remove_after, settings.busted_after = 300.0, 60.0
    return Room.open(room_db, settings)


def _poke(room: Room) -> None:
    """Wakes the tables (the fake clock moved) from the test's thread."""
    loop = room.tables._playing[0].get_loop()
    for runner in room.runners.values():
        loop.call_soon_threadsafe(runner.wake.set)


async def _on_server(room: Room, read: Callable[[], Any]) -> Any:
    """``read()`` called on the room's loop, between two changes of its tables: what it
    sees of a table is one state (read from the test's thread, a table the bots play
    on may change between two of its attributes)."""
    loop = room.tables._playing[0].get_loop()

    async def call() -> Any:
        return read()

    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(call(), loop))


def _her_time_runs_out(runner: TableRunner, clock: FakeClock) -> float:
    """On the room's loop: if ann is to act with time left, the clock moves to her
    deadline and the table is woken; the seconds it moved (0 if not her turn)."""
    table = runner.table
    deadline = table.deadline
    if not (table.in_hand and table.to_act == ANN) or deadline is None or deadline <= clock.now:
        return 0.0
    spent, clock.now = deadline - clock.now, deadline
    runner.wake.set()
    return spent


def _gone_for(runner: TableRunner, hand: int) -> bool:
    """On the room's loop: ann sits out and the table has reached hand ``hand``."""
    return bool((_seat(runner) or {}).get("sitting_out")) and runner.table.hand_number >= hand


async def _until(test: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.005)


def _seat(runner: TableRunner) -> dict[str, Any] | None:
    return runner.table.seats()[ANN]


async def _sit(server: ServerThread, name: str = "ann") -> Client:
    client = await Client.connect(server.ws_url)
    await client.send(type="sit", table=0, seat=ANN, name=name, buy_in=1000)
    assert (await client.next("seated"))["seat"] == ANN
    return client


async def _guarded(scenario: Any) -> None:
    """Runs ``scenario`` and stops every :class:`_Autoplay` afterwards, even when the
    scenario fails (a stray one would keep ``asyncio.run`` from returning)."""
    try:
        await scenario
    finally:
        while _PLAYING:
            await _PLAYING.pop().stop()


def _play_out(room: Room, scenario: Callable[[ServerThread], Awaitable[None]]) -> None:
    """Serves ``room`` and runs ``scenario`` against it, guarded (:func:`_guarded`)."""
    served(room, lambda server: _guarded(scenario(server)))


class _Autoplay:
    """Plays ``client``'s seat (``seat``) in the background: checks when free, else
    folds (or ``otherwise``), until :meth:`stop`."""

    def __init__(self, client: Client, otherwise: str = "fold", seat: int = ANN) -> None:
        self.client = client
        self.otherwise = otherwise
        self.seat = seat
        self.stopped = False
        self.task = asyncio.create_task(self._play())
        _PLAYING.append(self)

    async def _play(self) -> None:
        count = 0
        while not self.stopped:
            try:
                message = await self.client.state_where(lambda m: True, timeout=0.5)
            except asyncio.TimeoutError:
                continue
            view = message["view"]
            hand = view["hand"]
            if hand and hand["legal"] and view["to_act"] == self.seat:
                count += 1
                action = self.choose(hand["legal"])
                await self.client.send(
                    type="act", id=f"auto-{count}", hand=view["hand_number"], action=action
                )

    def choose(self, legal: dict[str, Any]) -> str:
        """The action at the seat's turn, ``legal`` its options."""
        return "check" if legal["can_check"] else self.otherwise

    async def stop(self) -> None:
        """Stops it (a flag as well as a cancellation: on Python 3.11 ``wait_for`` may
        swallow a cancellation that comes as what it waits for completes)."""
        self.stopped = True
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


class _HeldBots:
    """Holds the bots of ``runner``'s table at the first bot's turn of a hand ann is
    dealt in (the table waits, the loop goes on), until :meth:`release`: a moment of
    another's turn the test cannot miss, however fast the bots play. ``holding`` is set
    (from the server's thread) once the table waits there."""

    def __init__(self, runner: TableRunner) -> None:
        self.runner = runner
        self.holding = threading.Event()
        self._released = False
        self._bot_turn = runner.bot_turn
        runner.bot_turn = self._turn  # type: ignore[method-assign]

    def _turn(self, seat: int) -> None:
        table = self.runner.table
        if not self._released and table.in_hand and ANN in table.dealt:
            self.holding.set()
            return  # not acted: the table's task comes back to this turn
        self._bot_turn(seat)

    def release(self) -> None:
        """The bots play again (the table's task, going round at the held turn, sees it)."""
        self._released = True


async def _missing_the_big_blind(
    server: ServerThread, runner: TableRunner
) -> tuple[Client, _Autoplay]:
    """ann sits in seat ANN, is dealt in once, sits out and misses the big blind (TH-37):
    her client and its autoplay, still running."""
    ann = await _sit(server)
    player = _Autoplay(ann)
    await _until(lambda: not (_seat(runner) or {}).get("new", True))  # dealt in once
    await ann.send(type="sit_out")
    await _until(lambda: bool((_seat(runner) or {}).get("missed_big")))
    return ann, player


@pytest.mark.parametrize("point", ["before_deal", "own_turn", "other_turn", "after_showdown"])
def test_a_gone_player_costs_one_action_time_once(room_db: str, point: str) -> None:
    """Whenever the connection goes (before the deal, at the seat's turn, at another's,
    after a showdown), the table waits for the seat one action time, with no bank, once;
    the seat sits out and the hands after it go on without it."""
    clock = FakeClock()
    room = _room(room_db, clock)
    runner = room.runners[0]

    async def scenario(server: ServerThread) -> None:
        ann = await _sit(server)
        if point == "own_turn":
            await ann.state_where(lambda m: m["view"]["to_act"] == ANN and m["view"]["hand"])
        elif point == "other_turn":  # she calls along, and goes at another's turn
            player = _Autoplay(ann, "call")
            bots = _HeldBots(runner)
            await _until(bots.holding.is_set)
            assert runner.table.to_act in runner.bots and ANN in runner.table.dealt
            await player.stop()
        elif point == "after_showdown":  # she plays a hand to its end, then goes
            player = _Autoplay(ann)
            await _until(lambda: ANN in runner.table.dealt)
            number = runner.table.hand_number
            await _until(lambda: runner.table.hand_number > number)
            await player.stop()
        await ann.close()
        await _until(lambda: (_seat(runner) or {}).get("away", False))
        if point == "other_turn":
            bots.release()
        cost = 0.0
        hands = await _on_server(room, lambda: runner.table.hand_number)
        while not await _on_server(room, lambda: _gone_for(runner, hands + 3)):
            cost += await _on_server(room, lambda: _her_time_runs_out(runner, clock))
        assert cost == ACTION
        log, dealt = await _on_server(
            room, lambda: (runner.table.event_log(everything=True), set(runner.table.dealt))
        )
        assert not any(e["kind"] == "time_bank" for e in log if e.get("seat") == ANN)
        assert ANN not in dealt  # the latest hand went on without it

    _play_out(room, scenario)


def test_sit_out_button_the_sit_out_clock_and_removal_with_the_chips(room_db: str) -> None:
    clock = FakeClock()
    room = _room(room_db, clock)
    runner = room.runners[0]

    async def scenario(server: ServerThread) -> None:
        ann = await _sit(server)
        player = _Autoplay(ann)
        await _until(lambda: not (_seat(runner) or {}).get("new", True))  # dealt in once
        await ann.send(type="sit_out")
        await _until(lambda: (_seat(runner) or {}).get("sitting_out", False))
        await _until(lambda: ANN not in runner.table.dealt or not runner.table.in_hand)
        await player.stop()
        seat = _seat(runner)
        assert seat is not None
        stack = seat["stack"]
        clock.now += 299.0
        _poke(room)
        await asyncio.sleep(0.2)
        assert _seat(runner) is not None  # not yet
        clock.now += 1.0
        _poke(room)
        left = await ann.next("left")
        assert left["seat"] == ANN and left["after_hand"] is False
        assert left["cash_out"] == stack  # removed: told the chips that go back
        assert _seat(runner) is None and ANN not in runner.humans
        update = await ann.state_where(
            lambda m: any(e["kind"] == "leave" and e.get("seat") == ANN for e in m["log"])
        )
        leave = [e for e in update["log"] if e["kind"] == "leave" and e.get("seat") == ANN]
        assert leave[0]["amount"] == stack and leave[0]["player"] == "ann"  # chips go back
        await ann.send(type="sit_out")  # the token holds no seat any more
        assert (await ann.next("error"))["code"] == "unauthorised"
        await ann.close()

    _play_out(room, scenario)


def test_leaving_and_sitting_down_again_cannot_dodge_the_blinds(room_db: str) -> None:
    """TH-37: sat out past both blinds, left and back at once under the same name: the
    seat owes the blinds; coming back it posts the big blind live and the small dead."""
    clock = FakeClock()
    room = _room(room_db, clock)
    runner = room.runners[0]

    async def scenario(server: ServerThread) -> None:
        ann = await _sit(server)
        player = _Autoplay(ann)
        await _until(lambda: not (_seat(runner) or {}).get("new", True))  # dealt in once
        await ann.send(type="sit_out")

        def missed() -> bool:
            seat = _seat(runner) or {}
            return bool(seat.get("missed_big") and seat.get("missed_small"))

        await _until(missed)
        await player.stop()
        await _until(lambda: ANN not in runner.table.dealt or not runner.table.in_hand)
        await ann.send(type="leave")
        await ann.next("left")
        start = len(ann.received)
        await ann.send(type="sit", table=0, seat=ANN, name="ann", buy_in=1000)
        await ann.next("seated")
        seat = (await ann.next("state"))["view"]["seats"][ANN]  # as she sat down
        assert not seat["new"] and seat["missed_big"] and seat["missed_small"]
        player = _Autoplay(ann)
        await ann.send(type="sit_in")

        def paid() -> set[str] | None:
            """What ann paid to be dealt into her first hand back (None: not yet)."""
            entries = [e for m in ann.received[start:] for e in m.get("log", [])]
            kinds: set[str] = set()
            inside = False
            for e in entries:
                if e["kind"] in ("hand_start", "hand_end") and inside:
                    return kinds
                if e["kind"] == "hand_start":
                    inside = ANN in e["seats"]
                elif inside and e.get("seat") == ANN and e["kind"] in BLINDS:
                    kinds.add(e["kind"])
            return None

        await _until(lambda: paid() is not None)
        # the big blind live and the small blind dead, or the big blind in its turn
        assert paid() in ({"post", "post_dead"}, {"big_blind"})
        await player.stop()
        await ann.close()

    _play_out(room, scenario)


def test_sit_in_waiting_for_the_big_blind(room_db: str) -> None:
    clock = FakeClock()
    room = _room(room_db, clock)
    runner = room.runners[0]

    async def scenario(server: ServerThread) -> None:
        ann, player = await _missing_the_big_blind(server, runner)
        await player.stop()  # she is dealt no hand now: her states queue in her client
        await ann.send(type="sit_in", wait=True)
        # her own states, in order: none is missed however fast the bots play
        await ann.state_where(lambda m: m["view"]["seats"][ANN]["waiting_for_big_blind"])
        dealt = await ann.state_where(lambda m: bool((m["view"]["hand"] or {}).get("hole")))
        assert dealt["view"]["blinds"][1] == ANN  # dealt in first as the big blind
        await ann.send(type="sit_in", wait="yes")
        assert (await ann.next("error"))["code"] == "bad_field"
        await ann.close()

    _play_out(room, scenario)


def test_another_person_taking_the_name_owes_nothing(room_db: str) -> None:
    """A guest room tells people apart by their connection, not their name: ann leaves
    owing both blinds (TH-37), and within remove_after another person sits down as "ann"
    from a connection of their own: a new player, owing none of ann's blinds."""
    clock = FakeClock()
    room = _room(room_db, clock)
    runner = room.runners[0]

    async def scenario(server: ServerThread) -> None:
        ann, player = await _missing_the_big_blind(server, runner)
        await player.stop()
        await _until(lambda: ANN not in runner.table.dealt or not runner.table.in_hand)
        await ann.send(type="leave")
        await ann.next("left")
        other = await _sit(server, "ann")  # another person, the same name, at once
        seat = (await other.next("state"))["view"]["seats"][ANN]  # as she sat down
        assert seat["player"] == "ann" and seat["new"]
        assert not seat["missed_big"] and not seat["missed_small"]
        await other.close()
        await ann.close()

    _play_out(room, scenario)


def test_a_seat_resumed_from_another_connection_is_the_same_person(room_db: str) -> None:
    """The connection that resumes a guest's seat with its token stands for the person
    who sat down: leaving and sitting down again from it within remove_after owes the
    blinds missed (TH-37), as from the first connection."""
    clock = FakeClock()
    room = _room(room_db, clock)
    runner = room.runners[0]

    async def scenario(server: ServerThread) -> None:
        ann, player = await _missing_the_big_blind(server, runner)
        await player.stop()
        token = next(m["token"] for m in ann.received if m["type"] == "seated")
        await ann.close()
        again = await Client.connect(server.ws_url)
        await again.send(type="resume", token=token)
        await again.next("seated")
        await _until(lambda: ANN not in runner.table.dealt or not runner.table.in_hand)
        await again.send(type="leave")
        await again.next("left")
        await again.send(type="sit", table=0, seat=ANN, name="ann", buy_in=1000)
        await again.next("seated")
        seat = (await again.next("state"))["view"]["seats"][ANN]  # as she sat down
        assert not seat["new"] and seat["missed_big"]
        await again.close()

    _play_out(room, scenario)


class _AllIn(_Autoplay):
    """Plays the seat all in at each turn (calls an all in, checks when there is
    nothing more to put in)."""

    def choose(self, legal: dict[str, Any]) -> str:
        if legal["max_raise_to"] is not None:
            return "all_in"
        return "check" if legal["can_check"] else "call"


def test_a_busted_seat_is_removed_after_busted_after_over_the_protocol(room_db: str) -> None:
    """Two guests go all in until one has no chips: the busted seat is kept for
    busted_after seconds (a top-up would keep it), then removed, its player told
    ``left`` with a cash-out of 0, while the winner plays on."""
    clock = FakeClock()
    heads_up = TableConfig(small_blind=5, big_blind=10, seats=2, action_time=ACTION, time_bank=0)
    settings = RoomSettings(
        tables=1, bots=0, bot_delay=0.0, pause=0.0, configs=[heads_up], seed=7, clock=clock
    )
    settings.remove_after, settings.busted_after = 300.0, 60.0
    room = Room.open(room_db, settings)
    runner = room.runners[0]

    async def scenario(server: ServerThread) -> None:
        clients = {}
        for seat, name in ((0, "ann"), (1, "bob")):
            client = clients[seat] = await Client.connect(server.ws_url)
            await client.send(type="sit", table=0, seat=seat, name=name, buy_in=1000)
            assert (await client.next("seated"))["seat"] == seat
        players = [_AllIn(clients[seat], seat=seat) for seat in (0, 1)]

        def busted() -> list[int]:
            seats = runner.table.seats()
            return [s for s in (0, 1) if seats[s] is not None and seats[s]["stack"] == 0]

        await _until(lambda: bool(busted()) and not runner.table.in_hand)
        for player in players:
            await player.stop()
        (loser,) = busted()
        clock.now += 59.0
        _poke(room)
        await asyncio.sleep(0.2)
        assert runner.table.seats()[loser] is not None  # not yet
        clock.now += 1.0
        _poke(room)
        left = await clients[loser].next("left")
        assert left == {
            "v": 2,
            "type": "left",
            "table": 0,
            "seat": loser,
            "after_hand": False,
            "cash_out": 0,
        }
        assert runner.table.seats()[loser] is None and loser not in runner.humans
        assert runner.table.seats()[1 - loser] is not None  # the winner stays
        for client in clients.values():
            await client.close()

    _play_out(room, scenario)
