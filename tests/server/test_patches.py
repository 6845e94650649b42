"""Patches of views (doubleholdem.server.patches, docs/PROTOCOL.md "Updates"): applied to
the old value, a patch gives the new one, for any JSON values (hypothesis); its size
follows the change, not the value (an array that gained or lost a run of items is one
splice beside the members that changed); and the pages' one script (static/patch.js)
applies every patch as the server's apply_patch does, in Chromium."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.server.patches import apply_patch, diff
from server_harness import NEEDS_BROWSER, chromium

STATIC = Path(__file__).resolve().parents[2] / "python/doubleholdem/server/http/static"

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", ""])
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.sampled_from(["a", "b", "c", "d", "7"]), inner, max_size=4)
    ),
    max_leaves=30,
)


def _applied(old: Any, patch: list[list[Any]]) -> Any:
    return apply_patch(copy.deepcopy(old), json.loads(json.dumps(patch)))


@given(values, values)
def test_a_patch_turns_the_old_value_into_the_new(old: Any, new: Any) -> None:
    patch = diff(old, new)
    assert _applied(old, patch) == new
    assert (patch == []) == (old == new and type(old) is type(new))


def _entry(number: int, chips: int) -> dict[str, Any]:
    return {"entry": number, "player": f"player-{number}", "chips": chips, "place": None}


@settings(max_examples=200)
@given(
    size=st.integers(1, 300),
    data=st.data(),
)
def test_an_array_that_gains_or_loses_a_run_is_one_splice_beside_the_changed_members(
    size: int, data: st.DataObject
) -> None:
    old = [_entry(n, 1000 + n) for n in range(size)]
    new = copy.deepcopy(old)
    changed = data.draw(st.sets(st.integers(0, size - 1), max_size=5))
    for index in changed:
        new[index]["chips"] += 1
    at = data.draw(st.integers(0, size))
    if data.draw(st.booleans()):
        run = [_entry(1000 + n, 7) for n in range(data.draw(st.integers(1, 4)))]
        new[at:at] = run
        spliced = len(run)
    else:
        gone = data.draw(st.integers(0, min(size - at, size - 1)))  # one left
        del new[at : at + gone]
        spliced = gone
        changed = {i for i in changed if not at <= i < at + gone}
    patch = diff(old, new)
    assert _applied(old, patch) == new
    splices = [op for op in patch if len(op) == 4]
    sets = [op for op in patch if len(op) != 4]
    assert len(splices) == (1 if spliced else 0)
    assert sum(len(op[3]) + op[2] for op in splices) == spliced  # only the run moves
    # the members patched are at most those changed: the true place of the run leaves no
    # more unequal than that, and the splice goes where the fewest are
    assert len({op[0][0] for op in sets}) <= len(changed)


def test_objects_are_patched_key_by_key_and_arrays_member_by_member() -> None:
    old = {"a": [1, {"b": 2}], "c": None, "d": {"e": True, "gone": 1}, "f": [1]}
    new = {"a": [1, {"b": 3}], "c": {"x": 1}, "d": {"e": False, "new": 2}, "f": [1, 2]}
    patch = diff(old, new)
    assert patch == [
        [["a", 1, "b"], 3],
        [["c"], {"x": 1}],
        [["d", "gone"]],
        [["d", "e"], False],
        [["d", "new"], 2],
        [["f"], 1, 0, [2]],
    ]
    assert _applied(old, patch) == new
    assert diff(new, new) == []
    assert diff(old, [1]) == [[[], [1]]]
    assert diff({"a": 1}, {"b": 1}) == [[[], {"b": 1}]]  # nothing kept: sent whole
    assert diff([], [1, 2]) == [[[], [1, 2]]]


CASES = [
    ({"a": [1, 2, 3], "b": {"c": 1}}, [[["a"], 1, 1, []], [["b", "c"]], [["b", "d"], 4]]),
    ([{"n": 1}, {"n": 2}], [[[], 2, 0, [{"n": 3}]], [[0, "n"], 9]]),
    ({"a": 1}, [[[], [5]]]),
    ({"x": {"y": [0, 0]}}, [[["x", "y", 1], None], [["x", "z"], [1]]]),
]


@NEEDS_BROWSER
@settings(max_examples=4, deadline=None)  # a browser each: many patches in one page
@given(st.lists(st.tuples(values, values), min_size=30, max_size=60))
def test_the_pages_script_applies_each_patch_as_the_server_does(pairs: Any) -> None:
    cases = [*CASES, *((old, diff(old, new)) for old, new in pairs)]
    assert _in_chromium(cases) == [_applied(old, patch) for old, patch in cases]


def _in_chromium(cases: list[tuple[Any, list[list[Any]]]]) -> Any:
    """Each case's patch applied to its value by static/patch.js in a page."""
    script = (STATIC / "patch.js").read_text(encoding="utf-8")

    async def run() -> Any:
        async with chromium() as browser:
            page = await browser.new_page()
            await page.add_script_tag(content=script)
            return await page.evaluate(
                "cases => cases.map(([value, patch]) => Patch.apply(value, patch))", cases
            )

    return asyncio.run(run())
