"""Property tests: random configurations and random legal decisions (hypothesis).

Chips are conserved (TH-6), no stack goes negative, every pot is awarded (TH-23), a
rejected action changes nothing, a hand always terminates, snapshot -> restore ->
continue plays identically, and views never leak hidden cards (DH-8)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doubleholdem.cards import CARD_NAMES
from doubleholdem.errors import IllegalAction
from doubleholdem.game import Action, AnteType, Event, GameConfig, Hand, Rake, Structure, Variant

MAX_DECISIONS = 400


@st.composite
def configs(draw: Any) -> GameConfig:
    n = draw(st.integers(2, 10))
    big = draw(st.integers(1, 50))
    return GameConfig(
        stacks=tuple(draw(st.lists(st.integers(1, 60 * big), min_size=n, max_size=n))),
        small_blind=draw(st.integers(0, big)),
        big_blind=big,
        structure=draw(st.sampled_from(list(Structure))),
        variant=draw(st.sampled_from(list(Variant))),
        button=draw(st.integers(0, n - 1)),
        ante=draw(st.sampled_from([0, 0, 1, big // 2])),
        ante_type=draw(st.sampled_from(list(AnteType))),
        heads_up_uncapped=draw(st.booleans()),
        rake=draw(st.sampled_from([None, Rake(500, cap=3 * big)])),
        reveal_point=draw(st.booleans()),
    )


def decide(hand: Hand, choice: int) -> Event:
    """A legal decision picked by ``choice``; the event the hand hands back."""
    legal = hand.legal_actions()
    assert legal is not None
    if legal.decision == "point":
        return hand.choose_point(legal.seat, choice % 3)
    options: list[tuple[str, int | None]] = []
    if legal.can_fold:
        options.append(("fold", None))
    options.append(("check", None) if legal.can_check else ("call", None))
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        span = legal.max_raise_to - legal.min_raise_to
        options.append(("raise", legal.min_raise_to + (choice // 7) % (span + 1)))
        options.append(("raise", legal.max_raise_to))
    if legal.can_all_in:
        options.append(("all_in", None))
    action, amount = options[choice % len(options)]
    return hand.act(action, amount)


def illegal_attempts(hand: Hand) -> list[tuple[str, int | None, int | None]]:
    """Actions the rules forbid right now: (action, amount, seat)."""
    legal = hand.legal_actions()
    assert legal is not None
    wrong_seat = (legal.seat + 1) % hand.players
    attempts: list[tuple[str, int | None, int | None]] = [("call", None, wrong_seat)]
    if legal.decision == "point":
        return [*attempts, ("check", None, None), ("fold", None, None)]
    attempts.append(("fold", None, None) if not legal.can_fold else ("check", None, None))
    low = legal.min_raise_to
    attempts.append(("raise", (low or legal.bet + legal.call_amount + 1) - 1, None))
    attempts.append(("raise", legal.all_in_to + 1, None))
    return attempts


def check_invariants(hand: Hand, config: GameConfig) -> None:
    total = sum(config.stacks)
    assert min(hand.stacks) >= 0
    if hand.over:
        rake = sum(r.rake for r in hand.results)
        assert sum(hand.stacks) + rake == total
        assert hand.pot == 0
        assert all(sum(r.shares) == r.amount - r.rake for r in hand.results)
    else:
        assert sum(hand.stacks) + hand.pot == total


def check_view(hand: Hand, seat: int) -> None:
    """The view of ``seat`` holds no card of another seat that was not shown, no burned
    or undealt card, and no hidden point of another seat."""
    view = hand.view(seat)
    visible = set(view["hole"]) | set(view["board"])
    for cards in view["shown"].values():
        visible |= set(cards)
    for event in view["events"]:
        if event["kind"] == "point" and event["seat"] != seat:
            assert ("cards" in event) is hand.config.reveal_point
            visible |= set(event.get("cards", ()))
    mentioned = set()
    for event in view["events"]:
        mentioned |= set(event.get("cards", ()))
    assert mentioned <= visible
    hidden = {CARD_NAMES[c] for s in range(hand.players) if s != seat for c in hand.hole(s)}
    leaked = (hidden - visible) & set(json.dumps(view).replace('"', " ").split())
    assert not leaked


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=configs(),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10_000), min_size=MAX_DECISIONS, max_size=MAX_DECISIONS),
    probe=st.integers(0, 10_000),
)
def test_random_hands_keep_every_invariant(
    config: GameConfig, seed: int, choices: list[int], probe: int
) -> None:
    """TH-5, TH-6, TH-20, TH-21, TH-23, DH-5, DH-8 on random hands: conservation, no
    negative stack, all pots awarded, rejected actions change nothing, termination,
    views never leak."""
    hand = Hand(config, seed=seed)
    for step, choice in enumerate(choices):
        check_invariants(hand, config)
        if hand.over:
            break
        if step % 5 == probe % 5:
            before = hand.to_json()
            for action, amount, seat in illegal_attempts(hand):
                try:
                    hand.act(action, amount, seat=seat)
                except IllegalAction:
                    pass
                else:  # pragma: no cover - the attempt was legal after all
                    raise AssertionError(f"{action} {amount} by {seat} was accepted")
                assert hand.to_json() == before
            check_view(hand, (probe + step) % hand.players)
        decide(hand, choice)
    assert hand.over, "the hand did not end"
    check_invariants(hand, config)
    check_view(hand, probe % hand.players)


@settings(max_examples=60, deadline=None)
@given(
    config=configs(),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10_000), min_size=MAX_DECISIONS, max_size=MAX_DECISIONS),
    cut=st.integers(0, 30),
)
def test_snapshot_restore_continue_is_identical(
    config: GameConfig, seed: int, choices: list[int], cut: int
) -> None:
    """A snapshot taken at any point restores to a hand that continues identically."""
    hand = Hand(config, seed=seed)
    decisions = iter(choices)
    for _ in range(cut):
        if hand.over:
            break
        decide(hand, next(decisions))
    copy = Hand.from_json(hand.to_json())
    assert copy.to_json() == hand.to_json()
    for choice in decisions:
        if hand.over:
            break
        decide(hand, choice)
        decide(copy, choice)
    assert copy.over and hand.over
    assert copy.log_json() == hand.log_json()
    assert copy.stacks == hand.stacks


def random_play(test: Callable[..., None]) -> Callable[..., None]:
    """``test`` run on random play: a game, a seed and a choice per decision."""
    return settings(max_examples=40, deadline=None)(
        given(
            config=configs(),
            seed=st.integers(0, 2**32),
            choices=st.lists(
                st.integers(0, 10_000), min_size=MAX_DECISIONS, max_size=MAX_DECISIONS
            ),
        )(test)
    )


def attempt(hand: Hand, action: str, amount: int | None) -> tuple[str, Any] | None:
    """``hand.act(action, amount)``: ``None`` if taken, else the refusal and its options."""
    try:
        hand.act(action, amount)
    except IllegalAction as error:
        return str(error), error.legal
    return None


@random_play
def test_plain_decisions_without_asking_are_taken_or_refused_alike(
    config: GameConfig, seed: int, choices: list[int]
) -> None:
    """TH-4: a fold, check or call given without asking for the options first (the
    hand's shortcut, no LegalActions made) is taken, or refused with the same options,
    exactly as after asking; a refusal changes nothing."""
    hand = Hand(config, seed=seed)
    for choice in choices:
        if hand.over:
            break
        tries: list[tuple[Any, int | None]] = [
            ("fold", None),
            ("check", None),
            ("call", None),
            ("call", choice % 60),
            ("fold", 0),
            (Action.CALL, None),
        ]
        for action, amount in tries:
            asked = Hand.from_json(hand.to_json())
            asked.legal_actions()
            unasked = Hand.from_json(hand.to_json())
            assert attempt(asked, action, amount) == attempt(unasked, action, amount)
            assert asked.log_json() == unasked.log_json()
        decide(hand, choice)


@random_play
def test_each_decision_hands_back_the_event_it_recorded(
    config: GameConfig, seed: int, choices: list[int]
) -> None:
    """Issue 31 item 1: ``act``, ``choose_point`` and ``timeout`` return the events they
    recorded, equal to the log's entries of the same numbers; a betting event's
    ``amount`` is the chips that left the seat's stack (an all-in as the call, bet or
    raise it is), its ``to`` the wager after a bet or raise."""
    hand = Hand(config, seed=seed)
    for choice in choices:
        if hand.over:
            break
        legal = hand.legal_actions()
        assert legal is not None
        seat, stack = legal.seat, hand.stacks[legal.seat]
        if choice % 5 == 0:
            returned: tuple[Any, ...] = hand.timeout(seat)
            assert returned[0].kind == "timeout"
        else:
            before = hand.event_count
            returned = (decide(hand, choice),)
            assert returned[0].seq == before  # the decision's own event, first of the new
        log = hand.events
        for event in returned:
            assert log[event.seq] == event
        last = returned[-1]
        assert last.seat == seat
        if last.kind in ("call", "bet", "raise"):
            spent = last.amount
            assert spent is not None and spent > 0
            returned_chips = sum(
                e.amount or 0 for e in log[last.seq + 1 :] if e.kind == "return" and e.seat == seat
            )
            if not hand.over:
                assert stack - spent + returned_chips == hand.stacks[seat]
            assert last.all_in == (spent == stack)
            if last.kind != "call":
                assert last.to == legal.bet + spent
