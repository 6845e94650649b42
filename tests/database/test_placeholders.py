"""The placeholders of one SQL text on both databases, differentially (hypothesis):
random ``SELECT`` lists of ``?`` parameters, quoted text and quoted names holding ``?``,
quotes, ``$`` and ``%`` return the same row from SQLite (which reads ``?`` itself) and
from PostgreSQL (which gets them numbered ``$1, $2, ...`` by
:func:`doubleholdem.database.postgres.native`)."""

from __future__ import annotations

import sqlite3
import string
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.database.connection import Connection
from doubleholdem.database.postgres import native
from doubleholdem.database.url import connect
from postgres_cluster import Cluster

TRICKY = string.ascii_letters + string.digits + " ?'\"$%;-"
TEXT = st.text(alphabet=TRICKY, max_size=12)


@st.composite
def selects(draw: st.DrawFn) -> tuple[str, list[int], tuple[Any, ...]]:
    """A ``SELECT`` of parameters and literals: its text, its parameters, its row."""
    items, parameters, row = [], [], []
    for number in range(draw(st.integers(1, 8))):
        if draw(st.booleans()):
            value = draw(st.integers(-(2**31), 2**31 - 1))
            item, expected = "?", value
            parameters.append(value)
        else:
            text = draw(TEXT)
            item, expected = "'" + text.replace("'", "''") + "'", text
        if draw(st.booleans()):  # a quoted name holding anything but a double quote
            name = draw(TEXT).replace('"', "")
            item += f' AS "{name}{number}"'
        items.append(item)
        row.append(expected)
    return "SELECT " + ", ".join(items), parameters, tuple(row)


@pytest.fixture(scope="module")
def databases(postgres: Cluster) -> Iterator[tuple[sqlite3.Connection, Connection]]:
    lite, pg = sqlite3.connect(":memory:"), connect(postgres.url())
    yield lite, pg
    lite.close()
    pg.close()


@settings(max_examples=150, deadline=None)
@given(select=selects())
def test_one_text_gives_one_row_on_both(
    databases: tuple[sqlite3.Connection, Connection], select: tuple[str, list[int], tuple[Any, ...]]
) -> None:
    sql, parameters, row = select
    lite, pg = databases
    assert tuple(lite.execute(sql, parameters).fetchone()) == row
    assert tuple(pg.execute(sql, parameters).fetchone()) == row
    assert native(sql).count("$") - sql.count("$") == len(parameters)
