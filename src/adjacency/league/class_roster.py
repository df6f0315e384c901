"""A class's roster: every team of a CSV list added as a bot account at once, and a
printable sheet of their tokens (:func:`read_roster`, :func:`plan_roster`,
:func:`token_sheet`).

A roster is the teacher's CSV of team names (its first column; a first row naming the
column, ``team``/``name``/``tim``/``nama``, is a header). Every name is checked before
any is added: its form and the league's reserved words (:mod:`.store.names`), two names of the
roster too alike to tell apart, and a name too like a member's of another kind or another
spelling; a team already in the league as a bot keeps its account and token (rotate it to
print a new one). The sheet is one HTML page, one card per new team, to print and cut:
the team's name, its token, the team page's address (``URL/team``, where the token is
pasted in a browser) and the commands that use it from a file (the token never on a
command line), with ``--cafile`` where the server's certificate needs it.
"""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass

from ..core.text import quote
from .store.names import NameIndex, check_name, check_not_reserved
from .store.records import LeagueError, Member

HEADERS = frozenset({"team", "teams", "name", "names", "tim", "nama", "nama tim"})
"""First cells that make a roster's first row a header (English and Indonesian)."""

MAX_TEAMS = 500
"""The most teams one roster may add (a class is a few dozen)."""


def read_roster(text: str) -> list[str]:
    """The team names of a roster's CSV ``text``, in order, blank rows skipped; each
    name's form checked (:class:`~.store.records.LeagueError` naming the row)."""
    rows = [row for row in csv.reader(io.StringIO(text)) if row and row[0].strip()]
    if rows and rows[0][0].strip().lower() in HEADERS:
        rows = rows[1:]
    if not rows:
        raise LeagueError("the roster names no team: one team name a row, in its first column")
    if len(rows) > MAX_TEAMS:
        raise LeagueError(f"the roster names {len(rows)} teams: at most {MAX_TEAMS}")
    names = []
    for number, row in enumerate(rows, 1):
        name = row[0].strip()
        try:
            check_name(name, LeagueError)
            check_not_reserved(name, LeagueError)
        except LeagueError as exc:
            raise LeagueError(f"roster row {number}: {exc}") from None
        names.append(name)
    return names


@dataclass(frozen=True)
class RosterPlan:
    """What a roster does to a league: the teams to add, and those already its bots."""

    new: list[str]
    present: list[str]


def plan_roster(names: list[str], members: list[Member]) -> RosterPlan:
    """Which of ``names`` are new and which are bots of the league already; a roster's
    two look-alike names, or a name like a member's that is not that bot, is a
    :class:`~.store.records.LeagueError` (nothing is added)."""
    seen = NameIndex()
    for name in names:
        alike = seen.alike(name)
        if alike is not None:
            raise LeagueError(f"the roster names {quote(alike)} and {quote(name)}: too alike")
        seen.add(name)
    existing = {member.name: member for member in members}
    index = NameIndex(existing)
    new, present = [], []
    for name in names:
        alike = index.alike(name)
        if alike is None:
            new.append(name)
        elif alike == name and existing[alike].kind == "bot":
            present.append(name)
        else:
            raise LeagueError(
                f"roster team {quote(name)} is too much like the league's {existing[alike].kind} "
                f"{quote(alike)}: rename it in the roster"
            )
    return RosterPlan(new, present)


def token_sheet(tokens: dict[str, str], url: str, cafile: str | None) -> str:
    """The printable page of ``tokens`` (team name -> token) for the league at ``url``."""
    tls = f" --cafile {cafile}" if cafile else ""
    cards = []
    for name, token in tokens.items():
        file = f"{name}.token"
        commands = "\n".join(
            [
                f"printf '%s' '{token}' > {file}",
                f"adjacency league submit {url} PROJECT --token-file {file}{tls}",
                f"adjacency connect {url} 'cmd:./my_engine' --token-file {file}{tls}",
            ]
        )
        cards.append(
            '<section class="card">'
            f"<h2>{html.escape(name)}</h2>"
            f'<p>Token (keep it secret): <code class="token">{html.escape(token)}</code></p>'
            f"<p>In a browser: <code>{html.escape(url.rstrip('/'))}/team</code>, the team's "
            "page (paste the token there to send the project and follow its versions)</p>"
            f"<pre>{html.escape(commands)}</pre>"
            "</section>"
        )
    style = (
        "body{font:14px sans-serif;margin:1cm}"
        ".card{border:1px dashed #555;padding:0.4cm;margin:0 0 0.5cm;break-inside:avoid}"
        "h2{margin:0 0 0.2cm}.token{font-size:15px;word-break:break-all}"
        "pre{white-space:pre-wrap;word-break:break-all;font-size:11px}"
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>League tokens</title><style>{style}</style></head><body>"
        f"<h1>League tokens: {html.escape(url)}</h1>" + "".join(cards) + "</body></html>\n"
    )
