"""A hosted program's failure in its team's words: :func:`team_words`.

A failed move's detail comes from the protocol's client in an operator's words: the
command line that started the engine (for a sandboxed program, a shell line of the
server's with its folders), what happened, then the last lines of its standard error
verbatim (the platform's frames, the driver's notes, a follow-on exception). A team reads
it as a refusal or a loss, so it is told in this order, and nothing else:

1. what happened, in one line (the caller's words before it say at which move, with
   which choice): ``while choosing a move, the program exited with status 1``;
2. the team's own cause: the first exception whose frames are the team's, with its file
   and line, and those frames (:func:`~.java_traces.team_cause`); where no trace names
   the team's code, the last lines it wrote, as they were;
3. the board as its window showed it, where the driver drew it.

No command line, no folder of the server's, no follow-on exception after the cause.
"""

from __future__ import annotations

import re

from .java_traces import team_cause

STDERR_HEAD = "; last lines of its stderr:\n"
"""Where the protocol client's failure text starts quoting standard error."""

SAID = "fxdriver: "
"""How the JavaFX driver's lines begin."""

BOARD_HEAD = "its board as its window shows it, top row first:"
"""The driver's line before the board's rows."""

BOARD_ROWS = 8

LAST_LINES = 20
"""The lines quoted where no trace names the team's code: its last ones."""

OWN_FRAMES = 6
"""The team's frames shown under its cause, innermost first."""

_COMMAND = re.compile(r"engine (?:'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\") ")
"""The client's ``engine 'COMMAND' `` (a Python repr of the command line)."""


def team_words(detail: str) -> str:
    """``detail`` (a failed move's, from the protocol's client) told as the module
    docstring says; a detail that is not the client's is returned as it is, but for any
    command line in it."""
    head, quoted, tail = detail.partition(STDERR_HEAD)
    head = _COMMAND.sub("the program ", head)
    if not quoted:
        return head
    lines = [line.removeprefix("  ") for line in tail.split("\n")]
    said = [line.removeprefix(SAID) for line in lines]
    board = _board(said)
    cause = team_cause(said)
    if cause is None:
        kept = [line for line in said if line not in board][-LAST_LINES:]
        return "\n".join([f"{head}; its last lines:", *(f"  {line}" for line in kept), *board])
    told = [frame for frame in cause.own_frames if frame.where]  # a file and line alone: said
    frames = [f"    {frame}" for frame in told[:OWN_FRAMES]]
    return "\n".join([head, f"its cause: {cause.headline()}", *frames, *board])


def _board(said: list[str]) -> list[str]:
    """The driver's heading and rows of the board, from the last heading on."""
    heads = [i for i, line in enumerate(said) if line == BOARD_HEAD]
    if not heads:
        return []
    return said[heads[-1] : heads[-1] + 1 + BOARD_ROWS]
