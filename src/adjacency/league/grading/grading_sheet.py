"""The grading sheet: one row per team of an event or of the whole league, what a
teacher grades with, computed from the stored games each time (never a running total).

Per team:

- ``versions`` and ``accepted``: how many versions of its code it uploaded and how many
  were accepted; ``played``: the version numbers that played the scope's games, and
  ``most_played`` the one that played most of them (the newer on a tie);
- ``games``: the games that count: finished and played (a game one team's absence
  decided is a forfeit, not a game), and the games lost by both teams' absence;
  ``points`` (a win 1, a draw or a finished game with no result 1/2, a forfeit won 1;
  an event's as its table counts them: byes included), ``unplayed`` (an event's
  forfeits as its table counts them, won or lost: games an absence decided, and those
  of a team withdrawn after pairing; 0 for the league) and ``byes`` (an event's; 0 for
  the league);
- results by colour: ``x_wins`` ... ``o_losses``, of the games that count;
- failures by kind, the games it lost other than on the board: ``time`` (its clock ran
  out), ``crash`` (its program crashed or disconnected), ``illegal`` (an illegal
  move), ``absent`` (its forfeits by absence: its bot was not there when the game was
  to start), and
  ``abandoned``: the games it played that were stopped before their end (no result, a
  server stopped mid-game, a game aborted), which no side lost; a game the teacher
  voided counts nowhere (:mod:`.store.void_rows`);
- ``similarity`` and ``partner``: its highest file share with another project and
  that project (:func:`.class_similarity.closest`: the versions the scope plays,
  listed at the report's threshold or not); empty for a team without code or with no
  file pair sharing enough prints;
- ``note``: the teacher's note on the team (:mod:`.store.note_rows`), empty for none.

The league's sheet lists every team (a member of kind ``bot``, not removed) and every
house bot that played; people are not graded. An event's lists its members.
"""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from ...core.game import Termination
from ...core.text import spreadsheet_text
from ..events.event_rows import ABSENCES, BOTH_ABSENT
from ..events.event_standings import standings
from ..events.event_store import Event
from ..league_file import LeagueStore
from ..store.void_rows import VOIDED
from .class_similarity import class_report, closest

FIELDS = (
    "team", "versions", "accepted", "played", "most_played", "games", "points",
    "unplayed", "byes", "x_wins", "x_draws", "x_losses", "o_wins", "o_draws", "o_losses",
    "time", "crash", "illegal", "absent", "abandoned", "similarity", "partner", "note",
)  # fmt: skip
"""The sheet's columns, in order (the CSV's header)."""

FAILURES = {
    Termination.TIME_FORFEIT.value: "time",
    Termination.DISCONNECTION.value: "crash",
    Termination.ILLEGAL_MOVE.value: "illegal",
}
"""A lost game's termination and the failure kind it counts as (an absence is stored as
a time forfeit with an absence's detail, and counts as ``absent``)."""


@dataclass
class SheetRow:
    """One team's row (the module's columns)."""

    team: str
    versions: int = 0
    accepted: int = 0
    played: list[int] = field(default_factory=list)
    most_played: int | None = None
    games: int = 0
    points: float = 0.0
    unplayed: int = 0
    byes: int = 0
    x_wins: int = 0
    x_draws: int = 0
    x_losses: int = 0
    o_wins: int = 0
    o_draws: int = 0
    o_losses: int = 0
    time: int = 0
    crash: int = 0
    illegal: int = 0
    absent: int = 0
    abandoned: int = 0
    similarity: float | None = None
    partner: str | None = None
    note: str = ""


def _games(store: LeagueStore, event: Event | None) -> list[tuple[Any, ...]]:
    """The scope's games that ended (not in play): id, sides, status, result,
    termination, detail code and the versions (numbers) each side played."""
    scope = "JOIN event_boards b ON b.pair_id = g.pair_id AND b.event_id = ? " if event else ""
    return store.database.query(
        "SELECT g.x_id, g.o_id, g.status, g.result, g.termination, g.detail_code, "
        "sx.version, so.version FROM games g "
        f"{scope}"
        "LEFT JOIN submissions sx ON sx.id = g.x_version "
        "LEFT JOIN submissions so ON so.id = g.o_version "
        f"WHERE g.status != 'playing' AND COALESCE(g.detail_code, '') != '{VOIDED}' "
        "ORDER BY g.id",
        (event.id,) if event else (),
    )


def _points(result: str | None, both_absent: bool, side: str) -> float:
    """A side's points in a game that counts (1, 1/2, 0; 0 for both when both were absent)."""
    if both_absent:
        return 0.0
    if result in ("x", "o"):
        return 1.0 if result == side else 0.0
    return 0.5


def _members(store: LeagueStore, event: Event | None, played: set[int]) -> list[int]:
    """The scope's graded members, in order: an event's members in seeding order, else
    the league's teams and the house bots that played, in the order they joined."""
    if event is not None:
        return store.events.members(event.id)
    return [
        m.id
        for m in store.members.members()
        if (m.kind == "bot" and not m.removed) or (m.kind == "house" and m.id in played)
    ]


def _count(
    found: list[tuple[Any, ...]], names: dict[int, str]
) -> tuple[dict[int, SheetRow], dict[int, Counter[int]]]:
    """Each member's row counted from the scope's games, and the games each of its
    versions played (by version number)."""
    rows: dict[int, SheetRow] = {}
    used: dict[int, Counter[int]] = defaultdict(Counter)
    for x_id, o_id, status, result, termination, code, x_version, o_version in found:
        both_absent = code == BOTH_ABSENT
        forfeit = code in ABSENCES  # never played: scored, not a game
        for member, side, version in ((x_id, "x", x_version), (o_id, "o", o_version)):
            row = rows.setdefault(member, SheetRow(names[member]))
            if status != "finished" and not both_absent:
                row.abandoned += 1
                continue
            got = _points(result, both_absent, side)
            row.points += got
            if forfeit:
                row.absent += got == 0.0
                if not both_absent:  # scored, never played: an event's table's unplayed
                    continue
            row.games += 1  # played, or lost by both teams' absence
            outcome = {1.0: "wins", 0.5: "draws", 0.0: "losses"}[got]
            setattr(row, f"{side}_{outcome}", getattr(row, f"{side}_{outcome}") + 1)
            if version is not None and not forfeit:
                used[member][int(version)] += 1
            if got == 0.0 and termination in FAILURES and not forfeit:
                kind = FAILURES[termination]
                setattr(row, kind, getattr(row, kind) + 1)
    return rows, used


def sheet(store: LeagueStore, event: Event | None = None) -> list[SheetRow]:
    """The grading sheet of ``event`` (``None``: the whole league): see the module."""
    names = {m.id: m.name for m in store.members.members()}
    rows, used = _count(_games(store, event), names)
    members = _members(store, event, set(rows))
    out = [rows.get(m) or SheetRow(names[m]) for m in members]
    if event is not None:
        _event_points(store, event, dict(zip(members, out, strict=True)))
    for member, row in zip(members, out, strict=True):
        versions = store.submissions.versions(member)
        row.versions = len(versions)
        row.accepted = sum(1 for v in versions if v.status == "accepted")
        counts = used.get(member, Counter())
        row.played = sorted(counts)
        if counts:
            row.most_played = max(counts, key=lambda v: (counts[v], v))
    notes = store.notes.notes()
    for member, row in zip(members, out, strict=True):
        row.note = notes.get(member, "")
    best = closest(class_report(store, event).report)
    for row in out:
        if row.team in best:
            share, row.partner = best[row.team]
            row.similarity = round(share, 3)
    return out


def _event_points(store: LeagueStore, event: Event, rows: dict[int, SheetRow]) -> None:
    """Set each member's points, forfeits and byes as the event's table counts them
    (forfeits of withdrawals too, which no stored game holds)."""
    boards = store.events.boards(event.id)
    byes = [(b.a, b.round) for b in boards if b.b is None]
    games = store.events.games(event.id)
    for line in standings(list(rows), games, byes, event.swiss):
        row = rows[line.member]
        row.points, row.unplayed, row.byes = line.points, line.unplayed, line.byes


def as_json(rows: list[SheetRow]) -> list[dict[str, Any]]:
    """The rows as JSON objects of :data:`FIELDS`."""
    return [asdict(row) for row in rows]


def as_csv(rows: list[SheetRow]) -> str:
    """The sheet as CSV: a header of :data:`FIELDS`, one line per team; versions played
    space separated, empty cells for what a team has not, every cell made safe for a
    spreadsheet (:func:`~adjacency.core.text.spreadsheet_text`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIELDS)
    for row in rows:
        data = asdict(row)
        data["played"] = " ".join(str(v) for v in row.played)
        writer.writerow([spreadsheet_text("" if data[f] is None else str(data[f])) for f in FIELDS])
    return out.getvalue()
