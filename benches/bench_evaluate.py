"""Evaluator throughput against the fastest libraries a Python user could call instead,
on the same random seven-card hands in the same run (issue 2 targets, not tests):
OMPEval through pokerfast's batch C entry point on a numpy array, phevaluator, eval7
and treys.

Run: ``make bench`` (or ``python -m pytest benches/bench_evaluate.py --benchmark-enable``);
the summary prints hands per second and the ratios.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import pytest

import doubleholdem as dh
from doubleholdem import double

N = 2_000_000  # hands for the batch evaluators
SMALL = 20_000  # hands for the per-hand Python libraries
rng = np.random.default_rng(2026)
HANDS = np.argpartition(rng.random((N, 52)), 7, axis=1)[:, :7].astype(np.uint8)
DEALS = np.argpartition(rng.random((N, 52)), 8, axis=1)[:, :8].astype(np.uint8)
HOLES, BOARDS = np.ascontiguousarray(DEALS[:, :3]), np.ascontiguousarray(DEALS[:, 3:])
POINTS = rng.integers(0, 3, N).astype(np.uint8)


def run(benchmark: Any, items: int, function: Any, *args: Any) -> Any:
    benchmark.extra_info["items"] = items
    return benchmark.pedantic(function, args=args, rounds=7, iterations=1, warmup_rounds=1)


@pytest.mark.benchmark(group="evaluate 7 cards, one thread")
def test_doubleholdem_evaluate_batch(benchmark: Any) -> None:
    run(benchmark, N, lambda: dh.evaluate_batch(HANDS, threads=1))


@pytest.mark.benchmark(group="evaluate 7 cards, one thread")
def test_ompeval_pokerfast_batch(benchmark: Any) -> None:
    from pokerfast import equity

    lib = equity._load()
    # OMPEval numbers suits s, h, c, d: remap ours (c, d, h, s) once, outside the timing.
    remap = np.array([4 * (c >> 2) + (2, 3, 1, 0)[c & 3] for c in range(52)], np.uint8)
    theirs = np.ascontiguousarray(remap[HANDS])
    out = np.empty(N, np.uint16)
    buffer, result = (
        theirs.ctypes.data_as(ctypes.c_char_p),
        out.ctypes.data_as(ctypes.POINTER(ctypes.c_uint16)),
    )
    run(benchmark, N, lambda: lib.pf_evaluate(buffer, N, 7, result))
    ours = dh.evaluate_batch(HANDS)
    assert (np.argsort(ours[:1000], kind="stable") == np.argsort(out[:1000], kind="stable")).all()


@pytest.mark.benchmark(group="evaluate 7 cards, one thread")
def test_phevaluator(benchmark: Any) -> None:
    from phevaluator import evaluate_cards

    rows = HANDS[:SMALL].tolist()
    run(benchmark, SMALL, lambda: [evaluate_cards(*row) for row in rows])


@pytest.mark.benchmark(group="evaluate 7 cards, one thread")
def test_eval7(benchmark: Any) -> None:
    import eval7

    deck = [eval7.Card(name) for name in dh.cards.CARD_NAMES]
    rows = [[deck[c] for c in row] for row in HANDS[:SMALL].tolist()]
    run(benchmark, SMALL, lambda: [eval7.evaluate(row) for row in rows])


@pytest.mark.benchmark(group="evaluate 7 cards, one thread")
def test_treys(benchmark: Any) -> None:
    from treys import Card, Evaluator

    evaluator = Evaluator()
    deck = [Card.new(name) for name in dh.cards.CARD_NAMES]
    rows = [[deck[c] for c in row] for row in HANDS[:SMALL].tolist()]
    run(benchmark, SMALL, lambda: [evaluator.evaluate(row[:2], row[2:]) for row in rows])


@pytest.mark.benchmark(group="evaluate 7 cards, all cores")
def test_doubleholdem_evaluate_batch_all_cores(benchmark: Any) -> None:
    run(benchmark, N, lambda: dh.evaluate_batch(HANDS))


@pytest.mark.benchmark(group="Double Hold'em players, one thread")
def test_doubleholdem_resolve_batch(benchmark: Any) -> None:
    run(benchmark, N, lambda: double.resolve_batch(HOLES, POINTS, BOARDS, threads=1))


@pytest.mark.benchmark(group="all 133,784,560 seven-card hands, one thread")
def test_doubleholdem_category_counts(benchmark: Any) -> None:
    run(benchmark, 133_784_560, lambda: dh.category_counts(7, threads=1))
