"""Training: the engine's evaluations fitted offline from self-play labelled by deeper search.

:mod:`.fit` (self-play positions, deeper-search and exact labels, the least-squares fits
of the learned and the pattern evaluation, held-out errors), :mod:`.dataset` (the
training positions as a resumable sharded job on disk) and :mod:`.backed_up` (the backed-up
target: labels searched over the evaluation fitted nearer the end, phase by phase). The
positions are labelled on any :class:`~adjacency.workers.Executor`; the weights are
written in the engine's own file format (:mod:`adjacency.engine.weights_file`), which
the engine reads without needing this package. So the engine imports only the core and
``system/``, and this room sits above it and the workers. The ``train-eval`` command is
:mod:`adjacency.cli.train_commands`.
"""
