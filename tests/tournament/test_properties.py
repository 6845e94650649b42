"""Property tests over random tournaments (RULES.md TRN): chips conserved, every entrant
placed once, prizes equal to the pool, tables balanced and never played short longer
than the rules allow, eliminations ranked by their chips at the hand's start; in every
variant and betting structure."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doubleholdem.tournament import BlindStructure, Tournament, TournamentConfig

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
