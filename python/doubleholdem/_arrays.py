"""Turning user input into the C-contiguous uint8 card arrays the Rust core reads.

numpy is imported here, on the first batch call, never at ``import doubleholdem``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from doubleholdem.errors import InvalidCard, InvalidHand
from doubleholdem.extras import require

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def as_uint8(array: Any, name: str, ndim: int, *, cards: bool = True) -> npt.NDArray[np.uint8]:
    """``array`` as C-contiguous uint8 without copying when it already is; other integer
    arrays and nested lists are converted, refusing values that do not fit (the
    uint8 input itself is validated by the core in the same pass that evaluates it)."""
    require("numpy", "numpy", "a batch of cards")
    import numpy as np

    a = np.asarray(array)
    if a.ndim != ndim:
        raise InvalidHand(f"{name} must have {ndim} dimension(s), got shape {a.shape}")
    if a.dtype != np.uint8:
        if a.size and a.dtype.kind not in "iu":
            raise InvalidHand(f"{name} must hold integers, not {a.dtype}")
        limit = 52 if cards else 256
        bad = np.nonzero((a < 0) | (a >= limit))
        if bad[0].size:
            where = tuple(int(axis[0]) for axis in bad)
            value = int(a[where])
            what = f"{value} is not a card: cards are integers 0..51" if cards else f"{value}"
            raise (InvalidCard if cards else InvalidHand)(
                f"row {where[0]}: {what}", card=value, row=where[0]
            )
        a = a.astype(np.uint8)
    return np.ascontiguousarray(a)
