"""Ending a tournament before one entry holds every chip (docs/tournaments.md): a
final-table deal every remaining player accepted, or the room cancelling it after the
start. Both pay out the whole pool by one rule: every entry already placed takes its
place's prize (TRN-17, TRN-19); an entry still in but without chips (busted in a
hand-for-hand round not closed yet) takes the prizes of the places just below those
still played for, shared (TRN-19); and the prizes of the places still played for, one
per entry with chips, are split among those entries by ICM over their stacks
(:func:`doubleholdem.icm.icm_deal`, whole chips adding up exactly).

>>> from doubleholdem.tournament import Tournament, TournamentConfig
>>> t = Tournament(TournamentConfig(kind="sit-and-go", capacity=3, buy_in=100), seed=2)
>>> for name in ("ann", "bob", "cy"):
...     _ = t.register(name)
>>> amounts = settlement(t)
>>> sorted(amounts.values()), sum(amounts.values()) == t.pool
([100, 100, 100], True)
"""

from __future__ import annotations

from doubleholdem.icm import icm_deal
from doubleholdem.tournament import Tournament
from doubleholdem.tournament.places import award

__all__ = ["remaining_stacks", "settlement"]


def remaining_stacks(tournament: Tournament) -> dict[int, int]:
    """Entry -> chips of every entry not yet placed (0 for one busted whose place is
    not given yet), between hands."""
    stacks = {}
    for entry in tournament.entries:
        if entry.place is None:
            seated = entry.table is not None and entry.seat is not None
            table = tournament.tables.get(entry.table) if seated else None  # type: ignore[arg-type]
            stacks[entry.number] = 0 if table is None else table.stack(entry.seat)  # type: ignore[arg-type]
    return stacks


def settlement(tournament: Tournament) -> dict[int, int]:
    """Entry -> its share of the pool by the module's rule (no hand in play). The
    amounts add up to the pool."""
    prizes = list(tournament.prizes())
    won = award(tournament.placings, prizes)
    stacks = remaining_stacks(tournament)
    alive = [entry for entry, chips in stacks.items() if chips > 0]
    busted = [entry for entry, chips in stacks.items() if chips == 0]
    played_for = prizes[: len(alive)]
    if alive and played_for:
        deal = icm_deal([stacks[e] for e in alive], played_for)
        won.update(zip(alive, deal.amounts))
    else:
        won.update(dict.fromkeys(alive, 0))
    if busted:
        first = len(alive) + 1
        places = tuple(range(first, first + len(busted)))
        won.update(award([(entry, first, places) for entry in busted], prizes))
    return won
