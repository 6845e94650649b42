"""Every docstring example in the package, and every example in README.md and in the
documentation site's pages (docs/*.md), runs."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import doubleholdem

FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(doubleholdem.__path__, "doubleholdem.")
    if not info.name.startswith("doubleholdem._core") and not info.name.endswith(".__main__")
)
ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted(page for page in (ROOT / "docs").rglob("*.md") if ">>>" in page.read_text())


@pytest.mark.parametrize("name", ["doubleholdem", *MODULES])
def test_docstrings(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS)
    assert result.failed == 0


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0
    assert result.attempted > 0


def test_readme_is_a_front_door() -> None:
    """Issue 18: the README stays short; the long material is on the documentation site."""
    assert len(README.read_text().splitlines()) <= 300


def test_docs_pages_have_examples() -> None:
    assert {page.name for page in PAGES} >= {"evaluating.md", "equity.md", "playing.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_docs_page_examples(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0
    assert result.attempted > 0


def test_api_reference_renders_docstrings_as_markdown() -> None:
    """The site's griffe extension (mkdocs.yml): doctest runs become fenced code, Sphinx
    roles and reStructuredText literals become Markdown code, examples stay as they are."""
    path = ROOT / "docs" / "hooks" / "griffe_docstrings.py"
    spec = importlib.util.spec_from_file_location("griffe_docstrings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "See :class:`~doubleholdem.table.Table` and ``x``.\n\n>>> 1 + 1\n2\n\nAfter."
    assert module.markdown_docstring(text) == (
        "See `Table` and `x`.\n\n```pycon\n>>> 1 + 1\n2\n```\n\nAfter."
    )
    assert module.markdown_docstring(">>> f(``a``)\n'b'") == "```pycon\n>>> f(``a``)\n'b'\n```"
