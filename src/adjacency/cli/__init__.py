"""The ``adjacency`` command: one subcommand module per area, each with ``register``.

Subcommand modules import their heavy dependencies (numba, FastAPI, matplotlib)
inside their handlers, so that ``adjacency --help`` and ``adjacency play`` start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .. import __version__
from ..core.errors import AdjacencyError

COMMAND_MODULES = (
    "adjacency.cli.core_commands",
    "adjacency.cli.bot_commands",
    "adjacency.cli.protocol_commands",
    "adjacency.cli.web_commands",
    "adjacency.cli.engine_commands",
    "adjacency.cli.arena_commands",
    "adjacency.cli.experiment_commands",
)
"""Modules that add subcommands, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="adjacency",
        description=(
            "The Adjacency Strategy Game: place a piece on any empty square and "
            "convert the opponent's orthogonal neighbours; after N rounds the side "
            "with more squares wins."
        ),
    )
    parser.add_argument("--version", action="version", version=f"adjacency {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        return int(args.handler(args) or 0)
    except AdjacencyError as exc:
        print(f"adjacency {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
