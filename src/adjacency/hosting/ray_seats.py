"""Hosted seats on a Ray cluster: a game's hosted sides on one node (:class:`RaySeats`).

With the league's ``--executor ray``, each game with a hosted side gets one Ray actor,
:class:`GameHost`, on a node of the cluster (spread over the nodes; never the head node
when it offers no CPU). The server ships the built bot (its class folder as a zip, made
once per build, :func:`pack`) with the first call; the actor unpacks it into a folder of
its own on that node and runs the same :class:`~.seat.BotSeat` as the server runs
locally: the same sandbox (bubblewrap, the uid pool of that machine), the same CPU-time
charge and wall cap. Both sides of a game go to the game's one actor, so a game's
sandboxed processes share one node; the actor and its folder end with the game.

A node that dies mid-game takes its game's hosted processes with it: the seat's next
call answers with a disconnection (the bot lost by the node, said in its reason), never
a stand-in move. :class:`RemoteSeat` is a :class:`~.seat.Seat` as :class:`~.seat.BotSeat` is, so the
league's games do not know where a seat runs.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import threading
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

from ..bots import BotError
from ..core.game import Termination
from ..sandbox import Outcome, SandboxedProcess
from ..workers.base import ExecutorUnavailable, Placement
from ..workers.ray_cluster import import_ray
from .player import Choice
from .seat import Answer, BotSeat

GAME_CPUS = 0.25
"""The CPUs a game's actor reserves on its node: a hosted game mostly waits (for the
other side, or for a slot of ``--hosted-jobs``), and the server's slots bound what
computes at once; a fraction keeps actors off a head node that offers no CPU."""

CALLS = 4
"""Calls an actor serves at once: both sides starting, a move and the game's end."""


def pack(classes: Path) -> bytes:
    """``classes`` (a built submission's class folder) as a zip: its regular files, in
    sorted order, no links."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(classes.rglob("*")):
            if path.is_file() and not path.is_symlink():
                archive.write(path, path.relative_to(classes).as_posix())
    return buffer.getvalue()


def unpack(data: bytes, folder: Path) -> None:
    """Write :func:`pack`'s zip into ``folder`` (made here), readable by the sandbox's
    users; a name that would leave the folder is refused (the zip is the server's own,
    checked all the same)."""
    folder.mkdir(mode=0o755, parents=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            name = PurePosixPath(info.filename)
            if name.is_absolute() or ".." in name.parts or info.is_dir():
                raise BotError(f"a shipped build holds an unsafe name: {info.filename!r}")
            target = folder.joinpath(*name.parts)
            target.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            target.write_bytes(archive.read(info))
            os.chmod(target, 0o644)


class GameHost:
    """A game's hosted sides on one node (the body of the Ray actor): a folder of its
    own for the shipped builds, and a :class:`~.seat.BotSeat` per colour."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="adjacency-hosted-"))
        os.chmod(self.folder, 0o755)
        self.seats: dict[str, BotSeat] = {}
        self.lock = threading.Lock()

    def placement(self) -> Placement:
        """Where this game's seats run."""
        return Placement.here()

    def open(self, color: str, build: bytes, bot: str, args: list[str], kind: str = "java") -> None:
        """Unpack ``build`` and start ``color``'s bot of ``kind`` (:meth:`~.seat.BotSeat.open`)."""
        classes = self.folder / color
        unpack(build, classes)
        seat = BotSeat(Choice(classes, bot, args, kind))
        with self.lock:
            self.seats[color] = seat
        seat.open()

    def move(self, color: str, fen: str, left: float, cap: float) -> Answer:
        """``color``'s move (:meth:`~.seat.BotSeat.move`)."""
        with self.lock:
            seat = self.seats.get(color)
        if seat is None:
            return Answer(None, 0.0, 0.0, (Termination.DISCONNECTION, "its program has ended"))
        return seat.move(fen, left, cap)

    def close(self, color: str) -> Outcome | None:
        """End ``color``'s process and everything it started; how it ended."""
        with self.lock:
            seat = self.seats.get(color)
        return None if seat is None else seat.close()

    def end(self) -> None:
        """End every seat and remove the folder (the game is over)."""
        with self.lock:
            seats = list(self.seats.values())
        for seat in seats:
            seat.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class RemoteSeat:
    """One hosted side whose :class:`~.seat.BotSeat` runs in its game's actor: a
    :class:`~.seat.Seat` (each method blocks until the node answers)."""

    def __init__(self, seats: RaySeats, game_id: int, color: str, choice: Choice) -> None:
        self.seats, self.game_id, self.color, self.choice = seats, game_id, color, choice
        self.closed = False
        self._ended = False

    @property
    def process(self) -> SandboxedProcess | None:
        """None: its process runs on the game's node, not here."""
        return None

    def open(self) -> None:
        """Ship the build and start the bot on the game's node; ``BotError`` if it
        cannot (the bot's own failure, or the node's)."""
        build = self.seats.build(self.choice.classes)
        choice = self.choice
        self.seats.call(
            self.game_id, "open", self.color, build, choice.bot, choice.args, choice.kind
        )
        if self.closed:
            self.close()

    def move(self, fen: str, left: float, cap: float) -> Answer:
        """The bot's move, computed on the game's node."""
        if self.closed:
            return Answer(None, 0.0, 0.0, (Termination.DISCONNECTION, "its program has ended"))
        try:
            answer: Answer = self.seats.call(self.game_id, "move", self.color, fen, left, cap)
        except BotError as exc:
            return Answer(None, 0.0, 0.0, (Termination.DISCONNECTION, str(exc)))
        return answer

    def close(self) -> Outcome | None:
        """End its process on the node (idempotent; how it ended, ``None`` if it never
        started or its node is gone); the game's actor ends with its last seat."""
        self.closed = True
        if self._ended:
            return None
        self._ended = True
        return self.seats.release(self.game_id, self.color)


class RaySeats:
    """The games' actors on the Ray cluster this process is connected to (the league's
    ``--executor ray`` connects it before the first game)."""

    def __init__(self) -> None:
        ray = import_ray()
        if not ray.is_initialized():
            raise ExecutorUnavailable("hosted bots on Ray need the server's Ray runtime")
        self.ray = ray
        self.actor = ray.remote(num_cpus=GAME_CPUS, max_concurrency=CALLS, max_restarts=0)(GameHost)
        self.hosts: dict[int, tuple[Any, set[str]]] = {}
        self.builds: dict[Path, bytes] = {}
        self.lock = threading.Lock()

    def seat(self, game_id: int, color: str, choice: Choice) -> RemoteSeat:
        """``color``'s seat of ``game_id`` in the game's actor (made with its first seat)."""
        with self.lock:
            handle, colors = self.hosts.get(game_id, (None, set()))
            if handle is None:
                handle = self.actor.options(scheduling_strategy="SPREAD").remote()
            colors.add(color)
            self.hosts[game_id] = (handle, colors)
        return RemoteSeat(self, game_id, color, choice)

    def build(self, classes: Path) -> bytes:
        """The class folder's zip, made once per build."""
        with self.lock:
            data = self.builds.get(classes)
        if data is None:
            data = pack(classes)
            with self.lock:
                self.builds[classes] = data
        return data

    def call(self, game_id: int, method: str, *args: Any) -> Any:
        """``method`` of the game's actor, waited for; the bot's own ``BotError`` as it
        is, any failure of the node or the actor as a ``BotError`` naming it."""
        with self.lock:
            handle = self.hosts.get(game_id, (None, set()))[0]
        if handle is None:
            raise BotError("its game has ended")
        try:
            return self.ray.get(getattr(handle, method).remote(*args))
        except self.ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, BotError):
                raise BotError(str(cause)) from None
            raise BotError(f"its node failed: {_first_line(exc)}") from None
        except self.ray.exceptions.RayError as exc:
            raise BotError(f"the node running it was lost: {_first_line(exc)}") from None

    def placement(self, game_id: int) -> Placement | None:
        """Where ``game_id``'s hosted sides run (``None`` once it has ended)."""
        with self.lock:
            handle = self.hosts.get(game_id, (None, set()))[0]
        return None if handle is None else self.ray.get(handle.placement.remote())

    def release(self, game_id: int, color: str) -> Outcome | None:
        """``color``'s seat has closed: end its process (how it ended); with the game's
        last seat, end the actor (its processes and folder)."""
        with self.lock:
            handle, colors = self.hosts.get(game_id, (None, set()))
            colors.discard(color)
            last = handle is not None and not colors
            if last:
                del self.hosts[game_id]
        if handle is None:
            return None
        outcome: Outcome | None = None
        try:
            outcome = self.ray.get(handle.close.remote(color))
            if last:
                self.ray.get(handle.end.remote())
        except self.ray.exceptions.RayError:
            pass  # the node is gone, and its processes with it
        finally:
            if last:
                self.ray.kill(handle)
        return outcome

    def stop(self) -> None:
        """End every game's actor (the server stops)."""
        with self.lock:
            games = list(self.hosts)
        for game_id in games:
            for color in ("x", "o"):
                self.release(game_id, color)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[-1] if text else type(exc).__name__
