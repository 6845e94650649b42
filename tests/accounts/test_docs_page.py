"""The examples of docs/accounts.md run (and fast: Argon2 at test parameters, passed
explicitly)."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "accounts.md"


def test_the_accounts_page_examples() -> None:
    result = doctest.testfile(
        str(PAGE),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
    )
    assert result.failed == 0
    assert result.attempted > 30
