"""Subcommands about bots: ``bots`` (the registry) and ``move`` (ask a bot for a move)."""

from __future__ import annotations

import argparse
import re
from importlib import metadata
from typing import Any

from rich.markup import escape
from rich.table import Table

from .. import DISTRIBUTION
from ..bots import BotError, Limit, Thinking, entries, make_bot
from ..bots.lookup import entry
from ..bots.registry import plugins
from ..core import Position
from .arguments import positive_int, seconds, whole_number
from .terminal import make_console


def register(commands: Any) -> None:
    """Add the ``bots`` and ``move`` subcommands to ``commands`` (the parser's subparsers)."""
    bots = commands.add_parser(
        "bots",
        help="list every bot with its options",
        description="List every registered bot: its spec name, what it does, and its options "
        "with defaults and ranges. Build a spec as NAME or NAME:key=value,key=value. "
        "Plugin bots for optional libraries (openspiel) are listed apart with the extra they "
        "need; --plugins loads the installed ones to show their options too.",
    )
    bots.add_argument(
        "--plugins",
        action="store_true",
        help="load every plugin bot whose extra is installed and list its options "
        "(imports the optional library)",
    )
    bots.set_defaults(handler=run_bots)

    move = commands.add_parser(
        "move",
        help="ask a bot for its move in a position",
        description="Ask a bot (a spec such as alphabeta:depth=6) for its move.",
    )
    move.add_argument("spec", help="bot spec, e.g. greedy or alphabeta:depth=4")
    move.add_argument("fen", nargs="?", help="position text (default: the 8x8 start)")
    move.add_argument("--time", type=seconds, default=5.0, help="seconds for the move (default 5)")
    move.add_argument("--depth", type=positive_int, help="depth limit")
    move.add_argument("--nodes", type=positive_int, help="node limit")
    move.add_argument("--seed", type=whole_number, help="random seed (from 0)")
    move.add_argument(
        "--think",
        action="store_true",
        help="print every report while the bot thinks (e.g. each alpha-beta iteration)",
    )
    move.set_defaults(handler=run_move)


def run_bots(args: argparse.Namespace) -> int:
    """``adjacency bots``: print every registered bot with its options, then the plugin bots
    (with ``--plugins``, the installed ones are loaded first to show their options); returns 0."""
    console = make_console()
    if args.plugins:
        for plugin in plugins():
            if extra_installed(plugin.extra, plugin.distribution) is not False:
                try:
                    entry(plugin.name)
                except BotError as exc:
                    console.print(f"{plugin.name}: {exc}", markup=False, soft_wrap=True)
    table = Table(title="Bots (spec: NAME or NAME:key=value,...; every bot also takes seed=N)")
    # fold, never cut: a preset's definition is one long spec without spaces
    table.add_column("name", style="bold", overflow="fold")
    table.add_column("family", overflow="fold")
    table.add_column("what it does", overflow="fold")
    table.add_column("options (default; range)", overflow="fold")
    for item in entries():
        options = "\n".join(
            f"{o.name}={o.default} ({o.describe_range()}): {o.help}" for o in item.options
        )
        table.add_row(item.name, item.family, item.summary, options or "-")
    console.print(table)
    console.print(plugin_table())
    return 0


def plugin_table() -> Table:
    """The plugin bots: name, the extra each needs and whether it is installed or loaded."""
    table = Table(title="Plugin bots (registered on first use of their spec)")
    table.add_column("name", style="bold", overflow="fold")
    table.add_column("needs", overflow="fold")
    table.add_column("status", overflow="fold")
    for plugin in plugins():
        installed = extra_installed(plugin.extra, plugin.distribution)
        if plugin.loaded:
            status = "loaded: options listed above"
        elif installed is False:
            status = f"not installed: {plugin.install}"
        else:
            known = "installed" if installed else "not checked (no package metadata)"
            status = f"{known}; options: adjacency bots --plugins"
        needs = f"the {plugin.extra} extra ({plugin.module})" if plugin.extra else plugin.module
        if plugin.distribution != DISTRIBUTION:
            needs += f", from {plugin.distribution}"
        table.add_row(plugin.name, needs, escape(status))
    return table


def extra_installed(extra: str, distribution: str = DISTRIBUTION) -> bool | None:
    """Whether every package of ``distribution[extra]`` (``adjacency-game`` unless a plugin
    comes from another distribution) is installed, from the installed metadata (nothing is
    imported); True for no extra (the distribution declared the plugin, so it is there);
    None when the distribution has no metadata or no such extra."""
    if not extra:
        return True
    try:
        requires = metadata.requires(distribution) or []
    except metadata.PackageNotFoundError:
        return None
    names = [
        re.split(r"[<>=!~ ;\[]", r, maxsplit=1)[0]
        for r in requires
        if re.search(rf"extra\s*==\s*['\"]{re.escape(extra)}['\"]", r)
    ]
    if not names:
        return None
    for name in names:
        try:
            metadata.distribution(name)
        except metadata.PackageNotFoundError:
            return False
    return True


def run_move(args: argparse.Namespace) -> int:
    """``adjacency move``: print the bot's move in the position (default: the 8x8 start) and its
    last report, or every report as it comes with ``--think``; returns 0."""
    position = Position.from_fen(args.fen) if args.fen else Position.start()
    listener = (lambda report: print("info " + describe(report))) if args.think else None
    if args.spec.split(":", 1)[0] == "engine":
        from ..engine.threads import use_all_cores

        use_all_cores()  # one search in this process: Lazy SMP on every core
    with make_bot(args.spec, seed=args.seed) as bot:
        limit = Limit(time=args.time, depth=args.depth, nodes=args.nodes)
        move = bot.choose_move(position, limit, listener)
    report = bot.report
    print(move)
    if report is not None and not args.think:
        print(describe(report))
    return 0


def describe(report: Thinking) -> str:
    """One line ``depth=.. score=.. nodes=.. pv=.. seconds=..`` (unset fields left out)."""
    details = {
        "depth": report.depth,
        "score": report.score,
        "nodes": report.nodes,
        "pv": " ".join(report.pv) or None,
        "seconds": round(report.seconds, 3),
    }
    return " ".join(f"{k}={v}" for k, v in details.items() if v is not None)
