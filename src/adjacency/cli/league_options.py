"""Options that the league's subcommands and its events' share, declared as data
(:class:`~adjacency.cli.arguments.Option`): ``league serve`` and ``league event create``
both add :data:`PACE`, and neither module imports the other for it; ``league serve``
adds :data:`HOSTED_JOBS`."""

from __future__ import annotations

import argparse
import os

from ..league.settings import MAX_PACE
from .arguments import Option, non_negative_number, positive_int


def pace_seconds(text: str) -> float:
    """A ``--pace`` (the server's, an event's): seconds from 0 to :data:`MAX_PACE`."""
    value = non_negative_number(text)
    if value > MAX_PACE:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_PACE:g} seconds, got {text}")
    return value


PACE = Option(("--pace",), {"type": pace_seconds, "metavar": "SECONDS"})
"""The least seconds a bot's move takes, so people can follow a game (each subcommand
gives its default and help)."""

HOSTED_JOBS = Option(
    ("--hosted-jobs",),
    {
        "type": positive_int,
        "metavar": "N",
        "default": os.cpu_count() or 1,
        "help": "how many hosted bots' moves compute at once; the others wait off their "
        "clocks (default: the machine's cores, here %(default)s)",
    },
)
"""How many moves of hosted bots (the teams' accepted versions, which the server runs in
its sandbox) compute at once: one per core keeps their CPU-time clocks fair."""
