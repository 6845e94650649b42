"""Public functions raise the package's typed errors (or ValueError/TypeError) for bad
input, never OverflowError, AttributeError, KeyError or a panic (issue 12)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import doubleholdem as dh
from doubleholdem import cards
from doubleholdem.errors import InvalidCard, InvalidHand, TableError
from doubleholdem.table.bots import EquityBot
from doubleholdem.table.table import Observation, Table, TableConfig


@pytest.mark.parametrize("k", [-1, 0, 4, 8, 2**70])
def test_category_counts_of_a_bad_size(k: int) -> None:
    with pytest.raises(InvalidHand, match="5, 6 or 7"):
        dh.category_counts(k)


@pytest.mark.parametrize("k", [5.0, "5", None])
def test_category_counts_of_a_non_integer(k: object) -> None:
    with pytest.raises(TypeError, match="5, 6 or 7"):
        dh.category_counts(k)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [[52], [-1], [0, 2**70], [1.5], ["As"]])
def test_shuffled_refuses_what_is_not_a_card(bad: list[Any]) -> None:
    with pytest.raises(InvalidCard):
        cards.shuffled(bad, seed=1)


def test_shuffled_refuses_a_generator_that_cannot_shuffle() -> None:
    with pytest.raises(TypeError, match="rng"):
        cards.shuffled([1, 2, 3], rng=object())  # type: ignore[arg-type]


def test_shuffled_still_shuffles() -> None:
    assert sorted(cards.shuffled(list(range(52)), seed=1)) == list(range(52))
    assert sorted(cards.shuffled([3, 4, 5], rng=random.SystemRandom())) == [3, 4, 5]


@pytest.mark.parametrize("samples", [-1, 0, 2**40, 1.5, "200", True])
def test_equity_bot_refuses_bad_samples(samples: object) -> None:
    with pytest.raises((ValueError, TypeError), match="samples"):
        EquityBot(samples=samples)  # type: ignore[arg-type]


def _view() -> dict[str, Any]:
    table = Table(TableConfig(small_blind=5, big_blind=10, seats=2), seed=1)
    table.join(0, "a", 1000)
    table.join(1, "b", 1000)
    table.start_hand()
    seat = table.to_act
    assert seat is not None
    view: dict[str, Any] = table.view(seat)
    return view


def test_observation_from_a_whole_view() -> None:
    assert Observation.from_view(_view()).legal.seat in (0, 1)


@pytest.mark.parametrize(
    "path",
    [
        ("hand",),
        ("big_blind",),
        ("variant",),
        ("hand", "legal"),
        ("hand", "hole"),
        ("hand", "board"),
        ("hand", "pot"),
        ("hand", "in_hand"),
        ("hand", "decision"),
        ("hand", "legal", "seat"),
        ("hand", "legal", "points"),
    ],
)
def test_observation_from_a_view_with_a_field_missing(path: tuple[str, ...]) -> None:
    view = _view()
    inner = view
    for key in path[:-1]:
        inner = inner[key]
    del inner[path[-1]]
    with pytest.raises(TableError, match=path[-1]):
        Observation.from_view(view)


@pytest.mark.parametrize("view", [None, [], {"hand": 3}, {"hand": {"legal": 5}}])
def test_observation_from_what_is_not_a_view(view: object) -> None:
    with pytest.raises(TableError):
        Observation.from_view(view)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "home"),
    [
        ("ProtocolError", "doubleholdem.server.protocol"),
        ("WalletFailed", "doubleholdem.server.money.wallet_gate"),
        ("WalletUnavailable", "doubleholdem.server.money.wallet_gate"),
        ("DatabaseInUse", "doubleholdem.server.storage.lock"),
        ("DatabaseNotEmpty", "doubleholdem.server.storage.copy"),
        ("MoneyKindMismatch", "doubleholdem.server.tables.money_kind"),
    ],
)
def test_a_server_failure_by_its_old_name_is_the_one_beside_its_code(name: str, home: str) -> None:
    """The server's failures moved beside the code that raises them (issue 31 item 7);
    ``doubleholdem.errors`` still gives each by its old name for a release, warning."""
    import importlib

    from doubleholdem import errors

    with pytest.warns(DeprecationWarning, match=f"{home}.{name}"):
        old = getattr(errors, name)
    assert old is getattr(importlib.import_module(home), name)
    assert old.__module__ == home and issubclass(old, errors.DoubleHoldemError)


def test_errors_has_no_other_moved_name() -> None:
    from doubleholdem import errors

    with pytest.raises(AttributeError, match="NoSuchError"):
        errors.NoSuchError  # noqa: B018
