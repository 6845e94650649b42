"""``doubleholdem simulate``: bots at one table; same seed same output; the results add
up; bad input is one line on stderr with status 2."""

from __future__ import annotations

import json
import re

import pytest

from doubleholdem.cli import main
from doubleholdem.table.simulate import simulate

ARGS = ["simulate", "--players", "4", "--hands", "150", "--seed", "5"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("variant", "structure"), [("double", "limit"), ("texas", "no"), ("texas", "pot")]
)
def test_same_seed_same_output(
    capsys: pytest.CaptureFixture[str], variant: str, structure: str
) -> None:
    args = [*ARGS, "--variant", variant, "--structure", structure, "--json"]
    first = json.loads(run(capsys, *args)[1])
    second = json.loads(run(capsys, *args)[1])
    assert first.pop("hands_per_second") > 0
    second.pop("hands_per_second")
    assert first == second
    assert first["hands"] == 150 and len(first["seats"]) == 4
    assert sum(seat["net"] for seat in first["seats"]) + first["rake"] == 0
    assert [seat["bot"] for seat in first["seats"]] == ["equity", "random", "station", "equity"]
    other = json.loads(run(capsys, *args, "--seed", "6")[1])
    assert [s["net"] for s in other["seats"]] != [s["net"] for s in first["seats"]]


def test_text_output_and_no_progress_bar_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *ARGS, "--bots", "station,random")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "double fixed-limit: 150 hands, seed 5"
    assert "bb/100" in lines[1] and len(lines) == 2 + 4 + 1
    assert lines[-1].startswith("hands played 150, ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "shark"], "no bot named 'shark'"),
        (["--players", "11"], "--players must be 2 to 10"),
        (["--hands", "0"], "--hands must be at least 1"),
        (["--structure", "spread"], "invalid choice"),
    ],
)
def test_bad_input(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    status, out, err = run(capsys, "simulate", *args)
    assert status == 2 and out == ""
    assert re.match(r"doubleholdem( simulate)?: error: ", err) and message in err
    assert len(err.strip().splitlines()) == 1


def test_equity_bot_beats_random_bots() -> None:
    """The equity-aware bot is not a random player: over a few hundred hands of limit
    Texas Hold'em it wins from random bots."""
    result = simulate(
        players=3, hands=400, seed=2, variant="texas", bots=("equity", "random", "random")
    )
    assert result.seats[0].net > 0
    assert result.seats[0].net > max(result.seats[1].net, result.seats[2].net)


@pytest.mark.parametrize("structure", ["fixed-limit", "pot-limit", "no-limit"])
def test_play_makes_no_reference_cycles(structure: str) -> None:
    """The command switches the cyclic collector off for its run: that is only sound
    while a simulation leaves nothing for the collector to find."""
    import gc

    gc.collect()
    gc.disable()
    try:
        bots = ("equity", "random", "station")
        simulate(players=6, hands=300, seed=2, structure=structure, bots=bots)
        assert gc.collect() == 0
    finally:
        gc.enable()


def _peak_bytes(hands: int) -> int:
    import tracemalloc

    tracemalloc.start()
    try:
        simulate(players=4, hands=hands, seed=3, bots=("station", "random"))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_in_the_number_of_hands() -> None:
    """Issue 17 item 4: a simulation releases each hand's history as it goes (it kept
    every hand: about 8 KB a hand at four seats, 1.09 GB at 100,000 hands of six). The
    peak of 4N hands is that of N, within far less than one hand's history a hand."""
    simulate(players=4, hands=150, seed=1, bots=("station", "random"))  # fills free lists
    few, many = _peak_bytes(60), _peak_bytes(240)
    assert many < few + 60 * 1024, (few, many)  # keeping the history: about 1.4 MB more


def test_release_history_unread_forgets_the_log() -> None:
    """What the simulation calls after each hand: the log is forgotten, not read."""
    from doubleholdem.table import Table, TableConfig

    table = Table(TableConfig(small_blind=5, big_blind=10), seed=3)
    table.join(0, "ann", 1000)
    table.join(1, "bob", 1000)
    table.start_hand(now=0.0)
    table.act(0, "fold", now=1.0)
    assert table.log_length > 0
    assert table.release_history(read=False) == [] and table.log_length == 0
    assert table.hand is not None and table.hand.over
    table.start_hand(now=2.0)  # play goes on
    assert table.release_history.__doc__ and table.log_length > 0
