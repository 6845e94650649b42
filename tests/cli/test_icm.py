"""The command line: `doubleholdem icm`."""

from __future__ import annotations

import json

import pytest

from doubleholdem.cli import main
from doubleholdem.icm import chip_chop, equities, icm_deal


def test_equities_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["icm", "5000", "3000", "2000", "--payouts", "500,300,200"]) == 0
    out = capsys.readouterr().out
    expected = equities([5000, 3000, 2000], [500, 300, 200])
    assert out.startswith("exact: the exact recursion takes")
    for i, e in enumerate(expected):
        assert f"player {i + 1:>3}" in out and f"{e:14.4f}" in out


def test_json_and_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["icm", "5000,3000", "2000", "--payouts", "500 300 200", "--deal", "icm", "--left", "50"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["stacks"] == [5000, 3000, 2000] and result["method"] == "exact"
    assert result["equity"] == list(equities([5000, 3000, 2000], [500, 300, 200]))
    assert result["deal"]["amounts"] == list(
        icm_deal([5000, 3000, 2000], [500, 300, 200], 50).amounts
    )
    assert result["deal"]["left"] == 50
    assert main(["icm", "7", "3", "--payouts", "10", "--deal", "chop", "--json"]) == 0
    chop = json.loads(capsys.readouterr().out)["deal"]
    assert chop["amounts"] == list(chip_chop([7, 3], [10]).amounts) == [7, 3]


def test_methods(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["icm", "30", "10", "25", "--payouts", "60,40"]
    assert main([*base, "--method", "fractions", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["fractions"][0].count("/") == 1
    assert main([*base, "--method", "montecarlo", "--samples", "20000", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "±" in out and "seed 5" in out
    assert main([*base, "--method", "quadrature"]) == 0
    assert "estimated error" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["icm", "100", "-5", "--payouts", "10"], "stack 2 is -5"),
        (["icm", "100", "2.5", "--payouts", "10"], "2.5 is not a whole number"),
        (["icm", "100", "200", "--payouts", "10,20"], "never increase"),
        (["icm", "100", "200", "--payouts", "3,2,1"], "3 payouts for 2 players"),
        (["icm", "100", "200", "--payouts", "10", "--method", "magic"], "invalid choice"),
        (["icm", "100", "200", "--payouts", "10", "--left", "3"], "--left is for a deal"),
        (["icm", "0", "0", "--payouts", "10"], "no player has chips"),
        (["icm", "100", "200"], "--payouts"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
