"""Subcommands of the rules core: ``show`` and ``replay``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core import Position
from ..core.errors import InvalidRecordError
from ..core.game import Game
from ..core.record import game_from_json, games_from_text
from ..core.text import MAX_INPUT_BYTES, read_text
from .arguments import positive_int
from .terminal import print_position


def register(commands: Any) -> None:
    """Add the ``show`` and ``replay`` subcommands to ``commands`` (the parser's subparsers)."""
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
        help="validate game records and print a game's final position",
        description="Load a game record file (text or .json), replay and validate every move, "
        "and print the final position and result. A text file may hold several records "
        "(adjacency report --records): every game is validated and listed one per line, "
        f"or --game N prints game N. Reads at most {MAX_INPUT_BYTES} bytes.",
    )
    replay.add_argument(
        "record", help="the record file ('-': standard input; JSON if it starts with '{')"
    )
    add_game_option(replay)
    replay.set_defaults(handler=run_replay)


def add_game_option(parser: argparse.ArgumentParser) -> None:
    """``--game N``: which record of a file holding several (1-based, in file order)."""
    parser.add_argument(
        "--game",
        type=positive_int,
        metavar="N",
        help="the Nth game of a file holding several records (1 = the first)",
    )


def read_games(source: str) -> list[Game]:
    """Every game of a record file (``-``: standard input), each replayed and validated.

    JSON (a ``.json`` name, or text starting with ``{``) holds one game; the text
    format may hold several, one after another (:func:`games_from_text`).
    """
    if source == "-":
        text = read_text(sys.stdin.buffer, "standard input", InvalidRecordError)
    else:
        text = read_text(source, "game record", InvalidRecordError)
    if source.endswith(".json") or text.lstrip().startswith("{"):
        return [game_from_json(text)]
    games = games_from_text(text)
    if not games:
        raise InvalidRecordError(f"{source!r} holds no game record")
    return games


def pick_game(games: list[Game], number: int | None, source: str) -> Game:
    """Game ``number`` (1-based) of ``games``; without a number, the only one.

    Raises :class:`InvalidRecordError` for a number past the end, or for no
    number when the file holds several games (the message says to give ``--game``).
    """
    if number is None:
        if len(games) != 1:
            raise InvalidRecordError(
                f"{source!r} holds {len(games)} games; pick one with --game N (1 to {len(games)})"
            )
        return games[0]
    if number > len(games):
        held = "1 game" if len(games) == 1 else f"{len(games)} games"
        raise InvalidRecordError(f"--game {number}: {source!r} holds {held}")
    return games[number - 1]


def run_show(args: argparse.Namespace) -> int:
    """``adjacency show``: print the position (default: the 8x8 start) after ``--moves``; returns
    0."""
    position = Position.from_fen(args.fen) if args.fen else Position.start()
    for move in args.moves:
        position = position.play(move)
    print_position(position)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """``adjacency replay``: read and validate every game of a record file, then print the game
    (or game ``--game N``) with its final position and result, or list every game of a file that
    holds several; returns 0."""
    games = read_games(args.record)
    if args.game is None and len(games) > 1:
        width = len(str(len(games)))
        for number, game in enumerate(games, 1):
            print(f"{number:>{width}}. {_summary(game)}: {_result(game)}")
        print(f"{len(games)} games, every move valid; print one with --game N")
        return 0
    game = pick_game(games, args.game, args.record)
    print(_summary(game))
    print_position(game.position)
    print(f"Result {_result(game)}")
    return 0


def _summary(game: Game) -> str:
    return f"{game.x_name} (X) vs {game.o_name} (O), {game.rounds} rounds, {len(game.moves)} plies"


def _result(game: Game) -> str:
    return f"{game.result_token} ({game.termination.value})"
