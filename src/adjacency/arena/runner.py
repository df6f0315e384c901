"""Running a schedule: plan it, play it through an executor, store every game at once.

:func:`create_run` checks the bot specs and stores the whole schedule;
:func:`execute` plays whatever is still pending (all of it for a new run, the
rest after an interruption: that is ``--resume``) and commits each game as soon
as it arrives. With a sequential test (the Elo :class:`~adjacency.ratings.stats.Sprt` or
the margin :class:`~adjacency.ratings.margin.MarginSprt`, see
:mod:`adjacency.arena.sequential`), a match stops as soon as the test accepts a
hypothesis; the run is then marked ``sprt``.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..bots import make_bot
from ..system.provenance import provenance
from ..workers import Executor
from .games import BotFactory, GameResult, play_tasks
from .schedule import RunSettings, plan
from .sequential import PairTally, SequentialTest, from_settings, llr
from .store import Store

ResultHook = Callable[[GameResult], None]


@dataclass(frozen=True)
class RunReport:
    """How :func:`execute` ended."""

    run_id: int
    planned: int
    stored: int
    played_now: int
    status: str
    llr: float | None = None
    verdict: str | None = None


def player_files(players: Sequence[str]) -> dict[str, dict[str, str]]:
    """For each ``py:`` and ``cmd:`` spec, the SHA-256 (first 16 hex digits) of every file
    it names: the ``py:`` spec's Python file, and each word of a ``cmd:`` command that is
    a file (the program, its script). The spec's text stays the same when the file is
    edited, and the file is what plays: a run records what it ran."""
    found: dict[str, dict[str, str]] = {}
    for spec in dict.fromkeys(players):
        kind, _, rest = spec.partition(":")
        if kind == "py":
            names = [rest.rsplit(":", 1)[0]]
        elif kind == "cmd":
            try:
                names = shlex.split(rest)
            except ValueError:  # an unbalanced quote: the bot's own check names it
                names = rest.split()
        else:
            continue
        found[spec] = {
            name: hashlib.sha256(Path(name).read_bytes()).hexdigest()[:16]
            for name in names
            if Path(name).is_file()
        }
    return found


def create_run(
    store: Store,
    mode: str,
    players: list[str],
    settings: RunSettings,
    command: str = "",
    factory: BotFactory = make_bot,
    label: str = "",
) -> int:
    """Check every spec (by building the bot once), plan the run and store it; return its id.

    ``label`` is stored with the run (see :attr:`~adjacency.arena.store.Run.label`), and
    its provenance: the code and machine, the mode, players and settings, the seed."""
    for spec in dict.fromkeys(players):
        factory(spec, 0).close()
    tasks = plan(players, mode, settings)
    origin = provenance(
        {
            "mode": mode,
            "players": players,
            **settings.to_dict(),
            "player_files": player_files(players),
        },
        seeds=settings.seed,
    )
    return store.create_run(mode, players, settings, tasks, command, label, origin)


def execute(
    store: Store,
    run_id: int,
    executor: Executor,
    sprt: SequentialTest | None = None,
    on_result: ResultHook | None = None,
    factory: BotFactory = make_bot,
) -> RunReport:
    """Play the pending games of ``run_id`` and store each one as it finishes.

    ``sprt`` defaults to the test stored in the run's settings (if any).
    ``factory`` builds the bots in the workers (see :mod:`adjacency.arena.games`).

    Each planned game is stored at most once: a result for a game id already
    stored in this call (a task re-run by a distributed executor) is dropped.

    If interrupted (``KeyboardInterrupt``) or if a worker dies
    (:class:`~adjacency.workers.WorkerError`), marks the run ``stopped``
    and re-raises; a killed process leaves it ``running``; both can be resumed.
    """
    run = store.run(run_id)
    pending = store.pending(run_id)
    if sprt is None:
        sprt = from_settings(run.settings)
    if sprt is not None and len({t.pairing for t in store.tasks(run_id)}) != 1:
        raise ValueError("SPRT applies to a match (one pairing), not to a tournament")
    tally = PairTally.of(store.games(run_id)) if sprt is not None else None
    played = 0
    llr_value: float | None = None
    verdict: str | None = None
    if tally is not None and sprt is not None:
        llr_value = llr(sprt, tally)
        verdict = sprt.verdict(llr_value)
    if verdict is None and pending:
        stream = play_tasks(executor, pending, factory)
        expected = {task.index for task in pending}
        try:
            for result in stream:
                if result.task.index not in expected:
                    continue  # a re-run of a game already stored (or not of this run)
                expected.discard(result.task.index)
                store.record(run_id, result)
                played += 1
                if on_result is not None:
                    on_result(result)
                if tally is not None and sprt is not None:
                    tally.add(result.task.pair, result.a_points, result.margin)
                    llr_value = llr(sprt, tally)
                    verdict = sprt.verdict(llr_value)
                    if verdict is not None:
                        break
        except BaseException:  # Ctrl-C, SIGTERM, a dead worker: resumable later
            store.set_status(run_id, "stopped")
            raise
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
    stored = store.count(run_id)
    if verdict is not None:
        status = "sprt"
    elif stored == run.planned:
        status = "finished"
    else:
        status = "stopped"
    store.set_status(run_id, status)
    return RunReport(run_id, run.planned, stored, played, status, llr_value, verdict)
