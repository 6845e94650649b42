"""The settings of a learning environment (:class:`EnvConfig`) and the discrete action
sets by name (:data:`PRESETS`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Union, cast

from doubleholdem.errors import InvalidConfig, InvalidICM
from doubleholdem.game import AnteType, GameConfig, Rake, Structure, Variant
from doubleholdem.icm.model import MAX_TOTAL, check_payouts

__all__ = ["PRESETS", "REWARDS", "EnvConfig", "RaiseToken", "raise_tokens"]

RaiseToken = Union[str, float]  # "min", "all-in" or a fraction of the pot

PRESETS: dict[str, tuple[RaiseToken, ...]] = {
    "fc": (),
    "fcpa": (1.0, "all-in"),
    "fchpa": (0.5, 1.0, "all-in"),
    "fcmhpa": ("min", 0.5, 1.0, "all-in"),
    "fcmqhpda": ("min", 0.25, 0.5, 1.0, 2.0, "all-in"),
}
"""Discrete action sets by name: fold, check/call, then the bets and raises (``min``: the
minimum raise; a number: that fraction of the pot after a call; ``all-in``)."""

REWARDS = ("chips", "icm")
"""What a reward measures: chips won in big blinds, or the change of ICM equity."""


@dataclass(frozen=True)
class EnvConfig:
    """The settings of an environment, validated on construction (:class:`InvalidConfig`
    names the field). Money is in chips; observations and rewards are in big blinds.

    - ``variant``: ``"texas"`` or ``"double"`` (DH-1); ``structure``: ``"no-limit"``,
      ``"pot-limit"`` or ``"fixed-limit"``; ``players``: 2 to 10.
    - ``small_blind``, ``big_blind`` (default 1 and 2 chips), ``stacks``: chips of every
      seat (one number for all, or one per seat; default 100 big blinds), ``ante`` and
      ``ante_type`` (``"uniform"`` or ``"big-blind"``, TH-19), ``rake`` (default none).
    - ``hands``: hands per episode (default 1); more carry the stacks over at a
      :class:`~doubleholdem.table.Table` (moving button, TH-35, TH-38) until that many
      hands or one player is left; ``None``: until one player is left.
    - ``actions``: ``"exact"`` (fold, check/call, bet or raise to any legal total) or a
      discrete set: a name of :data:`PRESETS` or a sequence of raise sizes.
    - ``history``: the number of past actions in the observation (default 8).
    - ``button``: the button's seat of a one-hand episode (``None``: drawn at random each
      episode); a many-hand episode starts with the button at seat 0.
    - ``reveal_point``: DH-8; ``phh``: put each finished hand's PHH text in the infos.
    - ``reward``: ``"chips"`` (chips won or lost, in big blinds) or ``"icm"``: the change
      of each seat's ICM equity at a tournament table, in the units of ``payouts`` (the
      prizes of the places still to be decided, first place first) with ``others``, the
      stacks at the tournament's other tables (:mod:`doubleholdem.rl.rewards`).
    """

    variant: str = "texas"
    structure: str = "no-limit"
    players: int = 2
    small_blind: int = 1
    big_blind: int = 2
    stacks: int | tuple[int, ...] | None = None
    ante: int = 0
    ante_type: str = "uniform"
    rake: Rake | None = None
    hands: int | None = 1
    actions: str | tuple[RaiseToken, ...] = "exact"
    history: int = 8
    button: int | None = None
    reveal_point: bool = False
    phh: bool = True
    reward: str = "chips"
    payouts: tuple[int, ...] | None = None
    others: tuple[int, ...] = ()
    game: GameConfig = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = self.players
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
            raise InvalidConfig(f"players: {players!r} is not 2 to 10", field="players")
        stacks = self.stacks
        if stacks is None:
            stacks = (100 * self.big_blind,) * players
        elif isinstance(stacks, int) and not isinstance(stacks, bool):
            stacks = (stacks,) * players
        else:
            stacks = tuple(cast(Sequence[int], stacks))
            if len(stacks) != players:
                raise InvalidConfig(
                    f"stacks: give one stack or {players}, not {len(stacks)}", field="stacks"
                )
        object.__setattr__(self, "stacks", stacks)
        least = self.big_blind + self.ante
        if not all(isinstance(s, int) and s > least for s in stacks):
            raise InvalidConfig(
                f"stacks: every stack must be more than the big blind and ante ({least}) so "
                f"that the first hand has a decision, not {list(stacks)}",
                field="stacks",
            )
        actions = self.actions
        if not isinstance(actions, str):
            object.__setattr__(self, "actions", tuple(actions))
        raise_tokens(self.actions)  # refuses a bad action set
        for name, value, low in (("history", self.history, 0), ("hands", self.hands, 1)):
            if value is None and name == "hands":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InvalidConfig(f"{name}: {value!r} is not a whole number >= {low}", field=name)
        if self.button is not None and (
            isinstance(self.button, bool)
            or not isinstance(self.button, int)
            or not 0 <= self.button < players
        ):
            raise InvalidConfig(
                f"button: {self.button!r} is not a seat 0..{players - 1}", field="button"
            )
        game = GameConfig(
            stacks=stacks,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            structure=cast(Structure, self.structure),  # GameConfig checks the names
            variant=cast(Variant, self.variant),
            ante=self.ante,
            ante_type=cast(AnteType, self.ante_type),
            rake=self.rake,
            reveal_point=self.reveal_point,
            button=self.button or 0,
        )
        object.__setattr__(self, "game", game)
        if not isinstance(self.phh, bool):
            raise InvalidConfig(f"phh: {self.phh!r} is not true or false", field="phh")
        self._check_reward()

    def _check_reward(self) -> None:
        """``reward``, and ``payouts`` and ``others`` with ``"icm"`` (only then)."""
        if self.reward not in REWARDS:
            raise InvalidConfig(f"reward: {self.reward!r} is not 'chips' or 'icm'", field="reward")
        if self.reward == "chips":
            for name in ("payouts", "others"):
                if getattr(self, name):
                    raise InvalidConfig(f"{name}: only with reward='icm'", field=name)
            return
        if self.payouts is None:
            raise InvalidConfig(
                "payouts: reward='icm' needs the prizes of the places left", field="payouts"
            )
        others = self.others
        if (
            isinstance(others, (str, bytes))
            or not isinstance(others, Sequence)
            or not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in others)
        ):
            raise InvalidConfig(
                f"others: the stacks at the other tables are whole numbers above 0, not {others!r}",
                field="others",
            )
        if sum(others) + sum(self.game.stacks) > MAX_TOTAL:
            raise InvalidConfig(
                "others: the chips in play add up to more than 2**53", field="others"
            )
        try:
            payouts = check_payouts(self.payouts, self.players + len(others))
        except InvalidICM as error:
            raise InvalidConfig(f"payouts: {error}", field="payouts") from None
        object.__setattr__(self, "payouts", tuple(payouts))
        object.__setattr__(self, "others", tuple(others))

    @property
    def many_hands(self) -> bool:
        """True when an episode may have more than one hand."""
        return self.hands != 1

    @property
    def double(self) -> bool:
        """True for Double Hold'em."""
        return self.game.variant is Variant.DOUBLE

    @property
    def max_to(self) -> int:
        """The largest total any wager can reach: every chip at the table when stacks
        carry over, else the largest stack."""
        stacks = self.game.stacks
        return sum(stacks) if self.many_hands else max(stacks)


def raise_tokens(actions: object) -> tuple[RaiseToken, ...] | None:
    """The bet and raise sizes of a discrete action set (``None``: exact actions)."""
    if actions == "exact":
        return None
    if isinstance(actions, str):
        if actions not in PRESETS:
            names = ", ".join(["exact", *PRESETS])
            raise InvalidConfig(f"actions: {actions!r} is not one of {names}", field="actions")
        return PRESETS[actions]
    tokens: list[RaiseToken] = []
    for token in actions:  # type: ignore[attr-defined]
        if token in ("min", "all-in"):
            tokens.append(token)
        elif token == "pot":
            tokens.append(1.0)
        elif isinstance(token, (int, float)) and not isinstance(token, bool) and 0 < token <= 100:
            tokens.append(float(token))
        else:
            raise InvalidConfig(
                f"actions: {token!r} is not 'min', 'all-in', 'pot' or a pot fraction (0, 100]",
                field="actions",
            )
    return tuple(tokens)
