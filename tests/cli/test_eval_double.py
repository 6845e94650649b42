"""The command line: `doubleholdem eval` and `doubleholdem double`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from doubleholdem import evaluate
from doubleholdem.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "doubleholdem.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_eval_prints_value_category_words_and_best_five(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d"]) == 0
    out = capsys.readouterr().out
    assert "Royal Flush" in out and "Straight Flush" in out and "As Ks Qs Js Ts" in out


def test_eval_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "Kc Kd Ks", "7h", "7s", "2c", "3d", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "value": evaluate("Kc Kd Ks 7h 7s"),
        "category": "Full House",
        "description": "Full House, Kings full of Sevens",
        "best_five": ["Ks", "Kd", "Kc", "7s", "7h"],
    }


def test_double_json_with_auto_point(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["double", "--hole", "Kc 2d 6c", "--board", "Kd 6h 9c Jc 3c", "--json"]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["point"] == 0 and result["hand"] == 2
    assert result["description"] == "Flush, King-Jack-Nine-Six-Three"
    assert result["best_five"] == ["Kc", "Jc", "9c", "6c", "3c"]
    assert set(result) == {
        "value", "category", "description", "best_five", "point", "hand", "values",
    }  # fmt: skip
    assert result["values"][0] == result["value"]


def test_double_explicit_point(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["double", "--hole", "Kc Ks 6c", "--board", "Kd 6h 2s 9c Jd", "--point", "2"]
    assert main(args) == 0
    assert "point:       2" in capsys.readouterr().out


def test_double_labels_the_point_card_how_it_was_chosen_and_both_hands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 22: which point card, chosen how (given, or automatic by DH-6), and which
    hole cards make each hand (DH-3) with its value."""
    board = "Kd 6h 9c Jc 3c"
    assert main(["double", "--hole", "Kc 2d 6c", "--board", board, "--point", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    flush, pair = evaluate(f"6c Kc {board}"), evaluate(f"6c 2d {board}")
    assert lines[:4] == [
        "point:       2 (6c, given)",
        f"hand 1:      6c Kc  Flush, King-Jack-Nine-Six-Three ({flush})",
        f"hand 2:      6c 2d  Pair, Sixes, kickers King, Jack, Nine ({pair})",
        "hand:        1 (plays: the better of the two, DH-4)",
    ]
    assert lines[-1].endswith("(with point card Kc, 2d, 6c)")
    assert main(["double", "--hole", "Ks Kh 6c", "--board", board]) == 0
    assert capsys.readouterr().out.startswith("point:       0 (Ks, automatic, DH-6)\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", "As", "Ks", "Qs", "Js", "Tx"], "'Tx' is not a card"),
        (["eval", "As", "Ks", "Qs", "Js"], "5, 6 or 7 cards, not 4"),
        (["eval", "As", "As", "Qs", "Js", "Ts"], "duplicate card As"),
        (["double", "--hole", "Kc Ks", "--board", "2c 3c 4c 5c 7d"], "3 cards, not 2"),
        (["double", "--hole", "Kc Ks 6c", "--board", "2c 3c 4c 5c 7d", "--point", "5"], "--point"),
        (["double", "--hole", "Kc Ks 6c"], "--board"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert "Traceback" not in result.stderr
