"""Many ``serve`` processes on one room (issue 33): each table owned by one process at a
time through a lease with an epoch (:mod:`~doubleholdem.server.cluster.leases`), the
process's membership kept alive and its tables' leases taken or handed over by a thread
of its own (:mod:`~doubleholdem.server.cluster.member`)."""
