"""The old path of :mod:`doubleholdem.server.tables.room` (docs showed it), kept for one release."""

from doubleholdem.server.tables.room import *  # noqa: F403
from doubleholdem.server.tables.room import __all__ as __all__
