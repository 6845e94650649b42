"""Hand histories in PHH, the Poker Hand History format of the pokerkit project (a TOML
dialect, phh.readthedocs.io): read a file, replay it through the engine to its finishing
stacks, and write a played :class:`~doubleholdem.game.Hand` back out.

Supported variants: ``NT`` (no-limit Texas Hold'em), ``FT`` (fixed limit), and two codes
of our own in the same pattern: ``PT`` (pot-limit Texas Hold'em, fields as ``NT``) and
the Double Hold'em dialect ``NDH``, ``FDH``, ``PDH`` (no-limit, fixed-limit, pot-limit).

Players are listed from the seat left of the button to the button (heads-up: the big
blind, then the button). Blinds and antes are given per player as in PHH: an ante for
every player with ``ante_trimming_status = true`` (a uniform ante, TH-19) or for the
big blind alone with ``false`` (a big-blind ante); straddles are not supported.

The Double Hold'em dialect:

- ``d dh p1 AsKdQh`` deals **three** hole cards, in dealing order (DH-1, DH-3);
- ``p1 pc Kd`` records player 1's point card choice (DH-2, DH-5), written where it was
  made: on the flop, right before that player's action (all-in players too, at their
  turn);
- ``p1 pc ??``: a point card chosen but not seen (by whoever wrote the file: a player's
  own history of a hand, :mod:`doubleholdem.table.history`), for a player who never
  shows it;
- the optional field ``_reveal_point = true`` records the DH-8 setting (default false).

A hand killed (TH-24; an absent tournament player's, TRN-21) is written as its player's
fold commented ``dead hand`` (``p2 f # dead hand``) where it was killed, even out of
turn, and read back as that hand killed; so is a plain fold the rules refuse (out of
turn, or with nothing to fold to). The optional field ``_dead_hands = [2]`` lists the
players whose hands were dead as dealt (killed before any play, even all in by their
blinds), each with its kill right after the deal. Everything else
(``d db``, ``f``, ``cc``, ``cbr``, ``sm``) is as in PHH, and so are
unknown hole cards (``????``, a player's own history of a hand): a card dealt unknown
becomes known when its player shows it (``p2 sm KcKd``) or, in Double Hold'em, reveals
it as a point card. A hand mucked at the showdown (``p2 sm``, no cards) forfeits: it
wins nothing, whatever it held, and so does a hand whose cards the file never gives. A
pot contested only by such hands, or a showdown of a hand shown without its cards
(``sm -``) or its point card (``pc ??``), is refused with the reason: the file does not
say who wins, and placeholder cards never decide it.

>>> text = '''
... variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [100, 100, 100]
... actions = ["d dh p1 AsAd", "d dh p2 ????", "d dh p3 KcKd",
...            "p3 cbr 6", "p1 cc", "p2 f", "d db 2c7h9s", "p1 cbr 94", "p3 cc",
...            "d db 3d", "d db Qh", "p1 sm AsAd", "p3 sm KcKd"]
... '''
>>> result = replay(loads(text))
>>> result.finishing_stacks
[202, 98, 0]
>>> result.to_dict()["pots"]
[{'amount': 202, 'winners': [0]}]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import rtoml

from doubleholdem.cards import CARD_NAMES
from doubleholdem.errors import DoubleHoldemError, IllegalAction, InvalidHandHistory
from doubleholdem.game.config import AnteType, GameConfig, Structure
from doubleholdem.game.hand import Hand
from doubleholdem.game.phh_cards import ReplayHand, check_decided, dealt_cards, is_number, player
from doubleholdem.game.phh_writer import VARIANTS, dumps
from doubleholdem.game.words import BET, KILL, POINT
from doubleholdem.textfile import read_text

__all__ = [
    "HandHistory",
    "ReplayResult",
    "dumps",
    "load",
    "loads",
    "replay",
    "stacks_agree",
]


@dataclass(frozen=True)
class HandHistory:
    """A PHH file: the game it describes (``config``: players in PHH order, the button
    last), its ``actions`` (text, as in the file), the recorded ``finishing_stacks`` if
    any, and every other field as read (``fields``)."""

    config: GameConfig
    actions: tuple[str, ...]
    finishing_stacks: tuple[float, ...] | None
    fields: dict[str, Any]


@dataclass(frozen=True)
class ReplayResult:
    """The end of a replayed hand: stacks in PHH player order and each pot (main pot
    first) with its winners (PHH player indices from 0)."""

    finishing_stacks: list[int]
    pots: list[tuple[int, list[int]]]
    hand: Hand

    def to_dict(self) -> dict[str, Any]:
        """The JSON line printed by ``doubleholdem replay --json``."""
        return {
            "finishing_stacks": self.finishing_stacks,
            "pots": [{"amount": amount, "winners": winners} for amount, winners in self.pots],
        }


def stacks_agree(recorded: tuple[float, ...] | list[float], replayed: list[int]) -> bool:
    """Whether a replay's whole-chip ``replayed`` stacks are the file's ``recorded``
    ``finishing_stacks``: as many stacks, each less than a chip from the recorded one.
    PHH records a split pot's shares as fractions (``50.5`` twice) where the engine
    gives the odd chip whole to one winner (TH-30), so a whole recorded stack must be
    met exactly and a fractional one by its floor or its ceiling.

    >>> stacks_agree((50.5, 50.5, 99), [51, 50, 99]), stacks_agree((100, 99), [99, 100])
    (True, False)
    """
    return len(recorded) == len(replayed) and all(
        abs(stack - want) < 1 for stack, want in zip(replayed, recorded)
    )


# ---------------------------------------------------------------------------- reading


MAX_FILE_BYTES = 1 << 20
"""The largest hand-history file :func:`load` reads (1 MiB; a long hand is a few KiB)."""


def load(path: str | Path) -> HandHistory:
    """Reads a PHH file: a regular file of UTF-8 text of at most :data:`MAX_FILE_BYTES`
    bytes. Anything else (a directory, a device, a pipe, a larger file, bytes that are
    not UTF-8) is an :class:`InvalidHandHistory` naming the file, read no further."""
    return loads(_read(path))


def _read(path: str | Path) -> str:
    name = str(path)
    return read_text(
        path,
        MAX_FILE_BYTES,
        lambda reason: InvalidHandHistory(f"cannot read {name}: {reason}", path=name),
    )


def loads(text: str) -> HandHistory:
    """Parses PHH text (TOML, read by rtoml, a maintained TOML parser with a Rust core);
    :class:`InvalidHandHistory` says what is wrong with it."""
    try:
        fields = rtoml.loads(text)
    except (rtoml.TomlParsingError, ValueError, TypeError) as error:
        raise InvalidHandHistory(f"not valid TOML: {error}") from None
    return HandHistory(
        config=_config(fields),
        actions=tuple(_strings(fields, "actions")),
        finishing_stacks=_finishing(fields),
        fields=fields,
    )


_STR = {str}


def _field(fields: dict[str, Any], name: str) -> Any:
    if name not in fields:
        raise InvalidHandHistory(f"the field {name} is missing")
    return fields[name]


def _ints(fields: dict[str, Any], name: str, length: int | None = None) -> list[int]:
    values = _field(fields, name)
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise InvalidHandHistory(f"{name} must be a list of whole numbers, not {values!r}")
    if length is not None and len(values) != length:
        raise InvalidHandHistory(f"{name} has {len(values)} entries for {length} players")
    return values


def _int(fields: dict[str, Any], name: str) -> int:
    value = _field(fields, name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidHandHistory(f"{name} must be a whole number, not {value!r}")
    return value


def _strings(fields: dict[str, Any], name: str) -> list[str]:
    values = _field(fields, name)
    if not isinstance(values, list) or not (
        set(map(type, values)) <= _STR or all(isinstance(v, str) for v in values)
    ):
        raise InvalidHandHistory(f"{name} must be a list of strings")
    return values


def _finishing(fields: dict[str, Any]) -> tuple[float, ...] | None:
    values = fields.get("finishing_stacks")
    if values is None:
        return None
    if not isinstance(values, list):
        raise InvalidHandHistory(f"finishing_stacks must be a list of numbers, not {values!r}")
    for value in values:
        if not _chip_count(value):
            raise InvalidHandHistory(
                "finishing_stacks must be a list of chip counts (finite numbers, 0 or more), "
                f"not {value!r}"
            )
    return tuple(values)


def _chip_count(value: object) -> bool:
    """Whether ``value`` is a stack PHH may record: a whole or fractional number (a
    split pot's share), finite and not negative; never a boolean."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value) and value >= 0


_CONFIG_FIELDS = (
    "variant",
    "starting_stacks",
    "blinds_or_straddles",
    "antes",
    "ante_trimming_status",
    "small_bet",
    "big_bet",
    "min_bet",
    "_reveal_point",
    "_dead_hands",
)
_CONFIGS: dict[str, GameConfig] = {}


def _config(fields: dict[str, Any]) -> GameConfig:
    """The file's game; the same fields give the same (frozen) config, built once. The
    key is the fields' text, which tells ``1`` from ``True`` and ``1.0`` (and a missing
    field is ``None``, which TOML has not)."""
    key = repr(tuple(map(fields.get, _CONFIG_FIELDS)))
    config = _CONFIGS.get(key)
    if config is None:
        config = _new_config(fields)
        if len(_CONFIGS) < 256:
            _CONFIGS[key] = config
    return config


def _new_config(fields: dict[str, Any]) -> GameConfig:
    code = _field(fields, "variant")
    if code not in VARIANTS:
        raise InvalidHandHistory(
            f"variant {code!r} is not supported (one of {', '.join(VARIANTS)})"
        )
    variant, structure = VARIANTS[code]
    stacks = _ints(fields, "starting_stacks")
    n = len(stacks)
    small, big = _blinds(_ints(fields, "blinds_or_straddles", n))
    ante, ante_type = _antes(_ints(fields, "antes", n), fields.get("ante_trimming_status", False))
    settings: dict[str, Any] = {}
    if structure is Structure.FIXED_LIMIT:
        settings["small_bet"] = _int(fields, "small_bet")
        settings["big_bet"] = _int(fields, "big_bet")
    else:
        min_bet = _int(fields, "min_bet")
        if min_bet != big:
            settings["min_bet"] = min_bet
    reveal = fields.get("_reveal_point", False)
    dead = fields.get("_dead_hands", [])
    if not isinstance(dead, list) or not all(type(p) is int and 1 <= p <= n for p in dead):
        raise InvalidHandHistory(f"_dead_hands {dead!r}: a list of player numbers 1..{n}")
    try:
        return GameConfig(
            stacks=tuple(stacks),
            small_blind=small,
            big_blind=big,
            structure=structure,
            variant=variant,
            button=n - 1,
            ante=ante,
            ante_type=ante_type,
            reveal_point=reveal,
            dead_hands=tuple(p - 1 for p in dead),
            **settings,
        )
    except DoubleHoldemError as error:
        raise InvalidHandHistory(f"impossible game: {error}") from None


def _blinds(blinds: list[int]) -> tuple[int, int]:
    if len(blinds) < 2 or any(blinds[2:]) or blinds[0] > blinds[1]:
        raise InvalidHandHistory(
            f"blinds_or_straddles {blinds}: only a small and a big blind are supported"
        )
    return blinds[0], blinds[1]


def _antes(antes: list[int], trimming: object) -> tuple[int, AnteType]:
    if not any(antes):
        return 0, AnteType.UNIFORM
    if trimming is True and len(set(antes)) == 1:
        return antes[0], AnteType.UNIFORM
    if trimming is False and antes[1] and not any(antes[:1] + antes[2:]):
        return antes[1], AnteType.BIG_BLIND
    raise InvalidHandHistory(
        f"antes {antes} with ante_trimming_status {trimming}: only a uniform ante (true) "
        "or a big-blind ante (false) is supported"
    )


# ---------------------------------------------------------------------------- replay


def replay(history: HandHistory) -> ReplayResult:
    """Plays the file's actions through the engine; :class:`InvalidHandHistory` names the
    first action that breaks the rules (1-based) and why."""
    actions = history.actions
    # each action's words, without its comment
    split = [a.split() if "#" not in a else _without_comment(a) for a in actions]
    dealt = dealt_cards(history.config, split)
    hand = ReplayHand(_showing(history.config, dealt.showers), dealt)  # one type: a
    # replay's calls stay specialised (a plain Hand for files without unknown hands
    # made them polymorphic: 2.3% more instructions a Pluribus file)
    n = history.config.players
    names = _PLAYERS[:n]
    board_seen = 0
    for number, words in enumerate(split, 1):
        try:
            size = len(words)
            if size == 2 and words[1] == "cc" and words[0] == names[hand.actor or 0]:
                hand.check_or_call()  # the common case, first
            elif (
                size == 2
                and words[1] == "f"
                and hand.decision == BET
                and words[0] == names[hand.actor or 0]
            ):
                try:  # what _apply does, without its checks that cannot fail here
                    hand.fold()
                except IllegalAction:  # nothing to fold to: the hand killed (TH-24)
                    hand.kill(hand.actor)  # type: ignore[arg-type]
            elif (
                size == 3
                and words[1] == "cbr"
                and hand.decision == BET
                and words[0] == names[hand.actor or 0]
                and is_number(words[2])
            ):
                hand.bet_or_raise_to(int(words[2]))  # likewise
            elif size == 4 and words[1] == "dh" and words[0] == "d":
                continue  # dealt before the first action (the deck order)
            else:
                board_seen = _apply(hand, words, n, number, board_seen)
        except InvalidHandHistory:
            raise
        except DoubleHoldemError as error:
            action = actions[number - 1]
            raise InvalidHandHistory(
                f"action {number} ({action!r}): {error}", action_number=number
            ) from None
    if not hand.over:
        who = f"p{(hand.actor or 0) + 1}"
        raise InvalidHandHistory(
            f"the actions end before the hand does ({who} to {hand.decision})",
            action_number=len(history.actions),
        )
    pots = sorted(hand.results, key=lambda r: r.pot)
    if dealt.forfeits:
        check_decided(pots, dealt.forfeits)
    return ReplayResult(
        finishing_stacks=hand.stacks,
        pots=[(r.amount, sorted(r.winners)) for r in pots],
        hand=hand,
    )


_PLAYERS = [f"p{i + 1}" for i in range(10)]


def _without_comment(action: str) -> list[str]:
    """The words of an action with a comment; a fold commented ``dead hand`` is a hand
    killed (TH-24), read as the verb ``kill``."""
    text, comment = action.split("#", 1)
    words = text.split()
    if len(words) == 2 and words[1] == "f" and comment.strip() == "dead hand":
        words[1] = KILL
    return words


def _showing(config: GameConfig, showers: set[int]) -> GameConfig:
    """``config`` with the showdown preferences of the file's ``sm`` actions: a player
    who shows its cards (``p1 sm AsAd``, one of ``showers``) shows a hand that cannot
    win and a hand nobody contested (TH-22), so the replay shows what the file shows;
    the others keep the defaults (muck what cannot win, win uncontested unseen). Built
    once for each config and set of showers, like :func:`_config`: a config is checked
    whole as it is made."""
    if not showers:
        return config
    flags = tuple(seat in showers for seat in range(config.players))
    key = (config, flags)
    showing = _SHOWING.get(key)
    if showing is None:
        showing = replace(config, muck_losing=tuple(not f for f in flags), show_uncontested=flags)
        if len(_SHOWING) < 256:
            _SHOWING[key] = showing
    return showing


_SHOWING: dict[tuple[GameConfig, tuple[bool, ...]], GameConfig] = {}


def _reject(number: int, words: list[str], reason: str) -> InvalidHandHistory:
    action = " ".join(words)
    return InvalidHandHistory(f"action {number} ({action!r}): {reason}", action_number=number)


def _apply(hand: Hand, words: list[str], n: int, number: int, board_seen: int) -> int:
    text = words  # named in the errors
    if len(words) < 2:
        raise _reject(number, text, "not an action")
    if words[0] == "d":
        if words[1] == "db":
            board_seen += len(words[2]) // 2 if len(words) == 3 else 0
            if len(hand.board) < board_seen:
                raise _reject(number, text, "the board is dealt before the betting round ends")
        elif words[1] != "dh":
            raise _reject(number, text, f"unknown dealer action {words[1]!r}")
        return board_seen
    seat = player(words[0], n, number)
    verb = words[1]
    if verb == "sm":
        return board_seen
    if verb == KILL and seat in hand.config.dead_hands and not hand.in_hand[seat]:
        return board_seen  # dead as dealt (TH-24): its kill is written after the deal
    if hand.over:
        raise _reject(number, text, "the hand is already over")
    if verb == KILL or (verb == "f" and (hand.actor != seat or hand.decision == POINT)):
        if len(words) != 2:
            raise _reject(number, text, "a fold takes no amount")
        hand.kill(seat)  # a dead hand, or a fold the rules refuse: the hand killed (TH-24)
        return board_seen
    if hand.actor != seat:
        raise _reject(number, text, f"out of turn: it is p{(hand.actor or 0) + 1}'s turn")
    if verb == "pc" and len(words) == 3:
        # an unseen point card ("??", a player who never shows): any of its cards
        chosen = words[2] if words[2] != "??" else CARD_NAMES[hand.hole(seat)[0]]
        hand.choose_point(seat, chosen)
    elif hand.decision == POINT:
        raise _reject(number, text, f"p{seat + 1} must first choose a point card (pc)")
    elif verb == "cc" and len(words) == 2:
        hand.check_or_call()
    elif verb == "cbr" and len(words) == 3 and is_number(words[2]):
        hand.bet_or_raise_to(int(words[2]))
    else:
        raise _reject(number, text, f"unknown or malformed player action {verb!r}")
    return board_seen
