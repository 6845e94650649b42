"""Property tests over random tournaments (RULES.md TRN): chips conserved, every entrant
placed once, prizes equal to the pool, tables balanced and never played short longer
than the rules allow, eliminations ranked by their chips at the hand's start; in every
variant and betting structure."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doubleholdem.errors import RebuyRefused, RegistrationRefused
from doubleholdem.tournament import BlindStructure, Rebuys, Tournament, TournamentConfig

from .driver import Checked


@given(
    players=st.integers(2, 45),
    seats=st.integers(2, 10),
    variant=st.sampled_from(["texas", "double"]),
    betting=st.sampled_from(["no-limit", "pot-limit", "fixed-limit"]),
    ante_type=st.sampled_from(["uniform", "big-blind"]),
    length=st.integers(1, 6),
    stack=st.integers(200, 2000),
    bots=st.sampled_from([("random",), ("random", "station"), ("station", "random", "random")]),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_tournaments_keep_the_rules(
    players: int,
    seats: int,
    variant: str,
    betting: str,
    ante_type: str,
    length: int,
    stack: int,
    bots: tuple[str, ...],
    seed: int,
) -> None:
    config = TournamentConfig(
        kind="sit-and-go",
        capacity=players,
        seats=seats,
        starting_stack=stack,
        buy_in=7,
        blinds=BlindStructure.standard(by="hands", length=length, ante_type=ante_type),
        variant=variant,
        betting=betting,
    )
    tournament = Tournament(config, seed=seed)
    for n in range(players):
        tournament.register(f"p{n}")
    driver = Checked(tournament, bots)
    driver.play()
    driver.check_result()


@given(
    players=st.integers(2, 30),
    late=st.integers(0, 12),
    seats=st.integers(2, 9),
    re_entries=st.integers(0, 2),
    rebuy_until=st.integers(0, 3),
    add_on=st.booleans(),
    seed=st.integers(0, 2**32),
    choices=st.randoms(use_true_random=False),
)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_entries_rebuys_and_add_ons_keep_the_rules(
    players: int,
    late: int,
    seats: int,
    re_entries: int,
    rebuy_until: int,
    add_on: bool,
    seed: int,
    choices: random.Random,
) -> None:
    """A scheduled tournament with late registration, re-entries, rebuys and add-ons
    taken at random: the same invariants hold, the pool counts every purchase (TRN-1),
    and every entry, re-entries included, is placed once."""
    rebuys = None
    if rebuy_until:
        price, chips = (5, 500) if add_on else (0, 0)
        rebuys = Rebuys(until_level=rebuy_until, price=5, chips=300, most=2,
                        add_on_price=price, add_on_chips=chips)  # fmt: skip
    config = TournamentConfig(
        capacity=200,
        seats=seats,
        starting_stack=300,
        buy_in=10,
        blinds=BlindStructure.standard(by="hands", length=2),
        late_registration=2,
        re_entries=re_entries,
        rebuys=rebuys,
    )
    tournament = Tournament(config, seed=seed)
    for n in range(players):
        tournament.register(f"p{n}")
    if players < 2:
        return
    tournament.start()
    driver = Checked(tournament, ("random", "station"))
    bought = 0
    joined = 0
    while tournament.state == "running":
        if joined < late and tournament.late_registration_open() and choices.random() < 0.3:
            tournament.register(f"late{joined}")
            joined += 1
        report = driver.hand(choices.choice(tournament.ready_tables()))
        for player in report.may_rebuy:
            if choices.random() < 0.7:
                with contextlib.suppress(RebuyRefused):
                    tournament.rebuy(player)
                    bought += 5
        for player in list(tournament.players()):
            if tournament.state != "running":
                break
            try:
                if choices.random() < 0.2:
                    tournament.add_on(player)
                    bought += 5
                elif choices.random() < 0.1:
                    tournament.rebuy(player)
                    bought += 5
            except RebuyRefused:
                pass
        for entry in list(tournament.entries):
            if entry.place is not None and choices.random() < 0.3:
                with contextlib.suppress(RegistrationRefused):
                    tournament.re_enter(entry.player)
    driver.check_result()
    assert tournament.pool == 10 * len(tournament.entries) + bought
