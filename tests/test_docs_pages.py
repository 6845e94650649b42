"""The examples of the equity and casino pages in docs/ run (their features' docs)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("page", ["equity.md", "casino.md"])
def test_page_examples(page: str) -> None:
    result = doctest.testfile(str(DOCS / page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0
    assert result.attempted > 5
