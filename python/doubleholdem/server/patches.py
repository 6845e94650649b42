"""Patches of JSON views (docs/PROTOCOL.md, "Updates"): what a client holding a view is
sent after a change, a table's ``update`` and a tournament's ``tournament_update``
alike, sized by what changed rather than by the view. :func:`diff` makes the patch,
:func:`apply_patch` applies it (the pages' ``static/patch.js`` is its twin). A patch is
a list of operations applied in order, each a JSON array:

- ``[path, value]`` sets the value at ``path`` (keys of objects, indexes of arrays;
  ``[]`` is the whole view);
- ``[path]`` removes the member ``path`` names from its object;
- ``[path, start, removed, items]`` splices the array at ``path``: removes ``removed``
  items from index ``start`` and puts ``items`` there.

Objects are patched key by key (added keys set, removed keys removed); arrays of the same
length member by member; an array that grew or shrank by ``d`` items is spliced once, at
the place where ``d`` consecutive items came or went that leaves the fewest of the
others changed, and those are patched member by member. So one entry registering in a
field of thousands is one splice of one entry, and a table broken one splice removing
it, beside the members that changed.

>>> diff({"a": 1, "b": [1, 2], "c": {"x": 0}}, {"a": 1, "b": [1, 3], "c": None})
[[['b', 1], 3], [['c'], None]]
>>> diff({"a": 1, "b": 2}, {"a": 1, "c": 3})
[[['b']], [['c'], 3]]
>>> diff([{"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}], [{"n": 1}, {"n": 3}, {"n": 5}])
[[[], 1, 1, []], [[2, 'n'], 5]]
>>> diff([1, 2, 3, 4], [1, 9, 3, 4, 5])
[[[], 4, 0, [5]], [[1], 9]]
"""

from __future__ import annotations

from typing import Any

__all__ = ["Patch", "apply_patch", "diff", "diff_into"]

Patch = list[list[Any]]


def diff(old: Any, new: Any) -> Patch:
    """The patch that turns the JSON value ``old`` into ``new`` (see the module)."""
    ops: Patch = []
    diff_into(old, new, [], ops)
    return ops


def diff_into(old: Any, new: Any, path: list[Any], ops: Patch) -> None:
    """Adds to ``ops`` the patch that turns the member ``path`` of a view from ``old``
    into ``new`` (nothing if they are equal)."""
    if _differ(old, new):
        _diff(old, new, path, ops)


def _differ(old: Any, new: Any) -> bool:
    # Equal values of the same type are the same (views never hold a bool and a number
    # at the same place, where True == 1 would hide a change); one value is itself (a
    # view made from the last one's parts shares the parts that did not change).
    return old is not new and (type(old) is not type(new) or old != new)


def _diff(old: Any, new: Any, path: list[Any], ops: Patch) -> None:
    """Adds to ``ops`` the patch from ``old`` to ``new``, which differ."""
    if type(old) is dict and type(new) is dict and old.keys() & new.keys():
        ops.extend([[*path, key]] for key in old if key not in new)
        for key, value in new.items():
            if key not in old:
                ops.append([[*path, key], value])
            elif _differ(old[key], value):
                _diff(old[key], value, [*path, key], ops)
    elif type(old) is list and type(new) is list and old and new:
        _diff_arrays(old, new, path, ops)
    else:
        ops.append([path, new])


def _diff_arrays(old: list[Any], new: list[Any], path: list[Any], ops: Patch) -> None:
    """Adds to ``ops`` the patch from the array ``old`` to ``new``: a splice where
    :func:`_gap` puts it when their lengths differ, then each member that changed, at its
    index in ``new``."""
    grown = len(new) - len(old)
    start = _gap(old, new) if grown else len(new)
    if grown > 0:
        ops.append([path, start, 0, new[start : start + grown]])
    elif grown < 0:
        ops.append([path, start, -grown, []])
    for index, value in enumerate(new):
        if start <= index < start + grown:
            continue  # spliced in
        before = old[index] if index < start else old[index - grown]
        if _differ(before, value):
            _diff(before, value, [*path, index], ops)


def _gap(old: list[Any], new: list[Any]) -> int:
    """Where the ``d`` consecutive items the longer of ``old`` and ``new`` has more (or
    fewer) leave the fewest of the others unequal to the member they are paired with:
    items before it pair with the same index, items after it with the index ``d``
    further on. The latest such place (an array grows at its end). Two passes over the
    shorter array."""
    short, long = (old, new) if len(old) < len(new) else (new, old)
    extra = len(long) - len(short)
    # front[i]: items unequal among short[:i] paired with long[:i]
    front = [0]
    for index, item in enumerate(short):
        front.append(front[-1] + _differ(item, long[index]))
    # back: items unequal among short[i:] paired with long[i + extra:], for i going down
    best, best_at, back = front[len(short)], len(short), 0
    for index in range(len(short) - 1, -1, -1):
        back += _differ(short[index], long[index + extra])
        if front[index] + back < best:
            best, best_at = front[index] + back, index
    return best_at


def apply_patch(value: Any, patch: Patch) -> Any:
    """``value`` with ``patch`` (from :func:`diff`) applied: changed in place, and
    returned (a patch with path ``[]`` replaces it whole).

    >>> apply_patch({"a": 1, "b": [1, 2]}, [[["b", 1], 3], [["a"], None]])
    {'a': None, 'b': [1, 3]}
    >>> apply_patch({"a": 1, "b": [1, 2]}, [[["a"]], [["b"], 0, 1, [7, 8]]])
    {'b': [7, 8, 2]}
    """
    for op in patch:
        path = op[0]
        if len(op) == 4:
            start, removed, items = op[1], op[2], op[3]
            _at(value, path)[start : start + removed] = items
        elif not path:
            value = op[1]
        elif len(op) == 1:
            del _at(value, path[:-1])[path[-1]]
        else:
            _at(value, path[:-1])[path[-1]] = op[1]
    return value


def _at(value: Any, path: list[Any]) -> Any:
    """The member of ``value`` at ``path``."""
    for key in path:
        value = value[key]
    return value
