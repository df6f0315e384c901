"""The league file's aggregate tables kept equal to their games and ratings: ``results``
(per member and opponent: finished games, points, rated wins/draws/losses, moves and
clock time), ``failures`` (per member, the losses not decided on the board, by
termination) and ``current_ratings`` (each member's latest ``ratings`` row).

Triggers (:data:`TRIGGERS`) keep them in the same transaction as the rows they sum, so
they are never out of step, whatever writes the file: the server, the admin commands, a
removal. A database of an earlier version has them rebuilt from its games and ratings
(:data:`REBUILD`, under :data:`TOTALS_VERSION`) when it is upgraded
(:func:`keep_totals`, a step of :data:`.schema.STORE_SCHEMA`). Their tables' columns are
in :data:`.schema.SCHEMA`.
"""

from __future__ import annotations

import sqlite3

from ...storage import statements

TOTALS_VERSION = "1"
"""The version of the aggregate tables' rules (``meta`` key ``totals``): a database
without it, or with another, has them rebuilt from its games and ratings when opened."""


def _side(row: str, side: str) -> dict[str, str]:
    """SQL expressions of one player's share of the finished game ``row`` (``new``,
    ``old`` in a trigger, ``games`` in a query): ``side`` ``x`` or ``o``. Points are
    doubled (a win 2, a draw or no result 1, a loss 0), as :meth:`.records.StoredGame.points`
    counts them; moves as :func:`.standings.member_page` always counted a side's moves."""
    x_points = f"(CASE {row}.result WHEN 'x' THEN 2 WHEN 'o' THEN 0 ELSE 1 END)"
    points = x_points if side == "x" else f"(2 - {x_points})"
    rated = f"({row}.rated_seq IS NOT NULL)"
    return {
        "member": f"{row}.{side}_id",
        "opponent": f"{row}.{'o' if side == 'x' else 'x'}_id",
        "points2": points,
        "wins": f"({rated} AND {points} = 2)",
        "draws": f"({rated} AND {points} = 1)",
        "losses": f"({rated} AND {points} = 0)",
        "moves": f"(({row}.plies + 1) / 2)" if side == "x" else f"({row}.plies / 2)",
        "ms": f"CAST(ROUND({row}.{side}_time * 1000) AS INTEGER)",
        "failed": f"({points} = 0 AND {row}.termination IS NOT NULL "
        f"AND {row}.termination != 'normal')",
    }


_COUNTS = ("points2", "wins", "draws", "losses", "moves", "ms")


def _add(row: str, sign: str) -> str:
    """The statements of a trigger that adds (``sign`` ``+``) or takes away (``-``) the
    finished game ``row`` (``new`` or ``old``) to or from the aggregates."""
    statements = []
    for side in ("x", "o"):
        e = _side(row, side)
        values = ", ".join(f"{sign}{e[c]}" for c in _COUNTS)
        sets = ", ".join(f"{c} = {c} + excluded.{c}" for c in _COUNTS)
        statements.append(
            f"INSERT INTO results (member_id, opponent_id, games, {', '.join(_COUNTS)}) "
            f"VALUES ({e['member']}, {e['opponent']}, {sign}1, {values}) "
            f"ON CONFLICT (member_id, opponent_id) DO UPDATE SET games = games + excluded.games, "
            f"{sets};"
        )
        statements.append(
            f"INSERT INTO failures (member_id, termination, n) "
            f"SELECT {e['member']}, {row}.termination, {sign}1 WHERE {e['failed']} "
            f"ON CONFLICT (member_id, termination) DO UPDATE SET n = n + excluded.n;"
        )
    return "\n    ".join(statements)


def _totals_trigger(name: str, event: str, when: str) -> str:
    """The trigger ``totals_{name}`` on ``event`` (of ``games``) whose ``when`` condition
    names the game's ``new`` row (a game becoming finished: added) or its ``old`` one (a
    finished game going: taken away)."""
    row, sign = ("new", "+") if when.startswith("new.") else ("old", "-")
    return f"""
CREATE TRIGGER IF NOT EXISTS totals_{name} {event} ON games
WHEN {when} BEGIN
    {_add(row, sign)}
END;"""


_STATUS = "AFTER UPDATE OF status"
_GAME_TRIGGERS = "".join(
    _totals_trigger(name, event, when)
    for name, event, when in (
        ("finish", _STATUS, "new.status = 'finished' AND old.status != 'finished'"),
        ("insert", "AFTER INSERT", "new.status = 'finished'"),
        ("unfinish", _STATUS, "old.status = 'finished' AND new.status != 'finished'"),
        ("delete", "AFTER DELETE", "old.status = 'finished'"),
    )
)

TRIGGERS = f"""{_GAME_TRIGGERS}
CREATE TRIGGER IF NOT EXISTS current_rating AFTER INSERT ON ratings BEGIN
    INSERT INTO current_ratings (member_id, seq, rating, rd, volatility)
    VALUES (new.member_id, new.seq, new.rating, new.rd, new.volatility)
    ON CONFLICT (member_id) DO UPDATE SET seq = excluded.seq, rating = excluded.rating,
        rd = excluded.rd, volatility = excluded.volatility
    WHERE excluded.seq > current_ratings.seq;
END;
CREATE TRIGGER IF NOT EXISTS current_rating_delete AFTER DELETE ON ratings BEGIN
    DELETE FROM current_ratings WHERE member_id = old.member_id;
    INSERT INTO current_ratings (member_id, seq, rating, rd, volatility)
    SELECT member_id, seq, rating, rd, volatility FROM ratings
    WHERE member_id = old.member_id ORDER BY seq DESC LIMIT 1;
END;
"""
"""The triggers that keep ``results``, ``failures`` and ``current_ratings`` equal to a
recomputation (:data:`REBUILD`) in every transaction that changes a game or a rating."""


def _rebuild_results() -> str:
    sides = []
    for side in ("x", "o"):
        e = _side("games", side)
        columns = ", ".join(f"{e[c]} AS {c}" for c in ("member", "opponent", *_COUNTS))
        sides.append(f"SELECT {columns} FROM games WHERE status = 'finished'")
    sums = ", ".join(f"SUM({c})" for c in _COUNTS)
    return (
        f"SELECT member, opponent, COUNT(*), {sums} FROM ({' UNION ALL '.join(sides)}) "
        "GROUP BY member, opponent"
    )


def _rebuild_failures() -> str:
    sides = []
    for side in ("x", "o"):
        e = _side("games", side)
        sides.append(
            f"SELECT {e['member']} AS member, termination FROM games "
            f"WHERE status = 'finished' AND {e['failed']}"
        )
    return (
        f"SELECT member, termination, COUNT(*) FROM ({' UNION ALL '.join(sides)}) "
        "GROUP BY member, termination"
    )


REBUILD = {
    "results": _rebuild_results(),
    "failures": _rebuild_failures(),
    "current_ratings": (
        "SELECT r.member_id, r.seq, r.rating, r.rd, r.volatility FROM ratings r "
        "JOIN (SELECT member_id, MAX(seq) AS seq FROM ratings GROUP BY member_id) last "
        "ON r.seq = last.seq"
    ),
}
"""Each aggregate table's rows recomputed from the games and ratings (a query per table):
what a migration writes, and what the triggers must keep the tables equal to."""


def rebuild_totals(db: sqlite3.Connection) -> None:
    """Replace the aggregate tables' rows by a recomputation from the games and ratings
    (:data:`REBUILD`), in the caller's transaction ``db``."""
    for table, query in REBUILD.items():
        db.execute(f"DELETE FROM {table}")
        db.execute(f"INSERT INTO {table} {query}")


def keep_totals(db: sqlite3.Connection) -> None:
    """Install the aggregates' triggers (:data:`TRIGGERS`) and rebuild the aggregate tables
    from the games and ratings, unless ``meta`` says they are built under these rules
    (``totals`` row :data:`TOTALS_VERSION`, written here for the code before numbered
    versions); under other rules, their triggers are dropped first."""
    row = db.execute("SELECT value FROM meta WHERE key = 'totals'").fetchone()
    if row is not None and row[0] == TOTALS_VERSION:
        return
    if row is not None:
        names = db.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall()
        for (name,) in names:
            db.execute(f'DROP TRIGGER IF EXISTS "{name}"')
    for statement in statements(TRIGGERS):
        db.execute(statement)
    rebuild_totals(db)
    db.execute("INSERT OR REPLACE INTO meta VALUES ('totals', ?)", (TOTALS_VERSION,))
