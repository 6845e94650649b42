"""Every fuzz target on its committed seeds and on every input that once crashed it
(fuzz/regressions/TARGET/): bad input raises typed errors only (issue 12)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))

from targets import TARGETS  # noqa: E402


def _inputs() -> list[tuple[str, Path]]:
    found = []
    for name in sorted(TARGETS):
        for kind in ("corpus", "regressions"):
            folder = FUZZ / kind / name
            if folder.is_dir():
                found += [(name, p) for p in sorted(folder.iterdir()) if p.is_file()]
    return found


def test_every_target_has_seeds() -> None:
    for name in TARGETS:
        assert any((FUZZ / "corpus" / name).iterdir()), name


@pytest.mark.parametrize(
    ("name", "path"), _inputs(), ids=[f"{n}/{p.parent.parent.name}/{p.name}" for n, p in _inputs()]
)
def test_committed_input(name: str, path: Path) -> None:
    TARGETS[name](path.read_bytes())
