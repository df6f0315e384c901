"""Tuning: bot parameters tuned by SPSA on games played through an executor.

:mod:`.spsa` (parameters, the gain schedule, a batch of game pairs at theta
plus and minus a perturbation, the update), :mod:`.store` (the SQLite record of
every batch, so a run resumes), :mod:`.plot` (parameter trajectories). Games are
planned and played by the arena (:mod:`adjacency.arena.schedule`,
:mod:`adjacency.arena.games`) on any :class:`~adjacency.workers.Executor`.
The ``tune`` command is :mod:`adjacency.cli.tune_commands`.
"""
