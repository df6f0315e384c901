"""The reproduced experiments: the course reports' matchups, with real sample sizes.

The course reports compared minimax/alpha-beta, local search (hill climbing,
simulated annealing) and genetic bots on 3 to 5 games each. ``adjacency
experiments`` replays those matchups, plus our compiled ``engine`` against each
of them, at 8, 12, 16 and 28 rounds, in colour-swapped game pairs, and writes a
report with plots. Bots are looked up in the registry by role; a role whose bot
is not registered is skipped and named in the output.

Presets (all 8x8; seconds per move; games per pairing and rounds setting):

========  =========  ==============  =====  ============================================
preset    s/move     rounds          games  size of the run (2 cores)
========  =========  ==============  =====  ============================================
full      0.2        8,12,16,28      40     11 pairings x 4 x 40 = 1760 games, 26 min
reduced   0.1        8,12,16,28      20     11 pairings x 4 x 20 = 880 games, 8-11 min
original  5          8               4      4 pairings x 4 = 16 games, 4-5 min (1 core)
========  =========  ==============  =====  ============================================

All three durations were measured on this project's 2-core machine
(docs/experiments.md).

Every game pair starts after 2 random plies (one per side, drawn from
``--seed``): the searching bots are deterministic, and without varied openings
the games of a pairing would be copies of each other, not a sample. Durations
are for an idle 2-core machine; every option can be overridden on the command
line.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSettingsError

ROLES: dict[str, str] = {
    "alphabeta": "alphabeta",
    "hill": "hill",
    "anneal": "anneal",
    "genetic": "genetic",
    "gatree": "gatree",
    "engine": "engine",
}
"""Role -> default bot spec. Override with ``--bot ROLE=SPEC``."""

MATCHUPS: tuple[tuple[str, str, str], ...] = (
    ("search vs local search", "alphabeta", "hill"),
    ("search vs local search", "alphabeta", "anneal"),
    ("search vs genetic", "alphabeta", "genetic"),
    ("search vs genetic", "alphabeta", "gatree"),
    ("local search vs genetic", "hill", "genetic"),
    ("local search vs genetic", "anneal", "gatree"),
    ("engine vs each", "engine", "alphabeta"),
    ("engine vs each", "engine", "hill"),
    ("engine vs each", "engine", "anneal"),
    ("engine vs each", "engine", "genetic"),
    ("engine vs each", "engine", "gatree"),
)
"""(group, role A, role B): the course reports' matchups and the engine against each bot."""

ORIGINAL_MATCHUPS = (
    ("alphabeta", "hill"),
    ("alphabeta", "genetic"),
    ("hill", "genetic"),
    ("engine", "alphabeta"),
)


@dataclass(frozen=True)
class Preset:
    time: float
    rounds: tuple[int, ...]
    games: int
    matchups: tuple[tuple[str, str], ...]
    random_plies: int = 2
    """Each game pair starts after this many random plies: searching bots are
    deterministic, so without varied openings a pair would repeat the same two games."""


PRESETS: dict[str, Preset] = {
    "full": Preset(0.2, (8, 12, 16, 28), 40, tuple((a, b) for _, a, b in MATCHUPS)),
    "reduced": Preset(0.1, (8, 12, 16, 28), 20, tuple((a, b) for _, a, b in MATCHUPS)),
    "original": Preset(5.0, (8,), 4, ORIGINAL_MATCHUPS),
}


def available_pairs(
    matchups: tuple[tuple[str, str], ...], specs: dict[str, str]
) -> tuple[list[str], list[str]]:
    """The flattened pair list (A1 B1 A2 B2 ...) of matchups whose bots exist, and the skipped."""
    from ..bots import BotError
    from ..bots.registry import parse_spec

    usable: dict[str, bool] = {}
    for role, spec in specs.items():
        try:
            parse_spec(spec)
            usable[role] = True
        except BotError:
            usable[role] = False
    players: list[str] = []
    skipped: list[str] = []
    for a, b in matchups:
        if usable.get(a) and usable.get(b):
            players += [specs[a], specs[b]]
        else:
            missing = [r for r in (a, b) if not usable.get(r)]
            skipped.append(f"{a} vs {b} (no bot for {', '.join(missing)})")
    return players, skipped


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "experiments",
        help="reproduce the course reports' matchups with real sample sizes",
        description="Play alpha-beta vs local search, alpha-beta vs genetic, local search vs "
        "genetic and the engine against each, in colour-swapped pairs at 8/12/16/28 rounds, "
        "and write a report with plots. Presets: full (0.2 s/move, 40 games per pairing and "
        "setting, about 26 min on 2 cores), reduced (0.1 s/move, 20 games, about 9 min), "
        "original (5 s/move, 8 rounds, 4 games, 4 pairings).",
    )
    parser.add_argument("--preset", choices=tuple(PRESETS), default="full")
    parser.add_argument("--time", type=float, help="seconds per move (overrides the preset)")
    parser.add_argument("--games", type=int, help="games per pairing and rounds setting")
    parser.add_argument("--rounds", help="rounds settings, e.g. 8,12,16,28")
    parser.add_argument(
        "--margin",
        type=float,
        default=0.25,
        help="time margin before a loss on time (default 0.25 s)",
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="ROLE=SPEC",
        help=f"bot for a role ({', '.join(ROLES)}), e.g. --bot hill=hill:score=reply",
    )
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--random-plies", type=int, help="random plies before each game pair (preset: 2)"
    )
    parser.add_argument("--db", type=Path, default=Path("experiments.db"))
    parser.add_argument("--resume", action="store_true", help="finish the latest unfinished run")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("experiments-report"),
        help="report directory (default experiments-report)",
    )
    parser.add_argument("--list", action="store_true", help="print the plan and exit")  # fmt: skip
    parser.set_defaults(handler=run_experiments)


def run_experiments(args: argparse.Namespace) -> int:
    from rich.console import Console

    from .executor import PoolExecutor
    from .live import LiveScore
    from .report import write_report
    from .runner import create_run, execute, sigterm_as_interrupt
    from .schedule import Settings
    from .store import Store
    from .summary import summarize
    from .tables import pairing_table

    preset = PRESETS[args.preset]
    specs = dict(ROLES)
    for item in args.bot:
        role, eq, spec = item.partition("=")
        if not eq or role not in ROLES or not spec:
            raise InvalidSettingsError(
                f"--bot {item!r}: expected ROLE=SPEC with ROLE one of {', '.join(ROLES)}"
            )
        specs[role] = spec
    rounds = preset.rounds
    if args.rounds:
        try:
            rounds = tuple(int(r) for r in args.rounds.split(","))
        except ValueError:
            raise InvalidSettingsError(
                f"--rounds {args.rounds!r}: expected e.g. 8,12,16,28"
            ) from None
    settings = Settings(
        rounds=rounds,
        games=args.games or preset.games,
        time=args.time or preset.time,
        margin=args.margin,
        seed=args.seed,
        random_plies=preset.random_plies if args.random_plies is None else args.random_plies,
    )
    players, skipped = available_pairs(preset.matchups, specs)
    console = Console()
    for line in skipped:
        console.print(f"[yellow]skipped[/yellow] {line}")
    if not players:
        raise InvalidSettingsError("none of the experiment's bots is registered")
    pairs = len(players) // 2
    planned = pairs * len(rounds) * settings.games
    console.print(
        f"Experiments ({args.preset}): {pairs} pairings x {len(rounds)} rounds settings x "
        f"{settings.games} games = {planned} games, {settings.time:g} s/move, "
        f"margin {settings.margin:g} s, {settings.random_plies} random opening plies, "
        f"concurrency {args.concurrency}"
    )
    if args.list:
        for a, b in zip(players[::2], players[1::2], strict=True):
            console.print(f"  {a} vs {b}")
        return 0
    with Store(args.db) as store:
        if args.resume:
            run_id = store.resumable().id
        else:
            command = shlex.join(["adjacency", *sys.argv[1:]])
            run_id = create_run(store, "pairs", players, settings, command)
        run = store.run(run_id)
        with (
            sigterm_as_interrupt(),
            PoolExecutor(args.concurrency) as executor,
            LiveScore(run.planned, store.games(run_id), "pairs", console) as live,
        ):
            execute(store, run_id, executor, None, live.add)
        games = store.games(run_id)
    console.print(pairing_table(summarize(games), title=f"Experiments ({args.preset})"))
    path = write_report(games, args.out, title=f"Reproduced experiments ({args.preset} preset)")
    console.print(f"wrote {path}")
    return 0
