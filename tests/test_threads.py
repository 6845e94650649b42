"""`threads=`: checked against a documented cap, pools bounded, fork-safe (issue 12)."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import doubleholdem as dh
from doubleholdem import _core, casino, double, double_stats

HANDS = np.array([[51, 47, 43, 39, 35, 0, 1], [0, 4, 8, 12, 17, 20, 24]], np.uint8)
HOLES = np.array([[44, 1, 16]], np.uint8)
BOARDS = np.array([[45, 17, 31, 36, 4]], np.uint8)
POINTS = np.array([0], np.uint8)

CALLS: dict[str, Callable[[Any], object]] = {
    "evaluate_batch": lambda t: dh.evaluate_batch(HANDS, threads=t),
    "resolve_batch": lambda t: double.resolve_batch(HOLES, POINTS, BOARDS, threads=t),
    "category_counts": lambda t: dh.category_counts(5, threads=t),
    "casino.analyze": lambda t: casino.analyze(threads=t),
    "casino.simulate": lambda t: casino.simulate(2, 1, threads=t),
    "double_stats": lambda t: double_stats.statistics(threads=t),
}


def test_the_cap_is_a_documented_constant() -> None:
    assert dh.MAX_THREADS == _core.MAX_THREADS == 256
    assert "MAX_THREADS" in (dh.evaluate_batch.__doc__ or "")


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("threads", [-1, 0, 257, 2000, 2**40, 99999999999999999999])
def test_thread_counts_outside_the_cap_are_a_value_error(name: str, threads: int) -> None:
    with pytest.raises(ValueError, match="threads must be a whole number from 1 to 256"):
        CALLS[name](threads)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("threads", [2.0, "2", True])
def test_thread_counts_that_are_not_integers_are_a_type_error(name: str, threads: object) -> None:
    with pytest.raises(TypeError, match="threads must be a whole number from 1 to 256"):
        CALLS[name](threads)


def test_a_huge_thread_count_is_not_printed_in_full() -> None:
    with pytest.raises(ValueError, match="an integer of 61 digits") as error:
        dh.evaluate_batch(HANDS, threads=10**60)
    assert len(str(error.value)) < 100


def test_the_cap_itself_works() -> None:
    assert list(dh.evaluate_batch(HANDS, threads=dh.MAX_THREADS)) == [32777, 20492]


def test_pools_are_bounded_whatever_sizes_are_asked_for() -> None:
    for n in range(1, 41):
        assert list(dh.evaluate_batch(HANDS, threads=n)) == [32777, 20492]
    pools, threads = _core.kept_pools()
    assert pools <= 4
    assert threads <= 37 + 38 + 39 + 40


def test_a_pool_is_reused() -> None:
    dh.evaluate_batch(HANDS, threads=3)
    before = _core.kept_pools()
    for _ in range(5):
        dh.evaluate_batch(HANDS, threads=3)
    assert _core.kept_pools() == before


def _wait(pid: int, seconds: float) -> int | None:
    """The child's exit status, or None if it is still running after ``seconds`` (a
    hang detector, not a timing threshold: a working child exits at once)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.01)
    return None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_child_forked_while_a_pool_is_being_built_works() -> None:
    """Issue 12: a child forked while another thread builds a pool blocked forever on
    its first batch call. Each round asks for a size not asked for before (so a pool is
    being built) and forks at once; the child must evaluate, with and without
    ``threads=``, and exit."""
    hung = []
    for i in range(24):
        size = 200 + i  # new sizes: each round builds a pool
        builder = threading.Thread(
            target=dh.evaluate_batch, args=(HANDS,), kwargs={"threads": size}
        )
        builder.start()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            ok = False
            try:
                ok = list(dh.evaluate_batch(HANDS, threads=size)) == [32777, 20492]
                ok = ok and list(dh.evaluate_batch(HANDS)) == [32777, 20492]
                ok = ok and list(dh.evaluate_batch(HANDS, threads=2)) == [32777, 20492]
            finally:
                os._exit(0 if ok else 1)
        status = _wait(pid, 60)
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            hung.append(i)
        else:
            assert status == 0, f"round {i}: the child failed"
        builder.join()
    assert not hung, f"the child hung in rounds {hung}"
    assert sys.modules["doubleholdem"] is dh


@pytest.mark.parametrize("threads", [257, 2000, 2**40, 99999999999999999999])
def test_equity_thread_counts_above_the_cap_are_a_value_error(threads: int) -> None:
    from doubleholdem import equity

    for exact in (True, False):
        with pytest.raises(ValueError, match="from 1 to 256"):
            equity.calculate(["AsAd", "KsKd"], exact=exact, threads=threads)
