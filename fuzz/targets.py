"""Fuzz targets: each takes the fuzzer's bytes and feeds them to one public parser.

The contract every target checks: bad input raises the package's typed errors (a
:class:`~doubleholdem.errors.DoubleHoldemError`), ``ValueError`` or ``TypeError`` and
nothing else. Any other exception (``KeyError``, ``AttributeError``, ``OverflowError``,
``RecursionError``, ``AssertionError``, a Rust panic) escapes and is a crash; so is a
result that breaks the target's own checks (an ``assert`` here).

Adding a target (the slot for range parsing, ``Table`` snapshots and the server's
messages): write ``def fuzz_NAME(data: bytes) -> None`` below, add it to ``TARGETS``,
and commit a few valid inputs as seeds in ``fuzz/corpus/NAME/``. ``make fuzz`` then runs
it for ``FUZZ_SECONDS`` seconds in CI, and ``tests/test_fuzz_regressions.py`` replays
the seeds and every input under ``fuzz/regressions/NAME/`` (where a crash found goes,
once fixed) on every test run.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from doubleholdem.errors import DoubleHoldemError

EXPECTED: tuple[type[BaseException], ...] = (DoubleHoldemError, ValueError, TypeError)
"""What bad input may raise."""


def _text(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def fuzz_phh(data: bytes) -> None:
    """Hand-history loading: ``phh.loads`` and, if it reads, ``replay``."""
    from doubleholdem.game import phh

    text = _text(data)
    if text is None:
        return
    try:
        history = phh.loads(text)
    except EXPECTED:
        return
    try:
        phh.replay(history)
    except EXPECTED:
        return


def fuzz_hand_snapshot(data: bytes) -> None:
    """``Hand.from_json``: a restored hand answers its questions and saves itself again."""
    from doubleholdem.game import Hand

    text = _text(data)
    if text is None:
        return
    try:
        hand = Hand.from_json(text)
    except EXPECTED:
        return
    again = Hand.from_json(hand.to_json())
    assert again.to_json() == hand.to_json()
    hand.legal_actions()


class _Bytes:
    """Reads small choices from the fuzzer's bytes (0 once they run out)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def pick(self, n: int) -> int:
        if n <= 1:
            return 0
        byte = self.data[self.at] if self.at < len(self.data) else 0
        self.at += 1
        return byte % n


_VALUES: tuple[object, ...] = (
    None, True, False, -1, 0, 1, 2, 3, 7, 9, 10, 51, 52, 255, 256, 2**31, 2**32, 2**53,
    2**63 - 1, 2**63, 2**64, -(2**63), 10**30, 1.5, float("nan"), "", "x", "As", "??",
    "texas", "double", "no-limit", "flop", [], [0], [None], {}, {"a": 1},
)  # fmt: skip


def _edit(value: Any, reader: _Bytes, depth: int = 0) -> Any:
    """``value`` with one leaf (or key) replaced, removed or duplicated."""
    if isinstance(value, dict) and value and depth < 8:
        key = sorted(value)[reader.pick(len(value))]
        action = reader.pick(8)
        if action == 0:
            return {k: v for k, v in value.items() if k != key}
        return {**value, key: _edit(value[key], reader, depth + 1)}
    if isinstance(value, list) and value and depth < 8:
        i = reader.pick(len(value))
        action = reader.pick(8)
        if action == 0:
            return value[:i] + value[i + 1 :]
        if action == 1:
            return [*value, value[i]]
        return [*value[:i], _edit(value[i], reader, depth + 1), *value[i + 1 :]]
    return _VALUES[reader.pick(len(_VALUES))]


def fuzz_hand_snapshot_fields(data: bytes) -> None:
    """``Hand.restore`` of a real snapshot (from the seeds of ``hand_snapshot``) with a
    few fields replaced by odd values: reaches the checks behind the JSON syntax."""
    from doubleholdem.game import Hand

    seeds = _snapshot_seeds()
    reader = _Bytes(data)
    snapshot = seeds[reader.pick(len(seeds))]
    for _ in range(1 + reader.pick(4)):
        snapshot = _edit(snapshot, reader)
    try:
        hand = Hand.restore(snapshot)
    except EXPECTED:
        return
    hand.legal_actions()
    Hand.from_json(hand.to_json())


@functools.lru_cache(maxsize=1)
def _snapshot_seeds() -> list[Any]:
    folder = Path(__file__).resolve().parent / "corpus" / "hand_snapshot"
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def fuzz_cards(data: bytes) -> None:
    """Card text: ``parse_cards`` / ``parse_card``, and the evaluator on what parses."""
    from doubleholdem import cards
    from doubleholdem.evaluate import evaluate

    text = _text(data)
    if text is None:
        return
    try:
        parsed = cards.parse_cards(text)
    except EXPECTED:
        return
    assert all(0 <= c <= 51 for c in parsed), parsed
    assert cards.parse_cards(cards.format_cards(parsed)) == parsed
    try:
        evaluate(parsed)
    except EXPECTED:
        return


def fuzz_json_cards(data: bytes) -> None:
    """Cards given as JSON values (lists, numbers, strings), as a server receives them."""
    from doubleholdem import cards

    text = _text(data)
    if text is None:
        return
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    try:
        cards.parse_cards(value)
    except EXPECTED:
        return


TARGETS: dict[str, Callable[[bytes], None]] = {
    "phh": fuzz_phh,
    "hand_snapshot": fuzz_hand_snapshot,
    "hand_snapshot_fields": fuzz_hand_snapshot_fields,
    "cards": fuzz_cards,
    "json_cards": fuzz_json_cards,
    # The slot for the other parsers, as they land (see the module docstring):
    # "range": fuzz_range,            # equity: range parsing ("AKs, TT+")
    # "table_snapshot": fuzz_table,   # Table.from_json
    # "server_message": fuzz_server,  # the game server's message decoding
}
