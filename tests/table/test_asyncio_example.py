"""The asyncio embedding example runs: 12 tables x 60 hands in one event loop (each of
the six variant and structure pairs twice), bots and scripted remote players, deadlines
firing through ``Table.advance`` (TH-40, DH-7). No message ever shows a seat another
player's hidden cards, and the chips always add up."""

from __future__ import annotations

import asyncio

from doubleholdem.examples.asyncio_tables import serve


def test_twelve_tables_of_sixty_hands() -> None:
    report = asyncio.run(serve(tables=12, hands=60, seed=3))
    assert report.hands == 12 * 60
    assert report.leaks == 0
    assert report.chip_errors == 0
    assert report.views > report.hands
    assert report.timeouts > 0 and report.time_banks > 0
    for table in report.tables:
        assert table.hand_number == 60
        assert table.chips() + table.rake == table.bought_in
