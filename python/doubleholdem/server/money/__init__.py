"""Money at the tables: buy-ins, top-ups, cash-outs and rake through the room's wallet
(:mod:`~doubleholdem.server.money.money`), the calls to a wallet outside the database
and the gate they pass through, and the bots' bankrolls. Built on
:mod:`doubleholdem.server.storage`."""
