"""Every docstring example in the package and every example in README.md runs."""

from __future__ import annotations

import doctest
import importlib
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
README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.parametrize("name", ["doubleholdem", *MODULES])
def test_docstrings(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS)
    assert result.failed == 0


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0
    assert result.attempted > 0
