"""``doubleholdem serve`` and ``loadtest`` refuse bad input with one line on stderr and
exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from doubleholdem.cli import main


@pytest.mark.parametrize(
    "words",
    [
        ["serve", "--tables", "many"],
        ["serve", "--bot-delay", "-1"],
        ["serve", "--sync", "off"],
        ["serve", "--config", "/nonexistent/tables.toml"],
        ["loadtest", "--url", "http://127.0.0.1:9", "--clients", "0", "--seconds", "1"],
        ["loadtest", "--clients", "1", "--seconds", "1"],
    ],
)
def test_bad_input(words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(words) == 2
    err = capsys.readouterr().err
    assert err.startswith("doubleholdem: error:") and err.count("\n") == 1


def test_bad_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tables.toml"
    for text in (
        "[[table]]\nseats = 4\n",
        "not toml [",
        "[[table]]\nsmall_blind = 5\nbig_blind = 10\nseats = 11\n",
    ):
        path.write_text(text)
        assert main(["serve", "--config", str(path), "--db", str(tmp_path / "x.db")]) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_port_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert main(["serve", "--port", port, "--db", str(tmp_path / "t.db")]) == 2
    assert "cannot listen" in capsys.readouterr().err
