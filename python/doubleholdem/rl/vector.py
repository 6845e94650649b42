"""Many tables stepped per call (:class:`VectorEnv`): self-play at every table, the
observation of each table's seat to act written into preallocated arrays, episodes reset
automatically, a seed per table."""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, cast

import numpy as np

from doubleholdem.errors import IllegalAction, InvalidConfig
from doubleholdem.game import LegalActions
from doubleholdem.game.betting import options_shape
from doubleholdem.game.words import BET
from doubleholdem.rl.config import EnvConfig
from doubleholdem.rl.episode import Game
from doubleholdem.rl.layout import TO_ACT
from doubleholdem.rl.observations import Encoder
from doubleholdem.rl.rows import TableArrays

__all__ = ["VectorEnv"]


class VectorEnv:
    """``num_envs`` tables of the same :class:`~doubleholdem.rl.EnvConfig` settings
    (``phh`` off unless asked: writing hand histories costs more than a decision).

    After :meth:`reset` and each :meth:`step`, these arrays (allocated once, rewritten in
    place) describe every table:

    - ``observations`` (num_envs, size) float32: the observation of the seat to act;
    - ``action_masks`` (num_envs, actions) int8: its legal actions;
    - ``agents`` (num_envs,) int64: the seat to act;
    - ``rewards`` (num_envs, players) float32: chips each seat won or lost in big blinds
      in the hands that ended during the step (``reward="icm"``: the change of its ICM
      equity);
    - ``dones`` (num_envs,) bool: the episode ended during the step (the table was reset
      at once: its observation is the next episode's first).

    :meth:`step` takes one action number per table (the seat to act's) and returns
    ``(observations, action_masks, agents, rewards, dones)``. With ``phh=True``,
    :attr:`phh` holds each table's last finished hand as PHH text.
    """

    def __init__(self, num_envs: int, *, seed: int | Sequence[int] | None = None, **settings: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise InvalidConfig(f"num_envs: {num_envs!r} is not a whole number >= 1")
        settings.setdefault("phh", False)
        self.config = config = EnvConfig(**settings)
        self.num_envs = num_envs
        self.games = [Game(config) for _ in range(num_envs)]
        self._kept = kept = TableArrays(config, num_envs)
        for game, rows in zip(self.games, kept.rows):
            game.public = rows  # the kept rows in the shared arrays
        self.encoder = encoder = Encoder(config, self.games[0].codec)
        self._writer = _TableWriter(encoder, kept)
        self.observation_size = encoder.size
        self.action_count = encoder.codec.size
        self.observations = np.zeros((num_envs, encoder.size), np.float32)
        self.action_masks = np.zeros((num_envs, encoder.codec.size), np.int8)
        self.agents = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, config.players), np.float32)
        self.dones = np.zeros(num_envs, bool)
        self.phh: list[str | None] = [None] * num_envs
        self._views: list[Any] = []  # each hand's actor_view: what the actions answer
        self._cells: Any = memoryview(cast(Any, self.rewards)).cast("B").cast("f")
        self._done_cells: Any = memoryview(cast(Any, self.dones)).cast("B")
        self._rngs = self._generators(seed)
        self._rows = np.arange(num_envs)
        self._mask_cells = self.action_masks.reshape(-1)
        self._mask_rows = self._rows * self.action_count  # each table's first mask cell
        # the arrays' memory as flat views: each table's observation written in place
        observations, masks = cast(Any, self.observations), cast(Any, self.action_masks)
        raw: Any = memoryview(observations).cast("B")
        self._flat = (raw.cast("f"), raw, memoryview(masks).cast("B").cast("b"))

    def _generators(self, seed: int | Sequence[int] | None) -> list[random.Random]:
        n = self.num_envs
        if seed is None:
            return [random.Random() for _ in range(n)]
        if isinstance(seed, int) and not isinstance(seed, bool):
            return [random.Random(seed + i) for i in range(n)]
        seeds = list(cast(Sequence[int], seed))
        if len(seeds) != n:
            raise InvalidConfig(f"seed: give one seed or {n}, not {len(seeds)}", field="seed")
        return [random.Random(s) for s in seeds]

    def reset(
        self, seed: int | Sequence[int] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Starts an episode at every table (``seed``: one for all, table ``i`` gets
        ``seed + i``, or one per table); returns ``(observations, action_masks,
        agents)``."""
        if seed is not None:
            self._rngs = self._generators(seed)
        self.observations.fill(0)
        self.action_masks.fill(0)
        self._writer.written = ()
        self.rewards.fill(0)
        self.dones.fill(False)
        for game, rng in zip(self.games, self._rngs):
            game.reset(rng)
        self._write_all()
        return self.observations, self.action_masks, self.agents

    def _write_all(self) -> None:
        """Every table's seat to act and its observation, into the zeroed arrays."""
        self._views = [game.actor_view for game in self.games]
        self._write()

    def _write(self) -> None:
        self.agents[:] = self._writer.write(
            self.games, self._views, self.observations, self.action_masks, self._flat
        )

    def step(
        self, actions: Sequence[int] | np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One decision at every table (see the class docstring). Every action is
        checked against the masks first: a number that is not legal at its table raises
        :class:`~doubleholdem.errors.IllegalAction` naming the table, and no table moves."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise InvalidConfig(
                f"actions: give {self.num_envs} action numbers, not an array of shape "
                f"{chosen.shape} and type {chosen.dtype}"
            )
        if (
            not 0 <= chosen.min() <= chosen.max() < self.action_count
            or not self._mask_cells.take(self._mask_rows + chosen).all()
        ):
            self._refuse(chosen)
        observations, masks, rewards, dones = (
            self.observations,
            self.action_masks,
            self.rewards,
            self.dones,
        )
        self._writer.clear(observations, masks)
        rewards.fill(0)
        dones.fill(False)
        tables = zip(self._rows.tolist(), self.games, chosen.tolist(), self._rngs)
        self._views = views = []
        for i, game, action, rng in tables:
            if game.step(action, rng):
                self._hand_ended(i, game, rng)
            views.append(game.actor_view)  # what the next decision answers
        self._write()
        return observations, masks, self.agents, rewards, dones

    def _hand_ended(self, table: int, game: Game, rng: random.Random) -> None:
        """Table ``table``'s hand ended in this step: its rewards, its hand history, and a
        new episode if this one is over."""
        cells, bb = self._cells, float(self.config.big_blind)
        first = table * self.config.players
        icm = game.icm
        payoffs, bb = (game.payoffs, bb) if icm is None else (icm.rewards, 1.0)
        for seat, chips in enumerate(payoffs):
            if chips:
                cells[first + seat] = chips / bb
        if game.phh is not None:
            self.phh[table] = game.phh
        if game.episode_over:
            self._done_cells[table] = 1
            game.reset(rng)

    def _refuse(self, chosen: np.ndarray) -> None:
        """Raises the game's refusal of the first action that is not legal."""
        inside = (chosen >= 0) & (chosen < self.action_count)
        legal = self.action_masks[self._rows, np.where(inside, chosen, 0)].astype(bool)
        table = int(np.flatnonzero(~(inside & legal))[0])
        game = self.games[table]
        decision, options, pot = game.legal()
        try:
            game.codec.decode(int(chosen[table]), decision, options, pot)
        except IllegalAction as error:
            raise IllegalAction(
                f"table {table}: {error}", seat=error.seat, action=error.action, legal=error.legal
            ) from None
        raise IllegalAction(f"table {table}: action {int(chosen[table])} is masked out")


class _TableWriter:
    """Writes the observation of each table's seat to act for all tables at once, from
    the rows the tables keep (:class:`~doubleholdem.rl.rows.TableArrays`) and each
    hand's :meth:`~doubleholdem.game.Hand.actor_view`, the same as
    :class:`~doubleholdem.rl.observations.Encoder` writes one seat's. Every write is an
    array operation over all tables on flat indices made once (a ``take`` or a 1-d index
    costs a third to a fifth of the 2-d fancy index it replaces):

    - :attr:`_hole`, :attr:`_position`, :attr:`_turn_base`, :attr:`_past_base`: each
      table's first index of a block in the flat observations (per hole card, per seat,
      per past action);
    - :attr:`_turn`: by the seat to act, the seats from it on (relative seat -> seat);
    - :attr:`_past` and :attr:`_past_key`: the index in an observation of a past
      action's relative seat, by ``(seat to act * window + slot) * (players + 1) + seat
      that acted`` (``players``: none, then the seat to act's "to act now", a 1 anyway).
    """

    def __init__(self, encoder: Encoder, kept: TableArrays) -> None:
        n, window, tables = encoder.players, encoder.history, kept.tables
        self.encoder, self.kept = encoder, kept
        self.layout = layout = encoder.layout
        self.players, self.tables, self.window = n, tables, window
        self.bb = encoder.bb
        # the mask written whole for every table (exact actions, betting decisions only)
        self.masks_whole = encoder.codec.exact and not encoder.double
        self._shapes = _Shapes(encoder)
        starts = np.arange(tables) * encoder.size  # each table's observation, flat
        holes = 3 if encoder.double else 2
        self._hole = np.repeat(starts, holes)
        self._position = starts + layout.position
        self._turn_base = np.repeat(np.arange(tables) * (n + 1), n)  # kept.seat_rows
        seat = np.arange(n)
        self._turn = (seat[:, None] + seat) % n
        self._features = n * layout.seat_row
        slots = np.arange(window)
        self._past_base = starts[:, None] + slots * 0
        acted = np.arange(n + 1)
        past = layout.history + layout.past.seat + slots[None, :, None] * layout.past.size
        past = past + (acted[None, None, :] - seat[:, None, None]) % n
        past[:, :, n] = layout.seats + TO_ACT  # no action: "to act now" of the seat to act
        self._past = past.reshape(-1)  # by (seat * window + slot) * (n + 1) + acted
        self._past_key = (seat[:, None] * window + slots) * (n + 1)
        # the ones scattered by the last write that the next does not write over (hole
        # cards, position), when only they need clearing (:meth:`clear`)
        self.written: tuple[np.ndarray, ...] = ()
        self._clears_own = self.masks_whole

    def clear(self, observations: Any, masks: Any) -> None:
        """Zeroes what the next :meth:`write` needs zeroed: with exact actions in Texas
        Hold'em the last write's hole card and position ones (every other block is
        written whole, the shown cards' never, the decision's and "to act now" are the
        same 1), else all of ``observations`` and ``masks``."""
        if self._clears_own and self.written:
            every: Any = observations.reshape(-1)
            for ones in self.written:
                every[ones] = 0.0
            return
        observations.fill(0)
        if not self.masks_whole:
            masks.fill(0)

    def write(
        self, games: list[Any], views: list[Any], observations: Any, masks: Any, flat: Any
    ) -> np.ndarray:
        """The observation of each table's seat to act into row ``i`` of the zeroed
        arrays ``observations`` and ``masks`` (``flat`` their memory as ``(floats,
        bytes, int8 mask)`` views; ``masks`` need not be zeroed if :attr:`masks_whole`)
        from each hand's ``actor_view`` ``views`` (read through C-level ``map``: a
        field read in a Python loop costs twice as much); the kept rows are brought up
        to date first (:meth:`TableArrays.update`). Returns the seats to act."""
        encoder, kept, layout = self.encoder, self.kept, self.layout
        tables = self.tables
        values = list(map(_ACTOR, games))
        values += map(_POT, views)
        values += map(len, map(_BOARD, views))
        values += chain.from_iterable(map(_HOLE, views))
        ints = _integers(values)
        kept.update()
        seats = ints[:tables]
        kept.new_streets(games, views, ints[2 * tables : 3 * tables])
        every: Any = observations.reshape(-1)
        holes = self._hole + ints[3 * tables :]
        every[holes] = 1.0
        start = layout.board  # the board block, then the street block
        observations[:, start : start + layout.board_and_street] = kept.board
        position = self._position + (seats - kept.buttons) % self.players
        every[position] = 1.0
        self.written = (holes, position)
        # the seats' rows from the seat to act's on
        turned = self._turn_base + self._turn.take(seats, axis=0).reshape(-1)
        start = layout.seats
        observations[:, start : start + self._features] = kept.seat_rows.take(
            turned, axis=0
        ).reshape(tables, -1)
        observations[:, start + TO_ACT] = 1.0  # to act now: the observer, relative seat 0
        observations[:, layout.pot] = ints[tables : 2 * tables] / self.bb
        window = self.window
        if window:
            start = layout.history
            history = observations[:, start : start + window * layout.past.size]
            history[:] = kept.windows[kept.starts].reshape(tables, -1)
            key = kept.window_seats[kept.starts] + self._past_key.take(seats, axis=0)
            every[self._past_base + self._past.take(key)] = 1.0
        o, raw, mask = flat
        if self.masks_whole:
            self._legal_tables(observations, masks, views)
        else:
            size, count = encoder.size, encoder.codec.size
            for i, (decision, legal, _, _, pot, _) in enumerate(views):
                encoder.write_legal(o, raw, i * size, decision, legal, pot, mask, i * count)
        if encoder.double:
            # point cards; in Texas Hold'em no hand is shown before a decision (TH-22:
            # a hand is shown only at a run-out, where nobody decides, or at the end)
            for i, game in enumerate(games):
                encoder.write_cards_seen(o, i * encoder.size, game, game.actor)
        return seats

    def _legal_tables(self, observations: Any, masks: Any, views: list[Any]) -> None:
        """The decision, legal and mask blocks of every table's seat to act, all at a
        betting decision with exact actions: rows of :attr:`_shapes`, made once per
        shape of the options."""
        shapes = self._shapes
        if len(shapes) > _SHAPES:
            shapes.clear()
        rows = _integers(list(map(shapes.__getitem__, map(options_shape, map(_LEGAL, views)))))
        layout = self.layout
        observations[:, layout.decision] = 1.0  # a betting decision
        start = layout.legal
        observations[:, start : start + layout.legal_size] = shapes.legal.take(rows, axis=0)
        np.take(shapes.masks, rows, axis=0, out=masks, mode="clip")  # mode: unbuffered


def _integers(values: list[int]) -> np.ndarray:
    """``values`` as an int64 array, through :mod:`struct` (about 90 instructions an
    item, against 250 to 300 for :class:`array.array` or :func:`numpy.array`)."""
    packer = _PACKERS.get(len(values))
    if packer is None:
        packer = _PACKERS[len(values)] = struct.Struct(f"={len(values)}q")
    return np.frombuffer(packer.pack(*values), np.int64)


_PACKERS: dict[int, struct.Struct] = {}  # a struct of int64s, by count
_LEGAL, _HOLE, _BOARD, _POT = itemgetter(1), itemgetter(2), itemgetter(3), itemgetter(4)
_ACTOR = attrgetter("actor")  # of a Game
_SHAPES = 4096  # the most option shapes kept (:class:`_Shapes`)
_GROWTH = 64  # rows added to :class:`_Shapes`' arrays when they are full


class _Shapes(dict[tuple[Any, ...], int]):
    """The legal block and the mask of a betting decision with exact actions, by its
    options ``(can_fold, can_check, call_amount, min_raise_to, max_raise_to)``: the row
    of :attr:`legal` and :attr:`masks` that holds them, written by the encoder's own
    :meth:`Encoder.write_legal` the first time the shape is seen."""

    def __init__(self, encoder: Encoder) -> None:
        super().__init__()
        self.encoder = encoder
        self.width = encoder.layout.legal_size
        self.legal = np.zeros((0, self.width), np.float32)
        self.masks = np.zeros((0, encoder.codec.size), np.int8)

    def __missing__(self, key: tuple[Any, ...]) -> int:
        encoder = self.encoder
        row = len(self)
        if row == len(self.legal):  # room for more rows
            more = np.zeros((row + _GROWTH, self.width), np.float32)
            self.legal = np.concatenate((self.legal, more))
            masks = np.zeros((row + _GROWTH, encoder.codec.size), np.int8)
            self.masks = np.concatenate((self.masks, masks))
        observation = np.zeros(encoder.size, np.float32)
        o: Any = memoryview(observation)  # type: ignore[arg-type]
        can_fold, can_check, call, low, high = key  # options_shape
        legal = LegalActions(
            seat=0, can_fold=can_fold, can_check=can_check, call_amount=call,
            min_raise_to=low, max_raise_to=high, all_in_to=0, is_bet=False, bet=0,
        )  # fmt: skip
        self.masks[row] = 0
        mask: Any = memoryview(self.masks[row])
        encoder.write_legal(o, o.cast("B"), 0, BET, legal, 0, mask, 0)
        start = encoder.layout.legal
        self.legal[row] = observation[start : start + self.width]
        self[key] = row
        return row
