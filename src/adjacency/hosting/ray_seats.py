"""Hosted seats on a Ray cluster: a game's hosted sides on one node (:class:`RaySeats`),
each node with its own slots (:class:`NodeSlots`).

With the league's ``--executor ray``, each game with a hosted side gets one Ray actor,
:class:`GameHost`, on a node of the cluster. The server ships the built bot (its class
folder as a zip, made once per build, :func:`pack`) with the first call; the actor
unpacks it into a folder of its own on that node and runs the same
:class:`~.seat.BotSeat` as the server runs locally: the same sandbox (bubblewrap, the uid
pool of that machine), the same CPU-time charge and wall cap. Both sides of a game go to
the game's one actor, so a game's sandboxed processes share one node; the actor and its
folder end with the game.

Each node that offers CPUs has its own slots, counted as a machine's
(:func:`~.slots.default_slots` of the CPUs it offers Ray: its cores less one for its own
work, at least one), read from the cluster's node table every :data:`NODES_REFRESH`
seconds in a thread of its own, so a node that joins adds its slots and one that leaves
takes them away. A game is placed on the node with the most free slots (a slot a game:
:meth:`RaySeats.room` is how many more may start, and the league's pairing starts no
more); each hosted move and start of a game placed there holds one of that node's
:class:`~.slots.Slots` while it computes, so no more of its sides compute at once than it
has slots, whatever the server's own ``--hosted-jobs``.

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
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from ..bots import BotError
from ..core.game import Termination
from ..sandbox import Outcome, SandboxedProcess
from ..workers.executor import ExecutorUnavailable, Placement
from ..workers.ray_cluster import cpu_nodes, import_ray
from .player import Choice
from .seat import Answer, BotSeat
from .slots import Slots, default_slots

CALLS = 4
"""Calls an actor serves at once: both sides starting, a move and the game's end."""

NODES_REFRESH = 1.0
"""Seconds between reads of the cluster's node table (nodes join and leave)."""

LOST_WAIT = 60.0
"""Seconds a node whose game's actor was lost takes no new game, whatever the node table
says: Ray's table lists a node that died for up to half a minute, and a game placed
there meanwhile would be lost by its team."""


def game_cpus(cpus: int) -> float:
    """The CPUs a game's actor reserves in Ray's own accounting on a node of ``cpus``
    CPUs: one, its slot's core, where the node keeps a core beside its slots, so that
    Ray's other work there (the house bots' moves, a CPU each) has only the cores the
    slots leave; none on a one-CPU node, whose one slot shares its one core."""
    return 1.0 if cpus > default_slots(cpus) else 0.0


@dataclass
class NodeSlots:
    """One node's share of the hosted games: its Ray id, the CPUs it offers, its
    :attr:`slots` (:func:`~.slots.default_slots` of its CPUs; each hosted move and start
    of a game placed there holds one while it computes), the games placed there now
    (a slot each) and the most ever at once."""

    node: str
    cpus: int
    slots: Slots
    games: set[int] = field(default_factory=set)
    most_games: int = 0

    @property
    def free(self) -> int:
        """How many more games it takes now (below zero where games were placed past its
        slots, which the pairing never does)."""
        return self.slots.count - len(self.games)


@dataclass
class Host:
    """A game's actor (``None`` where no node could take it), the colours seated in it,
    the node it was placed on and the slots its sides compute in."""

    handle: Any
    colors: set[str]
    node: NodeSlots | None
    slots: Slots


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
    :class:`~.seat.Seat` (each method blocks until the node answers); :attr:`slots` are
    its node's, which its moves and its start hold while they compute."""

    def __init__(
        self, seats: RaySeats, game_id: int, color: str, choice: Choice, slots: Slots
    ) -> None:
        self.seats, self.game_id, self.color, self.choice = seats, game_id, color, choice
        self.slots = slots
        self.closed = False
        self._ended = False

    @property
    def process(self) -> SandboxedProcess | None:
        """None: its process runs on the game's node, not here."""
        return None

    def open(self) -> None:
        """Ship the build and start the bot on the game's node; ``BotError`` if it
        cannot (the bot's own failure, or the node's), :class:`ExecutorUnavailable`
        where no node could take its game."""
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
    ``--executor ray`` connects it before the first game), placed by the nodes' own
    slots (:attr:`nodes`)."""

    def __init__(self) -> None:
        ray = import_ray()
        if not ray.is_initialized():
            raise ExecutorUnavailable("hosted bots on Ray need the server's Ray runtime")
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        self.ray = ray
        self.on_node = NodeAffinitySchedulingStrategy
        self.actor = ray.remote(max_concurrency=CALLS, max_restarts=0)(GameHost)
        self.hosts: dict[int, Host] = {}
        self.nodes: dict[str, NodeSlots] = {}
        """The alive nodes that offer CPUs, by Ray id, as last read (:meth:`refresh`)."""
        self.lost: dict[str, tuple[float, NodeSlots]] = {}
        """The nodes whose games' actors were lost, by Ray id: until when they take no new
        game, and their slots (a node that was not gone after all gets them back)."""
        self.builds: dict[Path, bytes] = {}
        self.lock = threading.Lock()
        self._stopped = threading.Event()
        self.refresh()
        threading.Thread(target=self._watch, name="ray-nodes", daemon=True).start()

    def _watch(self) -> None:
        """Read the node table every :data:`NODES_REFRESH` seconds until :meth:`stop`, in
        a thread of its own: ``ray.nodes()`` asks the cluster's head, and the league's
        pairing reads :meth:`room` on its event loop."""
        while not self._stopped.wait(NODES_REFRESH):
            self.refresh()

    def refresh(self) -> None:
        """Read the cluster's node table again: a node that joined offers its slots from
        here on, one that left is forgotten (its games end with it), and so is one lost
        less than :data:`LOST_WAIT` seconds ago (:meth:`lose`). A table that cannot be
        read (the cluster's head unreachable for now) leaves the last one as it was."""
        try:
            listed = cpu_nodes(self.ray)
        except Exception:
            return
        clock = time.monotonic()
        cpus = {n["NodeID"]: int(n["Resources"]["CPU"]) for n in listed}
        with self.lock:
            self.lost = {node: lost for node, lost in self.lost.items() if node in cpus}
            back = {node: slots for node, (until, slots) in self.lost.items() if until <= clock}
            for node in back:
                del self.lost[node]
            known = {**self.nodes, **back}
            self.nodes = {
                node: known.get(node) or NodeSlots(node, count, Slots(default_slots(count)))
                for node, count in cpus.items()
                if count >= 1 and node not in self.lost
            }

    def lose(self, node: NodeSlots) -> None:
        """A game's actor on ``node`` was lost (its node died, most likely): the node
        takes no new game for :data:`LOST_WAIT` seconds, by when Ray's table says
        whether it is gone; its slots are kept for its games until then."""
        with self.lock:
            self.nodes.pop(node.node, None)
            self.lost[node.node] = (time.monotonic() + LOST_WAIT, node)

    def room(self) -> int:
        """How many more games with a hosted side may start now: the free slots of the
        nodes as last read (:meth:`_watch`), a game a slot (the league's pairing starts
        no more)."""
        with self.lock:
            return sum(max(0, node.free) for node in self.nodes.values())

    def _place(self, game_id: int) -> NodeSlots | None:
        """The node ``game_id`` goes to (the one with the most free slots; ``None``
        where the cluster offers no CPU), which counts it from now (under :attr:`lock`)."""
        if not self.nodes:
            return None
        node = max(self.nodes.values(), key=lambda n: n.free)
        node.games.add(game_id)
        node.most_games = max(node.most_games, len(node.games))
        return node

    def seat(self, game_id: int, color: str, choice: Choice) -> RemoteSeat:
        """``color``'s seat of ``game_id`` in the game's actor, made with its first seat on
        the node with the most free slots (:meth:`_place`)."""
        if not self.nodes:
            self.refresh()
        with self.lock:
            host = self.hosts.get(game_id)
            if host is None:
                node = self._place(game_id)
                handle = (
                    None
                    if node is None
                    else self.actor.options(
                        num_cpus=game_cpus(node.cpus),
                        scheduling_strategy=self.on_node(node.node, soft=False),
                    ).remote()
                )
                host = Host(handle, set(), node, Slots(1) if node is None else node.slots)
                self.hosts[game_id] = host
            host.colors.add(color)
        return RemoteSeat(self, game_id, color, choice, host.slots)

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
        is, any failure of the node or the actor as a ``BotError`` naming it;
        :class:`ExecutorUnavailable` where no node could take the game (the server's
        failure, not the bot's)."""
        with self.lock:
            host = self.hosts.get(game_id)
        if host is None:
            raise BotError("its game has ended")
        if host.handle is None:
            raise ExecutorUnavailable("no node of the Ray cluster offers a CPU for its game")
        try:
            return self.ray.get(getattr(host.handle, method).remote(*args))
        except self.ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, BotError):
                raise BotError(str(cause)) from None
            raise BotError(f"its node failed: {_first_line(exc)}") from None
        except self.ray.exceptions.RayError as exc:
            if host.node is not None:
                self.lose(host.node)
            raise BotError(f"the node running it was lost: {_first_line(exc)}") from None

    def placement(self, game_id: int) -> Placement | None:
        """Where ``game_id``'s hosted sides run (``None`` once it has ended, or where no
        node took it)."""
        with self.lock:
            host = self.hosts.get(game_id)
        if host is None or host.handle is None:
            return None
        where: Placement = self.ray.get(host.handle.placement.remote())
        return where

    def release(self, game_id: int, color: str) -> Outcome | None:
        """``color``'s seat has closed: end its process (how it ended); with the game's
        last seat, end the actor (its processes and folder), and then the game's slot on
        its node is free."""
        with self.lock:
            host = self.hosts.get(game_id)
            if host is None:
                return None
            host.colors.discard(color)
            last = not host.colors
            if last:
                del self.hosts[game_id]
        outcome: Outcome | None = None
        try:
            if host.handle is not None:
                outcome = self.ray.get(host.handle.close.remote(color))
                if last:
                    self.ray.get(host.handle.end.remote())
        except self.ray.exceptions.RayError:
            pass  # the node is gone, and its processes with it
        finally:
            if last:
                if host.handle is not None:
                    self.ray.kill(host.handle)
                with self.lock:
                    if host.node is not None:
                        host.node.games.discard(game_id)
        return outcome

    def stop(self) -> None:
        """End every game's actor and the reading of the node table (the server stops)."""
        self._stopped.set()
        with self.lock:
            games = list(self.hosts)
        for game_id in games:
            for color in ("x", "o"):
                self.release(game_id, color)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[-1] if text else type(exc).__name__
