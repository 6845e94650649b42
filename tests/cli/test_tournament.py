"""``doubleholdem tournament simulate`` from outside (issue 34 item 4): places, prizes
and hands, JSON or text, typed refusals, and Ctrl-C stopping a run with status 130."""

from __future__ import annotations

import json
import re

from doubleholdem.cli import main
from terminal import interrupt_when_shown


def test_json_reports_every_place_and_prizes_summing_to_the_pool(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["tournament", "simulate", "--players", "40", "--seed", "3", "--json",
                 "--bots", "random,station", "--stack", "1000"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["entrants"] == 40 and data["pool"] == 4000 and data["seed"] == 3
    assert sorted(p["entry"] for p in data["places"]) == list(range(40))
    assert sum(p["prize"] for p in data["places"]) == data["pool"]
    assert data["places"][0]["place"] == 1 and data["hands"] > 0
    assert {p["bot"] for p in data["places"]} == {"random", "station"}


def test_same_seed_same_tournament(capsys) -> None:  # type: ignore[no-untyped-def]
    args = ["tournament", "simulate", "--players", "25", "--seed", "9", "--json",
            "--variant", "double", "--structure", "fixed-limit", "--bots", "random"]  # fmt: skip
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    second = json.loads(capsys.readouterr().out)
    first.pop("seconds"), second.pop("seconds")
    assert first == second and first["variant"] == "double" and first["betting"] == "fixed-limit"


def test_text_shows_the_top_places(capsys) -> None:  # type: ignore[no-untyped-def]
    assert (
        main(["tournament", "simulate", "--players", "12", "--seed", "1", "--bots", "random"]) == 0
    )
    out = capsys.readouterr().out
    assert "12 players at 2 tables, seed 1" in out
    assert out.splitlines()[2].split()[0] == "1"
    assert "pool 1,200 over 2 places" in out


def test_bad_arguments_are_one_line_errors(capsys) -> None:  # type: ignore[no-untyped-def]
    for args in (["--players", "1"], ["--seats", "11"], ["--bots", "nobody"], ["--bots", ","]):
        assert main(["tournament", "simulate", *args]) == 2
        err = capsys.readouterr().err
        assert re.match(r"doubleholdem( tournament simulate)?: error:", err), err
        assert "Traceback" not in err and err.count("\n") == 1


def test_ctrl_c_stops_a_long_run() -> None:
    """SIGINT once the progress bar is drawn: status 130, one line, no traceback."""
    command = ["tournament", "simulate", "--seed", "1", "--players", "20000", "--bots", "equity"]
    returncode, out, seen = interrupt_when_shown(command, b"tournament: 20,000 players [")
    lines = seen.decode().replace("\r", "\n").split("\n")
    assert returncode == 130, seen
    assert out == ""
    assert "Traceback" not in seen.decode()
    assert [line.strip() for line in lines if line.strip()][-1] == "doubleholdem: interrupted"
