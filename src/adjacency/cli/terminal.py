"""Terminal output with rich, shared by every subcommand: the console, positions."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core import Position

UNLIMITED_WIDTH = 100_000
"""The width of a console whose output is not a terminal: in effect no limit."""


def make_console(*, stderr: bool = False, quiet: bool = False) -> Console:
    """The console a command prints with.

    On a terminal, its width (or ``COLUMNS``); tables fit it
    (:class:`adjacency.arena.tables.FittedTable`). When the output goes to a file
    or a pipe, no width limit: tables are written whole and lines are never broken,
    whatever ``COLUMNS`` says.
    """
    console = Console(stderr=stderr, quiet=quiet)
    if console.is_terminal:
        return console
    return Console(stderr=stderr, quiet=quiet, width=UNLIMITED_WIDTH)


def board_table(position: Position, highlight: int = 0, last: int | None = None) -> Table:
    """A rich table of the board with coordinates; ``highlight`` squares are underlined."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    for _ in range(position.cols + 1):
        table.add_column(justify="center")
    for rank in range(position.rows - 1, -1, -1):
        cells: list[Text | str] = [Text(str(rank + 1), style="dim")]
        for file in range(position.cols):
            index = rank * position.cols + file
            piece = position.piece_at(index)
            style = {"x": "bold red", "o": "bold blue", None: "dim"}[piece]
            if highlight >> index & 1:
                style += " underline"
            if last == index:
                style += " reverse"
            cells.append(Text({"x": "X", "o": "O", None: "·"}[piece], style=style))
        table.add_row(*cells)
    table.add_row("", *(Text(f, style="dim") for f in "abcdefgh"[: position.cols]))
    return table


def print_position(position: Position, console: Console | None = None) -> None:
    """Print the board and a status line: side to move, score, rounds left or result."""
    console = console or make_console()
    console.print(board_table(position))
    x, o = position.score
    if position.is_over:
        outcome = position.outcome()
        verdict = "draw" if outcome == "draw" else f"{str(outcome).upper()} wins"
        console.print(f"Game over: {verdict}, X {x} - O {o}")
    else:
        console.print(
            f"{position.turn.upper()} to move · X {x} - O {o} · "
            f"{position.rounds_left} round(s) left ({position.plies_left} plies)"
        )
    console.print(f"[dim]{position.fen()}[/dim]")
