"""A hand saved as JSON-ready data, and played again from it: the settings, the deck and
every decision so far as ``[seat, kind, amount]``, under :data:`SNAPSHOT_VERSION`.
Restoring plays the decisions again on the deck by the rules, so a snapshot restores to
exactly the hand it was taken from, or is refused with
:class:`~doubleholdem.errors.InvalidSnapshot` saying what is wrong.

:class:`~doubleholdem.game.Hand`'s ``snapshot``, ``to_json``, ``restore`` and
``from_json`` are these functions; this module knows a hand only by what it is given
(the settings, the deck, the event log) and by the three ways to decide
(:class:`Replayable`).

>>> records = [(0, "deal", 0, None, None, (1, 2), False, None, (), None, None, None, ()),
...            (1, "raise", 0, 20, 30, (), False, None, (), None, None, None, ())]
>>> decisions(records)
[[0, 'raise', 30]]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from doubleholdem.errors import DoubleHoldemError, IllegalAction, InvalidSnapshot
from doubleholdem.game.betting import Action
from doubleholdem.game.config import GameConfig
from doubleholdem.game.dealing import card_order
from doubleholdem.game.words import BET, CALL, CHECK, FOLD, KILL, POINT, RAISE, TIMEOUT

__all__ = [
    "SNAPSHOT_VERSION",
    "Replayable",
    "decisions",
    "loads",
    "play_through",
    "replay",
    "restore",
    "snapshot",
]

SNAPSHOT_VERSION = 3
_FIELDS = frozenset({"version", "config", "deck", "decisions"})
_DECIDED = frozenset({FOLD, CHECK, CALL, BET, RAISE, POINT, TIMEOUT, KILL})
_ACTIONS = frozenset(a.value for a in Action if a is not Action.ALL_IN) | frozenset(
    a for a in Action if a is not Action.ALL_IN
)


class Replayable(Protocol):
    """The decisions a snapshot plays again, checked like any other."""

    @property
    def actor(self) -> int | None: ...
    def act(self, action: Any, amount: int | None = None, seat: int | None = None) -> object: ...
    def choose_point(self, seat: int, point: int | str) -> object: ...
    def timeout(self, seat: int) -> object: ...
    def kill(self, seat: int) -> object: ...


H = TypeVar("H", bound=Replayable)


def snapshot(
    config: GameConfig, deck: Sequence[int], records: Sequence[tuple[Any, ...]]
) -> dict[str, Any]:
    """The snapshot of a hand of ``config`` dealt from ``deck`` whose event log is
    ``records`` (:class:`~doubleholdem.game.Event` fields as tuples)."""
    return {
        "version": SNAPSHOT_VERSION,
        "config": config.to_dict(),
        "deck": list(deck),
        "decisions": decisions(records, config.dead_hands),
    }


def decisions(
    records: Sequence[tuple[Any, ...]], dealt_dead: Sequence[int] = ()
) -> list[list[Any]]:
    """Every decision of the event log ``records`` as ``[seat, kind, amount]``: a
    timeout, a hand killed (TH-24), or the action or point card the seat chose
    (``amount`` the total of a bet or raise, or the point index; the event after a
    timeout is what the timeout did). The kills of the hands ``dealt_dead`` (a config's
    ``dead_hands``) are the deal's, made again by the config: not decisions."""
    found: list[list[Any]] = []
    timed_out = False
    for _, kind, seat, _, to, _, _, _, _, point, *_ in records:
        if kind not in _DECIDED:
            continue
        if kind == TIMEOUT:
            found.append([seat, TIMEOUT, None])
        elif kind == KILL:
            if seat not in dealt_dead:  # else the config's, made again as it is dealt
                found.append([seat, KILL, None])
        elif not timed_out:
            found.append([seat, kind, point if kind == POINT else to])
        timed_out = kind == TIMEOUT
    return found


def loads(text: str) -> Any:
    """The data of a snapshot written as JSON ``text``."""
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:
        raise InvalidSnapshot(f"a snapshot is JSON text: {error}") from None


def restore(data: dict[str, Any], deal: Callable[[GameConfig, list[int]], H]) -> H:
    """The hand saved in ``data``: dealt by ``deal(config, deck)``, then its decisions
    played again by the rules."""
    found = data.get("version") if isinstance(data, dict) else None
    if found != SNAPSHOT_VERSION or isinstance(found, bool):
        raise InvalidSnapshot(
            f"not a version {SNAPSHOT_VERSION} hand snapshot (version {found!r}); "
            "older versions cannot be restored"
        )
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise InvalidSnapshot(f"broken hand snapshot: unknown fields {unknown}")
    try:
        hand = deal(GameConfig.from_dict(data["config"]), _deck(data["deck"]))
    except KeyError as error:
        raise InvalidSnapshot(f"broken hand snapshot: {error} is missing") from None
    except DoubleHoldemError as error:
        raise InvalidSnapshot(f"broken hand snapshot: {error}") from None
    played = data.get("decisions")
    if not isinstance(played, list):
        raise InvalidSnapshot("broken hand snapshot: decisions is not a list")
    for number, decision in enumerate(played):
        try:
            replay(hand, decision)
        except (DoubleHoldemError, ValueError, TypeError) as error:
            raise InvalidSnapshot(f"broken hand snapshot: decision {number}: {error}") from None
    return hand


def replay(hand: Replayable, decision: object) -> None:
    """One ``[seat, kind, amount]`` decision of a snapshot, checked like any other."""
    if not (isinstance(decision, list) and len(decision) == 3):
        raise InvalidSnapshot(f"{decision!r} is not [seat, kind, amount]")
    seat, kind, amount = decision
    if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
        raise InvalidSnapshot(f"{amount!r} is not an amount")
    if kind == TIMEOUT and amount is None:
        hand.timeout(seat)
    elif kind == KILL and amount is None:
        hand.kill(seat)
    elif kind == POINT and amount is not None:
        hand.choose_point(seat, amount)
    elif kind in _ACTIONS:
        hand.act(kind, amount, seat=seat)
    else:
        raise InvalidSnapshot(f"{kind!r} with {amount!r} is not a decision")


def play_through(hand: H, decisions: Iterable[tuple[str, int | None]]) -> H:
    """Applies ``(action, amount)`` pairs in order (``("point", index)`` for a point
    card); a convenience for tests and examples."""
    for action, amount in decisions:
        if action == POINT:
            if hand.actor is None or amount is None:
                raise IllegalAction("no point card to choose now", action=POINT)
            hand.choose_point(hand.actor, amount)
        else:
            hand.act(action, amount)
    return hand


def _deck(deck: object) -> list[int]:
    if not isinstance(deck, list) or not all(type(c) is int for c in deck):
        raise InvalidSnapshot("broken hand snapshot: the deck is a list of card numbers")
    return card_order(deck)
