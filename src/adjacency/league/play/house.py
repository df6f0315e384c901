"""House bots: built-in specs the server plays itself, one move at a time, in worker processes.

This is the league's one use of the workers (:func:`~adjacency.workers.make_executor`): every
house move is one work item ``(spec, seed, fen, seconds)`` run by
:func:`house_move` in a worker, so a slow or crashing house bot never blocks the
server's event loop or takes the server down. Workers keep no state between
moves (a bot is built per move; the engine's compiled code stays loaded in its
worker). ``--executor ray`` puts the house bots on a Ray cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from dataclasses import dataclass

from ...bots import BotError, Limit
from ...bots.gate import admit, build
from ...bots.lookup import entry
from ...core import Position
from ...workers import Executor, make_executor
from ...workers import WorkerError as WorkerError  # re-exported: the one import site


@dataclass(frozen=True)
class HouseMove:
    """One house move to compute: the bot, its seed, the position and the time it may use."""

    spec: str
    seed: int
    fen: str
    seconds: float


@dataclass(frozen=True)
class HouseAnswer:
    """A house move computed: its square and ``cpu``, the CPU seconds its worker process
    used to choose it (the bot's thinking alone: not its build, nor the executor's
    dispatch, nor the worker's waits for a CPU on a loaded machine)."""

    move: str
    cpu: float


def house_move(item: HouseMove) -> HouseAnswer:
    """Build the bot and ask it for a move (runs in a worker process, one move at a time:
    the process's CPU time is the move's). The spec passes the network gate again here
    (:func:`~adjacency.bots.gate.admit`): a house bot's spec came from an admin request
    or the league file, and a worker builds nothing else."""
    bot = build(admit(item.spec), seed=item.seed)
    try:
        began = time.process_time()
        move = bot.choose_move(Position.from_fen(item.fen), Limit(time=item.seconds))
        return HouseAnswer(move, time.process_time() - began)
    finally:
        bot.close()


def check_house_spec(spec: str) -> str:
    """The canonical text of ``spec``, or :class:`~adjacency.bots.BotError` unless it
    names a built-in bot the network gate admits (:func:`~adjacency.bots.gate.admit`):
    ``cmd:`` programs and ``py:`` files are not house bots (they would run a team's code on
    the server's machine; the team connects them with ``adjacency connect``), and no
    option may name a file of the server. The bot is built once, so a bad value fails here."""
    name = spec.strip().partition(":")[0].strip().lower() if isinstance(spec, str) else ""
    if name and entry(name).raw:
        raise BotError(f"{name}: bots cannot be house bots; connect them with adjacency connect")
    admitted = admit(spec)
    build(admitted, seed=0).close()
    return admitted.text


class HousePlayers:
    """The executor that plays house moves (started on first use, closed with the server)."""

    def __init__(
        self, executor: str = "local", jobs: int | None = 1, address: str | None = None
    ) -> None:
        self._choice = executor
        self._jobs = jobs
        self._address = address  # a Ray cluster's (``ray start``); None: a private runtime
        self._executor: Executor | None = None
        self._pool_lock = threading.Lock()
        self._stopped = False

    def start(self) -> None:
        """Start the executor now (call from the main thread: pool workers then end with
        the server even on ``kill -9``)."""
        self._ensure()

    def _ensure(self) -> Executor:
        with self._pool_lock:
            if self._stopped:  # a move still asked for as the server stops: no new pool
                raise WorkerError("the server is stopping")
            if self._executor is None:
                self._executor = make_executor(
                    self._choice, self._jobs, address=self._address, command="league serve"
                )
            return self._executor

    def _run(self, item: HouseMove) -> HouseAnswer:
        try:
            for _, answer in self._ensure().map_unordered(house_move, [item]):
                return answer
        except WorkerError:
            self.close()  # a worker died: the next move starts a fresh pool
            raise
        raise WorkerError("the executor returned no move")  # pragma: no cover

    async def warm_up(self, spec: str) -> None:
        """Start a worker and build ``spec`` in it once (process start and imports take a
        second or more), so the first house move of the league is not the slow one."""
        start = Position.start(6, 6, 1)
        with contextlib.suppress(Exception):
            await self.choose(HouseMove(spec, 0, start.fen(), 0.05))

    async def choose(self, item: HouseMove) -> HouseAnswer:
        """The house bot's move and its CPU time, computed in a worker without blocking the
        event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, self._run, item)

    def close(self) -> None:
        """Stop the executor and its workers; the next move starts a fresh one."""
        with self._pool_lock:
            if self._executor is not None:
                self._executor.close()
                self._executor = None

    def stop(self) -> None:
        """Close for good, as the server stops: a move asked for afterwards is a
        :class:`WorkerError` at once instead of a fresh pool, whose workers would start
        (seconds on a loaded machine) only to be shut down, holding up the exit."""
        with self._pool_lock:
            self._stopped = True
        self.close()
