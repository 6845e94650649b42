"""Table.to_json / Table.from_json (the server's durable state) and release_history
(its bounded memory): a restored table goes on exactly as the original would."""

from __future__ import annotations

import json
import random

import pytest

from doubleholdem.errors import InvalidSnapshot, TamperedSnapshot
from doubleholdem.game import Rake, Structure, Variant
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.bots import RandomBot


def _table(variant: Variant, seed: int) -> Table:
    config = TableConfig(
        small_blind=5,
        big_blind=10,
        seats=4,
        variant=variant,
        structure=Structure.FIXED_LIMIT if seed % 2 else Structure.NO_LIMIT,
        rake=Rake(500, cap=30),
    )
    table = Table(config, seed=seed)
    for seat in range(3):
        table.join(seat, f"p{seat}", 1000)
    return table


@pytest.mark.parametrize("variant", [Variant.TEXAS, Variant.DOUBLE])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_restored_table_plays_on_identically(variant: Variant, seed: int) -> None:
    """At every step (between hands, mid-hand, after a time bank, after release_history)
    a copy made by from_json(to_json()) gives the same log and views as the original."""
    table = _table(variant, seed)
    rng = random.Random(seed)
    bot = RandomBot(seed)
    now = 0.0
    for _ in range(12):
        if rng.random() < 0.5:
            table.release_history()
        table = Table.from_json(table.to_json())
        for seat in range(3):
            if table.stack(seat) < 500:
                table.top_up(seat, 500)
        now += 1.0
        table.start_hand(now=now)
        while table.in_hand:
            copy = Table.from_json(table.to_json())
            assert copy.log_json() == table.log_json()
            for seat in (None, 0, 1, 2):
                assert copy.view(seat) == table.view(seat)
            assert copy.to_json() == table.to_json()
            now += 1.0
            if rng.random() < 0.1:
                assert table.deadline is not None
                now = table.deadline
                table.advance(now)
                copy.advance(now)
            else:
                seat = table.to_act
                assert seat is not None
                decision = bot.choose(table.observe(seat))
                table.decide(seat, decision, now=now)
                copy.decide(seat, decision, now=now)
            assert copy.log_json() == table.log_json()
            table = copy  # go on with the restored one
        assert table.chips() + table.rake == table.bought_in


def test_refuses_edited_and_broken_snapshots() -> None:
    table = _table(Variant.DOUBLE, 5)
    table.start_hand(now=0.0)
    text = table.to_json()
    with pytest.raises(TamperedSnapshot):
        Table.from_json(text.replace('"player":"p1"', '"player":"px"'))
    data = json.loads(text)
    data["table"]["rake"] = 7  # consistent checksum, chips no longer add up
    body = json.dumps(data["table"], separators=(",", ":"))
    import hashlib

    digest = hashlib.sha256(body.encode()).hexdigest()
    forged = f'{{"version":1,"sha256":"{digest}","table":{body}}}'
    with pytest.raises(TamperedSnapshot, match="chips"):
        Table.from_json(forged)
    for bad in ("", "[]", "{}", '{"version":99}', text[:-5]):
        with pytest.raises(InvalidSnapshot):
            Table.from_json(bad)


def test_a_keyed_snapshot_cannot_be_forged_without_its_key() -> None:
    """Issue 17: a checksum anyone can recompute; an HMAC under the server's secret not."""
    import hashlib

    table = _table(Variant.DOUBLE, 6)
    table.start_hand(now=0.0)
    keyed = table.to_json(key=b"server secret")
    assert '"hmac":' in keyed and '"sha256":' not in keyed
    assert Table.from_json(keyed, key=b"server secret").to_json(key=b"server secret") == keyed
    data = json.loads(keyed)
    data["table"]["rake"] = 0
    body = json.dumps(data["table"], separators=(",", ":"))
    for forged in (
        keyed.replace('"player":"p1"', '"player":"px"'),
        f'{{"version":1,"hmac":"{hashlib.sha256(body.encode()).hexdigest()}","table":{body}}}',
    ):
        with pytest.raises(TamperedSnapshot, match="HMAC"):
            Table.from_json(forged, key=b"server secret")
    with pytest.raises(TamperedSnapshot, match="HMAC"):
        Table.from_json(keyed, key=b"a guess")
    with pytest.raises(InvalidSnapshot, match="keyed"):
        Table.from_json(keyed)  # a keyed snapshot is not read without its key
    with pytest.raises(TamperedSnapshot, match="not keyed"):
        Table.from_json(table.to_json(), key=b"server secret")  # nor swapped for a plain one


def test_release_history_bounds_memory() -> None:
    """Finished hands leave memory: the log never holds more than the current hand."""
    table = _table(Variant.TEXAS, 7)
    bot = RandomBot(7)
    lengths = []
    for number in range(50):
        table.start_hand(now=float(number))
        with pytest.raises(Exception, match="still being played"):
            table.release_history()
        while table.in_hand:
            seat = table.to_act
            assert seat is not None
            table.decide(seat, bot.choose(table.observe(seat)))
        entries = table.release_history()
        assert entries[-1]["kind"] == "hand_end"
        lengths.append(len(table.to_json()))
        for seat in range(3):
            if table.stack(seat) == 0:
                table.top_up(seat, 500)
    assert table.log_length == 0
    assert max(lengths) < 2 * min(lengths)
