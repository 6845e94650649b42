"""``python -m doubleholdem.cli``."""

from doubleholdem.cli import entry_point

entry_point()
