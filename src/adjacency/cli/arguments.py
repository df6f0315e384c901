"""Argument types and option groups shared by the subcommands.

Each type raises :class:`argparse.ArgumentTypeError`, so ``adjacency`` prints
its usage line and the reason and exits with status 2, before any work starts.
Numbers are read with the project's one parser (:mod:`adjacency.core.text`):
ASCII digits only, so ``--time nan``, ``--time inf`` or ``--depth ３`` never get
through ``float``/``int``'s generosity; :func:`rounds_list` and
:func:`board_size` are the command line's only readers of ``8,12,16,28`` and
``8x8``.

The option groups: :func:`add_game_options` (rounds, size, time and depth
limits, openings, seed: what games are played; :func:`settings_from_args`
turns them into arena settings) and :func:`add_executor_options` (where work
runs: ``--executor``, ``--ray-address``, ``--ray-runtime-env``, ``--jobs``;
:func:`executor_from_args` builds the executor). ``match``, ``tournament``,
``tune``, ``experiments`` and ``solve`` share them.
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.course import COURSE_MOVE_SECONDS, COURSE_ROUNDS, COURSE_SIZE
from ..core.errors import AdjacencyError, InvalidSettingsError
from ..core.text import is_ascii_decimal, parse_int, parse_rounds, parse_size, quote


def command_line(args: argparse.Namespace) -> str:
    """The command that is running, as a shell line (``adjacency solutions run ...``): the
    arguments :func:`adjacency.cli.main` parsed (``args.argv``), so a call from Python
    records its own arguments rather than the calling program's ``sys.argv``."""
    return shlex.join(["adjacency", *getattr(args, "argv", sys.argv[1:])])


MAX_SECONDS = 7 * 24 * 3600.0
"""Longest time limit an option accepts (a week); timers refuse much longer waits."""


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds above 0, at most :data:`MAX_SECONDS`."""
    value = float(text) if is_ascii_decimal(text) else math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds above 0 and at most {MAX_SECONDS:.0f}, got {quote(text)}"
        )
    return value


def seconds_or_zero(text: str) -> float:
    """A time limit where 0 means none (``--time 0`` with ``--depth``)."""
    if is_ascii_decimal(text) and float(text) == 0:
        return 0.0
    try:
        return seconds(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"must be 0 (none) or a number of seconds above 0 and at most {MAX_SECONDS:.0f}, "
            f"got {quote(text)}"
        ) from None


def positive_int(text: str) -> int:
    """A whole number from 1 (a depth, a node count, a number of games)."""
    try:
        return parse_int(text, "the value", minimum=1)
    except AdjacencyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def whole_number(text: str) -> int:
    """A whole number from 0 (a seed, a count of random plies, a run id)."""
    try:
        return parse_int(text, "the value", minimum=0)
    except AdjacencyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def positive_number(text: str) -> float:
    """A finite number above 0 written in ASCII (a penalty, an exponent, a scale)."""
    value = float(text) if is_ascii_decimal(text) else math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {quote(text)}")
    return value


def non_negative_number(text: str) -> float:
    """A finite number from 0 written in ASCII (a ridge penalty, a stability constant)."""
    value = float(text) if is_ascii_decimal(text) else math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a number of at least 0, got {quote(text)}")
    return value


def memory_megabytes() -> float:
    """This machine's physical memory in MB (``inf`` where it cannot be read)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    except (AttributeError, ValueError, OSError):
        return math.inf


def thread_count(text: str) -> int:
    """A number of search threads, 1 to the engine's most
    (:data:`~adjacency.engine.config.THREADS_MAX`; read only when the flag is given, so
    that building the parser does not load the engine)."""
    from ..engine.config import THREADS_MAX

    value = positive_int(text)
    if value > THREADS_MAX:
        raise argparse.ArgumentTypeError(f"must be at most {THREADS_MAX}, got {value}")
    return value


def table_megabytes(text: str) -> float:
    """A table size in MB: above 0 and below this machine's physical memory."""
    value = float(text) if is_ascii_decimal(text) else math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number of MB above 0, got {quote(text)}")
    available = memory_megabytes()
    if value >= available:
        raise argparse.ArgumentTypeError(
            f"{quote(text)} MB is more than this machine's memory ({available:.0f} MB)"
        )
    return value


def rounds_list(text: str) -> tuple[int, ...]:
    """Rounds settings ``8,12,16,28`` (:func:`adjacency.core.text.parse_rounds`)."""
    try:
        return parse_rounds(text)
    except AdjacencyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def board_size(text: str) -> tuple[int, int]:
    """A board size ``ROWSxCOLS`` (:func:`adjacency.core.text.parse_size`)."""
    try:
        return parse_size(text)
    except AdjacencyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_game_options(
    parser: argparse.ArgumentParser,
    *,
    time: float,
    random_plies: int,
    time_note: str = "",
    seeded: str = "openings and bots",
) -> None:
    """What games are played: ``--rounds``, ``--size``, ``--time``, ``--depth``,
    ``--nodes``, ``--margin``, ``--openings`` or ``--random-plies``, ``--seed``
    (read back by :func:`settings_from_args`; the command adds ``--games``)."""
    parser.add_argument(
        "--rounds",
        type=rounds_list,
        default=(28,),
        help="one or several rounds settings, e.g. 8,12,16,28 (default 28)",
    )
    parser.add_argument(
        "--size", type=board_size, default=(8, 8), help="board ROWSxCOLS (default 8x8)"
    )
    parser.add_argument(
        "--time",
        type=seconds_or_zero,
        default=time,
        help=f"seconds per move (default {time:g}{time_note}; 0: none, for --depth/--nodes)",
    )
    parser.add_argument("--depth", type=positive_int, help="depth limit per move")
    parser.add_argument("--nodes", type=positive_int, help="node limit per move")
    parser.add_argument(
        "--margin",
        type=seconds_or_zero,
        default=None,
        help="seconds a move may exceed --time before losing on time (default 0.1)",
    )
    openings = parser.add_mutually_exclusive_group()
    openings.add_argument(
        "--openings",
        type=Path,
        metavar="FILE",
        help="openings, one position text per line (# comments allowed)",
    )
    openings.add_argument(
        "--random-plies",
        type=whole_number,
        default=random_plies,
        metavar="K",
        help=f"start each game pair after K random plies (default {random_plies})",
    )
    parser.add_argument(
        "--seed", type=whole_number, default=0, help=f"seed for {seeded} (default 0)"
    )
    parser.add_argument(
        "--course",
        action=CourseSetting,
        settings={"size": COURSE_SIZE, "time": COURSE_MOVE_SECONDS, "rounds": COURSE_ROUNDS},
        help="the course's setting: --size 8x8 --time 5 --rounds 8,12,16,20,28 (an option "
        "after it still changes its value)",
    )


class CourseSetting(argparse.Action):
    """``--course``: the course's setting (:mod:`adjacency.core.course`) as the options
    ``settings`` names (destination -> value), set where the flag stands, as if each
    option were given there: an option after it changes its value."""

    def __init__(
        self, option_strings: list[str], dest: str, settings: dict[str, Any], **kwargs: Any
    ) -> None:
        super().__init__(option_strings, dest, nargs=0, default=False, **kwargs)
        self.settings = settings

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, True)
        for name, value in self.settings.items():
            setattr(namespace, name, value)


def settings_from_args(args: argparse.Namespace, sprt: Any = None, games: int | None = None) -> Any:
    """The arena :class:`~adjacency.arena.schedule.RunSettings` of the options of
    :func:`add_game_options` (plus ``--games``, unless ``games`` is given), with ``sprt``
    stored in them."""
    from ..arena.schedule import RunSettings
    from ..arena.sequential import stored
    from ..bots.referee import DEFAULT_MARGIN

    openings: tuple[str, ...] = ()
    if args.openings is not None:
        try:
            lines = args.openings.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise InvalidSettingsError(
                f"cannot read openings file {str(args.openings)!r}: {exc}"
            ) from None
        openings = tuple(s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#"))
        if not openings:
            raise InvalidSettingsError(f"openings file {str(args.openings)!r} holds no position")
    rows, cols = args.size
    stat, values = ("elo", None) if sprt is None else stored(sprt)
    return RunSettings(
        rows=rows,
        cols=cols,
        rounds=args.rounds,
        games=args.games if games is None else games,
        time=args.time or None,
        depth=args.depth,
        nodes=args.nodes,
        margin=DEFAULT_MARGIN if args.margin is None else args.margin,
        seed=args.seed,
        random_plies=args.random_plies,
        openings=openings,
        sprt=values,
        sprt_stat=stat,
    )


def add_executor_options(
    parser: argparse.ArgumentParser,
    what: str = "games",
    default: str | None = "local",
    one: str | None = None,
) -> None:
    """``--executor``, ``--ray-address``, ``--ray-runtime-env`` and ``--concurrency``/``--jobs``:
    where work runs. ``what`` names the work in the help (``one``: one of it, by default
    ``what`` without its last letter); ``default`` ``None`` leaves the choice to the command."""
    parser.add_argument(
        "--executor",
        choices=("local", "ray"),
        default=default,
        help=f"local: worker processes on this machine{' (default)' if default else ''}; "
        f"ray: one Ray task per {one or what[:-1]} on a Ray cluster "
        "(pip install 'adjacency-game[ray]'; docs/distributed.md)",
    )
    parser.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="with --executor ray: 'auto' or HOST:PORT joins a cluster started with "
        "`ray start`; default: a private Ray runtime on this machine",
    )
    parser.add_argument(
        "--ray-runtime-env",
        metavar="JSON",
        help="with --ray-address: Ray runtime_env as JSON (or @FILE), e.g. "
        '\'{"pip": ["adjacency==0.1.0"]}\' to install the package on every node',
    )
    parser.add_argument(
        "--concurrency",
        "--jobs",
        "-j",
        dest="concurrency",
        type=positive_int,
        default=None,
        help=f"{what} run at once (default: number of cores; a joined Ray cluster uses "
        "all its CPUs)",
    )


def executor_from_args(args: argparse.Namespace) -> Any:
    """The executor chosen by :func:`add_executor_options` (checked; not started yet
    for ``local``, connected for ``ray``)."""
    from ..workers import make_executor

    if args.concurrency is not None and args.concurrency < 1:
        raise InvalidSettingsError(f"--concurrency must be 1 or more, got {args.concurrency}")
    if args.ray_address is not None and args.executor != "ray":
        raise InvalidSettingsError("--ray-address needs --executor ray")
    runtime_env = None
    if args.ray_runtime_env is not None:
        if args.ray_address is None:
            raise InvalidSettingsError(
                "--ray-runtime-env applies when joining a cluster (--ray-address)"
            )
        runtime_env = _runtime_env(args.ray_runtime_env)
    jobs = args.concurrency or (os.cpu_count() or 1)
    return make_executor(
        args.executor or "local",
        jobs,
        args.ray_address,
        runtime_env=runtime_env,
    )


def _runtime_env(text: str) -> dict[str, Any]:
    """A Ray runtime_env from JSON text or ``@FILE``."""
    import json

    source = text
    if text.startswith("@"):
        try:
            source = Path(text[1:]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidSettingsError(
                f"--ray-runtime-env: cannot read {text[1:]!r}: {exc}"
            ) from None
    try:
        value = json.loads(source)
    except ValueError:
        raise InvalidSettingsError(f"--ray-runtime-env {text[:80]!r} is not JSON") from None
    if not isinstance(value, dict):
        raise InvalidSettingsError('--ray-runtime-env must be a JSON object, e.g. {"pip": [...]}')
    return value


LEAGUE_TOKEN = "ADJACENCY_LEAGUE_TOKEN"
"""The environment variable ``adjacency connect`` and ``league submit`` read a team's
token from when no option gives it (keeps it out of the process list)."""


def league_token(token_file: Path | None, token: str | None, options: str) -> str:
    """A team's league token: the file's (first 4 KB, stripped), else ``token``, else
    :data:`LEAGUE_TOKEN`'s; none is :class:`~adjacency.league.store.records.LeagueError` naming
    ``options`` (the command's ways to give it)."""
    from ..core.text import read_text
    from ..league.store.records import LeagueError

    if token_file is not None:
        found = read_text(token_file, "token file", LeagueError, limit=4096).strip()
    else:
        found = (token or os.environ.get(LEAGUE_TOKEN, "")).strip()
    if not found:
        raise LeagueError(f"give the team's token: {options} or ${LEAGUE_TOKEN}")
    return found


@dataclass(frozen=True)
class Option:
    """An option declared as data, once, for every subcommand that takes it: its flags and
    :meth:`argparse.ArgumentParser.add_argument`'s keywords. A subcommand adds it with
    :meth:`add`, changing what differs there (its default, its help); the modules that
    declare options import nothing of the subcommands that use them."""

    flags: tuple[str, ...]
    settings: Mapping[str, Any] = field(default_factory=dict)

    def add(self, parser: Any, **changes: Any) -> argparse.Action:
        """Add the option to ``parser`` (a parser or an argument group), with ``changes``
        to its keywords."""
        action: argparse.Action = parser.add_argument(*self.flags, **{**self.settings, **changes})
        return action

    def but(self, **changes: Any) -> Option:
        """The same option with ``changes`` to its keywords (a subcommand's own default or
        help), as data for a table."""
        return Option(self.flags, {**self.settings, **changes})


@dataclass(frozen=True)
class OneOf:
    """Options declared as data of which a command line may give one at most (exactly
    one with ``required``): argparse's mutually exclusive group, as an entry of a table."""

    options: tuple[Option, ...]
    required: bool = False

    def add(self, parser: Any) -> None:
        """Add the group and its options to ``parser``."""
        group = parser.add_mutually_exclusive_group(required=self.required)
        for option in self.options:
            option.add(group)


@dataclass(frozen=True)
class Group:
    """Options declared as data that the help shows under a title of their own
    (argparse's argument group, with ``description`` under the title), as an entry of a
    table; a command line gives them like any other option."""

    title: str
    options: tuple[Option | OneOf, ...]
    description: str | None = None

    def add(self, parser: Any) -> None:
        """Add the titled group and its options to ``parser``, in the group's order."""
        add_all(parser.add_argument_group(self.title, self.description), self.options)


def add_all(parser: Any, table: Sequence[Option | OneOf | Group]) -> None:
    """Add each option or group of ``table`` to ``parser``, in the table's order (the
    order of the help)."""
    for entry in table:
        entry.add(parser)


Table = Sequence[Option | OneOf | Group]
"""A subcommand's options as data, in the order of its help."""
Action = tuple[str, str, Table, Any]
"""A subcommand as data: its name, its one-line help, its table of options and its
handler (called with the parsed arguments; returns the exit status)."""


def add_actions(sub: Any, actions: Sequence[Action]) -> None:
    """Add each action of ``actions`` to ``sub`` (a parser's subparsers): a parser of the
    action's name and help, with its table's options, that runs its handler."""
    for name, text, table, handler in actions:
        parser = sub.add_parser(name, help=text)
        add_all(parser, table)
        parser.set_defaults(handler=handler)
