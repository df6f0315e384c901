"""``adjacency league roster``: add a class's teams from a CSV roster, with a printable
sheet of their tokens."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from .league_options import DB


def register(sub: Any) -> None:
    """``league roster`` under the ``league`` command's subparsers ``sub``."""
    roster = sub.add_parser(
        "roster",
        help="add every team of a CSV roster as a bot account; write their tokens' sheet",
        description="Add every team named in the first column of ROSTER (a CSV file; a "
        "header row 'team' or 'name' is skipped) as a bot account, and write the new "
        "tokens to a printable HTML sheet (one card per team, with the commands that read "
        "the token from a file). Every name is checked before any is added; teams that "
        "are bots of the league already keep their tokens.",
    )
    roster.add_argument("roster", type=Path, help="the CSV file of team names")
    DB.add(roster)
    roster.add_argument(
        "--sheet", type=Path, required=True, help="the token sheet to write (a new file)"
    )
    roster.add_argument(
        "--url", default="https://LEAGUE", help="the league's address, for the sheet's commands"
    )
    roster.add_argument(
        "--cafile",
        help="the certificate file teams pass to --cafile (a league on tls internal)",
    )
    roster.set_defaults(handler=run_roster)


def run_roster(args: argparse.Namespace) -> int:
    """Check the roster, add its new teams, write the sheet (mode 600, never over a file
    that exists); the tokens are printed nowhere else. A refusal is bad input (status 2)
    and adds nothing."""
    from ..core.text import read_text
    from ..league.class_roster import plan_roster, read_roster, token_sheet
    from ..league.league_file import LeagueStore
    from ..league.store.records import LeagueError

    names = read_roster(read_text(args.roster, "roster", LeagueError, limit=1 << 20))
    if args.sheet.exists():
        raise LeagueError(f"{args.sheet} exists already: give --sheet a new file")
    with LeagueStore(args.db, create=False) as store:
        plan = plan_roster(names, store.members.members())
        descriptor = os.open(args.sheet, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        tokens: dict[str, str] = {}
        try:
            for name in plan.new:
                _, token = store.members.add_member(name, "bot")
                tokens[name] = token or ""  # a bot always gets one
        finally:
            with os.fdopen(descriptor, "w", encoding="utf-8") as sheet:
                sheet.write(token_sheet(tokens, args.url, args.cafile))
    for name in plan.new:
        print(f"added {name}")
    for name in plan.present:
        print(f"{name}: a bot of the league already, its token unchanged")
    print(f"{len(tokens)} tokens in {args.sheet} (print it, hand each team its card)")
    return 0
