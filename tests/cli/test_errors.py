"""The command line never shows a traceback: bad input is one line on stderr and exit
status 2; `replay` refuses what is not a small regular file and goes on after a bad
file (issue 12)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from doubleholdem.cli import main
from doubleholdem.errors import InvalidHandHistory
from doubleholdem.game import phh
from doubleholdem.game.phh import MAX_FILE_BYTES

DATA = Path(__file__).resolve().parent.parent / "data" / "phh"
GOOD = DATA / "famous" / "dwan-ivey-2009.phh"
GOOD_STACKS = "572100 1997500 1109500"


def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ["casino", "analyze", "--threads", "-1"],
        ["casino", "simulate", "--rounds", "10", "--seed", "1", "--threads", "0"],
        ["stats", "double", "--threads", "99999999999999999999"],
        ["stats", "double", "--threads", "2.5"],
        ["stats", "double", "--threads", "257"],
    ],
)
def test_a_bad_thread_count_is_one_line_and_status_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert "threads must be a whole number from 1 to 256" in line


@pytest.mark.parametrize(
    "args",
    [
        ["casino", "simulate", "--rounds", "99999999999999999999", "--seed", "1"],
        ["casino", "simulate", "--rounds", "1", "--seed", "1"],
        ["eval", "As", "Ks", "Qs", "Js", "T\udcff"],
        ["eval", "A\x00s", "Ks", "Qs", "Js", "Ts"],
        ["double", "--hole", "Kc Ks 6c", "--board", "Kd 6h 2s 9c Jd", "--point", "9" * 5000],
        ["simulate", "--hands", "-1"],
        ["simulate", "--players", "99999999999999999999"],
        ["simulate", "--players", "1", "--hands", "1"],
        ["replay"],
        ["nothing"],
    ],
)
def test_other_bad_input_is_one_line_and_status_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    _one_error_line(capsys.readouterr().err)


def _replay(*paths: object, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, list[str]]:
    status = main(["replay", *map(str, paths)])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err.strip().splitlines()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_replay_refuses_a_device(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _replay("/dev/zero", capsys=capsys)
    assert status == 2 and out == ""
    assert err == ["doubleholdem: error: /dev/zero: cannot read /dev/zero: not a regular file"]


def test_replay_refuses_a_directory_and_a_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe.phh"
    os.mkfifo(fifo)  # nobody writes: reading it would wait forever
    status, out, err = _replay(tmp_path, fifo, GOOD, capsys=capsys)
    assert status == 2
    assert out == f"{GOOD}: finishing stacks {GOOD_STACKS}\n"
    assert len(err) == 2 and all("not a regular file" in line for line in err)
    assert str(tmp_path) in err[0] and str(fifo) in err[1]


def test_replay_refuses_a_file_over_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert MAX_FILE_BYTES == 1 << 20
    big = tmp_path / "big.phh"
    big.write_bytes(GOOD.read_bytes() + b"#" * MAX_FILE_BYTES)
    status, out, err = _replay(big, GOOD, capsys=capsys)
    assert status == 2 and out == f"{GOOD}: finishing stacks {GOOD_STACKS}\n"
    size = big.stat().st_size
    reason = f"larger than 1048576 bytes ({size})"
    assert err == [f"doubleholdem: error: {big}: cannot read {big}: {reason}"]


def test_a_file_that_grows_after_its_size_is_read_is_read_whole_or_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_fstat = os.fstat

    def stale_fstat(fd: int) -> os.stat_result:  # the size before the file grew
        info = real_fstat(fd)
        return os.stat_result((info.st_mode, *info[1:6], 10, *info[7:]))

    monkeypatch.setattr(os, "fstat", stale_fstat)
    history = phh.load(GOOD)
    assert phh.replay(history).finishing_stacks == [int(s) for s in GOOD_STACKS.split()]
    big = tmp_path / "big.phh"
    big.write_bytes(GOOD.read_bytes() + b"#" * MAX_FILE_BYTES)
    with pytest.raises(InvalidHandHistory, match="larger than 1048576 bytes"):
        phh.load(big)


def test_replay_goes_on_after_a_binary_file_and_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b'variant = "NT"\n\xff\xfe\x00\x01')
    other = tmp_path / "other.phh"
    other.write_bytes(GOOD.read_bytes())
    status, out, err = _replay(GOOD, binary, other, capsys=capsys)
    assert status == 2
    assert out.splitlines() == [
        f"{GOOD}: finishing stacks {GOOD_STACKS}",
        f"{other}: finishing stacks {GOOD_STACKS}",
    ]
    assert err == [
        f"doubleholdem: error: {binary}: cannot read {binary}: "
        "not UTF-8 text (byte 0xff at offset 15)"
    ]


@pytest.mark.parametrize(
    "text",
    [
        GOOD.read_text(encoding="utf-8").replace("1125600", "9" * 5000),
        GOOD.read_text(encoding="utf-8").replace("1125600", "1\u00b2\u00b3"),
        GOOD.read_text(encoding="utf-8").replace("1125600", "[" * 3000 + "]" * 3000),
        "actions = " + "[" * 3000 + "]" * 3000 + "\n",
        "x = {" * 3000 + "}" * 3000,
        "",
        "variant = 'NT'",
    ],
    ids=[
        "5000-digits",
        "superscript",
        "nested-stack",
        "nested-actions",
        "nested-table",
        "empty",
        "no-fields",
    ],
)
def test_replay_names_a_bad_history_and_goes_on(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text(text, encoding="utf-8")
    status, out, err = _replay(bad, GOOD, capsys=capsys)
    assert status == 2
    assert out == f"{GOOD}: finishing stacks {GOOD_STACKS}\n"
    assert len(err) == 1 and err[0].startswith(f"doubleholdem: error: {bad}: ")


def test_replay_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _replay(tmp_path / "missing.phh", GOOD, capsys=capsys)
    assert status == 2 and out == f"{GOOD}: finishing stacks {GOOD_STACKS}\n"
    assert len(err) == 1 and "No such file or directory" in err[0]


def test_the_console_script_prints_no_traceback(tmp_path: Path) -> None:
    """The real process: a bad thread count and a binary file, one line each."""
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b"\x80")
    for args in (["stats", "double", "--threads", "-1"], ["replay", str(binary), str(GOOD)]):
        done = subprocess.run(
            [sys.executable, "-m", "doubleholdem.cli", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_refusal_names_seats_and_tables_from_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line numbers the seats and tables of a library message for people,
    from the numbers the message keeps (issue 31 item 5), not by rewriting its text."""
    from doubleholdem.cli import simulate
    from doubleholdem.errors import SeatTaken
    from doubleholdem.wording import Wording, seat_said, table_said

    said = Wording(seat_said(0), " is taken at ", table_said(2), " (seat 0 as typed)")

    def refused(args: object) -> int:
        raise SeatTaken(said, seat=0)

    monkeypatch.setattr(simulate, "run", refused)
    assert main(["simulate"]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line == "doubleholdem: error: seat 1 is taken at table 3 (seat 0 as typed)"
