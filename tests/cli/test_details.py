"""The command line's and the API's details (issue 32 item 7): help that states the real
defaults once, every option doing what it says in text as in JSON, errors that name the
command once and a card by its name, counts with separators, a closed pipe ending a
command quietly, one reader of a point card, typed errors naming the value and the
range, readable reprs, and an example that answers --help."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys

import pytest

from doubleholdem import double, evaluate_batch
from doubleholdem.cards import CARD_NAMES
from doubleholdem.cli import CLOSED_PIPE, COMMANDS, build_parser, main
from doubleholdem.equity import calculate
from doubleholdem.errors import (
    DuplicateCard,
    IllegalAction,
    InvalidHand,
    InvalidThreads,
    NoSuchSeat,
    SeatEmpty,
)
from doubleholdem.examples import asyncio_tables
from doubleholdem.game import GameConfig, Hand, Variant
from doubleholdem.table import Table, TableConfig


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Every parser below ``parser`` (commands and their own commands), once each."""
    found: list[argparse.ArgumentParser] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                found += [sub, *_subparsers(sub)]
    return found


def _option_helps() -> list[tuple[str, str, str]]:
    """(command, option, help as shown) for every option of every command."""
    found = []
    for parser in _subparsers(build_parser()):
        formatter = parser._get_formatter()
        for action in parser._actions:
            if action.help and action.option_strings:
                text = formatter._expand_help(action)
                found.append((parser.prog, action.option_strings[-1], text))
    return found


def test_no_option_states_its_default_twice() -> None:
    """``--header-timeout`` said "(10) (default: 10.0)": a default is shown once."""
    helps = _option_helps()
    assert len(helps) > 80
    for prog, option, text in helps:
        assert text.count("default") <= 1, (prog, option, text)
        assert not re.search(r"\(\d[\d.]*[;)].*\(default: ", text), (prog, option, text)
    shown = {(prog, option): text for prog, option, text in helps}
    timeout = shown["doubleholdem serve", "--header-timeout"]
    assert timeout == "seconds a request's headers and body may take to arrive (default: 10.0)"


def test_equity_points_help_states_the_real_default() -> None:
    """DH-6: without --points every player's point card is the automatic one."""
    text = dict(((p, o), t) for p, o, t in _option_helps())["doubleholdem equity", "--points"]
    assert "default: auto for every player" in text
    hands = ["AhKh7c", "QsQd2c"]
    plain = calculate(hands, board="7d 8h 2s", variant="double")
    auto = calculate(hands, board="7d 8h 2s", variant="double", points=["auto", "auto"])
    assert plain.fractions == auto.fractions
    other = calculate(hands, board="7d 8h 2s", variant="double", points=[2, 2])
    assert other.fractions != plain.fractions  # the default is not any fixed point


def test_stats_classes_are_listed_in_text_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "double"]) == 0
    plain = capsys.readouterr().out.splitlines()
    assert main(["stats", "double", "--classes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[: len(plain)] == plain
    classes = lines[len(plain) :]
    assert classes[1] == "1,755 hole classes (holes: how many holes the class holds)"
    rows = classes[3:]
    assert len(rows) == 1755
    assert rows[0].split()[:3] == ["2c", "2d", "2h"]


@pytest.mark.parametrize(
    ("words", "line"),
    [
        (["double"], "doubleholdem double: error: the following arguments are required: "),
        (["frobnicate"], "doubleholdem: error: argument command: invalid choice: "),
        (["stats", "double", "--bogus"], "doubleholdem: error: unrecognized arguments: --bogus"),
        (["equity", "AhKh", "--samples", "x"], "doubleholdem equity: error: argument "),
    ],
)
def test_a_usage_error_names_the_command_once(
    words: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(words) == 2
    err = capsys.readouterr().err
    assert err.startswith(line) and err.count("doubleholdem") == 1 + line.count("--hole")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "words",
    [
        ["eval", "Kc", "Kc", "Qs", "Js", "Ts"],
        ["double", "--hole", "Kc Ks 6c", "--board", "Kc 6h 2s 9c Jd"],
        ["double", "--hole", "Kc Kc 6c", "--board", "Kd 6h 2s 9c Jd"],
        ["equity", "AhKc", "QQ", "--board", "Kc 8h 2c"],
        ["point", "--hole", "Kc Ks 6c", "--flop", "Kc 6h 2s"],
        ["point", "--hole", "Kc Ks 6c", "--flop", "Kd 6h 2s", "--against", "Kc Qd Jc"],
    ],
)
def test_a_duplicate_card_is_named_by_its_name(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """One form in every command: the card's name, never its internal number."""
    assert main(words) == 2
    err = capsys.readouterr().err
    assert "Kc" in err, err
    assert not re.search(r"\(\d+\)", err), err


def test_the_core_names_a_duplicate_card_alone() -> None:
    with pytest.raises(DuplicateCard, match=r"^row 0: duplicate card Kc$"):
        evaluate_batch([[44, 44, 1, 2, 3]])


def test_a_large_count_has_separators() -> None:
    with pytest.raises(InvalidHand, match=r"more than 20,000,000 deals of hands"):
        calculate(["random"] * 4, exact=True)


def _closed_pipe(words: list[str]) -> tuple[int, str]:
    """Runs the command, reads one line of its output and closes the pipe."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "doubleholdem.cli", *words],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    return process.wait(timeout=60), err


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    """``doubleholdem stats double --classes | head -1``: no "Broken pipe", status 141
    (as a shell reports a program ended by SIGPIPE)."""
    status, err = _closed_pipe(["stats", "double", "--classes"])
    assert (status, err) == (CLOSED_PIPE, "")
    assert CLOSED_PIPE == 128 + 13


def test_main_reports_a_closed_pipe_by_its_status(monkeypatch: pytest.MonkeyPatch) -> None:
    def closed(*args: object, **kwargs: object) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("builtins.print", closed)
    assert main(["eval", "As", "Ks", "Qs", "Js", "Ts"]) == CLOSED_PIPE


BOARD = "Kd 6h 2s 9c Jd"


@pytest.mark.parametrize("point", [0, 1, 2, "auto", "Kc", "Ks", "6c"])
def test_one_reader_of_a_point_card(point: int | str, capsys: pytest.CaptureFixture[str]) -> None:
    """``double.resolve``, ``Hand.choose_point``, ``calculate`` and ``double --point``
    take the same points: an index, ``"auto"`` or a card of the hole."""
    hole = "Kc Ks 6c"
    index = {0: 0, 1: 1, 2: 2, "auto": double.auto_point(hole), "Kc": 0, "Ks": 1, "6c": 2}[point]
    resolved = double.resolve(hole, point, BOARD)
    assert resolved == double.resolve(hole, index, BOARD)
    assert main(["double", "--hole", hole, "--board", BOARD, "--point", str(point), "--json"]) == 0
    assert f'"point": {index}' in capsys.readouterr().out
    by_name = calculate(["KcKs6c", "AhQd2c"], board=BOARD, variant="double", points=[point, 0])
    by_index = calculate(["KcKs6c", "AhQd2c"], board=BOARD, variant="double", points=[index, 0])
    assert by_name.fractions == by_index.fractions
    hand = Hand(GameConfig(stacks=(100, 100), small_blind=1, big_blind=2, variant=Variant.DOUBLE))
    hand.act("call")
    hand.act("check")
    seat = hand.actor
    assert seat is not None
    cards = hand.hole(seat)
    chosen = point if isinstance(point, int) or point == "auto" else 0
    hand.choose_point(seat, chosen)
    assert hand.points[seat] == double.point_index(cards, chosen)


@pytest.mark.parametrize("point", [3, -1, True, "As", "Kc Ks", "", "automatic"])
def test_every_reader_refuses_the_same_points(point: object) -> None:
    hole = "Kc Ks 6c"
    expected = "give 0, 1, 2, auto or one of Kc Ks 6c"
    with pytest.raises(InvalidHand, match=expected):
        double.resolve(hole, point, BOARD)  # type: ignore[arg-type]
    with pytest.raises(InvalidHand, match=expected):
        calculate(["KcKs6c", "AhQd2c"], variant="double", points=[point, 0])  # type: ignore[list-item]
    config = GameConfig(stacks=(100, 100), small_blind=1, big_blind=2, variant=Variant.DOUBLE)
    hand = Hand(config, seed=1)
    hand.act("call")
    hand.act("check")
    seat = hand.actor
    assert seat is not None
    cards = " ".join(CARD_NAMES[c] for c in hand.hole(seat))
    assert "As" not in cards
    with pytest.raises(IllegalAction, match=f"give 0, 1, 2, auto or one of {cards}$"):
        hand.choose_point(seat, point)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "call",
    [
        lambda: evaluate_batch([[0, 1, 2, 3, 4]], threads=0),
        lambda: double.resolve_batch([[0, 1, 2]], [0], [[3, 4, 5, 6, 7]], threads=257),
        lambda: calculate(["AhKh", "QsQd"], threads=0),
    ],
)
def test_a_bad_thread_count_is_a_typed_error_naming_it_and_the_range(call: object) -> None:
    with pytest.raises(
        InvalidThreads, match=r"threads must be a whole number from 1 to 256, not"
    ) as error:
        call()  # type: ignore[operator]
    assert isinstance(error.value, ValueError)
    assert error.value.value in (0, 257)


def test_hand_and_table_say_what_they_are() -> None:
    hand = Hand(GameConfig(stacks=(100, 100, 100), small_blind=1, big_blind=2), seed=1)
    assert repr(hand) == "<Hand texas no-limit 1/2, 3 seats, preflop, pot 3>"
    hand.act("fold")
    hand.act("fold")
    assert repr(hand) == "<Hand texas no-limit 1/2, 3 seats, over, pot 0>"
    config = TableConfig(small_blind=5, big_blind=10, seats=4, variant=Variant.DOUBLE)
    table = Table(config, seed=1)
    table.join(1, "ann", 1000)
    table.join(2, "bob", 1000)
    assert repr(table) == "<Table double no-limit 5/10, 2 of 4 seats taken, no hand yet>"
    table.start_hand()
    assert (
        repr(table) == "<Table double no-limit 5/10, 2 of 4 seats taken, hand 1: preflop, pot 15>"
    )


@pytest.mark.parametrize("seat", [11, 4, -1, "1", 2.0, True])
def test_a_seat_the_table_lacks_is_its_own_error(seat: object) -> None:
    table = Table(TableConfig(small_blind=5, big_blind=10, seats=4))
    with pytest.raises(NoSuchSeat, match=r"is not a seat \(seats 0\.\.3\)") as error:
        table.join(seat, "ann", 1000)  # type: ignore[arg-type]
    assert not isinstance(error.value, SeatEmpty)
    assert error.value.seats == 4
    assert error.value.seat == (seat if type(seat) is int else None)
    with pytest.raises(SeatEmpty, match="seat 0 is empty"):
        table.leave(0)


def test_the_asyncio_example_answers_help_and_runs_briefly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        asyncio_tables.main(["--help"])
    assert done.value.code == 0
    assert "--tables" in capsys.readouterr().out
    assert asyncio_tables.main(["--tables", "2", "--hands", "3", "--action-time", "0.01"]) == 0
    assert capsys.readouterr().out.startswith("6 hands at 2 tables")
    report = asyncio.run(asyncio_tables.serve(tables=1, hands=1))
    assert (report.hands, asyncio_tables.TABLES * asyncio_tables.HANDS) == (1, 320)


def test_every_command_is_checked_here() -> None:
    """(The option checks above read every command's parser.)"""
    progs = {parser.prog for parser in _subparsers(build_parser())}
    assert {f"doubleholdem {name}" for name in COMMANDS} <= progs
