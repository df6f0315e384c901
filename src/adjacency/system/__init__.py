"""Operating-system services every layer may use: process lifetime, signals, exit, the
process table.

:mod:`adjacency.system.lifetime` makes child processes end with their parent;
:mod:`adjacency.system.signals` lets Ctrl-C stop a long compiled call;
:mod:`adjacency.system.shutdown` lets a finished command exit without the final
garbage collection; :mod:`adjacency.system.proctree` reads the processes of the machine
from ``/proc`` (trees, owners, CPU time, memory); :mod:`adjacency.system.cpu_meter`
counts the CPU one piece of work takes over the threads that work for it;
:mod:`adjacency.system.provenance` records the code, libraries and machine a stored
result came from; :mod:`adjacency.system.closing` is the one ``with`` block that closes
what holds threads, processes or a connection (bots, engine clients, executors, stores). Input
limits are not here: they live with the one number parser and file reader,
:mod:`adjacency.core.text`.

This package sits below :mod:`adjacency.core` and imports only the standard
library, so the protocol, the arena and the web server can all share it.
"""
