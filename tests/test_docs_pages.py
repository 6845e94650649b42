"""The examples of the equity and casino pages in docs/ run (their features' docs)."""

from __future__ import annotations

import doctest
import subprocess
import venv
from pathlib import Path

import pytest

FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("page", ["equity.md", "casino.md"])
def test_page_examples(page: str) -> None:
    result = doctest.testfile(str(DOCS / page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0
    assert result.attempted > 5


def test_make_docs_without_the_docs_extra_says_what_to_install(tmp_path: Path) -> None:
    """``make docs`` in an environment without the docs extra says how to install it
    (it failed with "No module named mkdocs")."""
    venv.create(tmp_path / "bare")  # no pip, no mkdocs
    bare = tmp_path / "bare" / "bin" / "python"
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        ["make", "-s", "-C", str(root), "docs", f"PYTHON={bare}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert 'make docs needs the docs extra: pip install ".[docs]"' in done.stderr
