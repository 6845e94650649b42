"""Many tables in one asyncio process: how a game server embeds :class:`Table`.

Each table lives in its own task and is touched by nothing else, so it needs no lock.
The task deals a hand, sends every seat its own view (:meth:`Table.view`), lets bots
answer at once and waits for a remote player's answer until the table's deadline; when
the deadline passes it calls :meth:`Table.advance` with the loop's time, which starts the
time bank (TH-40) or times the player out (check or fold; DH-6 for a point card, DH-7).
Answers that come too late are refused by the table and dropped.

Here the remote players are scripted (:class:`ScriptedPlayer`): they answer after a short
delay, and now and then not at all, so the clocks really run out.

>>> report = asyncio.run(serve(tables=3, hands=5, seed=1, action_time=0.005))
>>> report.hands, report.leaks, report.chip_errors
(15, 0, 0)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any

from doubleholdem.errors import IllegalAction
from doubleholdem.game import Structure, Variant
from doubleholdem.game.words import TIMEOUT
from doubleholdem.table import Decision, Observation, Table, TableConfig
from doubleholdem.table.bots import Bot, CallingStation, RandomBot

__all__ = ["Outbox", "Report", "ScriptedPlayer", "TableTask", "main", "serve"]


@dataclass
class Report:
    """What :func:`serve` saw: hands played, views sent, timeouts and time banks in the
    logs, views that showed a card their seat must not see (``leaks``) and hands after
    which the chips did not add up (``chip_errors``)."""

    hands: int = 0
    views: int = 0
    timeouts: int = 0
    time_banks: int = 0
    leaks: int = 0
    chip_errors: int = 0
    tables: list[Table] = field(default_factory=list)


class Outbox:
    """Delivers views to seats. A real server writes them to the seat's connection; here
    a remote player's message goes to its :class:`ScriptedPlayer`, and every message is
    checked against what the table knows its seat must not see.

    A message is the seat's view without the hand's events, plus the entries of the
    table's log that are new since the last message to that seat, filtered for it."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.players: dict[tuple[int, int], ScriptedPlayer] = {}
        self.sent: dict[tuple[int, int], int] = {}

    def send(self, table_id: int, table: Table, seat: int) -> None:
        """Sends ``seat`` its view of ``table`` now."""
        key = (table_id, seat)
        view = table.view(seat, events=False)
        message = {"view": view, "log": table.event_log(seat, since=self.sent.get(key, 0))}
        self.sent[key] = table.log_length
        self.report.views += 1
        text = json.dumps(message)
        if any(f'"{card}"' in text for card in table.secret_cards(seat)):
            self.report.leaks += 1
        player = self.players.get(key)
        if player is not None:
            player.inbox.put_nowait(view)


class ScriptedPlayer:
    """A remote player played by a script: it reads its views and, when one asks it to
    decide, answers after ``delay`` seconds like a calling station, except that with
    probability ``absent`` it never answers."""

    def __init__(self, seed: int, *, delay: float = 0.0, absent: float = 0.03) -> None:
        self.rng = random.Random(seed)
        self.delay = delay
        self.absent = absent
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.replies: asyncio.Queue[tuple[int, Decision]] = asyncio.Queue()
        self.brain = CallingStation()

    async def run(self) -> None:
        """Answers views until cancelled."""
        while True:
            view = await self.inbox.get()
            hand = view["hand"]
            if hand is None or hand["legal"] is None or self.rng.random() < self.absent:
                continue
            await asyncio.sleep(self.delay)
            decision = self.brain.choose(Observation.from_view(view))
            self.replies.put_nowait((view["hand_number"], decision))


class TableTask:
    """One table and the loop that runs it: bots in some seats, remote players in the
    others, the table's clock driven by the event loop's time."""

    def __init__(
        self,
        table_id: int,
        table: Table,
        bots: dict[int, Bot],
        players: dict[int, ScriptedPlayer],
        outbox: Outbox,
    ) -> None:
        self.table_id = table_id
        self.table = table
        self.bots = bots
        self.players = players
        self.outbox = outbox

    async def run(self, hands: int) -> None:
        """Plays ``hands`` hands, topping stacks up to the maximum between hands. A
        remote player the table sat out (two decisions missed in a row) comes back at
        once, waiting for the big blind (TH-37)."""
        table = self.table
        loop = asyncio.get_running_loop()
        for _ in range(hands):
            top = table.config.buy_in_range[1]
            for seat in (*self.bots, *self.players):
                if table.stack(seat) < top:
                    table.top_up(seat, top - table.stack(seat), now=loop.time())
                if table.seats()[seat]["sitting_out"]:  # type: ignore[index]
                    table.sit_in(seat, wait_for_big_blind=True, now=loop.time())
            table.start_hand(now=loop.time())
            self._broadcast()
            while table.in_hand:
                await self._next_decision(loop)
            self._broadcast()
            self._check()

    async def _next_decision(self, loop: asyncio.AbstractEventLoop) -> None:
        table = self.table
        seat = table.to_act
        assert seat is not None
        if seat in self.bots:
            now = loop.time()
            table.advance(now)  # the loop may have been busy past the bot's deadline
            if table.to_act == seat:
                table.decide(seat, self.bots[seat].choose(table.observe(seat)), now=now)
            await asyncio.sleep(0)  # let the other tables run
            return
        player = self.players[seat]
        self.outbox.send(self.table_id, table, seat)
        deadline = table.deadline
        assert deadline is not None
        try:
            number, decision = await asyncio.wait_for(
                player.replies.get(), timeout=max(deadline - loop.time(), 0.0)
            )
        except asyncio.TimeoutError:
            table.advance(max(loop.time(), deadline))  # time bank, or timeout
            return
        if number == table.hand_number:
            with contextlib.suppress(IllegalAction):  # too late: already timed out
                table.decide(seat, decision, now=loop.time())

    def _broadcast(self) -> None:
        """Every remote seat gets its view (bots read the table directly)."""
        for seat in self.players:
            self.outbox.send(self.table_id, self.table, seat)

    def _check(self) -> None:
        table = self.table
        report = self.outbox.report
        report.hands += 1
        if table.chips() + table.rake != table.bought_in:
            report.chip_errors += 1


TABLES, HANDS = 8, 40
"""The defaults of :func:`serve`: a run of a few seconds."""


async def serve(
    *,
    tables: int = TABLES,
    hands: int = HANDS,
    seed: int = 1,
    action_time: float = 0.05,
) -> Report:
    """Runs ``tables`` four-seat tables of ``hands`` hands each in this event loop: two
    bots and two scripted remote players per table, Double Hold'em at half the tables.
    Every time limit is ``action_time`` seconds, so that the clocks run out quickly."""
    report = Report()
    outbox = Outbox(report)
    tasks: list[TableTask] = []
    for table_id in range(tables):
        config = TableConfig(
            small_blind=5,
            big_blind=10,
            seats=4,
            variant=Variant.DOUBLE if table_id % 2 else Variant.TEXAS,
            structure=Structure.FIXED_LIMIT if table_id % 3 == 0 else Structure.NO_LIMIT,
            action_time=action_time,
            time_bank=action_time,
            point_time=action_time,
        )
        table = Table(config, seed=seed * 10_000 + table_id)
        bots: dict[int, Bot] = {0: RandomBot(seed + table_id), 2: CallingStation()}
        players = {seat: ScriptedPlayer(seed * 100 + table_id * 4 + seat) for seat in (1, 3)}
        for seat in range(4):
            table.join(seat, f"t{table_id}s{seat}", config.buy_in_range[1])
        for seat, player in players.items():
            outbox.players[(table_id, seat)] = player
        tasks.append(TableTask(table_id, table, bots, players, outbox))
        report.tables.append(table)
    listeners = [asyncio.create_task(p.run()) for task in tasks for p in task.players.values()]
    try:
        await asyncio.gather(*(task.run(hands) for task in tasks))
    finally:
        for listener in listeners:
            listener.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    for table in report.tables:
        for entry in table.event_log(everything=True):
            report.timeouts += entry["kind"] == TIMEOUT
            report.time_banks += entry["kind"] == "time_bank"
    return report


def main(argv: list[str] | None = None) -> int:
    """``python -m doubleholdem.examples.asyncio_tables [--tables N] [--hands N] [--seed N]
    [--action-time SECONDS]``: runs :func:`serve` and prints what it saw (a few seconds
    with the defaults); exit status 0, 1 if a view leaked a card or the chips did not add
    up, 2 for bad options, 130 after Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m doubleholdem.examples.asyncio_tables",
        description="Many tables in one asyncio process, with bots and scripted remote "
        "players whose clocks run out.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--tables", type=_positive, default=TABLES, help="tables")
    parser.add_argument("--hands", type=_positive, default=HANDS, help="hands at each table")
    parser.add_argument("--seed", type=int, default=1, help="seed of the cards and players")
    parser.add_argument(
        "--action-time", type=float, default=0.05, help="seconds of every time limit"
    )
    args = parser.parse_args(argv)
    try:
        result = asyncio.run(
            serve(
                tables=args.tables, hands=args.hands, seed=args.seed, action_time=args.action_time
            )
        )
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(
        f"{result.hands} hands at {len(result.tables)} tables, {result.views} views sent, "
        f"{result.timeouts} timeouts, {result.time_banks} time banks, "
        f"{result.leaks} leaks, {result.chip_errors} chip errors"
    )
    return 1 if result.leaks or result.chip_errors else 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number of 1 or more")
    return value


if __name__ == "__main__":
    sys.exit(main())
