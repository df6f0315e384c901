"""A control group of its own per sandbox, where this process may make one: :func:`create`.

The kernel charges a cgroup with the CPU time of every process that ever ran in it,
reaped or not, waited for or not (cgroup v2's ``cpu.stat``: ``usage_usec``). (How long
they waited for a CPU is read per thread, :mod:`~adjacency.sandbox.accounting`: the
group's ``cpu.pressure`` averages a wait over the CPUs its threads moved between.) So a
sandbox started inside a group of its own is charged
for children that were reaped by the kernel (a parent that ignores ``SIGCHLD``) or that
lived less than one of the monitor's ticks: what ``/proc`` alone cannot see
(:class:`~adjacency.sandbox.accounting.Ledger` is the fallback). Ending it writes
``cgroup.kill`` (every process in the group, wherever it went).

Where the groups are made: under :data:`PARENT_ENV` if set (a folder of a cgroup v2
tree this process may write, e.g. a systemd unit's delegated subgroup; ``none`` turns
groups off), else ``adjacency-sandboxes`` below this process's own cgroup v2 group. Root
can make groups there on a host that mounts cgroup v2 (alone, or the ``unified``
hierarchy beside v1 ones); a service that is not root needs its unit delegated
(``Delegate=yes``: docs/sandbox.md has the unit). :func:`create` returns ``None`` where
no group can be made, and says so once in the log.

**One core each.** A sandbox's processes, all their threads together, get at most one
core (:data:`CORES`): a program that starts threads or processes to think on several
cores is held to one, as each slot of the league is one core (a course program's
search judged by the wall clock gets the same core whatever else runs). Where the v2
tree has the ``cpu`` controller, the group's ``cpu.max`` says so (the folder of the
groups enables it for its children, best effort); on a host whose ``cpu`` controller
is still in a v1 hierarchy (a hybrid mount, as Docker's older hosts), a group of the
same name there gets the same quota (``cpu.cfs_quota_us``), the sandbox entering both.
:attr:`Group.cores` says which cap holds (``None``: none could be set here; the log
says so once). Nothing is asked of the server's own group.

**Games first.** The groups sit in one folder per :class:`Priority` (``games``,
``checks``, ``builds``), each with its own weight: a game's program computing its move
outweighs a check or a dry run tenfold and the machine's other work tenfold (the folder
of all sandboxes is given the same weight beside its own siblings, best effort), and a
build, a code view's sandbox or anything else of the league's own comes last
(``cpu.idle``: it runs on what the others leave). :data:`WEIGHTS` states them.
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PARENT_ENV = "ADJACENCY_SANDBOX_CGROUP"
"""The environment variable naming the folder the sandboxes' groups go in (``none``:
no groups, the ``/proc`` fallback only)."""

FOLDER = "adjacency-sandboxes"
"""The folder of the groups below this process's own group (without :data:`PARENT_ENV`)."""

CORES = 1.0
"""Cores a sandbox's processes get at most, all their threads together."""

PERIOD_USEC = 100_000
"""The quota's period in microseconds (the kernel's default): a program over its core is
held back within a tenth of a second."""

REMOVE_WAIT = 2.0
"""Seconds :meth:`Group.remove` waits for the group's last processes to be gone."""


class Priority(enum.StrEnum):
    """Whose work a sandbox does, and so its share of the cores (:data:`WEIGHTS`); the
    value is the name of its folder."""

    GAME = "games"
    """A program playing a game: its moves are judged by their time."""
    CHECK = "checks"
    """A check of a new version, or a dry run of its window, before it plays."""
    BUILD = "builds"
    """A build, and any other work of the league's own that may wait."""


@dataclass(frozen=True)
class Weight:
    """One folder's share: ``v2`` its ``cpu.weight`` (1-10000, 100 a plain process),
    ``v1`` its ``cpu.shares`` (1024 a plain process), ``idle`` its ``cpu.idle`` (it runs
    only on what its siblings leave)."""

    v2: int
    v1: int
    idle: bool = False


WEIGHTS: dict[Priority, Weight] = {
    Priority.GAME: Weight(1000, 10240),
    Priority.CHECK: Weight(100, 1024),
    Priority.BUILD: Weight(1, 2, idle=True),
}
"""The folders' weights: a game outweighs a check (and a plain process of the machine)
ten to one; a build is idle. Ten, not more: the server that relays the moves runs
beside them, outside the sandboxes, and must still be served while every slot
thinks."""

TOP_WEIGHT = Weight(1000, 10240)
"""The weight of the folder of all sandboxes beside the machine's other work (best
effort: where that folder's parent offers the controller)."""

log = logging.getLogger(__name__)

_lock = threading.Lock()
_counter = itertools.count()
_parent: list[Path | None] = []  # the parent folder, once looked for


class Group:
    """One sandbox's cgroup: ``path`` its folder. Reading it never fails: a group gone
    reads as its last figures."""

    def __init__(
        self, path: Path, cpu_v1: Path | None = None, memory_v1: Path | None = None
    ) -> None:
        self.path = path
        self.cpu_v1 = cpu_v1
        """Its group in a v1 ``cpu`` hierarchy, holding its quota (a hybrid host)."""
        self.memory_v1 = memory_v1
        """Its group in a v1 ``memory`` hierarchy, holding its memory limit (a hybrid
        host)."""
        self.memory: int | None = None
        """The bytes of memory its processes hold at most together (:meth:`cap_memory`),
        ``None`` where no limit could be set."""
        self._usage = 0.0
        self._oom_kills = 0
        self._memory_peak = 0
        self.cores: float | None = None
        """The cores its processes get at most (:data:`CORES`), ``None`` where no cap
        could be set."""

    @property
    def procs(self) -> Path:
        """The file a process writes its pid into to enter the group."""
        return self.path / "cgroup.procs"

    @property
    def entries(self) -> list[Path]:
        """Every file a process writes its pid into to enter the group (its v1 ``cpu``
        group's too, where it has one)."""
        extra = [g / "cgroup.procs" for g in (self.cpu_v1, self.memory_v1) if g is not None]
        return [self.procs, *extra]

    def cap_memory(self, limit: int) -> int | None:
        """Hold every page its processes hold together to ``limit`` bytes: anonymous
        memory, shared memory and memfds, its tmpfs's files, the kernel's memory for
        them (``memory.max``, else the v1 group's ``memory.limit_in_bytes``); past it
        the kernel reclaims what it can and then kills within the group only. The limit
        set, or ``None`` where none could be."""
        try:
            (self.path / "memory.max").write_text(str(limit))
            self.memory = limit
            return limit
        except OSError:
            pass
        if self.memory_v1 is not None:
            try:
                (self.memory_v1 / "memory.limit_in_bytes").write_text(str(limit))
                self.memory = limit
                return limit
            except OSError:
                pass
        return None

    def oom_kills(self) -> int:
        """How many of its processes the kernel killed for the group's memory limit
        (``memory.events``'s, else ``memory.oom_control``'s ``oom_kill``)."""
        for path, name in ((self.path / "memory.events", "oom_kill"),) + (
            ((self.memory_v1 / "memory.oom_control", "oom_kill"),)
            if self.memory_v1 is not None
            else ()
        ):
            value = _field(path, name)
            if value is not None:
                self._oom_kills = max(self._oom_kills, value)
        return self._oom_kills

    def memory_peak(self) -> int:
        """The most bytes its processes held together so far (``memory.peak``, else
        ``memory.max_usage_in_bytes``); 0 where not read."""
        for path in (
            self.path / "memory.peak",
            *([self.memory_v1 / "memory.max_usage_in_bytes"] if self.memory_v1 else []),
        ):
            value = _number(path)
            if value is not None:
                self._memory_peak = max(self._memory_peak, value)
        return self._memory_peak

    def cap_cores(self, cores: float = CORES) -> float | None:
        """Hold its processes to ``cores`` together (``cpu.max``, else the v1 group's
        quota); the cap set, or ``None`` where none could be."""
        quota = f"{round(cores * PERIOD_USEC)} {PERIOD_USEC}"
        try:
            (self.path / "cpu.max").write_text(quota)
            self.cores = cores
            return cores
        except OSError:
            pass
        if self.cpu_v1 is not None:
            try:
                (self.cpu_v1 / "cpu.cfs_period_us").write_text(str(PERIOD_USEC))
                (self.cpu_v1 / "cpu.cfs_quota_us").write_text(str(round(cores * PERIOD_USEC)))
                self.cores = cores
                return cores
            except OSError:
                pass
        return None

    def quota(self) -> float | None:
        """The cores the kernel holds the group to, read back from the kernel's files
        (``None``: no cap)."""
        try:
            limit, period = (self.path / "cpu.max").read_text().split()
            if limit != "max":
                return int(limit) / int(period)
        except (OSError, ValueError):
            pass
        if self.cpu_v1 is not None:
            allowed = _number(self.cpu_v1 / "cpu.cfs_quota_us")
            every = _number(self.cpu_v1 / "cpu.cfs_period_us")
            if allowed is not None and every and allowed > 0:
                return allowed / every
        return None

    def cpu_seconds(self) -> float:
        """CPU time of every process that ran in the group so far (``usage_usec``)."""
        value = _field(self.path / "cpu.stat", "usage_usec")
        if value is not None:
            self._usage = max(self._usage, value / 1e6)
        return self._usage

    def members(self) -> list[int]:
        """The pids in the group now."""
        try:
            return [int(pid) for pid in self.procs.read_text().split()]
        except (OSError, ValueError):
            return []

    def kill(self) -> None:
        """SIGKILL every process of the group (``cgroup.kill``, Linux 5.14 on)."""
        with contextlib.suppress(OSError):
            (self.path / "cgroup.kill").write_text("1")

    def _remove_v1(self) -> None:
        """Remove its v1 ``cpu`` and ``memory`` groups (their processes are gone with the
        v2 group's: the same processes)."""
        for folder in (self.cpu_v1, self.memory_v1):
            if folder is not None:
                with contextlib.suppress(OSError):
                    folder.rmdir()

    def remove(self) -> bool:
        """Remove the group once its processes are gone (up to :data:`REMOVE_WAIT` s);
        its figures stay readable from this object. True once removed."""
        self.cpu_seconds()
        self.oom_kills()
        self.memory_peak()
        deadline = time.monotonic() + REMOVE_WAIT
        while True:
            try:
                self.path.rmdir()
                self._remove_v1()
                return True
            except FileNotFoundError:
                self._remove_v1()
                return True
            except OSError:
                if time.monotonic() > deadline:
                    log.warning("sandbox cgroup %s still has processes; left in place", self.path)
                    return False
                time.sleep(0.02)


def _field(path: Path, name: str) -> int | None:
    try:
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == name:
                return int(value)
    except (OSError, ValueError):
        return None
    return None


def _number(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def own_group() -> Path | None:
    """This process's cgroup v2 folder (the ``0::`` line of ``/proc/self/cgroup`` under
    the cgroup2 mount), or ``None`` without cgroup v2."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    own = next((line[3:] for line in lines if line.startswith("0::")), None)
    if own is None:
        return None
    for mount in mounts:
        fields = mount.split()
        if " - cgroup2 " in mount and len(fields) > 4:
            return Path(fields[4]) / own.lstrip("/")
    return None


def own_v1(controller: str) -> Path | None:
    """This process's group in the v1 hierarchy holding ``controller`` (its line in
    ``/proc/self/cgroup`` under that hierarchy's mount), or ``None`` where it is no v1
    controller here."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    own = None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            own = path
    if own is None:
        return None
    for mount in mounts:
        fields = mount.split()
        if " - cgroup " in mount and controller in fields[-1].split(",") and len(fields) > 4:
            return Path(fields[4]) / own.lstrip("/")
    return None


def own_cpu_v1() -> Path | None:
    """This process's group in a v1 hierarchy holding the ``cpu`` controller, or
    ``None`` where ``cpu`` is no v1 controller here (:func:`own_v1`)."""
    return own_v1("cpu")


def parent() -> Path | None:
    """The folder the sandboxes' groups go in, made if need be, or ``None`` where none
    can be made here (looked for once per process)."""
    with _lock:
        if not _parent:
            _parent.append(_find_parent())
        return _parent[0]


def _find_parent() -> Path | None:
    named = os.environ.get(PARENT_ENV, "").strip()
    if named.lower() == "none":
        return None
    folder = Path(named) if named else None
    if folder is None:
        own = own_group()
        folder = own / FOLDER if own is not None else None
    if folder is None:
        log.info("sandbox: no cgroup v2 here; CPU time is read from /proc")
        return None
    try:
        folder.mkdir(exist_ok=True)
        probe = folder / f"probe-{os.getpid()}"
        probe.mkdir(exist_ok=True)
        usable = (probe / "cpu.stat").is_file() and os.access(probe / "cgroup.procs", os.W_OK)
        probe.rmdir()
    except OSError as exc:
        log.info("sandbox: no cgroups under %s (%s); CPU time is read from /proc", folder, exc)
        return None
    if not usable:
        log.info("sandbox: %s is no writable cgroup v2 folder; CPU time is read from /proc", folder)
        return None
    _sweep(folder)
    _enable_cpu(folder)
    _weigh(folder, TOP_WEIGHT, v1=False)
    return folder


def _enable_cpu(folder: Path) -> None:
    """Let the groups under ``folder`` have the ``cpu`` and ``memory`` controllers where
    this host allows it (the folder's own parent must offer it, which a delegated unit's group
    holding a process cannot: then the v1 hierarchy, or nothing)."""
    for level in (folder.parent, folder):
        for controller in ("cpu", "memory"):
            with contextlib.suppress(OSError):
                if controller in (level / "cgroup.controllers").read_text().split():
                    (level / "cgroup.subtree_control").write_text(f"+{controller}")


def _weigh(folder: Path, weight: Weight, v1: bool) -> None:
    """Give ``folder`` ``weight`` (its v2 or v1 files, best effort: a host without the
    controller there keeps the kernel's default)."""
    if v1:
        with contextlib.suppress(OSError):
            (folder / "cpu.shares").write_text(str(weight.v1))
    else:
        with contextlib.suppress(OSError):
            (folder / "cpu.weight").write_text(str(weight.v2))
    if weight.idle:
        with contextlib.suppress(OSError):
            (folder / "cpu.idle").write_text("1")


_v1: dict[str, Path | None] = {}  # the v1 folders of the groups, by controller, once


def _v1_folder(controller: str) -> Path | None:
    """The folder of the sandboxes' v1 ``controller`` groups (:data:`FOLDER` below this
    process's own), made if need be; ``None`` where there is none to write."""
    with _lock:
        if controller not in _v1:
            own = own_v1(controller)
            folder = own / FOLDER if own is not None else None
            if folder is not None:
                try:
                    folder.mkdir(exist_ok=True)
                    _sweep(folder)
                    if controller == "cpu":
                        _weigh(folder, TOP_WEIGHT, v1=True)
                except OSError:
                    folder = None
            _v1[controller] = folder
        return _v1[controller]


def _cpu_v1_folder() -> Path | None:
    """The folder of the sandboxes' v1 ``cpu`` groups (:func:`_v1_folder`)."""
    return _v1_folder("cpu")


_classes: dict[tuple[Path, Priority], Path | None] = {}  # class folders made, by parent


def class_folder(top: Path, priority: Priority, v1: bool = False) -> Path | None:
    """The folder of ``priority``'s groups below ``top`` (the v2 folder of all sandboxes,
    or with ``v1`` its v1 ``cpu`` twin), made and weighed once (:data:`WEIGHTS`);
    ``None`` where it cannot be made."""
    with _lock:
        key = (top, priority)
        if key not in _classes:
            folder: Path | None = top / priority.value
            assert folder is not None
            try:
                folder.mkdir(exist_ok=True)
                _sweep(folder)
                if not v1:
                    _enable_cpu(folder)
                _weigh(folder, WEIGHTS[priority], v1)
            except OSError as exc:
                log.info("sandbox: cannot make the cgroup folder %s: %s", folder, exc)
                folder = None
            _classes[key] = folder
        return _classes[key]


_said_uncapped: list[bool] = []


def _sweep(folder: Path) -> None:
    """Remove the empty groups a process that is gone left (one killed before it could
    remove its sandboxes' groups); a group that still holds a process stays."""
    for group in folder.glob("sandbox-*-*"):
        try:
            os.kill(int(group.name.split("-")[1]), 0)
        except ProcessLookupError:
            with contextlib.suppress(OSError):
                group.rmdir()
        except (ValueError, PermissionError):
            continue


def create(priority: Priority = Priority.GAME) -> Group | None:
    """A new, empty group for one sandbox doing ``priority``'s work (in that class's
    folder, :data:`WEIGHTS`), or ``None`` where groups cannot be made."""
    top = parent()
    if top is None:
        return None
    folder = class_folder(top, priority) or top
    name = f"sandbox-{os.getpid()}-{next(_counter)}"
    path = folder / name
    try:
        path.mkdir()
    except OSError as exc:
        log.warning("sandbox: cannot make the cgroup %s: %s", path, exc)
        return None
    group = Group(path)
    if not (path / "cpu.max").exists():
        v1_top = _cpu_v1_folder()
        v1 = class_folder(v1_top, priority, v1=True) if v1_top is not None else None
        if v1 is not None:
            with contextlib.suppress(OSError):
                (v1 / name).mkdir()
                group.cpu_v1 = v1 / name
    if not (path / "memory.max").exists():
        memory = _v1_folder("memory")
        if memory is not None:
            with contextlib.suppress(OSError):
                (memory / name).mkdir()
                group.memory_v1 = memory / name
    if group.cap_cores() is None and not _said_uncapped:
        _said_uncapped.append(True)
        log.warning(
            "sandbox: no cpu controller to hold a sandbox to one core here (cgroup v2's "
            "cpu.max under %s, or a v1 cpu hierarchy): a program may use several cores",
            folder,
        )
    return group
