"""An error reply carries the numbers its message names as fields of their own, from 0
(issue 31 item 5): the page and the command line number them for people; the message
beside them is said from 1, from those numbers, never rewritten."""

from __future__ import annotations

from money_room import kinds, money_room, send, sign_up


def test_a_refused_decision_says_its_seat_and_reason_in_fields() -> None:
    """Issue 31 item 5: a refused decision's reply carries its seat (from 0), whose turn
    it is and what was refused, beside the message a person reads (seats from 1)."""
    room = money_room()
    players = {name: sign_up(room, name, 1000) for name in ("ann", "bob")}
    for seat, connection in enumerate(players.values()):
        assert kinds(send(room, connection, type="sit", table=0, seat=seat, buy_in=400)) == [
            "seated"
        ]
    runner = room.runners[0]
    with runner.change():
        runner.table.start_hand(now=room.now(runner.table))
    actor = runner.table.to_act
    assert actor is not None
    hand = runner.table.hand_number
    mover, waiter = players["ann" if actor == 0 else "bob"], players["bob" if actor == 0 else "ann"]
    too_much = send(room, mover, type="act", id="m1", hand=hand, action="raise", amount=10**6)
    (refused,) = [r for r in too_much if r["type"] == "error"]
    assert refused["code"] == "illegal" and refused["seat"] == actor
    assert refused["reason"].startswith("cannot raise: bets and raises go to ")
    assert refused["message"] == f"seat {actor + 1} {refused['reason']}"
    early = send(room, waiter, type="act", id="w1", hand=hand, action="fold")
    (refused,) = [r for r in early if r["type"] == "error"]
    assert (refused["seat"], refused["turn"]) == (1 - actor, actor) and "reason" not in refused
    assert refused["message"] == f"seat {2 - actor} cannot fold: it is seat {actor + 1}'s turn"
    room.store.close()
