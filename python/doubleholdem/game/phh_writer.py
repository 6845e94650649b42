"""Writing a :class:`~doubleholdem.game.Hand` as PHH text (:func:`dumps`; the format and
its Double Hold'em dialect are described in :mod:`doubleholdem.game.phh`, which reads it
back), and the variant codes both sides share."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from doubleholdem.cards import CARD_NAMES
from doubleholdem.game.config import AnteType, GameConfig, Structure, Variant
from doubleholdem.game.hand import Hand
from doubleholdem.game.words import BET, CALL, CHECK, FOLD, KILL, POINT, RAISE

__all__ = ["CODES", "VARIANTS", "dumps"]

VARIANTS = {
    "NT": (Variant.TEXAS, Structure.NO_LIMIT),
    "FT": (Variant.TEXAS, Structure.FIXED_LIMIT),
    "PT": (Variant.TEXAS, Structure.POT_LIMIT),
    "NDH": (Variant.DOUBLE, Structure.NO_LIMIT),
    "FDH": (Variant.DOUBLE, Structure.FIXED_LIMIT),
    "PDH": (Variant.DOUBLE, Structure.POT_LIMIT),
}
CODES = {value: key for key, value in VARIANTS.items()}


def dumps(hand: Hand, /, **extra: Any) -> str:
    """The PHH text of a hand (played or in progress); ``extra`` fields (``players``,
    ``event``, ...) are appended. Players are listed from the seat left of the button,
    so that the button is last."""
    header, seats, player = hand.config.derived("_phh", _header)
    lines = [header, *_actions(hand.records, player), "]"]
    if hand.over:
        stacks = hand.stacks
        lines.append(f"finishing_stacks = {[stacks[s] for s in seats]}")
    for key, value in extra.items():
        lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def _header(config: GameConfig) -> tuple[str, tuple[int, ...], tuple[str, ...]]:
    """What the PHH of every hand of ``config`` starts with (up to the opening of its
    actions), its seats in PHH order (from the seat left of the button) and each seat's
    PHH name: made once per config."""
    n = config.players
    seats = tuple((config.button + 1 + i) % n for i in range(n))
    player = [""] * n
    for i, seat in enumerate(seats):
        player[seat] = f"p{i + 1}"
    lines = [f"variant = {json.dumps(CODES[config.variant, config.structure])}"]
    antes = [0] * n
    if config.ante and config.ante_type is AnteType.UNIFORM:
        antes = [config.ante] * n
    elif config.ante:
        antes[1] = config.ante
    trimming = config.ante_type is AnteType.UNIFORM
    lines.append(f"ante_trimming_status = {json.dumps(trimming)}")
    lines.append(f"antes = {antes}")
    lines.append(f"blinds_or_straddles = {[config.small_blind, config.big_blind] + [0] * (n - 2)}")
    if config.structure is Structure.FIXED_LIMIT:
        lines.append(f"small_bet = {config.small_bet}")
        lines.append(f"big_bet = {config.big_bet}")
    else:
        lines.append(f"min_bet = {config.minimum_bet}")
    if config.reveal_point:
        lines.append("_reveal_point = true")
    if config.dead_hands:  # TH-24: killed as dealt, each written as its player's fold
        lines.append(f"_dead_hands = {sorted(int(player[s][1:]) for s in config.dead_hands)}")
    lines.append(f"starting_stacks = {[config.stacks[s] for s in seats]}")
    lines.append("actions = [")
    return "\n".join(lines), seats, tuple(player)


def _actions(records: Sequence[tuple[Any, ...]], player: Sequence[str]) -> list[str]:
    """The PHH action lines of the event log ``records`` (each quoted, indented and
    followed by a comma): the deals come first, in PHH player order (the dealing
    order, TH-1), then every action and board deal in order. Actions are made of
    player names, verbs, numbers and cards: no character to escape."""
    lines = []
    for record in records:
        kind = record[1]
        verb = _VERBS.get(kind)
        if verb is None:
            continue
        if verb == "cc" or verb == "f" or verb == _KILLED:
            lines.append(f'  "{player[record[2]]} {verb}",')
        elif verb == "cbr":
            lines.append(f'  "{player[record[2]]} cbr {record[4]}",')
        elif verb == "db":
            lines.append(f'  "d db {_text(record[5])}",')
        elif verb == "dh":
            lines.append(f'  "d dh {player[record[2]]} {_text(record[5])}",')
        elif record[5]:  # a point card chosen, a hand shown
            lines.append(f'  "{player[record[2]]} {verb} {_text(record[5])}",')
        else:  # a hand mucked
            lines.append(f'  "{player[record[2]]} sm",')
    return lines


def _text(cards: tuple[int, ...]) -> str:
    return "".join([_NAMES[c] for c in cards])


_NAMES = CARD_NAMES
_KILLED = "f # dead hand"  # TH-24: its player's fold, where it was killed
_VERBS = {
    CHECK: "cc",
    CALL: "cc",
    FOLD: "f",
    KILL: _KILLED,
    BET: "cbr",
    RAISE: "cbr",
    "flop": "db",
    "turn": "db",
    "river": "db",
    "deal": "dh",
    POINT: "pc",
    "show": "sm",
    "muck": "sm",
}
