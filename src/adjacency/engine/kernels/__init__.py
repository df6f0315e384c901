"""The engine's numba kernels and everything they inline, and nothing else.

Every module here is compiled code (``@kernel``: numba's ``njit``, cached on disk in
``kernels/__pycache__``) or what compiled code reads at compile time: the bit
helpers (:mod:`~adjacency.engine.kernels.bits`), the slots of the shared arrays
(:mod:`~adjacency.engine.kernels.layout`), the evaluation's constants. numba checks a
cached kernel against its own source file only, so :mod:`adjacency.engine.stale_cache`
fingerprints this folder as a whole and clears the cache when any file here changes.
Python code that merely calls kernels (the searcher, the parallel solver, training,
the bench) lives one level up, so editing it keeps the compiled cache.

The modules: :mod:`~adjacency.engine.kernels.search` (alpha-beta with forward pruning),
:mod:`~adjacency.engine.kernels.solver` (the exact endgame solver),
:mod:`~adjacency.engine.kernels.transposition` (the transposition table),
:mod:`~adjacency.engine.kernels.ordering` (move ordering),
:mod:`~adjacency.engine.kernels.evaluate`, :mod:`~adjacency.engine.kernels.features`
and :mod:`~adjacency.engine.kernels.patterns` (the evaluations) and
:mod:`~adjacency.engine.kernels.mcts` (Monte Carlo tree search for the ``mcts`` bot),
:mod:`~adjacency.engine.kernels.mcts_batch` (its PUCT with an outside evaluator),
:mod:`~adjacency.engine.kernels.boards` (many boards stepped at once, for the batched
environment) and :mod:`~adjacency.engine.kernels.planes` (observation planes and masks
for learning).
"""
