"""Subcommands of the rules core: ``show`` and ``replay``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core import Position
from ..core.errors import InvalidRecordError
from ..core.record import game_from_json, game_from_text
from ..core.text import MAX_INPUT_BYTES, read_text
from .terminal import print_position


def register(commands: Any) -> None:
    show = commands.add_parser(
        "show",
        help="print a position as a board",
        description="Print a position (position text, default: the 8x8 start) as a board, "
        "optionally after playing some moves.",
    )
    show.add_argument("fen", nargs="?", help="position text, e.g. '6oo/6oo/8/8/8/8/xx6/xx6 x 56'")
    show.add_argument("--moves", nargs="*", default=[], metavar="SQ", help="moves to play first")
    show.set_defaults(handler=run_show)

    replay = commands.add_parser(
        "replay",
        help="validate a game record and print its final position",
        description="Load a game record (text or .json), replay and validate every move, "
        f"and print the final position and result. Reads at most {MAX_INPUT_BYTES} bytes.",
    )
    replay.add_argument(
        "record", help="the record file ('-': standard input; JSON if it starts with '{')"
    )
    replay.set_defaults(handler=run_replay)


def run_show(args: argparse.Namespace) -> int:
    position = Position.from_fen(args.fen) if args.fen else Position.start()
    for move in args.moves:
        position = position.play(move)
    print_position(position)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    if args.record == "-":
        text = read_text(sys.stdin.buffer, "standard input", InvalidRecordError)
    else:
        text = read_text(args.record, "game record", InvalidRecordError)
    is_json = args.record.endswith(".json") or text.lstrip().startswith("{")
    game = game_from_json(text) if is_json else game_from_text(text)
    print(f"{game.x_name} (X) vs {game.o_name} (O), {game.rounds} rounds, {len(game.moves)} plies")
    print_position(game.position)
    print(f"Result {game.result_token} ({game.termination.value})")
    return 0
