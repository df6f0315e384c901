"""Solving: exact game values of small boards, their tables, store and report.

:mod:`.split` (one position solved exactly by splitting its root moves over an
:class:`~adjacency.workers.Executor`), :mod:`.entries` (the table's entries,
results and kept first moves: plain data), :mod:`.solved_starts` (the solved-game table:
which board sizes and first movers, the lanes that solve them, their values,
first moves and principal variations), :mod:`.store` (its SQLite store, resumed
entry by entry), :mod:`.run` (the table solved in parallel into the store),
:mod:`.report` (text tables and plots of the values). The
solver itself is the engine's (:mod:`adjacency.engine`); the commands are
``split-solve`` and ``solutions``.
"""
