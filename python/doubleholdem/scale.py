"""Heavy work split into chunks and run elsewhere: the one Ray runner of the package.

The exact equity enumeration (:func:`doubleholdem.equity.calculate`) and the casino
analysis (:func:`doubleholdem.casino.analyze`) both take a ``runner``: a function that
runs a chunk function on each argument tuple and returns the results in order. Their
``ray_runner`` is :func:`ray_map` of their chunk function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from doubleholdem.extras import require

__all__ = ["ray_map"]

T = TypeVar("T")


def ray_map(function: Callable[..., T], tasks: Sequence[tuple[object, ...]]) -> list[T]:
    """``[function(*task) for task in tasks]``, each task a Ray task (``pip install
    doubleholdem[ray]``; call ``ray.init(...)`` first)."""
    ray = require("ray", "ray", "ray_runner")
    remote = ray.remote(function)
    return list(ray.get([remote.remote(*task) for task in tasks]))
