"""The arena: matches and tournaments between bots, with storage, statistics and reports.

Modules, in the order data flows: :mod:`.schedule` (pairings, openings, game
pairs), :mod:`.executor` (where games are played), :mod:`.store` (SQLite),
:mod:`.runner` (plan, play, store), :mod:`.stats` (Elo, LOS, SPRT, ratings),
:mod:`.summary` (totals from stored games), :mod:`.tables` (rich tables),
:mod:`.export` (CSV, JSON, records), :mod:`.plots` and :mod:`.report`
(markdown/HTML report), :mod:`.experiments` (the reproduced course matchups).
"""
