"""What an event shows and exports: its standings with names, its crosstable, its
rounds, and the files of ``adjacency league event export``.

Everything is computed from the stored games (:meth:`.events.event_boards.EventBoards.games`)
by :mod:`.events.event_standings`, so the table is always a recomputation, never a running
total.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

from ...core.game import Game
from ...core.record import game_from_text, game_to_text
from ...core.text import spreadsheet_text
from ...serving.details import public_record
from ..events.event_pairing import round_robin
from ..events.event_standings import BYE_POINTS, EventGame, bye_value, never_there, standings
from ..events.event_store import Event, EventsRepo, StoredBoard
from ..league_file import LeagueError, LeagueStore

ROW_FIELDS = (
    "rank", "name", "points", "games", "wins", "draws", "losses", "byes", "unplayed",
    "sonneborn_berger", "buchholz", "median_buchholz", "pentanomial", "pair_elo",
    "elo", "elo_low", "elo_high", "margin",
)  # fmt: skip
"""The columns of the final table (CSV and JSON)."""

CSV_FIELDS = (*ROW_FIELDS, "withdrawn", "stand_ins", "versions")
"""The columns of ``table.csv``: the table's, whether the member was withdrawn
(``yes``/``no``; the JSON rows carry ``withdrawn`` as a boolean), its stand-in moves
(moves its client said were not its bot's own, counted apart from its results), and the
versions of its submitted code that played its games (the team's numbers, space
separated; empty for a connected client, a house bot or a person)."""


def table(league: LeagueStore, event: Event) -> dict[str, Any]:
    """The event as data: ``event`` (name, format, rounds, status, rated), ``standings``
    (rows of :data:`ROW_FIELDS`, best first), ``crosstable`` (``names`` in standings order
    and ``cells[i][j]``: ``[points of i against j, games]`` or ``None``, ``absent[i][j]``:
    how many of those games a team's absence decided (the page marks them),
    ``unplayed[i][j]``: how many of them were never played, forfeits of a team withdrawn
    after pairing or absent (scored in the cell, marked :data:`UNPLAYED_MARK`), ``byes[i]``:
    the points of i's byes, so that a row's cells and its byes add up to its points),
    ``rounds`` (each a list of boards ``{"a", "b", "pair", "games": [x points, ...]}``,
    ``null`` for a game both teams lost by their absence or both forfeited, and
    ``"unplayed"``: a flag per game, true for a forfeit; ``b`` ``None`` for a bye),
    ``unplayed`` (each forfeit as :func:`unplayed`) and ``playing`` (the ids of its games
    in play). Each standings row carries ``versions``:
    the versions of the team's code its games were played by; the event's
    ``changed_versions`` names each team that played more than one (its code changed
    mid-event: a deadline fixes the version an event plays)."""
    events = league.events
    names = {m.id: m.name for m in league.members.members()}
    members = events.members(event.id)
    games = events.games(event.id)
    boards = events.boards(event.id)
    byes = [(b.a, b.round) for b in boards if b.b is None]
    away = never_there(games)  # their byes score nothing
    rows = standings(members, games, byes, event.swiss)
    played = _versions_played(league, event)
    order = [r.member for r in rows]
    cells: dict[tuple[int, int], list[float]] = {}
    absent: dict[tuple[int, int], int] = {}
    forfeited: dict[tuple[int, int], int] = {}
    for game in games:
        for me, other in ((game.a, game.b), (game.b, game.a)):
            cell = cells.setdefault((me, other), [0.0, 0])
            cell[0] += game.points(me)
            cell[1] += 1
            absent[(me, other)] = absent.get((me, other), 0) + game.absent
            forfeited[(me, other)] = forfeited.get((me, other), 0) + game.forfeit
    withdrawn = events.withdrawn(event.id)
    stand_ins = events.stand_ins(event.id)
    by_pair: dict[int, dict[int, tuple[float | None, bool]]] = {}
    cell_games: dict[tuple[int, int], list[int]] = {}
    for pair_id, leg, result, game_id, a, b in events.finished_legs(event.id):
        x_points = None if result == "none" else {"x": 1.0, "o": 0.0}.get(result or "", 0.5)
        by_pair.setdefault(pair_id, {})[leg] = (x_points, False)
        for ends in ((a, b), (b, a)):
            cell_games.setdefault(ends, []).append(game_id)
    pair_of = {(b.round, b.a, b.b): b.pair_id for b in boards if b.pair_id is not None}
    forfeits = [g for g in games if g.forfeit]
    for game in forfeits:
        legs = by_pair.setdefault(pair_of.get((game.round, game.a, game.b), -1), {})
        legs[game.leg] = (None if game.both_lost else game.x_points, True)
    rounds: list[list[dict[str, Any]]] = []
    for board in boards:
        while len(rounds) <= board.round:
            rounds.append([])
        rounds[board.round].append(
            {
                "a": names[board.a],
                "b": None if board.b is None else names[board.b],
                "pair": board.pair_id,
                "games": [v for _, (v, _) in sorted(by_pair.get(board.pair_id or -1, {}).items())],
                "unplayed": [
                    f for _, (_, f) in sorted(by_pair.get(board.pair_id or -1, {}).items())
                ],
            }
        )
    return {
        "event": {
            "name": event.name,
            "format": event.format,
            "rounds": event.rounds,
            "status": event.status,
            "rated": event.rated,
            "waiting": _waiting(events, event),
            "paused": event.paused,
            "time_control": event.time_control(league.meta.settings().time_control),
            "pace": event.pace,
            "people": event.people,
            "people_joined": events.people_in(event.id),
            "changed_versions": [
                {"name": names[m], "versions": v}
                for m, v in sorted(played.items(), key=lambda item: names[item[0]])
                if len(v) > 1
            ],
        },
        "standings": [
            {
                **{f: getattr(r, f) for f in ROW_FIELDS if f != "name"},
                "name": names[r.member],
                "withdrawn": r.member in withdrawn,
                "stand_ins": stand_ins.get(r.member, 0),
                "versions": played.get(r.member, []),
            }
            for r in rows
        ],
        "crosstable": {
            "names": [names[m] for m in order],
            "cells": [[cells.get((a, b)) for b in order] for a in order],
            "absent": [[absent.get((a, b), 0) for b in order] for a in order],
            "unplayed": [[forfeited.get((a, b), 0) for b in order] for a in order],
            "games": [[sorted(cell_games.get((a, b), [])) for b in order] for a in order],
            "byes": [sum(bye_value(b, away) for b, _ in byes if b == m) for m in order],
        },
        "next": _next_round(event, members, boards, withdrawn, names),
        "rounds": rounds,
        "unplayed": [unplayed(game, names, withdrawn) for game in forfeits],
        "playing": events.game_ids(event.id, "playing"),
    }


def unplayed(game: EventGame, names: dict[int, str], withdrawn: set[int]) -> dict[str, Any]:
    """A forfeit as the table's ``unplayed`` lists it: its round (from 1), leg, the sides
    it was paired with (``x``, ``o``), its result as a forfeit is written (``"1-0"``,
    ``"0-1"``, ``"0-0"`` when both withdrew or were absent), ``termination``
    ``"unplayed"`` and why."""
    result = "0-0" if game.both_lost else "1-0" if game.x_points == 1.0 else "0-1"
    if game.absent:
        gone = [names[m] for m in (game.x, game.o) if game.points(m) == 0.0]
        verb = "were" if len(gone) > 1 else "was"
        why = f"{' and '.join(gone)} {verb} absent when the game was to start"
    else:
        gone = [names[m] for m in (game.x, game.o) if m in withdrawn]
        why = f"{' and '.join(gone)} withdrew after the round was paired"
    return {
        "round": game.round + 1,
        "leg": game.leg,
        "x": names[game.x],
        "o": names[game.o],
        "result": result,
        "termination": "unplayed",
        "detail": f"forfeit: {why}",
    }


def _versions_played(league: LeagueStore, event: Event) -> dict[int, list[int]]:
    """Each member's versions (the team's numbers, ascending) that played the event's
    finished games; members that played none are absent."""
    ids = [game_id for game_id, _ in league.events.game_rounds(event.id)]
    found: dict[int, set[int]] = {}
    for x_id, x_version, o_id, o_version in league.submissions.game_versions(ids).values():
        for member, version in ((x_id, x_version), (o_id, o_version)):
            if version is not None:
                found.setdefault(member, set()).add(version)
    return {member: sorted(versions) for member, versions in found.items()}


def _waiting(events: EventsRepo, event: Event) -> str | None:
    """Why a scheduled event of every connected bot has not started: the server's note,
    or, before the server tried, what it waits for."""
    if event.status != "scheduled" or not event.all_connected:
        return None
    if event.start is None:
        return "for `adjacency league event start` or a start time"
    return events.waiting(event.id) or "for its start time and 2 members connected"


def _next_round(
    event: Event,
    members: list[int],
    boards: list[StoredBoard],
    withdrawn: set[int],
    names: dict[int, str],
) -> list[dict[str, str | None]] | None:
    """A round robin's next round (``None`` for a Swiss, paired when its round ends, and
    after the last round)."""
    if event.swiss or event.status == "finished" or len(members) < 2:
        return None
    current = max((b.round for b in boards), default=-1)
    schedule = round_robin(members, 2 if event.format == "double-round-robin" else 1)
    if current + 1 >= len(schedule):
        return None
    return [
        {"a": names[b.a], "b": None if b.b is None else names[b.b]}
        for b in schedule[current + 1]
        if b.a not in withdrawn and b.b not in withdrawn
    ]


ABSENT_MARK = "abs"
"""The crosstable's mark of a cell with a game a team's absence decided (one team's bot
was not there when it was to start, or neither was, and both lost); such a game is also
a forfeit (:data:`UNPLAYED_MARK`)."""


UNPLAYED_MARK = "ff"
"""The crosstable's mark of a cell with a game never played: a forfeit of a team
withdrawn after the round was paired or absent when the game was to start (scored, but
no game was played)."""


def _marks(absent: int, forfeits: int) -> str:
    """A cell's marks: :data:`ABSENT_MARK`, :data:`UNPLAYED_MARK`, each after a space."""
    return (f" {ABSENT_MARK}" if absent else "") + (f" {UNPLAYED_MARK}" if forfeits else "")


def _cell(cell: list[float] | None, absent: int = 0, forfeits: int = 0) -> str:
    """A pair's cell in ``event show``'s text: the row's points / the games (ASCII),
    marked :data:`ABSENT_MARK` when an absence decided any of its games and
    :data:`UNPLAYED_MARK` when any was never played."""
    if cell is None:
        return ""
    return f"{cell[0]:g}/{int(cell[1])}" + _marks(absent, forfeits)


def points_text(value: float) -> str:
    """Game points as the event page writes them, whole or half: "2", "1½", "½"."""
    whole = int(value)
    half = "½" if value - whole >= 0.5 else ""
    return f"{whole}{half}" if whole or not half else half


def pair_text(
    cell: list[float] | None, absent: int = 0, column: float | None = None, forfeits: int = 0
) -> str:
    """A pair's cell on the event page: the row's points and the column's from their
    games together, "1½–½" (never "1/2", which reads as a half point), marked
    :data:`ABSENT_MARK` when an absence decided any of its games, :data:`UNPLAYED_MARK`
    when any was never played. ``column``: the column's points when not the games less
    the row's (games both teams lost)."""
    if cell is None:
        return ""
    theirs = cell[1] - cell[0] if column is None else column
    return f"{points_text(cell[0])}–{points_text(theirs)}{_marks(absent, forfeits)}"


def _unplayed(cross: dict[str, Any], i: int, j: int) -> int:
    """How many of ``i``'s games against ``j`` were never played (0 in a table made
    before forfeits were marked)."""
    marks = cross.get("unplayed")
    return int(marks[i][j]) if marks else 0


def _column(cross: dict[str, Any], i: int, j: int) -> float | None:
    """Member ``i``'s points against ``j`` (the column's side of row ``j``'s cell)."""
    cell = cross["cells"][i][j]
    return None if cell is None else float(cell[0])


def _pace(ev: dict[str, Any]) -> str:
    """ ", pace 0.5 s" for an event with its own pace; "" for one on the server's."""
    return "" if ev.get("pace") is None else f", pace {ev['pace']:g} s"


def _people(ev: dict[str, Any]) -> str:
    """ ", open to people (3 joined)" for an event open to people; "" for one of bots."""
    return f", open to people ({ev.get('people_joined', 0)} joined)" if ev.get("people") else ""


def _status(ev: dict[str, Any]) -> str:
    """The event's status as ``event show`` and the page without JavaScript say it:
    ``paused`` for a paused running event, why a scheduled one waits."""
    status = "paused" if ev.get("paused") else str(ev["status"])
    return status + (f" (waiting: {ev['waiting']})" if ev.get("waiting") else "")


def render_text(data: dict[str, Any]) -> str:
    """``event show``'s terminal text: the standings, then the crosstable."""
    ev = data["event"]
    swiss = ev["format"] == "swiss"
    rounds = f"{ev['rounds']} rounds" if ev["rounds"] else "rounds fixed by how many play"
    status = _status(ev)
    lines = [
        f"{ev['name']}: {ev['format']}, {rounds}, {status}, clock {ev['time_control']}"
        f"{_pace(ev)}{_people(ev)}",
        "",
    ]
    if ev.get("changed_versions"):
        lines += [changed_text(ev["changed_versions"]), ""]
    tie = "Buch  MedB" if swiss else "  SB"
    lines.append(
        f"{'#':>3} {'name':<24} {'pts':>5} {'games':>5} {'W':>3} {'D':>3} {'L':>3} {'byes':>4} "
        f"{'unpl':>4} "
        f"{tie:>11}  Elo (95%)"
    )
    for row in data["standings"]:
        breaks = (
            f"{row['buchholz']:>5g} {row['median_buchholz']:>5g}"
            if swiss
            else f"{row['sonneborn_berger']:>11g}"
        )
        elo = (
            "" if row["elo"] is None else f"{row['elo']:+.0f} [{row['elo_low']}, {row['elo_high']}]"
        )
        mark = " (withdrawn)" if row["withdrawn"] else ""
        lines.append(
            f"{row['rank']:>3} {row['name'] + mark:<24} {row['points']:>5g} {row['games']:>5} "
            f"{row['wins']:>3} {row['draws']:>3} {row['losses']:>3} {row['byes']:>4} "
            f"{row['unplayed']:>4} {breaks:>11}  {elo}"
        )
    lines.append(TIEBREAKS[swiss])
    names = data["crosstable"]["names"]
    lines += [
        "",
        "Crosstable (points/games of the row against the column; byes: the points of the "
        f"row's byes, {BYE_POINTS:g} each, none for a team never there; {ABSENT_MARK}: a game a "
        "team's absence decided; "
        f"{UNPLAYED_MARK}: a game never played, a forfeit of a team withdrawn after pairing "
        "or absent; "
        "unpl: a row's forfeits, won or lost, not among its games):",
    ]
    cross = data["crosstable"]
    cells = [
        ["x" if i == j else _cell(c, cross["absent"][i][j], _unplayed(cross, i, j))
         for j, c in enumerate(row_cells)]
        for i, row_cells in enumerate(cross["cells"])
    ]  # fmt: skip
    # a space at least before each column: "2–0 abs ff" is wider than a name
    width = max([8, *(len(n) + 1 for n in names), *(len(c) + 1 for row in cells for c in row)])
    header = "".join(f"{i + 1:>{width}}" for i in range(len(names)))
    lines.append(" " * 24 + header + f"{'byes':>{width}}")
    for i, (name, row) in enumerate(zip(names, cells, strict=True)):
        text = "".join(f"{cell:>{width}}" for cell in row)
        lines.append(f"{i + 1:>2} {name:<21}{text}{cross['byes'][i]:>{width}g}")
    return "\n".join(lines)


TIEBREAKS = {
    True: "Ties are broken by Buchholz, then median Buchholz (FIDE's rules: a bye, a "
    "forfeit or a round not paired counts as a virtual opponent; an opponent's unplayed rounds as "
    "drawn pairs), then wins, then the seeding.",
    False: "Ties are broken by Sonneborn-Berger, then wins, then the seeding.",
}
"""The rules the standings use (a Swiss's, a round robin's), said under them
(:mod:`.events.event_standings`)."""


def changed_text(changed: list[dict[str, Any]]) -> str:
    """The warning of an event whose teams' code changed mid-event (``event show`` and
    the page without JavaScript; the page's script says the same from its catalogue)."""
    teams = "; ".join(
        f"{c['name']} played versions {', '.join(map(str, c['versions']))}" for c in changed
    )
    return (
        f"Code changed during the event: {teams}. An upload deadline fixes the version "
        "each team plays."
    )


def render_html(data: dict[str, Any]) -> str:
    """The event's summary, standings and crosstable as HTML (escaped) for the page read
    without JavaScript: the same columns as ``event show``, byes included, so that a
    row's cells and its byes add up to its points."""
    ev = data["event"]
    rounds = f"{ev['rounds']} rounds" if ev["rounds"] else "rounds fixed by how many play"
    status = _status(ev)
    swiss = ev["format"] == "swiss"
    breaks = ["Buchholz", "median B."] if swiss else ["S-B"]
    head = ["#", "name", "points", "games", "wins", "draws", "losses", "byes", "unplayed",
            *breaks]  # fmt: skip
    parts = [
        f'<p class="status-line">{escape(ev["format"])}, {rounds}, {escape(status)}, '
        f"clock {escape(ev['time_control'])}{_pace(ev)}</p>",
        *(
            [f'<p class="warning">{escape(changed_text(ev["changed_versions"]))}</p>']
            if ev.get("changed_versions")
            else []
        ),
        '<h2>Standings</h2><div class="scroll"><table class="league" id="standings-static">',
        "<thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead><tbody>",
    ]
    for row in data["standings"]:
        mark = " (withdrawn)" if row["withdrawn"] else ""
        tie = [row["buchholz"], row["median_buchholz"]] if swiss else [row["sonneborn_berger"]]
        cells = [row["rank"], row["name"] + mark, f"{row['points']:g}", row["games"],
                 row["wins"], row["draws"], row["losses"], row["byes"], row["unplayed"],
                 *(f"{t:g}" for t in tie)]  # fmt: skip
        parts.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in cells) + "</tr>")
    parts.append("</tbody></table></div>")
    parts.append(f'<p class="muted">{escape(TIEBREAKS[ev["format"] == "swiss"])}</p>')
    cross = data["crosstable"]
    names = cross["names"]
    parts += [
        "<h2>Crosstable</h2><p>Each cell: the row's points – the column's points in their "
        "games together (a win 1, a draw ½); byes: the points of the row's byes, "
        f"{BYE_POINTS:g} each, none for a team never there; {ABSENT_MARK}: a team's bot was "
        "not there when the game was "
        f"to start (both absent: both lost); {UNPLAYED_MARK}: a game never played, a "
        "forfeit of a team withdrawn after its round was paired or absent (a win for the "
        "team there).</p>",
        '<div class="scroll"><table class="league crosstable" id="crosstable-static">',
        "<thead><tr><th>#</th><th>name</th>"
        + "".join(f"<th>{i + 1}</th>" for i in range(len(names)))
        + "<th>byes</th></tr></thead><tbody>",
    ]
    for i, name in enumerate(names):
        cells = [
            "×"
            if i == j
            else pair_text(c, cross["absent"][i][j], _column(cross, j, i), _unplayed(cross, i, j))
            for j, c in enumerate(cross["cells"][i])
        ]
        parts.append(
            f"<tr><td>{i + 1}</td><td>{escape(name)}</td>"
            + "".join(f"<td>{escape(c)}</td>" for c in cells)
            + f"<td>{cross['byes'][i]:g}</td></tr>"
        )
    parts.append("</tbody></table></div>")
    return "\n".join(parts)


def table_csv(data: dict[str, Any]) -> str:
    """The final table as CSV (:data:`CSV_FIELDS`, the pentanomial as ``a b c d e``); text
    that a spreadsheet would run as a formula is written as text (:func:`spreadsheet_text`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for row in data["standings"]:
        cells = [
            " ".join(map(str, row[f])) if f == "pentanomial" else spreadsheet_text(row[f])
            for f in ROW_FIELDS
        ]
        versions = " ".join(map(str, row["versions"]))
        writer.writerow([*cells, "yes" if row["withdrawn"] else "no", row["stand_ins"], versions])
    return out.getvalue()


def crosstable_csv(data: dict[str, Any]) -> str:
    """The crosstable as CSV: a header of names, ``unplayed``, ``byes`` and ``versions``,
    then per member its points against each (empty where they have not met; a forfeit's
    points are in its cell), how many of its games were never played (forfeits, won or
    lost), the points of its byes, so that a row's cells and byes add up to the member's
    points, and the versions of its code that played (as in ``table.csv``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    cross = data["crosstable"]
    names = cross["names"]
    versions = {row["name"]: " ".join(map(str, row["versions"])) for row in data["standings"]}
    writer.writerow(["", *map(spreadsheet_text, names), "unplayed", "byes", "versions"])
    for i, (name, row_cells) in enumerate(zip(names, cross["cells"], strict=True)):
        cells = ("" if c is None else f"{c[0]:g}" for c in row_cells)
        forfeits = sum(_unplayed(cross, i, j) for j in range(len(names)))
        writer.writerow(
            [spreadsheet_text(name), *cells, forfeits, f"{cross['byes'][i]:g}",
             versions.get(name, "")]
        )  # fmt: skip
    return out.getvalue()


def exports(league: LeagueStore, event: Event, whole: bool = False) -> dict[str, str]:
    """The export's files by name: ``table.csv``, ``table.json`` (the table, and its
    ``games``: :func:`played`), ``crosstable.csv`` and ``games.txt`` (:func:`records`);
    each game's end as anyone may read it, or ``whole`` (the teacher's: the archive of
    the teacher's page and ``adjacency league event export``, byte for byte the same)
    with the failed program's own output."""
    data = table(league, event)
    games = list(_records(league, event, whole))
    return {
        "table.csv": table_csv(data),
        "table.json": json.dumps({**data, "games": played(games)}, indent=2) + "\n",
        "crosstable.csv": crosstable_csv(data),
        "games.txt": "\n".join(game_to_text(record) for _, record, _ in games),
    }


def _records(
    league: LeagueStore, event: Event, whole: bool
) -> Iterator[tuple[int, Game, tuple[int | None, int | None]]]:
    """Each finished game of the event, oldest first: its id, its record (tagged as
    :func:`records` says) and the versions of code that played its two sides."""
    rounds = league.events.game_rounds(event.id)
    versions = league.submissions.game_versions([game_id for game_id, _ in rounds])
    for game_id, round_no in rounds:
        game = league.games.game(game_id)
        if game is not None and game.record:
            record = game_from_text(game.record)
            if not whole:
                public_record(record)
            record.event = event.name
            record.tags["Round"] = str(round_no + 1)
            _, x_version, _, o_version = versions.get(game_id, (0, None, 0, None))
            for tag, version in (("XVersion", x_version), ("OVersion", o_version)):
                if version is not None:
                    record.tags[tag] = str(version)
            yield game_id, record, (x_version, o_version)


def played(games: list[tuple[int, Game, tuple[int | None, int | None]]]) -> list[dict[str, Any]]:
    """The games of :func:`_records` as ``table.json``'s ``games``: id, round, the two
    sides and the versions of their code (``null``: no submitted code), the result, how
    it ended and the end's detail (whole or public, as the records are)."""
    return [
        {
            "id": game_id,
            "round": int(record.tags["Round"]),
            "x": record.x_name,
            "o": record.o_name,
            "x_version": versions[0],
            "o_version": versions[1],
            "result": record.result_token,
            "termination": str(record.termination),
            "detail": record.termination_detail,
        }
        for game_id, record, versions in games
    ]


def records(league: LeagueStore, event: Event, whole: bool = False) -> str:
    """Every finished game of the event as one records file (the text format of
    docs/records.md, games separated by a blank line), oldest first, each tagged with the
    event's name (``[Event "NAME"]``), its round, counted from 1 (``[Round "N"]``), and
    the versions of the teams' code that played it (``[XVersion "N"]``,
    ``[OVersion "N"]``, for a side that played a submitted version): the league stores a
    game's record with the league's own event tag, which names no event. A failed
    program's own output (its stderr, its paths) is left out of each game's end
    (:func:`~adjacency.serving.details.public_record`) unless ``whole``: the event page's
    download is anyone's, the teacher's archive and export are whole."""
    return "\n".join(game_to_text(record) for _, record, _ in _records(league, event, whole))


ARCHIVE_FILES = ("table.csv", "table.json", "crosstable.csv", "games.txt")
"""The files of an event's archive (:func:`archive`), in its order."""
ARCHIVE_DATE = (1980, 1, 1, 0, 0, 0)
"""Every archive entry's date (zip's earliest): the archive's bytes depend on its files only."""


def archive(files: dict[str, str]) -> bytes:
    """A zip archive of ``files`` (name to text, UTF-8), in :data:`ARCHIVE_FILES`' order,
    its bytes a function of the texts alone (fixed dates and modes): the same event
    archived twice, by the teacher's page or by ``adjacency league event export --zip``,
    is the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name in ARCHIVE_FILES:
            entry = zipfile.ZipInfo(name, date_time=ARCHIVE_DATE)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            zipped.writestr(entry, files[name].encode("utf-8"))
    return out.getvalue()


def export(league: LeagueStore, event: Event, directory: Path) -> list[Path]:
    """Write ``table.csv``, ``table.json``, ``crosstable.csv``, ``games.txt`` (each
    game's whole detail: :func:`exports`), ``NAME.zip`` (those four as the teacher's page
    archives them, byte for byte the same: :func:`archive`) and ``games.db`` (the games
    as an arena results database that ``adjacency report`` reads, :mod:`.event_arena`)
    into ``directory`` (created if missing); return their paths. A ``games.db`` there
    already is :class:`~.league_file.LeagueError`, before anything is written."""
    from .event_arena import write_arena_db

    database = directory / "games.db"
    if database.exists():
        raise LeagueError(f"{str(database)!r} exists already: export into a new directory")
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    files = exports(league, event, whole=True)
    for name, text in files.items():
        path = directory / name
        path.write_bytes(text.encode("utf-8"))
        paths.append(path)
    zipped = directory / f"{event.name}.zip"
    zipped.write_bytes(archive(files))
    write_arena_db(league, event, database)
    return [*paths, zipped, database]
