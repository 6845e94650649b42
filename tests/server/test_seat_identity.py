"""Over real WebSockets (issue 17): a player folds and leaves, and someone else sits
down in that seat under the same name before the next hand; the state the newcomer is
sent shows none of the first player's cards, nor their hidden Double Hold'em point card
(RULES.md DH-8), and the harness's leak audit, which decides ownership by who was dealt
in and not by name, finds nothing in any message."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from doubleholdem.game import Structure, Variant
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from server_harness import Client, ServerThread

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def _room(room_db: str, variant: Variant) -> Room:
    config = TableConfig(
        small_blind=5,
        big_blind=10,
        seats=3,
        variant=variant,
        structure=Structure.NO_LIMIT,
        action_time=60,
        point_time=60,
    )
    settings = RoomSettings(
        tables=1, bots=0, bot_delay=0.0, pause=600.0, configs=[config], seed=3
    )  # pause: no second hand while the test looks
    return Room.open(room_db, settings)


class Player:
    def __init__(self, client: Client, seat: int) -> None:
        self.client = client
        self.seat = seat
        self.count = 0

    async def act(self, action: str, amount: int | None = None) -> dict[str, Any]:
        """Waits for this seat's turn, sends ``action`` and waits for its result;
        returns the view it acted on."""

        def turn(message: dict[str, Any]) -> bool:
            view = message["view"]
            hand = view["hand"]
            return bool(hand and hand["legal"] and view["to_act"] == self.seat)

        state = await self.client.state_where(turn, current=self.count == 0)
        view: dict[str, Any] = state["view"]
        if action == "bet":
            amount = view["hand"]["legal"]["min_raise_to"]
        self.count += 1
        ident = f"s{self.seat}-{self.count}"
        fields: dict[str, Any] = {"action": action}
        if amount is not None:
            fields["amount"] = amount
        await self.client.send(type="act", id=ident, hand=view["hand_number"], **fields)
        result = await self.client.next(None, id=ident)
        assert result["type"] == "result", result
        return view


async def _sit(server: ServerThread, seat: int, name: str) -> Client:
    client = await Client.connect(server.ws_url)
    await client.send(type="sit", table=0, seat=seat, name=name, buy_in=1000)
    await client.next("seated")
    return client


@pytest.mark.parametrize("variant", [Variant.TEXAS, Variant.DOUBLE])
def test_a_new_player_under_the_same_name_sees_no_mucked_cards(
    room_db: str, variant: Variant
) -> None:
    async def scenario(server: ServerThread) -> None:
        first_ann = await _sit(server, 0, "ann")
        bob = await _sit(server, 1, "bob")
        ann_plays, bob_plays = Player(first_ann, 0), Player(bob, 1)
        # heads-up: ann has the button and the small blind and acts first (TH-3)
        if variant is Variant.DOUBLE:
            view = await ann_plays.act("call")
            await bob_plays.act("check")
            await bob_plays.act("point", 0)  # the big blind acts first on the flop
            await bob_plays.act("bet")
            await ann_plays.act("point", 2)
            await ann_plays.act("fold")
        else:
            view = await ann_plays.act("fold")
        mucked = set(view["hand"]["hole"])
        assert len(mucked) == (3 if variant is Variant.DOUBLE else 2)

        def over(message: dict[str, Any]) -> bool:
            hand = message["view"]["hand"]
            return bool(hand and hand["over"])

        seen = await first_ann.state_where(over, current=True)
        assert set(seen["view"]["hand"]["hole"]) == mucked  # she sees her own cards
        await first_ann.send(type="leave")
        await first_ann.next("left")

        second_ann = await _sit(server, 0, "ann")
        state = await second_ann.state_where(lambda m: m["view"]["seats"][0] is not None)
        hand = state["view"]["hand"]
        assert hand["over"] and hand["hole"] == []
        assert "0" not in hand["points"]
        await bob.send(type="ping")
        await bob.next("pong")
        await second_ann.send(type="ping")
        await second_ann.next("pong")
        sent = "".join(second_ann.texts)
        assert not set(CARD.findall(sent)) & mucked
        for text in second_ann.texts:
            for entry in json.loads(text).get("log", []):
                if entry["kind"] == "point" and entry.get("seat") == 0:
                    assert "point" not in entry
        for client in (first_ann, bob, second_ann):
            await client.socket.close()

    with ServerThread(_room(room_db, variant)) as server:
        asyncio.run(scenario(server))
        assert server.audited > 5
        assert server.leaks == []
        assert server.mismatches == []
