"""The cards of a PHH file (:mod:`doubleholdem.game.phh`): the deck that deals them,
with a card dealt unknown (``??``) known once its player shows it or reveals it as a
point card, and the hand replayed from them, in which a hand that forfeits (mucked, or
never known) wins nothing and placeholder cards never decide a showdown."""

from __future__ import annotations

import re
from itertools import chain
from operator import itemgetter
from typing import NamedTuple

from doubleholdem.cards import CARD_NAMES, parse_card
from doubleholdem.errors import DoubleHoldemError, InvalidHandHistory
from doubleholdem.game.config import GameConfig
from doubleholdem.game.hand import Hand
from doubleholdem.game.pots import PotResult
from doubleholdem.game.showdown import HandValue

__all__ = [
    "UNKNOWN",
    "Dealt",
    "ReplayHand",
    "check_decided",
    "dealt_cards",
    "is_number",
    "player",
]

UNKNOWN = -1
"""An unknown card (``??``)."""

_new = tuple.__new__


def is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also takes '²' (which ``int`` refuses) and
    other scripts' digits (which ``int`` reads), neither of them PHH."""
    return text.isascii() and text.isdigit()


def player(token: str, n: int, number: int) -> int:
    seat = _SEATS.get(token, n)
    if seat < n:
        return seat
    if token.startswith("p") and is_number(token[1:]) and 1 <= int(token[1:]) <= n:
        return int(token[1:]) - 1
    raise InvalidHandHistory(f"{token!r} is not a player (p1..p{n})", action_number=number)


_SEATS = {f"p{i + 1}": i for i in range(10)}
_DECK = frozenset(range(52))
_CARD_NUMBERS = {name: number for number, name in enumerate(CARD_NAMES)}
_CARD_NUMBERS["??"] = UNKNOWN
_TWO_CHARACTERS = re.compile("..", re.DOTALL).findall


def _cards(text: str, number: int) -> list[int]:
    if len(text) % 2:
        raise InvalidHandHistory(f"{text!r} is not a list of cards", action_number=number)
    try:
        return list(map(_CARD_NUMBERS.__getitem__, _TWO_CHARACTERS(text)))
    except KeyError:
        pass
    cards = []
    for i in range(0, len(text), 2):
        token = text[i : i + 2]
        try:
            cards.append(UNKNOWN if token == "??" else parse_card(token))
        except DoubleHoldemError:
            raise InvalidHandHistory(f"{token!r} is not a card", action_number=number) from None
    return cards


class Dealt(NamedTuple):
    """What the file's deals and shows say: the deck that deals its cards (``order``),
    the players who show cards (``showers``), those whose hand forfeits a showdown
    (``forfeits``: mucked, ``p1 sm``, or never known: a card ``??`` never shown) and
    those who show a hand the file does not give (``unvalued``: its point card ``pc ??``
    or its cards ``sm -``)."""

    order: list[int]
    showers: set[int]
    forfeits: set[int]
    unvalued: set[int]


def dealt_cards(config: GameConfig, split: list[list[str]]) -> Dealt:
    """The deck that deals the file's cards (``split``: the words of each action): hole
    cards one at a time from p1, a burn before each board deal; a card dealt unknown
    (``??``) is the one the player shows later (PHH: unknown cards become known when
    shown), or the point card it chose; unknown and burned cards are otherwise the
    lowest unused ones: placeholders that never decide a showdown (:class:`ReplayHand`)."""
    n, k = config.players, config.hole_cards
    holes: list[list[int]] = [[UNKNOWN] * k for _ in range(n)]
    board: list[int] = []
    shows: list[tuple[int, list[int], str, int]] = []
    points: list[tuple[int, list[int]]] = []
    mucked: set[int] = set()
    unknown_points: set[int] = set()
    for number, words in enumerate(split, 1):
        size = len(words)
        if size == 4 and words[0] == "d" and words[1] == "dh":
            seat = player(words[2], n, number)
            cards = _cards(words[3], number)
            if len(cards) != k:
                raise InvalidHandHistory(
                    f"{words[2]} is dealt {len(cards)} cards, not {k}", action_number=number
                )
            if UNKNOWN in cards:
                cards = [c if c != UNKNOWN else holes[seat][i] for i, c in enumerate(cards)]
            holes[seat] = cards
        elif size == 2 and words[1] == "sm" and words[0] != "d":
            mucked.add(player(words[0], n, number))
        elif size != 3:
            continue
        elif words[1] == "db" and words[0] == "d":
            board.extend(_cards(words[2], number))
        elif words[1] == "pc":  # a point card chosen: seen (DH-8, or shown) or not
            seat = player(words[0], n, number)
            if words[2] == "??":
                unknown_points.add(seat)
            else:
                points.append((seat, _cards(words[2], number)))
        elif words[1] == "sm":  # cards shown, or "-": shown, but not written
            seat = player(words[0], n, number)
            cards = [] if words[2] == "-" else _cards(words[2], number)
            shows.append((seat, cards, words[0], number))
    for seat, shown, name, number in shows:
        if len(shown) == k:
            if any(h not in (UNKNOWN, c) for h, c in zip(holes[seat], shown)):
                raise InvalidHandHistory(
                    f"{name} shows cards it was not dealt", action_number=number
                )
            holes[seat] = [h if h != UNKNOWN else c for h, c in zip(holes[seat], shown)]
    for seat, chosen in points:  # after the shows, which say where each card is
        hole = holes[seat]
        if len(chosen) == 1 and chosen[0] not in hole and UNKNOWN in hole:
            hole[hole.index(UNKNOWN)] = chosen[0]
    if len(board) > 5:
        raise InvalidHandHistory(f"{len(board)} board cards dealt, at most 5")
    known = [*chain.from_iterable(holes), *board]
    known_set = set(known)
    known_set.discard(UNKNOWN)
    if len(known_set) != len(known) - known.count(UNKNOWN):
        twice = next(c for c in known if c != UNKNOWN and known.count(c) > 1)
        raise InvalidHandHistory(f"the card {CARD_NAMES[twice]} is dealt twice")
    unseen = {s for s in range(n) if UNKNOWN in holes[s]} if UNKNOWN in known else set()
    spare = iter(sorted(_DECK.difference(known_set)))
    order = list(chain.from_iterable(zip(*holes)))  # the first card of each seat, ...
    board += [UNKNOWN] * (5 - len(board))
    order += [UNKNOWN, *board[:3], UNKNOWN, board[3], UNKNOWN, board[4]]
    deck = [c if c != UNKNOWN else next(spare) for c in order] + list(spare)
    showers = set(map(itemgetter(0), shows))
    if unseen:  # shown as "-": shown, but not given
        unknown_points.update(s for s, cards, _, _ in shows if not cards and s in unseen)
    unvalued = unknown_points - mucked if unknown_points else unknown_points
    # (a tuple made without the named tuple's __new__: every file)
    return _new(Dealt, (deck, showers - mucked, mucked | (unseen - unvalued), unvalued))


class ReplayHand(Hand):
    """A hand replayed from a file: a hand that forfeits (:class:`Dealt`) mucks at the
    showdown and wins nothing, whatever its placeholder cards would make; a hand whose
    point card the file does not give cannot be valued at a showdown."""

    __slots__ = ("_forfeits", "_unvalued")

    def __init__(self, config: GameConfig, dealt: Dealt) -> None:
        self._forfeits = dealt.forfeits  # before the engine may reach the showdown
        self._unvalued = dealt.unvalued
        super().__init__(config, deck=dealt.order)

    def _values(self, order: list[int]) -> dict[int, HandValue | None]:
        if self._unvalued and not self._unvalued.isdisjoint(order):
            unknown = [f"p{s + 1}" for s in order if s in self._unvalued]
            raise InvalidHandHistory(
                f"{', '.join(unknown)} shows down a hand the file does not give (a point "
                "card ?? or cards shown as -): the showdown cannot be replayed"
            )
        values = super()._values(order)
        if self._forfeits:
            for seat in self._forfeits.intersection(order):
                values[seat] = None
        return values


def check_decided(pots: list[PotResult], forfeits: set[int]) -> None:
    """Refuses a showdown the file does not decide: a pot contested only by hands that
    forfeit (mucked or never shown), whose winner no card in the file says."""
    if not forfeits:
        return
    for result in pots:
        if len(result.eligible) > 1 and forfeits.issuperset(result.eligible):
            which = "the main pot" if result.pot == 0 else f"side pot {result.pot}"
            players = ", ".join(f"p{s + 1}" for s in result.eligible)
            raise InvalidHandHistory(
                f"{which} is contested by hands nobody shows ({players}): the file does "
                "not say who wins it"
            )
