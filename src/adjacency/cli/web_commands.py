"""The ``play`` subcommand: start the browser game (imports the web stack only when run)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .arguments import whole_number


def register(commands: Any) -> None:
    """Add the ``play`` subcommand to ``commands`` (the parser's subparsers)."""
    play = commands.add_parser(
        "play",
        help="play in the browser (starts a local web server and opens the page)",
        description="Start the Adjacency web app on this computer, print its address and open "
        "it in the browser. Games are saved as they go and survive a restart. Ctrl-C stops it.",
    )
    play.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 lets "
        "other machines connect: it prints their addresses and a warning)",
    )
    play.add_argument(
        "--port",
        type=whole_number,
        help="port (default 8765, or a free one if that is taken; 0 picks a free one)",
    )
    play.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    play.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRS",
        help="behind a reverse proxy: the proxy's addresses (e.g. 127.0.0.1), whose "
        "X-Forwarded-For names each visitor, so each one's own address is limited",
    )
    play.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer a bot of yours on the page as local:NAME (repeatable), e.g. "
        "mine='cmd:java -cp build adjacency.kit.Main' (any spec: the page names it only)",
    )
    play.add_argument(
        "--db",
        type=Path,
        help="SQLite file for saved games (default ~/.local/share/adjacency/games.sqlite3)",
    )
    play.add_argument(
        "--league-db",
        type=Path,
        metavar="FILE",
        help="a league server's database whose finished games the opening explorer also "
        "counts (read only, a bounded step per request)",
    )
    play.set_defaults(handler=run_play)


def run_play(args: argparse.Namespace) -> int:
    """``adjacency play``: serve the web app until Ctrl-C (:func:`adjacency.web.server.serve`);
    returns 0. A port out of range, or an address or port that cannot be used, prints one error
    line and returns 2."""
    if args.port is not None and not 0 <= args.port <= 65535:
        print(f"adjacency play: error: --port must be 0 to 65535, got {args.port}", file=sys.stderr)
        return 2
    if args.league_db is not None and not args.league_db.is_file():
        print(f"adjacency play: error: --league-db {args.league_db}: no such file", file=sys.stderr)
        return 2
    from ..bots.gate import offer_local_bots

    local: dict[str, str] = {}
    for item in args.bot:
        name, sep, spec = item.partition("=")
        if not sep or not spec.strip() or name.strip() in local:
            why = "given twice" if name.strip() in local else "expected NAME=SPEC"
            print(f"adjacency play: error: --bot {item!r}: {why}", file=sys.stderr)
            return 2
        local[name.strip()] = spec.strip()
    offer_local_bots(local)  # a bad name or spec: BotError, status 2, before serving
    from ..web.server import serve

    try:
        serve(
            args.host,
            args.port,
            not args.no_browser,
            args.db,
            lambda s: print(s, flush=True),
            args.forwarded_allow_ips,
            league_db=args.league_db,
        )
    except OSError as exc:
        print(f"adjacency play: error: {exc}", file=sys.stderr)
        return 2
    return 0
