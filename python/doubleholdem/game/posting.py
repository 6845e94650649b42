"""The chips posted before the deal (RULES.md TH-2, TH-3, TH-18, TH-19, TH-36, TH-37):
antes, then the blinds, then a table's live and dead posts; a player short of a post
posts what they have and is all-in.

A pure plan: the settings and the stacks in, the posts out, in the order they are
posted; :func:`opening` moves the chips and logs each post once per config, and every
:class:`~doubleholdem.game.Hand` of that config starts from it.

>>> config = GameConfig(stacks=(1000, 15, 1000), small_blind=10, big_blind=20, button=0)
>>> for post in posts(config, config.stacks):
...     print(post)
Post(kind='small_blind', seat=1, chips=10, into='bet', all_in=False)
Post(kind='big_blind', seat=2, chips=20, into='bet', all_in=False)
>>> antes = GameConfig(stacks=(1000, 15, 1000), small_blind=10, big_blind=20, ante=10)
>>> posts(antes, antes.stacks)[:3]
[Post(kind='ante', seat=1, chips=10, into='committed', all_in=False),
 Post(kind='ante', seat=2, chips=10, into='committed', all_in=False),
 Post(kind='ante', seat=0, chips=10, into='committed', all_in=False)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from doubleholdem.game.betting import CLOCKWISE, RoundRules, round_rules
from doubleholdem.game.config import AnteType, GameConfig
from doubleholdem.game.dealing import hole_dealer
from doubleholdem.game.events import HandLog

__all__ = [
    "COMMITTED",
    "DEAD",
    "WAGER",
    "Opening",
    "Post",
    "blind_seats",
    "opening",
    "opening_of",
    "posts",
]

WAGER = "bet"
"""A post that is a wager of the pre-flop round, like a blind (TH-2, TH-36)."""
COMMITTED = "committed"
"""A uniform ante: in the player's share of the pots, not in its bet (TH-19)."""
DEAD = "dead"
"""Dead money that goes whole into the main pot: a big-blind ante (TH-19), a dead post
(TH-37)."""


class Post(NamedTuple):
    """Seat ``seat`` posts ``chips`` as ``kind`` (``ante``, ``small_blind``,
    ``big_blind``, ``post`` or ``post_dead``): they go ``into`` its bet (:data:`WAGER`),
    its share of the pots only (:data:`COMMITTED`) or the main pot (:data:`DEAD`);
    ``all_in`` if that was all its chips."""

    kind: str
    seat: int
    chips: int
    into: str
    all_in: bool


_new = tuple.__new__  # a named tuple made without its __new__: posted every hand
_UNIFORM = AnteType.UNIFORM


def blind_seats(config: GameConfig) -> tuple[int | None, int]:
    """The seats that post the small blind (``None``: nobody) and the big blind: as a
    table placed them (TH-38), else left of the button (TH-2), or heads-up the button
    and the other player (TH-3)."""
    if config.blind_seats is not None:  # placed by a table (TH-38)
        return config.blind_seats
    button, n = config.button, config.players
    if n == 2:  # TH-3: the button posts the small blind
        return button, (button + 1) % n
    return (button + 1) % n, (button + 2) % n


def posts(config: GameConfig, stacks: Sequence[int]) -> list[Post]:
    """Every post of a hand of ``config`` dealt with ``stacks``, in order: antes
    clockwise from the seat left of the button (TH-19: a uniform ante from everyone, or
    a big-blind ante from the big blind alone; with ``blind_before_ante``, TRN-9, that
    one after the big blind), the small and big blind (TH-2, TH-3),
    then a table's extra posts clockwise from the seat left of the button: a live post
    (TH-36, TH-37) then a dead one (TH-37). A player posts at most what it has (TH-18,
    TH-19); a blind or extra post of no chips is not made."""
    left = list(stacks)
    small, big = blind_seats(config)
    clockwise = CLOCKWISE[len(left)][(config.button + 1) % len(left)]
    due: list[tuple[str, int, int, str]] = []  # what each owes, in order
    big_ante = ("ante", big, config.ante, DEAD)
    if config.ante:
        if config.ante_type is _UNIFORM:
            due += [("ante", seat, config.ante, COMMITTED) for seat in clockwise]
        elif not config.blind_before_ante:
            due.append(big_ante)
    if small is not None:
        due.append(("small_blind", small, config.small_blind, WAGER))
    due.append(("big_blind", big, config.big_blind, WAGER))
    if config.ante and config.ante_type is not _UNIFORM and config.blind_before_ante:
        due.append(big_ante)
    if config.live_posts or config.dead_posts:
        live = config.live_posts or (0,) * len(left)
        dead = config.dead_posts or (0,) * len(left)
        for seat in clockwise:
            due += [("post", seat, live[seat], WAGER), ("post_dead", seat, dead[seat], DEAD)]
    plan: list[Post] = []
    for kind, seat, amount, into in due:
        chips = amount if amount < left[seat] else left[seat]
        if chips or kind == "ante":  # an ante is posted even of no chips
            left[seat] -= chips
            plan.append(_new(Post, (kind, seat, chips, into, left[seat] == 0)))
    return plan


class Opening(NamedTuple):
    """Every hand of a config once its posts are made and before a card is dealt: the
    chips behind (``stacks``), this round's ``bets``, each seat's chips in the middle
    (``committed``), the ``dead`` money, the post events (``records``, as
    :class:`~doubleholdem.game.events.HandLog` keeps them), the seats in dealing order
    (clockwise from the seat left of the button, TH-1), the big blind's seat (the
    seat left of it acts first pre-flop, TH-2, TH-3), every seat's hole cards as a
    function of the deck, a list by seat (``holes``: a
    :func:`~doubleholdem.game.dealing.hole_dealer`), the hole cards of each seat
    (``rounds``), the number dealt in all, the rules of its betting rounds
    (``betting``: :func:`~doubleholdem.game.betting.round_rules`) and the seats with
    chips left after the posts (``able``: seat ``s`` is ``1 << s``, as
    :class:`~doubleholdem.game.betting.BettingRound` keeps them) and the seats whose
    hands are dead as dealt (``dead_hands``: the config's, TH-24; empty, read once a
    hand)."""

    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    committed: tuple[int, ...]
    dead: int
    records: tuple[tuple[Any, ...], ...]
    order: tuple[int, ...]
    big_blind: int
    holes: Callable[[Sequence[int]], list[tuple[int, ...]]]
    rounds: int
    dealt: int
    betting: RoundRules
    able: int
    dead_hands: tuple[int, ...]


def opening(config: GameConfig) -> Opening:
    """The :class:`Opening` of every hand of ``config``: the :func:`posts` made, the
    chips of each moved into the bets, the shares of the pots or the dead money, each
    logged in order (TH-2, TH-3, TH-18, TH-19, TH-36, TH-37). A pure function of the
    config (its stacks included): a hand takes it from
    :meth:`~doubleholdem.game.config.GameConfig.derived`, made once per config.

    >>> config = GameConfig(stacks=(100, 100), small_blind=1, big_blind=2, button=0)
    >>> start = opening(config)
    >>> start.stacks, start.bets, start.order, start.big_blind
    ((99, 98), (1, 2), (1, 0), 1)
    """
    stacks = list(config.stacks)
    n = len(stacks)
    bets, committed, dead = [0] * n, [0] * n, 0
    log = HandLog()
    for kind, seat, chips, into, all_in in posts(config, stacks):
        stacks[seat] -= chips
        if into == WAGER:
            bets[seat] += chips
            committed[seat] += chips
        elif into == COMMITTED:
            committed[seat] += chips
        else:
            dead += chips
        log.action(kind, seat, chips, None, all_in)
    order = CLOCKWISE[n][(config.button + 1) % n]
    rounds = config.hole_cards
    return Opening(
        tuple(stacks),
        tuple(bets),
        tuple(committed),
        dead,
        tuple(log.records),
        order,
        blind_seats(config)[1],
        hole_dealer(order, rounds),
        rounds,
        rounds * n,
        round_rules(config),
        sum(1 << seat for seat, chips in enumerate(stacks) if chips),
        config.dead_hands,
    )


_OPENINGS: dict[tuple[tuple[int, ...], int], tuple[GameConfig, Opening]] = {}
_KEPT = 16  # few: a table's stacks change every hand, and a simulation's memory stays flat


def opening_of(config: GameConfig) -> Opening:
    """:func:`opening` of ``config``, kept for a few configs by value: configs rebuilt
    for every hand with the same settings (read back by ``GameConfig.from_dict``, a
    snapshot or a PHH file) share one. Looked up by the stacks and the button (hashed
    in C, cheap when it misses: a table's next hand) and confirmed by the config's
    equality, at a tenth of the cost of the posts and the deal order made again."""
    key = (config.stacks, config.button)
    kept = _OPENINGS.get(key)
    if kept is not None and kept[0] == config:
        return kept[1]
    start = opening(config)
    if len(_OPENINGS) >= _KEPT:
        _OPENINGS.clear()
    _OPENINGS[key] = (config, start)
    return start
