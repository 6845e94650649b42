"""The observation's layout is declared once (issue 31 item 4): docs/rl.md's table of
blocks is the layout's (that every writer puts each block where the layout says is
tests/rl/test_vector.py's: the vector environment's observations equal the AEC
encoder's)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doubleholdem.rl.layout import LEGAL_FEATURES, SEAT_FEATURES, Layout

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
ROW = re.compile(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|$")


def documented() -> list[tuple[str, str]]:
    """The (block, size expression) rows of docs/rl.md's table of blocks."""
    lines = DOCS.read_text().splitlines()
    first = lines.index("| block | size | meaning |") + 2  # after the header and its rule
    rows = []
    for line in lines[first:]:
        found = ROW.match(line)
        if found is None:
            break
        rows.append((found[1], found[2].strip()))
    return rows


def size_of(expression: str, players: int, history: int, actions: int) -> int:
    """A documented size ("52", "7 n", "52 (n-1)", "h (n+11)", "actions") worked out."""
    names = {"n": players, "h": history, "actions": actions}
    text = re.sub(r"\b(n|h|actions)\b", lambda m: str(names[m[1]]), expression)
    text = re.sub(r"(\d)\s+(?=[\d(])", r"\1*", text)  # "7 3" -> "7*3", "52 (3-1)" -> "52*(3-1)"
    assert re.fullmatch(r"[\d()+\-* ]+", text), expression
    return int(eval(text))  # digits and operators only, checked above


@pytest.mark.parametrize(("players", "history", "actions"), [(2, 4, 9), (6, 16, 7), (10, 1, 3)])
def test_the_docs_table_is_the_layout(players: int, history: int, actions: int) -> None:
    layout = Layout(players, double=True, history=history, mask=actions)  # every block
    rows = documented()
    assert [name for name, _ in rows] == [block.name for block in layout.blocks]
    for (name, expression), block in zip(rows, layout.blocks):
        assert size_of(expression, players, history, actions) == block.size, name


def test_the_rows_fields_are_the_documented_ones() -> None:
    text = DOCS.read_text()
    seats = next(size for name, size in documented() if name == "seats")
    assert seats == f"{len(SEAT_FEATURES)} n"
    assert len(LEGAL_FEATURES) == 7 and "`legal` | 7 |" in text
    past = Layout(3, False, 1, None).past
    assert (past.kind, past.street, past.chips, past.size) == (3, 8, 12, 14)  # n, n+5, n+9, n+11
