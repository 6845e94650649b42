from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """n rows of k distinct cards, uniformly random."""
    rng = np.random.default_rng(seed)
    return np.argpartition(rng.random((n, 52)), k, axis=1)[:, :k].astype(np.uint8)


@pytest.fixture
def hands7() -> np.ndarray:
    return random_hands(20_000, 7, seed=7)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Records every call the bots make to the core's equities."""
    from doubleholdem import _core
    from doubleholdem.table import bots

    recorded: list[tuple[Any, ...]] = []
    real: Callable[..., list[float]] = _core.equities

    def recording(*args: Any) -> list[float]:
        recorded.append(args)
        return real(*args)

    monkeypatch.setattr(bots._core, "equities", recording)
    return recorded
