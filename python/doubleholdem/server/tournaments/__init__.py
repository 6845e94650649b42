"""Tournaments in the room (docs/tournaments.md): the library's
:class:`~doubleholdem.tournament.Tournament` run by the server, its entries, prizes and
refunds paid through the ledger, its state stored with every change so that a restart
(``kill -9`` included) goes on where it was."""
