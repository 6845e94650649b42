"""A tournament's decisions by id (docs/PROTOCOL.md, "Tournaments"): :class:`ActionIds`
remembers the ``id`` a player sent a decision with, as a cash table's ``act`` is
remembered (docs/PROTOCOL.md, ``act``). The id goes into the same transaction as the
decision (:mod:`~doubleholdem.server.storage.tournament_actions`), and into the group
commit's ``applying`` until that transaction committed, so that a decision resent
before or after its commit, or after a restart, is answered ``repeated`` and applied
once; a commit that fails forgets it (the retry is then applied). The same id sent with
another decision is refused (:class:`ActionIdReused`). Ids are forgotten with their
table's hands (the hand they were sent in is remembered until the next one ends) and
with the tournament once it is over."""

from __future__ import annotations

import json

from doubleholdem.errors import TournamentError
from doubleholdem.server.storage import tournament_actions
from doubleholdem.server.storage.commit import GroupCommit, Step
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tournaments.stored import tournaments_db

__all__ = ["ActionIdReused", "ActionIds", "Decided"]


class ActionIdReused(TournamentError):
    """A decision sent with the id of another decision of the same player (applied
    already): refused, nothing changed; a new decision takes a new id."""

    code = "id_reused"


Decided = tuple[int, str, "int | None"]  # what an id decided: hand, action, amount


class ActionIds:
    """The action ids of tournament ``tournament_id``'s decisions."""

    def __init__(self, tournament_id: int, store: Storage, commit: GroupCommit) -> None:
        self.tournament_id = tournament_id
        self.store = store
        self.commit = commit

    def _key(self, player: str, action_id: str) -> str:
        """The id's key in the group commit's ``applying`` (never a token's hash)."""
        return json.dumps(["tournament", self.tournament_id, player, action_id])

    def repeated(self, player: str, action_id: str | None, decided: Decided) -> bool:
        """Whether ``player``'s ``action_id`` was applied (or is being committed) as
        ``decided`` already: the retry is answered ``repeated``. Raises
        :class:`ActionIdReused` when it was applied as another decision."""
        if action_id is None:
            return False
        key, decision = self._key(player, action_id), json.dumps(decided)
        if (key, decision) in self.commit.applying:
            return True
        earlier = next((d for k, d in self.commit.applying if k == key), None)
        if earlier is None:
            earlier = tournament_actions.decided(  # (on the loop: a commit may be in flight)
                self.store.committed(), self.tournament_id, player, action_id
            )
        if earlier is None:
            return False
        if earlier == decision:
            return True
        hand, action, amount = json.loads(earlier)
        what = action if amount is None else f"{action} {amount}"
        raise ActionIdReused(
            f"id {action_id!r} was sent with another decision ({what} in hand {hand}): "
            "nothing was changed; send a new decision with a new id",
            player=player,
        )

    def applied(
        self, player: str, action_id: str | None, decided: Decided, table: int
    ) -> list[Step]:
        """The step noting that ``player``'s ``action_id`` (if any) was applied as
        ``decided`` at table ``table``, to commit with the decision; the id is being
        committed until then."""
        if action_id is None:
            return []
        decision, hand, tournament_id = json.dumps(decided), decided[0], self.tournament_id
        self.commit.applying.add((self._key(player, action_id), decision))

        def put(store: Storage) -> None:
            tournament_actions.put(
                tournaments_db(store), tournament_id, player, action_id, table, hand, decision
            )

        return [put]

    def hand_over(self, table: int, hand: int) -> Step:
        """The step forgetting the ids of table ``table``'s hands before ``hand``, which
        just ended."""
        tournament_id = self.tournament_id
        return lambda store: tournament_actions.forget(
            tournaments_db(store), tournament_id, table, hand
        )

    def over(self) -> Step:
        """The step forgetting every id of the tournament (it is over)."""
        tournament_id = self.tournament_id
        return lambda store: tournament_actions.forget_tournament(
            tournaments_db(store), tournament_id
        )
