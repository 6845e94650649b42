"""Process tuning for a server and its load: the cycle collector and the open-file limit."""

from __future__ import annotations

import gc

__all__ = ["GC_YOUNG", "quiet_collector", "raise_file_limit"]


GC_YOUNG = 50_000  # allocations between collections of the youngest generation


def quiet_collector() -> None:
    """Tunes Python's cycle collector for a server that makes next to no reference
    cycles but keeps many objects alive (its connections, views and tables): what exists
    now is collected once and frozen out of later collections (``gc.freeze``), and the
    young generation is collected after ``GC_YOUNG`` allocations instead of 700, so that
    the collector pauses the event loop seldom and briefly."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)


def raise_file_limit() -> None:
    """Each client is a socket: allow as many open files as the system lets us."""
    try:
        import resource
    except ImportError:  # pragma: no cover
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
