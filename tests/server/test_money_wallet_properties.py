"""No chip created or lost between a wallet outside the room's database and its tables,
through random interleavings (docs/accounts.md, "An embedding server's own wallet"):
buy-ins (refused ones too: a seat taken, an amount out of range or over the balance),
top-ups, hands with rake, leaves, failed commits (a write in them, or their
``COMMIT``), a wallet losing its reply to a payment it applied, and restarts. After
every step the wallet's chips plus the chips at the tables are what they were."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from databases import fresh_database
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from faults import disarm
from money_room import RAKED, RoomSteps, send
from postgres_cluster import Cluster
from wallets import FlakyWallet

NAMES = ["ann", "bob", "cy"]
TOTAL = 3000

steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("sit"),
            st.sampled_from(NAMES),
            st.integers(0, 1),
            st.integers(0, 2),
            st.sampled_from([100, 300, 1000, 1500]),
        ),
        st.tuples(st.just("top_up"), st.sampled_from(NAMES), st.sampled_from([50, 400])),
        st.tuples(st.just("hand"), st.integers(0, 1)),
        st.tuples(st.just("leave"), st.sampled_from(NAMES)),
        st.tuples(st.just("fail_next_commit"), st.booleans()),
        st.tuples(st.just("lose_a_reply"), st.booleans()),
        st.tuples(st.just("restart")),
    ),
    max_size=25,
)


class World(RoomSteps):
    """A room on a file or in a PostgreSQL schema, paying through a
    :class:`FlakyWallet` that outlives it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.wallet = FlakyWallet(dict.fromkeys(NAMES, TOTAL // len(NAMES)))
        self.settings = RoomSettings(
            tables=2, bots=0, pause=0.0, configs=[RAKED], seed=5, guests=False, clock=lambda: 100.0
        )
        self.room = Room.open(path, self.settings, wallet=self.wallet)
        self.clients: dict[str, Connection] = {}
        self.tokens: dict[str, str] = {}

    def held(self) -> int:
        """The wallet's chips and the tables'."""
        chips = sum(runner.table.chips() for runner in self.room.runners.values())
        return self.wallet.total() + chips

    def request(self, name: str, **fields: Any) -> None:
        connection = self.clients.get(name)
        if connection is None:
            connection = self.clients[name] = self.room.connect(account=name)
        for reply in send(self.room, connection, **fields):
            if reply["type"] == "seated":
                self.tokens[name] = reply["token"]
        self.room.commit.writable()  # a refusing room takes writes again when it can

    def lose_a_reply(self, buy_in: bool) -> None:
        """The wallet applies the next debit (or credit) and its reply is lost, once."""
        wallet = self.wallet
        method = "debit" if buy_in else "cash_out"
        wallet.down, wallet.lose_replies = {method}, True
        real = wallet._once

        def once(key: str, request: tuple[Any, ...], apply: Any) -> str:
            try:
                return real(key, request, apply)
            finally:
                if key.startswith(("buyin", "topup", "cashout")):
                    wallet.down = set()
                    del wallet._once  # type: ignore[method-assign]

        wallet._once = once  # type: ignore[method-assign]

    def disarm(self) -> None:
        """The wallet answers every call from now on."""
        self.wallet.down = set()
        vars(self.wallet).pop("_once", None)

    def restart(self) -> None:
        """The room stops (what it was doing is committed or not) and starts again; the
        players resume their seats."""
        disarm(self.room)
        self.room.store.close()
        self.room = Room.open(self.path, self.settings, wallet=self.wallet)
        self.clients.clear()
        for name, token in list(self.tokens.items()):
            self.request(name, type="resume", token=token)

    def sit(self, name: str, table: int, seat: int, amount: int) -> None:
        self.request(name, type="sit", table=table, seat=seat, buy_in=amount)

    def hand(self, table: int) -> None:
        super().hand(table)
        self.room.commit.writable()


def _holds_every_chip(plan: list[tuple[Any, ...]], postgres: Cluster | None = None) -> None:
    with fresh_database(postgres) as path:
        world = World(path)
        try:
            for step in plan:
                world.step(*step)
                assert world.held() == TOTAL, step
            world.disarm()
            world.restart()
            assert world.held() == TOTAL
            assert world.room.store.wallet_calls() == []  # the start finished every call noted
            world.everyone_leaves()  # all comes back
            assert world.wallet.total() == TOTAL
        finally:
            disarm(world.room)
            world.room.store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_the_wallet_and_the_tables_hold_every_chip_after_every_step(
    plan: list[tuple[Any, ...]],
) -> None:
    _holds_every_chip(plan)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_the_wallet_and_the_tables_hold_every_chip_after_every_step_on_postgresql(
    postgres: Cluster, plan: list[tuple[Any, ...]]
) -> None:
    """The same on PostgreSQL, fewer examples (each a schema of its own)."""
    _holds_every_chip(plan, postgres)
