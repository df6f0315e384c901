"""The ``league event`` subcommands: create, start, pause, resume, let its teams play the
ladder meanwhile, withdraw, reinstate, show and export a class event (docs/league.md,
"Running a class event")."""

from __future__ import annotations

import argparse
import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .arguments import OneOf, Option, add_actions, add_all, positive_int
from .league_options import DB, PACE

if TYPE_CHECKING:
    from ..league.league_file import LeagueStore


EVENT = Option(("name",), {"help": "the event, as created"})

CREATE_OPTIONS: tuple[Option | OneOf, ...] = (
    DB,
    Option(("name",), {"help": "unique name: 1-32 of A-Z a-z 0-9 - _ ."}),
    Option(
        ("--format",),
        {
            "required": True,
            "choices": ("round-robin", "double-round-robin", "swiss"),
            "help": "how members are paired",
        },
    ),
    Option(
        ("--rounds",),
        {"type": positive_int, "help": "rounds (a Swiss; a round robin's are fixed)"},
    ),
    Option(
        ("--start",),
        {"help": "start time, e.g. 2026-11-27T14:00 (local time); default: `event start`"},
    ),
    Option(
        ("--clock",),
        {
            "help": "the event's own clock BASE+INCREMENT in seconds, e.g. 30+0.5 (as `league "
            "create --clock`); default: the league's",
        },
    ),
    PACE.but(
        help="the least seconds each bot's move takes in its games, house or connected "
        "(people are never held), so a projector can follow them; the wait is on no "
        "clock; default: the server's --pace, for games between two house bots",
    ),
    OneOf(
        (
            Option(("--members",), {"help": "the members, comma-separated, in seeding order"}),
            Option(
                ("--all-connected",),
                {
                    "action": "store_true",
                    "help": "every bot connected when it starts, and the house bots (2 at least)",
                },
            ),
        ),
        required=True,
    ),
    Option(
        ("--people",),
        {
            "action": "store_true",
            "help": "open to people: each may join it from the event's page until it starts "
            "(the bots are named or connected as without it)",
        },
    ),
    OneOf(
        (
            Option(
                ("--rated",),
                {
                    "dest": "rated",
                    "action": "store_true",
                    "default": True,
                    "help": "rated games (default)",
                },
            ),
            Option(
                ("--unrated",),
                {"dest": "rated", "action": "store_false", "help": "games that change no rating"},
            ),
        ),
    ),
)
"""``league event create``'s options, in the order of its help."""

WITHDRAW_OPTIONS = (
    DB,
    EVENT,
    Option(("member",), {"help": "the member to withdraw (it plays no later board)"}),
)
LADDER_OPTIONS = (
    DB,
    EVENT,
    Option(
        ("allowed",),
        {
            "choices": ("on", "off"),
            "help": "on: its teams play ladder games once their games of the round are over "
            "(a withdrawn team at once); off (the default): none until the event is over",
        },
    ),
)
REINSTATE_OPTIONS = (DB, EVENT, Option(("member",), {"help": "the withdrawn member to reinstate"}))
EXPORT_OPTIONS = (
    DB,
    EVENT,
    Option(
        ("--out",),
        {
            "type": Path,
            "required": True,
            "help": "the directory to write the six files into (created if missing; "
            "a new one: a games.db there already is refused)",
        },
    ),
)
"""The options of the actions that take more than the league file and the event."""


def register(sub: Any) -> None:
    """Add ``event`` with its actions to the ``league`` command's subparsers ``sub``."""
    event = sub.add_parser(
        "event",
        help="class events: a round robin or a Swiss of the league's bots",
        description="Create, start, show and export an event (docs/league.md).",
    )
    actions = event.add_subparsers(dest="event_command", metavar="ACTION", required=True)

    add_actions(
        actions,
        (
            ("create", "create an event", CREATE_OPTIONS, run_create),
            ("start", "start an event now (the server plays it)", (DB, EVENT), run_start),
            (
                "pause",
                "pause a running event (no new game of it starts; those in play end)",
                (DB, EVENT),
                run_pause,
            ),
            ("resume", "resume a paused event where it stopped", (DB, EVENT), run_resume),
            (
                "ladder",
                "whether an event's teams play ladder games while it runs (off: none)",
                LADDER_OPTIONS,
                run_ladder,
            ),
            ("withdraw", "withdraw a member from an event", WITHDRAW_OPTIONS, run_withdraw),
            (
                "reinstate",
                "undo a withdrawal, until the event's next round is paired",
                REINSTATE_OPTIONS,
                run_reinstate,
            ),
            ("show", "print the standings and the crosstable", (DB, EVENT), run_show),
        ),
    )

    export = actions.add_parser(
        "export",
        help="write table.csv, table.json, crosstable.csv, games.txt, NAME.zip and games.db "
        "into --out",
        description=(
            "Write into the directory --out (created if missing): table.csv and table.json "
            "(the final table, with the versions of each team's code that played and, in "
            "the JSON, every game), crosstable.csv, games.txt (every finished game of the "
            "event as one records file, each tagged with the event's name, its round and "
            "the versions that played, with the whole detail of a failure), NAME.zip "
            "(those four files, byte for byte the teacher's page's archive) and "
            "games.db (the same games as an arena results database that `adjacency report` "
            "reads). Everything is read from the league file --db (the server stores the "
            "games there as they end; it may be running). A games.db in --out already is "
            "refused before anything is written."
        ),
    )
    add_all(export, EXPORT_OPTIONS)
    export.set_defaults(handler=run_export)


def parse_start(text: str) -> float:
    """A start time: ISO 8601 (``2026-11-27T14:00``, local time unless it names its zone)
    as a Unix time; anything else is :class:`~adjacency.league.league_file.LeagueError`."""
    from ..league.league_file import LeagueError

    try:
        when = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise LeagueError(
            f"start time {text!r} is not a date and time like 2026-11-27T14:00"
        ) from None
    return when.timestamp()


def _league(args: argparse.Namespace) -> LeagueStore:
    from ..league.league_file import LeagueStore

    store = LeagueStore(args.db, create=False)
    store.meta.settings()  # refuses a file without a league
    return store


def run_create(args: argparse.Namespace) -> int:
    """``adjacency league event create NAME``: store a scheduled event; returns 0. Bad
    input (see :meth:`adjacency.league.events.event_definitions.EventDefinitions.create`)
    is one line, status 2, and creates nothing."""
    from ..core.errors import InvalidSettingsError
    from ..league.league_file import LeagueError
    from ..league.settings import parse_clock

    start = None if args.start is None else parse_start(args.start)
    members = None if args.all_connected else [m.strip() for m in args.members.split(",")]
    try:
        clock = None if args.clock is None else parse_clock(args.clock)
    except InvalidSettingsError as exc:
        raise LeagueError(str(exc)) from None
    with _league(args) as league:
        event = league.events.create(
            args.name, args.format, args.rounds, members, start, args.rated, clock=clock,
            pace=args.pace, people=args.people,
        )  # fmt: skip
        time_control = event.time_control(league.meta.settings().time_control)
    if event.pace is not None:
        time_control += f", {event.pace:g} s a move at least"
    when = "at its start time" if event.start else "with `adjacency league event start`"
    if event.people:
        when += " (people may join it until then)"
    if event.all_connected:
        rounds = f"{event.rounds} rounds" if event.swiss else "its rounds fixed by how many play"
        who = "every bot connected then and the house bots (2 at least)"
        print(
            f"Created event {event.name}: {event.format}, {rounds}, {time_control}; "
            f"starts {when} with {who}."
        )
    else:
        print(
            f"Created event {event.name}: {event.format}, {event.rounds} rounds, "
            f"{time_control}; starts {when}."
        )
    return 0


def run_start(args: argparse.Namespace) -> int:
    """``adjacency league event start NAME``: mark the event running; the server pairs
    its first round on its next pass. An event of every connected bot is set to start
    now instead: the server starts it on its next pass with the bots connected then and
    the house bots, or as soon as there are two (``event show`` says why it waits).
    Returns 0."""
    with _league(args) as league:
        events = league.events
        event = events.named(args.name)
        if event.all_connected and event.status == "scheduled":
            events.start_when_served(args.name)
            print(
                f"Event {event.name} starts on the server's next pass with every bot connected "
                "then and the house bots (2 at least); `adjacency league event show` says why "
                "it waits, if it does."
            )
            return 0
        event = events.start(args.name)
    print(f"Started event {event.name}: the server plays round 1 now.")
    return 0


def run_pause(args: argparse.Namespace) -> int:
    """``adjacency league event pause NAME``: the server (this process or another on the
    same file) starts no new game of the event from its next pass; games in play end as
    usual. Returns 0; an event that is not running, or paused already, is refused."""
    with _league(args) as league:
        event = league.events.pause(args.name)
    print(f"Paused event {event.name}: no new game of it starts until "
          f"`adjacency league event resume {event.name}`.")  # fmt: skip
    return 0


def run_resume(args: argparse.Namespace) -> int:
    """``adjacency league event resume NAME``: the server goes on pairing the event where
    it stopped, from its next pass. Returns 0; an event that is not paused is refused."""
    with _league(args) as league:
        event = league.events.resume(args.name)
    print(f"Resumed event {event.name}: the server goes on with it on its next pass.")
    return 0


def run_ladder(args: argparse.Namespace) -> int:
    """``adjacency league event ladder NAME on|off``: whether the event's teams play ladder
    games while it runs (the server reads it on its next pass). Returns 0; a finished
    event is refused."""
    with _league(args) as league:
        event = league.events.set_ladder(args.name, args.allowed == "on")
    if event.ladder:
        print(f"The teams of {event.name} play ladder games once their games of the round "
              "are over (a withdrawn team at once).")  # fmt: skip
    else:
        print(f"The teams of {event.name} play no ladder game until it is over: the event "
              "comes first.")  # fmt: skip
    return 0


def run_withdraw(args: argparse.Namespace) -> int:
    """``adjacency league event withdraw NAME MEMBER``: the member plays no more boards
    of the event. Returns 0."""
    with _league(args) as league:
        league.events.withdraw(args.name, args.member)
    print(f"Withdrew {args.member} from {args.name}.")
    return 0


def run_reinstate(args: argparse.Namespace) -> int:
    """``adjacency league event reinstate NAME MEMBER``: undo the member's withdrawal
    (refused, saying why, once the event's next round is paired). Returns 0."""
    with _league(args) as league:
        league.events.reinstate(args.name, args.member)
    print(f"Reinstated {args.member} in {args.name}.")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """``adjacency league event show NAME``: print the standings and the crosstable."""
    from ..league.event_results.event_views import render_text, table

    with _league(args) as league:
        print(render_text(table(league, league.events.named(args.name))))
    return 0


def run_export(args: argparse.Namespace) -> int:
    """``adjacency league event export NAME --out DIR``: write the final table (CSV and
    JSON), the crosstable (CSV) and every game as one records file."""
    from ..league.event_results.event_views import export

    with _league(args) as league:
        paths = export(league, league.events.named(args.name), args.out)
    for path in paths:
        print(path)
    return 0
