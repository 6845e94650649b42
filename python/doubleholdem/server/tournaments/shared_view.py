"""What every watcher of a tournament sees (:func:`views.detail
<doubleholdem.server.tournaments.views.detail>` without a viewer), kept from one change
to the next, so that a push after a change costs what the change touched rather than
the field (issue 34): :class:`SharedView` keeps the last view's parts (each entry's row,
each table's row, the payouts, the levels) and after a change rebuilds only the rows of
the tables the change touched (:class:`Touched`, noted by the runner), of the entries
seated there before or after it, of the entries placed and of the entries added, and
makes the patch from the last view (:mod:`~doubleholdem.server.patches`) from those rows
alone; the small parts (the summary, the clock, the moves, a deal) are made anew each
time. What the change may have touched anywhere (the start, the end and its prizes, an
entry taken back and the others renumbered, the tournament reloaded) rebuilds the whole
view and compares it whole. The view is always exactly :func:`views.detail`'s."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from doubleholdem.server.patches import Patch, diff, diff_into
from doubleholdem.server.tournaments import views
from doubleholdem.server.tournaments.stored import Stored
from doubleholdem.tournament import Tournament

__all__ = ["SharedView", "Touched", "frozen"]

KEPT = 64  # earlier views a patch is kept from (watchers sent one between pushes)


@dataclass
class Touched:
    """What changed since the view was last made: the ``tables`` (their rows and the
    entries seated at them), or ``everything``."""

    tables: set[int] = field(default_factory=set)
    everything: bool = False


def frozen(value: Any) -> Any:
    """A copy of the JSON value ``value`` that shares nothing with it: a view may hold
    the tournament's own objects that change in place (a deal offered), and a view sent
    must not change with them."""
    return json.loads(json.dumps(value))


class SharedView:
    """One tournament's shared view, made by :meth:`update` after its changes."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self._basis: tuple[Any, ...] = ()  # what every row depends on
        self._objects: tuple[Any, ...] = ()
        self._entries: list[dict[str, Any]] = []
        self._tables: list[dict[str, Any]] = []
        self._index: dict[int, int] = {}  # table number -> its row's index
        self._seated: dict[int, dict[int, int]] = {}  # table number -> seat -> entry, as made
        self._placed = 0  # placings made when last made
        self._structure: list[dict[str, Any]] = []
        self._payouts: tuple[tuple[int, int], list[int]] | None = None
        self._chain: list[tuple[dict[str, Any], Patch]] = []  # earlier views, patch to next

    def update(
        self, stored: Stored, tournament: Tournament, now: float, touched: Touched
    ) -> dict[str, Any]:
        """The view now, after the changes ``touched`` notes (emptied), made from the
        last one's parts where they did not change."""
        objects = (stored, tournament, tournament.placings)  # placings: made anew at the end
        basis = (*map(id, objects), stored.status, tournament.state, len(stored.paid))
        old = self.view
        whole = (old is None or touched.everything or basis != self._basis
                 or len(tournament.entries) < len(self._entries))  # fmt: skip
        self._basis, self._objects = basis, objects  # held: their ids stay theirs
        if whole:
            new = self._make_whole(stored, tournament, now)
            patch = None if old is None else diff(old, new)
        else:
            assert old is not None
            new, patch = self._make_changed(stored, tournament, now, old, touched.tables)
        touched.tables.clear()
        touched.everything = False
        self._placed = len(tournament.placings)
        if old is not None and patch is not None:
            self._chain = [*self._chain[-KEPT:], (old, patch)]
        self.view = new
        return new

    def patch_from(self, held: dict[str, Any]) -> Patch | None:
        """The patch from the view ``held`` (made by this object since :meth:`forget`)
        to the current one; ``None`` if ``held`` is not one of them."""
        if held is self.view:
            return []
        for at, (view, _) in enumerate(self._chain):
            if view is held:
                return [op for _, patch in self._chain[at:] for op in patch]
        return None

    def forget(self) -> None:
        """Keeps no patch from the earlier views (nobody holds them any more)."""
        self._chain = []

    # ------------------------------------------------------------------ the parts

    def _parts(self, stored: Stored, tournament: Tournament) -> views.Parts:
        key = (tournament.pool, len(tournament.entries))
        if self._payouts is None or self._payouts[0] != key:
            self._payouts = key, list(tournament.prizes())
        return views.Parts(self._structure, self._payouts[1], self._entries, self._tables)

    def _view(self, stored: Stored, tournament: Tournament, now: float) -> dict[str, Any]:
        view = views.shared(stored, tournament, now, self._parts(stored, tournament))
        view["deal"] = frozen(view["deal"])
        view["me"] = None
        return view

    def _make_whole(self, stored: Stored, tournament: Tournament, now: float) -> dict[str, Any]:
        self._structure = views.structure(tournament.config)
        self._entries = [views.entry_row(stored, tournament, e.number) for e in tournament.entries]
        numbers = sorted(tournament.tables)
        self._tables = [views.table_row(tournament, number) for number in numbers]
        self._index = {number: at for at, number in enumerate(numbers)}
        self._seated = {number: dict(seats) for number, seats in tournament.seats.items()}
        return self._view(stored, tournament, now)

    def _make_changed(
        self,
        stored: Stored,
        tournament: Tournament,
        now: float,
        old: dict[str, Any],
        tables: set[int],
    ) -> tuple[dict[str, Any], Patch]:
        """The view after changes at ``tables`` only (entries may have been added and
        placed), and the patch from ``old``."""
        rows = {n: views.table_row(tournament, n) for n in sorted(tables) if n in tournament.tables}
        dirty = self._dirty_entries(tournament, tables, rows)
        counted = len(self._entries)
        self._entries = entries = list(self._entries)
        for number in dirty:
            row = views.entry_row(stored, tournament, number)
            if number < counted:
                entries[number] = row
            else:
                entries.append(row)
        if rows.keys() == tables and tables.issubset(self._index):  # no table came or went
            self._tables = list(self._tables)
            for number, row in rows.items():
                self._tables[self._index[number]] = row
            table_rows: list[int] | None = sorted(self._index[n] for n in tables)
        else:  # a table opened or broken: the rows in number order again
            numbers = sorted(tournament.tables)
            kept = {row["table"]: row for row in self._tables}
            self._tables = [rows[n] if n in rows else kept[n] for n in numbers]
            self._index = {number: at for at, number in enumerate(numbers)}
            table_rows = None
        new = self._view(stored, tournament, now)
        patch: Patch = []
        for key, value in new.items():
            if key == "entries":
                _patch_rows(old[key], value, [n for n in dirty if n < counted], patch, key)
            elif key == "tables" and table_rows is not None:
                _patch_rows(old[key], value, table_rows, patch, key)
            elif key in old:
                diff_into(old[key], value, [key], patch)
        return new, patch

    def _dirty_entries(
        self, tournament: Tournament, tables: set[int], rows: dict[int, dict[str, Any]]
    ) -> list[int]:
        """The entries whose rows the changes at ``tables`` (their new ``rows``) may
        have changed: seated at one of them before or after and not at the same seat
        with the same chips, placed, or new."""
        dirty: set[int] = set()
        for number in tables:
            at = self._index.get(number)
            old = None if at is None else self._tables[at]
            now = tournament.seats.get(number, {})
            dirty.update(_moved(self._seated.get(number, {}), now, old, rows.get(number)))
            if number in tournament.seats:
                self._seated[number] = dict(now)
            else:
                self._seated.pop(number, None)
        dirty.update(entry for entry, _, _ in tournament.placings[self._placed :])
        dirty.update(range(len(self._entries), len(tournament.entries)))
        return sorted(dirty)


def _moved(
    before: dict[int, int], now: dict[int, int], old: dict[str, Any] | None, new: Any
) -> set[int]:
    """The entries of a table whose seat or chips changed: seated ``before`` (seat ->
    entry) and ``now``, its row ``old`` and ``new`` (``None``: none)."""
    chips = {} if old is None else {p["seat"]: p["chips"] for p in old["players"]}
    moved = {entry for seat, entry in before.items() if now.get(seat) != entry}
    for player in [] if new is None else new["players"]:
        seat = player["seat"]
        if before.get(seat) != now[seat] or chips.get(seat) != player["chips"]:
            moved.add(now[seat])
    return moved


def _patch_rows(old: list[Any], new: list[Any], changed: list[int], patch: Patch, key: str) -> None:
    """Adds to ``patch`` the patch of the array ``key`` from ``old`` to ``new``, which
    differ at most at the indexes ``changed`` (sorted) and by items added at the end
    (as :func:`~doubleholdem.server.patches.diff` patches it: the items added spliced in
    at the end, then each member changed)."""
    if len(new) > len(old):
        patch.append([[key], len(old), 0, new[len(old) :]])
    for index in changed:
        diff_into(old[index], new[index], [key, index], patch)
