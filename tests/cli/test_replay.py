"""`replay` checks what it replays (issue 22 item 3): a file that records
`finishing_stacks` and replays to other stacks is an error naming the file and both
lists (exit status 1); `--no-check` only prints; every conformance file passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from doubleholdem.cli import main
from doubleholdem.game.phh import stacks_agree

DATA = Path(__file__).resolve().parent.parent / "data" / "phh"
GOOD = DATA / "wsop-2023-43-5" / "1.phh"
GOOD_STACKS = "7340000 3775000 5110000 8935000 4545000"
GOOD_LIST = "[7340000, 3775000, 5110000, 8935000, 4545000]"
RECORDED = f"finishing_stacks = {GOOD_LIST}"
UNRECORDED = DATA / "famous" / "dwan-ivey-2009.phh"  # the one file without finishing_stacks


def _edited(tmp_path: Path, recorded: str) -> Path:
    text = GOOD.read_text(encoding="utf-8")
    assert RECORDED in text
    edited = tmp_path / "edited.phh"
    edited.write_text(text.replace(RECORDED, f"finishing_stacks = {recorded}"), encoding="utf-8")
    return edited


def test_an_edited_file_is_an_error_naming_the_file_and_both_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edited = _edited(tmp_path, "[7340000, 3775000, 5110000, 8935100, 4544900]")
    status = main(["replay", str(edited), str(GOOD)])
    out, err = capsys.readouterr()
    assert status == 1
    assert out == f"{GOOD}: finishing stacks {GOOD_STACKS}\n"  # the good file is still replayed
    assert err.splitlines() == [
        f"doubleholdem: error: {edited}: replayed to finishing stacks "
        f"[{GOOD_STACKS}], but the file records [7340000 3775000 5110000 8935100 4544900] "
        "(--no-check only prints)"
    ]


@pytest.mark.parametrize("recorded", ["[7340000, 3775000]", f"{GOOD_LIST[:-1]}, 0]"])
def test_a_different_number_of_stacks_is_an_error(
    recorded: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--json", str(_edited(tmp_path, recorded))]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "but the file records" in err


def test_no_check_only_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edited = _edited(tmp_path, "[1, 2, 3, 4, 5]")
    assert main(["replay", "--no-check", str(edited)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{edited}: finishing stacks {GOOD_STACKS}\n" and err == ""
    assert main(["replay", "--no-check", "--json", str(edited)]) == 0
    assert json.loads(capsys.readouterr().out)["finishing_stacks"] == json.loads(GOOD_LIST)


def test_a_file_without_finishing_stacks_is_only_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = GOOD.read_text(encoding="utf-8").replace(RECORDED, "")
    bare = tmp_path / "bare.phh"
    bare.write_text(text, encoding="utf-8")
    assert main(["replay", str(bare), str(UNRECORDED)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{bare}: finishing stacks {GOOD_STACKS}",
        f"{UNRECORDED}: finishing stacks 572100 1997500 1109500",
    ]


def test_an_unreadable_file_still_exits_2_beside_a_mismatch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edited = _edited(tmp_path, "[1, 2, 3, 4, 5]")
    assert main(["replay", str(edited), str(tmp_path / "missing.phh")]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 2


def test_every_conformance_file_passes_the_check(capsys: pytest.CaptureFixture[str]) -> None:
    """2,026 real hands (all but one record their stacks), 8 of them with a split pot's
    half chips (TH-30)."""
    files = sorted(DATA.rglob("*.phh"))
    assert len(files) == 2026
    assert main(["replay", *map(str, files)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and len(out.splitlines()) == len(files)


def test_stacks_agree_allows_a_split_chip_only() -> None:
    """TH-30: a recorded half chip is met by its floor or ceiling, a whole one exactly."""
    assert stacks_agree((50.5, 50.5, 99), [51, 50, 99])
    assert stacks_agree((33 + 1 / 3, 33 + 1 / 3, 33 + 1 / 3), [34, 33, 33])
    assert not stacks_agree((50.5, 50.5, 99), [52, 49, 99])
    assert not stacks_agree((100, 99), [101, 98])
    assert not stacks_agree((100, 99), [100, 99, 0])


@pytest.mark.parametrize(
    ("recorded", "shown"),
    [
        ("[7340000, 3775000, 5110000, nan, 4545000]", "nan"),
        ("[7340000, 3775000, 5110000, inf, 4545000]", "inf"),
        ("[7340000, 3775000, 5110000, -inf, 4545000]", "-inf"),
        ("[7340000, 3775000, 5110000, -1, 4545000]", "-1"),
        ("[7340000, 3775000, 5110000, true, 4545000]", "True"),
    ],
)
def test_a_finishing_stack_that_is_no_chip_count_names_the_file_and_the_field(
    recorded: str, shown: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 30: ``nan`` (or an infinity, a negative count, a boolean) among the
    recorded finishing stacks is refused as the file is read, with the file, the
    field and the value named in one line (exit status 2), with or without the check."""
    edited = _edited(tmp_path, recorded)
    for options in ([], ["--no-check"], ["--json"]):
        assert main(["replay", *options, str(edited)]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.splitlines() == [
            f"doubleholdem: error: {edited}: finishing_stacks must be a list of chip counts "
            f"(finite numbers, 0 or more), not {shown}"
        ]
