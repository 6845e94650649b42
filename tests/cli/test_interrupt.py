"""Ctrl-C ends a command with status 130 whenever it lands (issue 35): the command line's
entry point, a second Ctrl-C while the first is reported or while the process shuts
down, and no code generated at run time (``eval`` or ``exec`` of a string: a Ctrl-C that
lands while CPython runs one makes the interpreter end by the signal, whatever status
the program chose)."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import doubleholdem

_CHILD = """
import signal, sys, threading
import doubleholdem.cli as cli

def interrupted_again_while_reporting():
    try:
        signal.raise_signal(signal.SIGINT)  # Ctrl-C
    except KeyboardInterrupt:
        signal.raise_signal(signal.SIGINT)  # again, while the first is reported
        return 130

def interrupted_again_while_a_thread_ends():
    try:
        signal.raise_signal(signal.SIGINT)  # Ctrl-C
    except KeyboardInterrupt:
        # again, from a thread the interpreter joins at its end: anywhere from here on
        threading.Thread(target=signal.raise_signal, args=(signal.SIGINT,)).start()
        return 130

cli.main = {
    "report": interrupted_again_while_reporting,
    "shutdown": interrupted_again_while_a_thread_ends,
}[sys.argv[1]]
cli.entry_point()
"""


@pytest.mark.parametrize("when", ["report", "shutdown"])
def test_a_second_ctrl_c_does_not_end_the_process_by_the_signal(when: str) -> None:
    """The status is 130, not death by SIGINT (a return code of -2), when a second Ctrl-C
    comes while the first is reported or while the process shuts down."""
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_CHILD), when],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == 130, child.stderr


def _strings_run(tree: ast.AST) -> list[int]:
    """The lines of ``tree`` that call ``eval`` or ``exec``."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("eval", "exec")
    ]


def test_the_package_generates_no_code_at_run_time() -> None:
    """No module of the package calls ``eval`` or ``exec`` (the cause of a simulation
    ended by SIGINT instead of 130 when Ctrl-C landed as its first hand was dealt)."""
    package = Path(doubleholdem.__file__).parent
    found = {
        str(path.relative_to(package)): lines
        for path in sorted(package.rglob("*.py"))
        if (lines := _strings_run(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert found == {}
    assert _strings_run(ast.parse("eval('1')\nexec('')")) == [1, 2]  # the check can fail
