"""Tables: seats, buy-ins, the button and blinds across hands, time, and the bots and
simulations that play at them (:mod:`.table`, :mod:`.bots`, :mod:`.simulate`)."""

from doubleholdem.table.table import ButtonRule, Decision, Observation, Table, TableConfig

__all__ = ["ButtonRule", "Decision", "Observation", "Table", "TableConfig"]
