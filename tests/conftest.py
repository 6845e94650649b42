from __future__ import annotations

import numpy as np
import pytest


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """n rows of k distinct cards, uniformly random."""
    rng = np.random.default_rng(seed)
    return np.argpartition(rng.random((n, 52)), k, axis=1)[:, :k].astype(np.uint8)


@pytest.fixture
def hands7() -> np.ndarray:
    return random_hands(20_000, 7, seed=7)
