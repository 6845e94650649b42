"""Table.play_out: a hand played to its end by bots (each seat's player chooses from
what the table lets it observe, the table applies), the same hand, decision for
decision, as the loop of observe, choose and act that a caller would write."""

from __future__ import annotations

from doubleholdem.table.bots import CallingStation, RandomBot
from doubleholdem.table.decisions import Chooser
from doubleholdem.table.table import Table, TableConfig


def seated(seed: int) -> Table:
    table = Table(TableConfig(small_blind=5, big_blind=10, seats=6, variant="double"), seed=seed)
    for seat in range(0, 6, 2 if seed % 2 else 1):  # every seat, or every other one
        table.join(seat, f"p{seat}", 1000)
    return table


def players(seed: int) -> dict[int, Chooser]:
    return {
        seat: RandomBot(seed * 10 + seat) if seat % 3 else CallingStation() for seat in range(6)
    }


def test_play_out_plays_the_hand_as_the_loop_of_observe_choose_and_act() -> None:
    for seed in range(6):
        played, looped = seated(seed), seated(seed)
        bots, same = players(seed), players(seed)
        for _ in range(5):
            if len(played.able()) < 2:  # the others went broke
                break
            played.start_hand()
            played.play_out(bots)
            looped.start_hand()
            while looped.to_act is not None:
                seat = looped.to_act
                looped.decide(seat, same[seat].choose(looped.observe(seat)))
            assert not played.in_hand
            assert played.event_log(everything=True) == looped.event_log(everything=True)
            assert [played.stack(s) for s in played.dealt] == [
                looped.stack(s) for s in looped.dealt
            ]


def test_play_out_without_a_hand_in_play_does_nothing() -> None:
    table = seated(0)
    table.play_out([])  # no hand dealt yet: nobody is asked
    table.start_hand()
    table.play_out(players(0))
    length = table.log_length
    table.play_out([])  # the hand is over: nobody is asked
    assert table.log_length == length and not table.in_hand
