"""``adjacency league submit``: send a team's project to its league, or list its versions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .arguments import league_token
from .league_options import CAFILE, LEAGUE_URL

LEFT_OUT_SHOWN = 12
"""How many left-out files are named one by one (the rest are counted)."""


def register(sub: Any) -> None:
    """``league submit`` under the ``league`` command's subparsers ``sub``."""
    from ..hosting.languages import PROGRAMS, in_words

    submit = sub.add_parser(
        "submit",
        help="send your team's project (a folder or a zip) to the league, which builds it",
        description="Take the sources of PATH (a project folder, or a zip such as "
        f"GitHub's Download ZIP): a Java course project, or a {in_words(PROGRAMS)} "
        "program, and send them to the league as your team's next version: the server "
        "builds, checks and plays it. Jars, native libraries, reports and "
        "pictures are left out (named here) and never read. With --list, print your "
        "team's versions and their build verdicts instead.",
    )
    LEAGUE_URL.add(submit)
    submit.add_argument("path", nargs="?", type=Path, help="the project folder or zip")
    submit.add_argument(
        "--token-file",
        type=Path,
        help="a file holding your team's token (else $ADJACENCY_LEAGUE_TOKEN)",
    )
    CAFILE.add(submit)
    submit.add_argument("--list", action="store_true", help="list your team's versions")
    submit.add_argument(
        "--program",
        action="store_true",
        help="play your JavaFX program as it is, through its own window (its FXML and "
        "images are sent too; docs/javafx-driver.md)",
    )
    submit.add_argument(
        "--choose",
        action="append",
        default=[],
        metavar="LABEL=OPTION",
        help="your choice in your program's input window, by a control's label or fx:id "
        "(repeat for several; implies --program), e.g. --choose 'Player O=Bot Minimax'; "
        "'who moves first=LABEL' names the control that says who moves first",
    )
    submit.set_defaults(handler=run_submit)


def _token(args: argparse.Namespace) -> str:
    return league_token(args.token_file, None, "--token-file FILE")


GAMES_LISTED = 3
"""How many of the newest versions have their games listed one by one by ``--list``."""


def _games(name: str, version: int, games: list[dict[str, Any]]) -> list[str]:
    """A version's games, one line each: the game, the colour, the opponent, the result
    and how it ended (a failure of the team's own program in the server's whole words,
    and where a picture of its board then is kept)."""
    lines = []
    for game in games:
        color = "x" if game["x"] == name else "o"
        opponent = game["o"] if color == "x" else game["x"]
        if game["status"] != "finished":
            result = game["status"]
        elif game["result"] == "draw":
            result = "draw"
        else:
            result = "won" if game["result"] == color else "lost"
        lines.append(f"         game {game['id']} as {color.upper()} vs {opponent}: {result}")
        if game["termination"] not in (None, "normal") and game["detail"]:
            lines.extend(f"           {line}" for line in game["detail"].splitlines()[:12])
        where = f"{version}/games/{game['id']}"
        if game.get("board"):
            lines.append(f"           {_picture(where)}")
        if game.get("output"):
            lines.append(f"           {_output(where)}")
    return lines


def _output(path: str) -> str:
    """Where a program's last output kept for its team is: ``path`` under the team's
    versions."""
    return (
        f"what it printed last: on the team page, or GET /api/league/submissions/{path}/output.txt"
    )


def _picture(path: str) -> str:
    """Where a picture of a program's board kept for its team is: ``path`` under the
    team's versions."""
    return (
        "its board then, as its window drew it: on the team page, "
        f"or GET /api/league/submissions/{path}/board.png"
    )


def _versions(answer: dict[str, Any], listed: dict[int, list[dict[str, Any]]]) -> str:
    lines = [f"versions of {answer['name']} (newest first):"]
    for item in answer["submissions"]:
        lines.append(
            f"  {item['version']:>3}  {item['status']:<9} {item['sha256'][:12]}  "
            f"{item['size']:>9,} bytes  {item['filename']}"
        )
        if item["detail"]:
            lines.extend(f"         {line}" for line in item["detail"].splitlines()[:20])
        if item.get("board"):
            lines.append(f"         {_picture(str(item['version']))}")
        if item.get("output"):
            lines.append(f"         {_output(str(item['version']))}")
        games, points = item.get("games", 0), item.get("points", 0.0)
        if games:
            counted = f"{games} game{'s' if games != 1 else ''}"
            lines.append(f"         played {counted}, {points:g} point{'s' if points != 1 else ''}")
        lines.extend(_games(answer["name"], item["version"], listed.get(item["version"], [])))
    return "\n".join(lines) if answer["submissions"] else f"{answer['name']} has no version yet"


def run_submit(args: argparse.Namespace) -> int:
    """Pack and send the project (:func:`adjacency.hosting.packing.pack`,
    :func:`adjacency.client.submit.send`), or list the versions; a refusal is bad input (status 2),
    an unreachable server a run-time failure (status 3)."""
    from ..client.submit import fetch_games, fetch_versions, send
    from ..client.wire import LeagueRefused
    from ..hosting.packing import pack, pack_program

    cafile = None if args.cafile is None else str(args.cafile)
    if args.list:
        token = _token(args)
        answer = fetch_versions(args.url, token, cafile)
        played = [v["version"] for v in answer["submissions"] if v.get("games")][:GAMES_LISTED]
        games = {v: fetch_games(args.url, token, v, cafile) for v in played}
        print(_versions(answer, games))
        return 0
    if args.path is None:
        raise LeagueRefused("give the project to submit: adjacency league submit URL PATH")
    token = _token(args)
    if args.program or args.choose:
        from ..hosting.fx_recipe import parse_choices

        packed = pack_program(args.path, parse_choices(args.choose))
    else:
        packed = pack(args.path)
    print(f"sending {len(packed.files)} files ({len(packed.data):,} bytes zipped)", file=sys.stderr)
    if packed.left_out:
        shown = ", ".join(packed.left_out[:LEFT_OUT_SHOWN])
        more = len(packed.left_out) - LEFT_OUT_SHOWN
        extra = f" and {more} more" if more > 0 else ""
        print(f"left out, not read: {shown}{extra}", file=sys.stderr)
    if packed.installed:
        print(
            f"{len(packed.installed)} of them are installed packages (node_modules, "
            "site-packages): the league installs no npm or pip package, so a program that "
            "needs one fails its check",
            file=sys.stderr,
        )
    answer = send(args.url, token, packed, args.path.name or "project", cafile)
    item = answer["submission"]
    state = "a new version" if answer["new"] else "the same sources as this version"
    print(f"{answer['name']}: version {item['version']} ({state}), {item['status']}")
    print(f"sha256 {item['sha256']}")
    if item["status"] in ("received", "building"):
        print("the league builds and checks it; see: adjacency league submit URL --list")
    return 0
