"""Options that the league's subcommands, its events' and its teams' commands share,
declared as data (:class:`~adjacency.cli.arguments.Option`), once: every league action
adds :data:`DB`; ``league serve`` and ``league event create`` both add :data:`PACE`;
``connect`` and ``league submit`` add :data:`LEAGUE_URL` and :data:`CAFILE`; no command
module imports another for them. ``league serve`` adds :data:`HOSTED_JOBS` and
:data:`ANALYSIS_BOARD`."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..hosting.slots import default_slots
from ..league.settings import MAX_PACE
from .arguments import Option, non_negative_number, positive_int


def pace_seconds(text: str) -> float:
    """A ``--pace`` (the server's, an event's): seconds from 0 to :data:`MAX_PACE`."""
    value = non_negative_number(text)
    if value > MAX_PACE:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_PACE:g} seconds, got {text}")
    return value


DB = Option(("--db",), {"type": Path, "required": True, "help": "the league's SQLite file"})
"""The league's SQLite file, which every league action reads or writes."""

LEAGUE_URL = Option(("url",), {"help": "the league's address, e.g. https://league.example:8780"})
"""The address of the league server a team's command talks to."""

CAFILE = Option(("--cafile",), {"type": Path, "help": "CA certificate(s) to verify the server by"})
"""The certificates a team's command verifies the league server by (one with a private
certificate authority)."""

PACE = Option(("--pace",), {"type": pace_seconds, "metavar": "SECONDS"})
"""The least seconds a bot's move takes, so people can follow a game (each subcommand
gives its default and help)."""

HOSTED_JOBS = Option(
    ("--hosted-jobs",),
    {
        "type": positive_int,
        "metavar": "N",
        "default": default_slots(),
        "help": "how many teams' programs compute at once (hosted moves and starts, "
        "builds and checks), each on a core of its own; the others wait off their clocks, "
        "and games wait in the pairing (default: the machine's cores less one for the "
        "server, at least one; here %(default)s); with --executor ray each node has its "
        "own slots for its games (its CPUs less one), and this counts the server's builds "
        "and checks",
    },
)
"""How many teams' programs (hosted moves and starts, builds with their checks) compute
at once: one per core, so each is judged by its wall time on a core of its own (on a Ray
cluster, the games' sides in their nodes' own slots)."""


def web_address(text: str) -> str:
    """The web app's address for ``--analysis-board``: ``http://`` or ``https://``, a
    host, no query or fragment (the cards add ``/?fen=`` to it)."""
    from urllib.parse import urlsplit

    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a web address: give http:// or https://, a host, and no ? or #"
        )
    return text.strip().rstrip("/")


ANALYSIS_BOARD = Option(
    ("--analysis-board",),
    {
        "metavar": "URL",
        "type": web_address,
        "help": "the web app's address (http:// or https://): the report cards link "
        "each figure to its position on that analysis board; default: no links",
    },
)
"""The web app's address, where the league's report cards link their positions."""
