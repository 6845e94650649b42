"""``doubleholdem.__version__``: the installed distribution's version, which maturin takes
from the Cargo workspace (pyproject.toml: dynamic version)."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import doubleholdem

CARGO = Path(__file__).resolve().parent.parent / "Cargo.toml"


def test_version_is_the_cargo_workspace_version() -> None:
    found = re.search(r'(?m)^version = "([^"]+)"', CARGO.read_text())
    assert found is not None
    assert doubleholdem.__version__ == found.group(1) == version("doubleholdem")


def test_version_is_read_only_when_asked_for() -> None:
    """Reading the package metadata is slow: ``import doubleholdem`` does not do it."""
    code = "import doubleholdem; print('__version__' in vars(doubleholdem))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.split() == ["False"]


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = doubleholdem.nope  # type: ignore[attr-defined]
