"""The command lines of README.md and docs/*.md run as written (issue 32 item 8): every
line of a fenced block that starts with ``doubleholdem `` (or ``$ doubleholdem ``) is
run with the installed command and must end with status 0.

A usage line is run with its optional parts given: ``[--json]`` becomes ``--json``, and
of alternatives (``0|1|2|auto``, ``[--exact | --samples N]``) the first is taken, so
that the options a reader copies from it work together. Not run, and said so here:
lines that start a server or need one (``serve``, ``loadtest``), lines the room's
accounts tutorial runs against its own database (``accounts``), the exact analysis of
the casino game (``casino analyze``: minutes of work, tests/casino checks it), and forms
with placeholders a reader fills in (``FILE.phh...``, ``NAME``, ``PORT``, ``...``). Each
command gets two minutes at most."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = {"serve", "loadtest", "accounts", "casino analyze"}
PLACEHOLDER = re.compile(r"[A-Z][A-Z_]*")
COMMENT = re.compile(r"\s+#.*$")


def command_lines() -> list[tuple[str, str]]:
    """``(page:line, command)`` for every ``doubleholdem`` line in a fenced block."""
    found = []
    for page in PAGES:
        inside = False
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                inside = not inside
                continue
            text = line.strip().removeprefix("$ ")
            if inside and text.startswith("doubleholdem "):
                found.append((f"{page.relative_to(ROOT)}:{number}", COMMENT.sub("", text)))
    return found


def _placeholder(word: str) -> bool:
    """A word a reader replaces: ``FILE.phh...``, ``N``, ``PATH`` (not ``QQ+,AKs``)."""
    return "..." in word or bool(PLACEHOLDER.fullmatch(word.split(".")[0]))


def _optional(match: re.Match[str]) -> str:
    """``[a | b]``: the first alternative without a placeholder, else nothing."""
    for choice in match.group(1).split(" | "):
        if not any(_placeholder(w) for w in shlex.split(choice)):
            return choice
    return ""


def as_run(command: str) -> list[str] | None:
    """The words a usage line runs as (optional parts given, first alternatives), or
    ``None`` if it is not run (see the module's docstring)."""
    words = shlex.split(command)
    if words[1] in NOT_RUN or " ".join(words[1:3]) in NOT_RUN:
        return None
    text = command
    while "[" in text:  # innermost first
        text = re.sub(r"\[([^\[\]]*)\]", _optional, text)
    words = [w.split("|")[0] if "|" in w and " " not in w else w for w in shlex.split(text)]
    return None if any(_placeholder(w) for w in words) else words


LINES = command_lines()
RUN = [(where, words) for where, command in LINES if (words := as_run(command)) is not None]


def test_the_pages_have_command_lines() -> None:
    """The search finds the lines: most of them run."""
    assert len(LINES) > 40
    assert len(RUN) >= 15


def test_usage_lines_run_with_their_options() -> None:
    assert as_run('doubleholdem equity AhKh "QQ+,AKs" [--board "Kh 8h 2c"] [--json]') == [
        "doubleholdem",
        "equity",
        "AhKh",
        "QQ+,AKs",
        "--board",
        "Kh 8h 2c",
        "--json",
    ]
    assert as_run("doubleholdem point --flop F [--opponents 2 | --against X]") is None
    assert as_run("doubleholdem x [--samples N | --exact] [--seed S] [--point 0|1|auto]") == [
        "doubleholdem",
        "x",
        "--exact",
        "--point",
        "0",
    ]
    assert as_run("doubleholdem serve --port 8000") is None
    assert as_run("doubleholdem casino analyze [--json]") is None


@pytest.mark.skipif(shutil.which("doubleholdem") is None, reason="the command is not installed")
@pytest.mark.parametrize(("where", "words"), RUN, ids=[where for where, _ in RUN])
def test_the_command_runs_as_written(where: str, words: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run(
        [sys.executable, "-m", "doubleholdem.cli", *words[1:]],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert result.returncode == 0, f"{where}: {shlex.join(words)}\n{result.stderr}"
