"""The arena: matches and tournaments between bots, with storage, statistics and reports.

Modules, in the order data flows: :mod:`.schedule` (pairings, openings, game
pairs), :mod:`.games` (a planned game played in a worker, and many of them
played on an :class:`~adjacency.workers.Executor`), :mod:`.store` (SQLite),
:mod:`.runner` (plan, play, store), the statistics of :mod:`adjacency.ratings`,
:mod:`.summary` (totals from stored games), :mod:`.progress_bar` (the progress display),
:mod:`.tables` (rich tables), :mod:`.export` (CSV, JSON, records),
:mod:`.charts` (the report's plots) and :mod:`.run_report` (the markdown/HTML
report of a stored run), :mod:`.experiments` (the reproduced course matchups).
Where games run is :mod:`adjacency.workers`; tuning and the solved-game tables
are their own packages (:mod:`adjacency.tuning`, :mod:`adjacency.solving`).
"""
