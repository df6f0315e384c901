"""The ``league`` and ``connect`` subcommands: run a league server, manage its members,
and play for a bot account from anywhere (docs/league.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.course import COURSE_LEAGUE_ROUNDS, COURSE_MOVE_SECONDS, COURSE_SIZE
from ..league.settings import MAX_PACE
from ..serving.logs import LEVELS
from .arguments import (
    LEAGUE_TOKEN,
    Action,
    CourseSetting,
    Group,
    OneOf,
    Option,
    add_actions,
    add_all,
    non_negative_number,
    positive_int,
    positive_number,
    seconds,
    whole_number,
)
from .league_options import ANALYSIS_BOARD, CAFILE, DB, HOSTED_JOBS, LEAGUE_URL, PACE

if TYPE_CHECKING:
    from ..league.league_file import LeagueStore

DEFAULT_PACE = 1.0
"""Seconds a move of a game between two house bots takes at least, by default: a
28-round game then lasts a minute or more, long enough to watch."""


SETTING_DEFAULTS = {"rows": 8, "cols": 8, "rounds": 28}
"""The board settings a league gets when none are given. The options default to ``None``
so that ``serve`` tells a setting given on the command line (checked against the
league's own, even when it equals the default) from one left out."""


SETTINGS = Group(
    "league settings (used when the league is created; given to serve on an existing "
    "league, each must equal the league's own)",
    (
        Option(("--rows",), {"type": positive_int, "help": "board rows (default 8)"}),
        Option(("--cols",), {"type": positive_int, "help": "board columns (default 8)"}),
        Option(("--rounds",), {"type": positive_int, "help": "rounds (default 28)"}),
        OneOf(
            (
                Option(
                    ("--clock",),
                    {"default": None, "help": "clock BASE+INCREMENT in seconds (default 60+1)"},
                ),
                Option(
                    ("--move-time",),
                    {"type": seconds, "help": "seconds per move instead of a clock"},
                ),
            )
        ),
        Option(
            ("--course",),
            {
                "action": CourseSetting,
                "settings": {
                    "rows": COURSE_SIZE[0],
                    "cols": COURSE_SIZE[1],
                    "rounds": COURSE_LEAGUE_ROUNDS,
                    "move_time": COURSE_MOVE_SECONDS,
                    "clock": None,
                },
                "help": "the course's setting: 8x8, 28 rounds, 5 seconds a move, every game "
                "from the start (a new league; --openings keeps openings); an option after "
                "it still changes its value",
            },
        ),
    ),
)
"""The board and clock of a league (``create``, ``serve``): each defaults to ``None``,
read by :func:`_settings` and :func:`_given_settings`."""

RULES = Group(
    "league rules (stored in the league; given ones replace the stored ones)",
    (
        Option(
            ("--people",),
            {
                "choices": ("open", "approved"),
                "help": "open: a person's games are rated once they played --established-games "
                "established people of different addresses (or approved ones), or the admin "
                "approves them; approved: only once the admin approves them (default open)",
            },
        ),
        Option(
            ("--established-games",),
            {
                "type": whole_number,
                "help": "established people (one per address, each approved one on their own) a "
                "person must have played before their games are rated (default 5)",
            },
        ),
        Option(
            ("--min-game",),
            {
                "type": non_negative_number,
                "help": "seconds from a game's start before its bots may start another "
                "(default 2; 0: no limit)",
            },
        ),
        Option(
            ("--people-expire-days",),
            {
                "type": non_negative_number,
                "help": "days after which a person who joined and never played is deleted "
                "(default 7; 0: never)",
            },
        ),
        Option(
            ("--team-versions",),
            {
                "type": positive_int,
                "help": "the most versions of its code a team may have stored (default 100)",
            },
        ),
        Option(
            ("--team-mib",),
            {
                "type": positive_number,
                "help": "the most MiB a team's stored uploads and builds may take (default 256)",
            },
        ),
    ),
)
"""The league's rules (``create``, ``serve``): each defaults to ``None`` (not given),
read by :func:`_given_rules`."""

ADMIN_TOKEN_FILE = Option(("--admin-token-file",), {"type": Path})
"""A file whose token becomes (``create``) or is (``serve``) the admin's; each action
gives its help."""

FROM_START = Option(
    ("--from-start",),
    {
        "action": "store_true",
        "help": "every game from the start position, no opening: a league where teams' "
        "programs are played through their own windows (docs/javafx-driver.md); "
        "--course implies it",
    },
)
OPENINGS = Option(
    ("--openings",),
    {
        "action": "store_true",
        "help": "games from the league's openings (a book or short random ones), in "
        "colour-swapped pairs: teams' programs are then played through the kit's adapter; "
        "the default, except with --course",
    },
)

CREATE_OPTIONS: tuple[Option | OneOf | Group, ...] = (
    DB,
    SETTINGS,
    RULES,
    ADMIN_TOKEN_FILE.but(help="use this file's token as admin"),
    OneOf((FROM_START, OPENINGS)),
)
"""``league create``'s options, in the order of its help."""

SETTINGS_OPTIONS: tuple[Option | OneOf | Group, ...] = (
    DB,
    OneOf((FROM_START, OPENINGS), required=True),
)
"""``league settings``'s options: the openings of a league that has played no game yet."""

SERVE_OPTIONS: tuple[Option | OneOf | Group, ...] = (
    DB,
    Option(
        ("--host",),
        {"default": "127.0.0.1", "help": "address (0.0.0.0: every network)"},
    ),
    Option(("--port",), {"type": whole_number, "default": 8780, "help": "port (default 8780)"}),
    Option(("--certfile",), {"type": Path, "help": "TLS certificate (PEM): serve HTTPS/WSS"}),
    Option(("--keyfile",), {"type": Path, "help": "TLS private key (PEM)"}),
    ADMIN_TOKEN_FILE.but(help="a file holding the admin token to use"),
    Option(
        ("--executor",),
        {
            "choices": ("local", "ray"),
            "default": "local",
            "help": "where house bots and hosted games run (ray: on the Ray cluster's nodes)",
        },
    ),
    Option(
        ("--ray-address",),
        {
            "metavar": "ADDR",
            "help": "with --executor ray: HOST:PORT (or 'auto') of a cluster started with "
            "`ray start --head`, whose nodes play the hosted games; default: a private Ray "
            "runtime on this machine",
        },
    ),
    ANALYSIS_BOARD,
    Option(("--jobs",), {"type": positive_int, "default": 1, "help": "house-bot worker processes"}),
    HOSTED_JOBS,
    Option(
        ("--no-house-games",),
        {
            "action": "store_true",
            "help": "house bots play only remote bots and people, not each other",
        },
    ),
    Option(
        ("--pause",),
        {
            "type": non_negative_number,
            "default": 0.0,
            "help": "seconds a member rests between games (default 0; bounds the load of "
            "cheap bots)",
        },
    ),
    PACE.but(
        default=DEFAULT_PACE,
        help=f"the least seconds a move takes in a game between two house bots, so it can "
        f"be watched (default {DEFAULT_PACE:g}; 0: full speed; at most {MAX_PACE:g}); the "
        "wait is not on the bot's clock",
    ),
    Option(
        ("--exempt-loopback",),
        {
            "action": "store_true",
            "help": "do not rate-limit clients on this machine (default: they are limited "
            "like others)",
        },
    ),
    Option(
        ("--forwarded-allow-ips",),
        {
            "metavar": "ADDRESSES",
            "help": "comma-separated addresses of reverse proxies whose X-Forwarded-For is "
            "believed (default: none)",
        },
    ),
    Option(
        ("--log-level",),
        {
            "choices": LEVELS,
            "default": "info",
            "help": "what the server logs on stderr (default info: each connection, refusal, "
            "game start and end, and event step, one line each)",
        },
    ),
    SETTINGS,
    RULES,
)
"""``league serve``'s options, in the order of its help."""

CONCURRENCY = Option(
    ("--concurrency",), {"type": positive_int, "default": 1, "help": "games at once"}
)
"""How many games a bot account or house bot plays at once."""

ADD_BOT_OPTIONS = (
    Option(
        ("name",),
        {
            "help": "unique name: 1-32 of A-Z a-z 0-9 - _ ., starting with a letter or digit; "
            "not reserved, nor a look-alike of a member's (docs/league.md)",
        },
    ),
    DB,
    CONCURRENCY.but(help="games at once (default 1)"),
)
ADD_HOUSE_OPTIONS = (
    Option(("spec",), {"help": "a built-in bot spec, e.g. greedy or alphabeta:depth=3"}),
    DB,
    Option(("--name",), {"help": "member name (default: from the spec)"}),
    CONCURRENCY,
)
MEMBER_OPTIONS = (
    Option(("name",), {"help": "the member's name, as shown on the leaderboard"}),
    DB,
)
"""The options of ``revoke``, ``rotate``, ``approve`` and ``remove``: a member, by name."""

CONNECT_OPTIONS = (
    LEAGUE_URL,
    Option(
        ("spec",),
        {"help": "the bot spec that plays, e.g. cmd:./my_engine or py:my_bot.py:MyBot"},
    ),
    Option(("--token",), {"help": f"the account's token (or ${LEAGUE_TOKEN})"}),
    Option(("--token-file",), {"type": Path, "help": "a file holding the token"}),
    CAFILE,
    Option(("--seed",), {"type": whole_number, "help": "random seed for the bot"}),
    Option(
        ("--games",),
        {
            "type": positive_int,
            "help": "play this many games, then leave (the server starts no further game for it)",
        },
    ),
)
"""``connect``'s options, in the order of its help."""


def _given_rules(args: argparse.Namespace) -> dict[str, Any]:
    """The rules given on the command line, checked (:class:`InvalidSettingsError` for a
    value out of range, before anything is written)."""
    from ..league.rules import LeagueRules

    given = {
        key: value
        for key, value in (
            ("people", args.people),
            ("established_games", args.established_games),
            ("min_game", args.min_game),
            ("people_expire_days", args.people_expire_days),
            ("team_versions", args.team_versions),
            ("team_mib", args.team_mib),
        )
        if value is not None
    }
    LeagueRules(**given)
    return given


def _store_rules(args: argparse.Namespace, given: dict[str, Any]) -> None:
    """Store the rules given on the command line over the league's own."""
    from dataclasses import replace

    from ..league.league_file import LeagueStore

    if given:
        with LeagueStore(args.db, create=False) as store:
            store.meta.set_rules(replace(store.meta.rules(), **given))


def register(commands: Any) -> None:
    """Add the ``league`` subcommand (its actions ``create``, ``serve``, ``settings``, ``add-bot``,
    ``add-house``, ``revoke``, ``rotate``, ``approve``, ``remove``, ``standings``, and those
    of the event, backup, submit and roster modules) and ``connect`` to ``commands`` (the
    parser's subparsers), each action with its table of options and its handler."""
    league = commands.add_parser(
        "league",
        help="run a league: bots and people play rated games around the clock",
        description="A league server and its administration (docs/league.md).",
    )
    sub = league.add_subparsers(dest="league_command", metavar="ACTION", required=True)
    actions: tuple[Action, ...] = (
        ("create", "create a league (prints the admin token once)", CREATE_OPTIONS, run_create),
        ("serve", "serve a league (created on first use)", SERVE_OPTIONS, run_serve),
        (
            "settings",
            "play a league that has no game yet from the start, or from openings",
            SETTINGS_OPTIONS,
            run_settings,
        ),
        ("add-bot", "add a bot account; prints its token once", ADD_BOT_OPTIONS, run_add_bot),
        (
            "add-house",
            "add a house bot the server plays itself",
            ADD_HOUSE_OPTIONS,
            run_add_house,
        ),
        ("revoke", "revoke a member's token (games and ratings stay)", MEMBER_OPTIONS, run_revoke),
        (
            "rotate",
            "give a member a new token (prints it once; the old one stops working)",
            MEMBER_OPTIONS,
            run_rotate,
        ),
        (
            "approve",
            "approve a person: their games are rated from now on",
            MEMBER_OPTIONS,
            run_approve,
        ),
        (
            "remove",
            "remove a member: its token is dropped and its connection closed; its stored "
            "games stay in the history",
            MEMBER_OPTIONS,
            run_remove,
        ),
        ("standings", "print the standings", (DB,), run_standings),
    )
    add_actions(sub, actions)

    from . import backup_commands, corpus_commands, event_commands, roster_commands, submit_commands

    event_commands.register(sub)
    backup_commands.register(sub)
    corpus_commands.register(sub)
    submit_commands.register(sub)
    roster_commands.register(sub)

    connect = commands.add_parser(
        "connect",
        help="play for a league bot account: runs a bot spec against the league server",
        description="Connect to a league server and play its games with a local bot. "
        "SPEC is any bot spec; cmd:./my_engine runs your own program (engine protocol, "
        "docs/protocol.md), py:my_bot.py:MyBot a Bot class of your own Python file. "
        "Reconnects after network drops; Ctrl-C stops it.",
    )
    add_all(connect, CONNECT_OPTIONS)
    connect.set_defaults(handler=run_connect)


def _settings(args: argparse.Namespace) -> Any:
    from ..core import Position
    from ..league.settings import LeagueSettings, parse_clock

    base, increment = parse_clock(args.clock) if args.clock else (60.0, 1.0)

    def given(name: str) -> int:
        value = getattr(args, name)
        return SETTING_DEFAULTS[name] if value is None else int(value)

    rows, cols, rounds = given("rows"), given("cols"), given("rounds")
    return LeagueSettings(
        rows=rows,
        cols=cols,
        rounds=rounds,
        base=base,
        increment=increment,
        move_time=None if args.clock else args.move_time,  # --course's, then a --clock
        openings=(Position.start(rows, cols, rounds).fen(),) if _from_start(args) else (),
    )


def _from_start(args: argparse.Namespace) -> bool:
    """Whether a league made by these options plays every game from the start:
    ``--from-start``, or ``--course`` (the course's programs start from the start) unless
    ``--openings`` is given."""
    if getattr(args, "from_start", False):
        return True
    return bool(getattr(args, "course", False)) and not getattr(args, "openings", False)


def _say(text: str) -> None:
    print(text, flush=True)


def run_create(args: argparse.Namespace) -> int:
    """``adjacency league create``: create the league in ``--db`` with the given settings
    and print its admin token once (or use ``--admin-token-file``'s); returns 0. A file
    that holds a league already is refused with
    :class:`~adjacency.league.league_file.LeagueError` (status 2) and left as it was."""
    from ..league.http.server import open_league
    from ..league.league_file import LeagueError, LeagueStore

    given = _given_rules(args)
    with LeagueStore(args.db) as store:
        if store.meta.created:
            raise LeagueError(f"{str(args.db)!r} already holds a league")
    settings = _settings(args)
    open_league(args.db, settings, args.admin_token_file, _say)
    _store_rules(args, given)
    return 0


def run_settings(args: argparse.Namespace) -> int:
    """``adjacency league settings``: play a league that has played no game yet from the
    start (``--from-start``) or from openings (``--openings``: the book or generated ones
    of its board, as ``create`` gives), and print its new settings in one line; returns 0.
    A league with games, or a file without a league, is refused with
    :class:`~adjacency.league.league_file.LeagueError` (status 2) and left as it was. A
    running server reads the change when it starts again."""
    from ..core import Position
    from ..league.settings import default_openings

    with _store(args) as store:
        now = store.meta.settings()
        start = Position.start(now.rows, now.cols, now.rounds).fen()
        openings = (start,) if args.from_start else default_openings(now.rows, now.cols, now.rounds)
        settings = store.meta.set_openings(openings)
    games = "from the start" if settings.from_start else f"from {len(settings.openings)} openings"
    _say(
        f"The league in {args.db} now plays every game {games} (a running server takes "
        "it when it starts again)."
    )
    return 0


def _given_settings(args: argparse.Namespace) -> set[str]:
    """The league settings given on the command line, as the settings' field names (even
    one equal to its default: ``--rows 8`` on a 6x6 league is refused, not ignored)."""
    given = {k for k in SETTING_DEFAULTS if getattr(args, k) is not None}
    if args.clock is not None:
        given |= {"base", "increment", "move_time"}
    if args.move_time is not None:
        given.add("move_time")
    return given


def _explicit_settings(args: argparse.Namespace) -> bool:
    """Whether any league setting was given on the command line."""
    return bool(_given_settings(args))


def run_serve(args: argparse.Namespace) -> int:
    """``adjacency league serve``: serve the league in ``--db`` (created on first use)
    until Ctrl-C or SIGTERM (:func:`adjacency.league.http.server.serve`); returns 0. Settings
    that differ from the league's own, a port out of range, ``--certfile`` without
    ``--keyfile`` (or the reverse), ``--ray-address`` without ``--executor ray``, a
    floor of :data:`~adjacency.league.play.hosted.SHARE_FLOOR_ENV` that is not a share,
    or an address or port that cannot be used print one
    error line: status 2. The address and port are taken before the league is opened,
    so a port in use creates no league file and prints no admin token."""
    from ..league.http.limits import LeagueLimits
    from ..league.http.server import open_league, serve
    from ..serving.binding import bind

    if not 0 <= args.port <= 65535:
        print(
            f"adjacency league: error: --port must be 0 to 65535, got {args.port}", file=sys.stderr
        )
        return 2
    if (args.certfile is None) != (args.keyfile is None):
        print("adjacency league: error: --certfile and --keyfile go together", file=sys.stderr)
        return 2
    if args.ray_address is not None and args.executor != "ray":
        print("adjacency league: error: --ray-address needs --executor ray", file=sys.stderr)
        return 2
    from ..core.errors import AdjacencyError
    from ..league.play.hosted import share_floor

    try:
        share_floor()  # the environment's floor, refused before any league file is made
    except AdjacencyError as exc:
        print(f"adjacency league: error: {exc}", file=sys.stderr)
        return 2
    from ..league.league_file import LeagueStore

    given = _given_rules(args)
    settings = _settings(args) if _explicit_settings(args) else None
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        print(f"adjacency league: error: {exc}", file=sys.stderr)
        return 2
    try:
        with LeagueStore(args.db) as store:
            fresh = not store.meta.created
        open_league(args.db, settings or (_settings(args) if fresh else None),
                    args.admin_token_file, _say, _given_settings(args))  # fmt: skip
        _store_rules(args, given)
    except BaseException:
        sock.close()
        raise
    from ..serving.logs import configure_logging

    uvicorn_level = configure_logging(args.log_level)
    try:
        serve(
            args.db,
            args.host,
            args.port,
            None if args.certfile is None else str(args.certfile),
            None if args.keyfile is None else str(args.keyfile),
            args.executor,
            args.jobs,
            announce=_say,
            house_games=not args.no_house_games,
            pause=args.pause,
            pace=args.pace,
            limits=LeagueLimits(limit_loopback=not args.exempt_loopback),
            forwarded_allow_ips=args.forwarded_allow_ips,
            sock=sock,
            uvicorn_log_level=uvicorn_level,
            hosted_jobs=args.hosted_jobs,
            ray_address=args.ray_address,
            analysis_board=args.analysis_board,
        )
    except OSError as exc:
        print(f"adjacency league: error: {exc}", file=sys.stderr)
        return 2
    return 0


def _store(args: argparse.Namespace) -> LeagueStore:
    from ..league.league_file import LeagueStore

    store = LeagueStore(args.db, create=False)
    store.meta.settings()  # refuses a file without a league
    return store


def run_add_bot(args: argparse.Namespace) -> int:
    """``adjacency league add-bot NAME``: add a bot account and print its token once, on a
    line of its own (the last line); returns 0. A bad or taken name, or a file without a
    league, is :class:`~adjacency.league.league_file.LeagueError` (status 2)."""
    with _store(args) as store:
        member, token = store.members.add_member(args.name, "bot", concurrency=args.concurrency)
    assert token is not None  # every member but a house bot gets a token
    _say(f"Added bot {member.name}. Its token (shown once; hand it to the team):")
    _say(token)
    return 0


def run_add_house(args: argparse.Namespace) -> int:
    """``adjacency league add-house SPEC``: add a house bot that the server plays itself,
    named ``--name`` or after its spec; returns 0. A spec that is not a built-in bot
    (``cmd:`` included) is :class:`~adjacency.bots.BotError` (status 2)."""
    from ..league.play.house import check_house_spec

    spec = check_house_spec(args.spec)
    name = args.name or "".join(c if c.isalnum() or c in "-_." else "-" for c in spec)[:32]
    with _store(args) as store:
        member, _ = store.members.add_member(name, "house", spec=spec, concurrency=args.concurrency)
    _say(f"Added house bot {member.name} ({spec}).")
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    """``adjacency league revoke NAME``: the member's token stops working (a running
    server drops its connection); its games and ratings stay. Returns 0."""
    with _store(args) as store:
        member = store.members.revoke(args.name)
    _say(f"Revoked {member.name}'s token (a running server drops its connection within a second).")
    return 0


def run_remove(args: argparse.Namespace) -> int:
    """``adjacency league remove NAME``: the member's token stops working for good and a
    running server closes its connection within a second; its stored games stay in the
    history under its name, and the standings no longer list it (one that never played
    is deleted, and its name is free). No such member:
    :class:`~adjacency.league.league_file.LeagueError` (status 2). Returns 0."""
    with _store(args) as store:
        member, deleted = store.members.remove(args.name)
    if deleted:
        _say(f"Removed {member.name} (it had played no game; the name is free again).")
    else:
        _say(
            f"Removed {member.name}: its token no longer works and a running server drops "
            "its connection within a second; its games stay in the history."
        )
    return 0


def run_rotate(args: argparse.Namespace) -> int:
    """``adjacency league rotate NAME``: give the member a new token, printed once on the
    last line (the old one stops working); returns 0. House bots have no token:
    :class:`~adjacency.league.league_file.LeagueError` (status 2)."""
    with _store(args) as store:
        token = store.members.rotate(args.name)
    _say(f"New token for {args.name} (shown once; the old one no longer works):")
    _say(token)
    return 0


def elo_text(row: dict[str, Any]) -> str:
    """A standings row's Bradley-Terry Elo and interval, every number signed and whole:
    ``+654 [+198, +1110]``; who has no estimate says why."""
    if row["elo"] is None:
        return "needs a win and a loss" if row["games"] else ""
    ends = [row["elo_low"], row["elo_high"]]
    low, high = ("?" if v is None else f"{v:+.0f}" for v in ends)
    return f"{row['elo']:+.0f} [{low}, {high}]"


def run_approve(args: argparse.Namespace) -> int:
    """``adjacency league approve NAME``: the person's games are rated from their next
    game on (docs/league.md, "What is rated"); a bot or house bot, or no such member, is
    :class:`~adjacency.league.league_file.LeagueError` (status 2). Returns 0."""
    with _store(args) as store:
        member = store.members.approve(args.name)
    _say(f"Approved {member.name}: their games are rated from the next one on.")
    return 0


def run_standings(args: argparse.Namespace) -> int:
    """``adjacency league standings``: print one line per member, best Glicko-2 rating
    first, with its deviation, games and Bradley-Terry Elo interval
    (:func:`adjacency.league.standings.standings`); works while the server runs. Returns 0."""
    from ..league.standings import standings

    with _store(args) as store:
        rows = standings(store)
    _say(f"{'name':<24} {'kind':<6} {'rating':>7} {'rd':>6} {'games':>5}  Bradley-Terry Elo (95%)")
    for row in rows:
        elo = elo_text(row)
        mark = "?" if row["provisional"] else " "
        _say(
            f"{row['name']:<24} {row['kind']:<6} {row['rating']:>6.0f}{mark} {row['rd']:>6.0f} "
            f"{row['games']:>5}  {elo}"
        )
    return 0


def run_connect(args: argparse.Namespace) -> int:
    """``adjacency connect URL SPEC``: play the account's games with the bot ``SPEC``
    (:class:`adjacency.client.connect.LeagueClient`), reconnecting after drops, until
    ``--games`` games ended or Ctrl-C; returns 0. The token comes from ``--token-file``,
    ``--token`` or ``$ADJACENCY_LEAGUE_TOKEN``; none, one the server refuses, or an
    address that is no league is :class:`~adjacency.league.league_file.LeagueError` (status 2);
    a server that cannot be reached is :class:`~adjacency.client.connect.ConnectError`
    (status 3, after a bounded number of tries). Progress, and a failed bot's own words,
    go to stderr."""
    from ..client.connect import LeagueClient
    from .arguments import league_token

    token = league_token(args.token_file, args.token, "--token, --token-file")
    client = LeagueClient(
        args.url,
        token,
        args.spec,
        cafile=None if args.cafile is None else str(args.cafile),
        seed=args.seed,
        games=args.games,
        announce=lambda text: print(text, file=sys.stderr, flush=True),
    )
    return client.run()
