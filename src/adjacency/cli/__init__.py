"""The ``adjacency`` command: one subcommand module per area, each with ``register``.

Subcommand modules import their heavy dependencies (numba, FastAPI, matplotlib)
inside their handlers, so that ``adjacency --help`` and ``adjacency play`` start fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..core.errors import AdjacencyError, AdjacencyRuntimeError
from ..core.text import quote

COMMAND_MODULES = (
    "adjacency.cli.core_commands",
    "adjacency.cli.bot_commands",
    "adjacency.cli.project_commands",
    "adjacency.cli.protocol_server_commands",
    "adjacency.cli.web_commands",
    "adjacency.cli.league_commands",
    "adjacency.cli.engine_commands",
    "adjacency.cli.arena_commands",
    "adjacency.cli.tune_commands",
    "adjacency.cli.experiment_commands",
    "adjacency.cli.solution_commands",
    "adjacency.cli.train_commands",
    "adjacency.cli.puzzle_commands",
)
"""Modules that add subcommands, in the order ``--help`` lists them."""


class HelpFormatter(argparse.HelpFormatter):
    """Adds ``(default: VALUE)`` to an option's help when the help does not state its
    default, so no option of any subcommand can hide what it does when omitted."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            action.option_strings
            and action.nargs != 0  # flags (store_true, version, help) have no value
            and default not in (None, argparse.SUPPRESS, [], (), "")
            and "default" not in text
        ):
            shown = str(default).replace("%", "%%")
            text += f" (default: {shown})" if text else f"(default: {shown})"
        return text


class Parser(argparse.ArgumentParser):
    """The command's parser: :class:`HelpFormatter` for it and every subcommand."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


def build_parser() -> argparse.ArgumentParser:
    """The ``adjacency`` parser, with the subcommands of every module of :data:`COMMAND_MODULES`."""
    parser = Parser(
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


EXIT_BAD_INPUT = 2
"""Exit status for bad input (:class:`AdjacencyError`; argparse uses 2 for bad options too)."""
EXIT_RUNTIME = 3
"""Exit status for a run-time failure: an engine, worker, database, memory or the system."""
EXIT_INTERNAL = 1
"""Exit status for an unexpected exception (a bug), as Python's own traceback exit."""
EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""
EXIT_BROKEN_PIPE = 141
"""Exit status when the reader of the output went away (128 + SIGPIPE), silently."""
DEBUG_VARIABLE = "ADJACENCY_DEBUG"
"""Set to 1 to see the traceback of any error instead of a one-line message."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit status (see docs/errors.md).

    Every failure ends in one ``adjacency COMMAND: error: ...`` line on stderr,
    never a traceback (unless :data:`DEBUG_VARIABLE` is set).
    """
    from ..system.shutdown import skip_final_collection

    skip_final_collection()  # the exit costs no collection of the kernels' objects
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # what command_line records
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    debug = os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")

    def fail(message: str, status: int) -> int:
        if debug:
            traceback.print_exc()
        print(f"adjacency {args.command}: error: {message}", file=sys.stderr)
        return status

    try:
        return int(args.handler(args) or 0)
    except AdjacencyError as exc:
        return fail(str(exc), EXIT_BAD_INPUT)
    except AdjacencyRuntimeError as exc:
        return fail(str(exc), EXIT_RUNTIME)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of our output went away (``| head``): nothing left to say to it.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - absorbs the final flush
        return EXIT_BROKEN_PIPE
    except MemoryError:
        return fail("out of memory (try a smaller --tt or fewer workers)", EXIT_RUNTIME)
    except OSError as exc:
        where = f" {quote(str(exc.filename))}" if exc.filename is not None else ""
        return fail(f"system error{where}: {exc.strerror or exc}", EXIT_RUNTIME)
    except Exception as exc:
        return fail(
            f"internal error: {type(exc).__name__}: {quote(str(exc))}. This is a bug in "
            f"adjacency: please report it with the command that caused it "
            f"({DEBUG_VARIABLE}=1 shows the traceback)",
            EXIT_INTERNAL,
        )
