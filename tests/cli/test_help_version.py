"""A bare `doubleholdem` prints its help with status 0 (not an error), and
`doubleholdem --version` prints the installed version (issue 18)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import doubleholdem
from doubleholdem.cli import COMMANDS, main


def test_no_command_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: doubleholdem") and err == ""
    for command in COMMANDS:
        assert command in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"doubleholdem {doubleholdem.__version__}\n"


def test_the_process_without_a_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "doubleholdem.cli"], capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: doubleholdem") and "--version" in done.stdout
