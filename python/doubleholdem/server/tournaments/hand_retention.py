"""The room's hand retention (docs/server.md, "Retention": ``--keep-hands``,
``--keep-hands-days``) applied to the hands of tournaments that are over. While a
tournament registers or runs, every hand of it is kept (its players' histories stay
whole); once it is over (finished or cancelled), each of its tables is a table of the
retention: its last ``keep_hands`` hands are kept and none that ended more than
``keep_hands_days`` days ago, forgotten by one bounded step per table
(:func:`~doubleholdem.server.storage.hands.forget`, at most ``FORGET_BATCH`` hands)
that the room commits every ``RETENTION_SECONDS``
(:meth:`Tournaments.forget_old_hands
<doubleholdem.server.tournaments.room.Tournaments.forget_old_hands>`). A tournament
whose step found nothing to forget is not looked at again unless hands age
(``keep_hands_days``)."""

from __future__ import annotations

from doubleholdem.server.storage import hands
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tournaments.stored import tournaments_db

__all__ = ["RETENTION_SECONDS", "forget_hands"]

RETENTION_SECONDS = 10.0  # how often the hands of tournaments over are looked at


def forget_hands(
    store: Storage, tournament_id: int, *, keep: int | None, older_than: float | None
) -> int:
    """One step of the retention of tournament ``tournament_id``'s hands (in the
    caller's transaction): at each of its tables, at most ``FORGET_BATCH`` of the hands
    beyond its last ``keep`` or ended before ``older_than``. Returns how many hands it
    forgot."""
    db = tournaments_db(store)
    newest, oldest = (
        hands.tournament_key(tournament_id, 1),
        hands.tournament_key(tournament_id, hands.TOURNAMENT_TABLES - 1),
    )
    count = "SELECT COUNT(*) FROM hand_index WHERE table_id BETWEEN ? AND ?"
    before = int(db.execute(count, (oldest, newest)).fetchone()[0])
    tables = db.execute(
        "SELECT table_id, MAX(number) FROM hand_index WHERE table_id BETWEEN ? AND ?"
        " GROUP BY table_id ORDER BY table_id",
        (oldest, newest),
    ).fetchall()
    for key, last in tables:
        hands.forget(db, int(key), last=int(last), keep=keep, older_than=older_than)
    return before - int(db.execute(count, (oldest, newest)).fetchone()[0])
