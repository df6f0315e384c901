"""The ``engine`` subcommand: serve a bot over the engine protocol on stdin/stdout."""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from typing import Any

from .arguments import whole_number

PREFERRED_BOTS = ("engine", "alphabeta", "greedy")
"""The default bot: the first of these that is registered (strongest first)."""


def register(commands: Any) -> None:
    """Add the ``engine`` subcommand to ``commands`` (the parser's subparsers)."""
    engine = commands.add_parser(
        "engine",
        help="serve a bot over the engine protocol on stdin/stdout",
        description="Speak the engine protocol (docs/protocol.md) on standard input and "
        "output, so that other programs (arenas, GUIs, scripts) can play against a bot. "
        "Start with 'aep'; end with 'quit'.",
    )
    engine.add_argument(
        "--bot",
        metavar="SPEC",
        help="bot spec to serve, e.g. greedy or alphabeta:depth=4 "
        f"(default: the first registered of {', '.join(PREFERRED_BOTS)})",
    )
    engine.add_argument("--seed", type=whole_number, help="random seed for the bot")
    engine.set_defaults(handler=run_engine)


def default_bot() -> str:
    """The strongest registered bot, looked up in the registry at run time."""
    from ..bots import entries

    names = {item.name for item in entries()}
    return next((name for name in PREFERRED_BOTS if name in names), "greedy")


def run_engine(args: argparse.Namespace) -> int:
    """``adjacency engine``: serve a bot over the engine protocol on standard input and output
    until ``quit``, the end of the input, Ctrl-C or the parent's exit; returns 0. Standard output
    is the protocol's alone: stray prints go to standard error."""
    from ..protocol_server import MAX_LINE_CHARS, EngineServer, bounded_lines
    from ..system.lifetime import exit_with_parent

    # A controller killed with SIGKILL cannot stop us: end with it. Poll only, since
    # controllers may start engines from short-lived threads (see system.lifetime).
    exit_with_parent(kernel_signal=False)
    spec = args.bot or default_bot()
    protocol_out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    protocol_in = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    server = EngineServer(spec, protocol_out, seed=args.seed)
    sys.stdout = sys.stderr  # stray prints from bots must not corrupt the protocol stream

    def overlong(length: int) -> None:
        server.report(f"error: ignored a line of {length} characters (at most {MAX_LINE_CHARS})")

    with contextlib.suppress(KeyboardInterrupt):
        # Stops the search and closes the bot however it ends.
        server.run(bounded_lines(protocol_in, overlong))
    return 0
