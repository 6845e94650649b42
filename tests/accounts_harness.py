"""Shared by the accounts tests: Argon2id with tiny parameters, for speed (tests only;
never a default)."""

from __future__ import annotations

import io
import sys

import pytest

from doubleholdem.cli import main
from passwords_double import FAST

__all__ = ["FAST", "run_accounts"]


def run_accounts(
    capsys: pytest.CaptureFixture[str], *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    """``doubleholdem accounts ARGS`` with ``stdin`` as its standard input: the exit
    status, standard output and standard error."""
    sys.stdin = io.StringIO(stdin)
    try:
        status = main(["accounts", *args])
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return status, out, err
