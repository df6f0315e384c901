"""A version's report card: how well a team's accepted version plays, from the engine's
review of every move it made in its rated and event games.

The card holds, for one version (:func:`card`):

- its games, points and moves, and the **accuracy** of its moves (the mean of
  :func:`~adjacency.lab.review.move_accuracy`, 100 for the best move, about 37 for a
  square lost) in all and by phase: the **opening** (the first :data:`OPENING_PLIES`
  plies played in a game, counted from the league's opening position), the **end** (the
  moves made with at most :data:`END_PLIES` plies left, where the exact solver judges
  them when it reaches) and the **middle** (the rest); each phase names the move that
  lost most in it;
- its **inaccuracies, mistakes and blunders** (:func:`~adjacency.lab.review.classify`),
  each with the move played, the better move and the squares lost;
- for each game it **lost**, the move that lost it: the last of its moves that turned
  its value from a draw or better to a loss (the review's values, exact in the solver's
  reach), else its move that lost most; a game lost by time, a crash, an illegal move
  or absence is told by that end, no move;
- its **time** against its clock: the seconds its clock was charged over its hosted
  moves (the ``move_times`` table), beside what the clock allowed in those games (its
  base plus one increment a move, or the seconds per move times its moves), and its
  slowest move.

Only the moves the version made count: a game's other side (another team's code, or
another version) is reviewed but never credited to it. Every move named carries the
game, the ply and the position before it (``fen``), so a page links each figure to that
position on the analysis board.

The review is :func:`adjacency.lab.review.review` at a bounded depth
(:data:`CARD_DEPTH`) and solver budget (:data:`CARD_SOLVE_NODES`), so a card of some
twenty 8x8 games costs under a minute of one low-priority core; it runs apart
(:mod:`.card_worker`). This module is pure: it turns games and their reviews into a card.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ...core import Color
from ...core.record import game_from_text
from ...lab.review import Stopper, move_accuracy, review
from ..settings import parse_clock

if TYPE_CHECKING:  # pragma: no cover
    from ..league_file import LeagueStore

OPENING_PLIES = 12
"""A game's first plies played (after its opening position) that are its opening."""
END_PLIES = 12
"""Plies left at most before a move of the end (the last 12 plies of the game)."""
CARD_DEPTH = 6
"""The card's least review depth (the web app's review searches 7): a course-shaped card,
20 games of 8x8 at 28 rounds, took 25 s of CPU in all (45 s of wall time at a load of
10 on 2 cores); at depth 4, 10 s, with more of its marks a search's horizon."""
CARD_SOLVE_NODES = 10_000_000
"""The solver's node budget per position in a card's review (about 0.5 s on one core;
the web app's review gives it 40 million): it proves the last dozen plies of an 8x8
game, where each move decides most."""
PHASES = ("opening", "middle", "end")
MARKS = ("inaccuracy", "mistake", "blunder")
FAILED = ("time forfeit", "illegal move", "disconnection")
"""Terminations (:class:`~adjacency.core.game.Termination`) that lose a game by its
program's failure, not by a move."""
MAX_GAMES = 60
"""A card's games at most: the version's newest rated and event games (a card of a
version that played hundreds stays minutes of review)."""
CARD_FORMAT = 1
"""The card's making (:func:`card`, :func:`reviewed_moves`): raised whenever either
changes what a card holds, so that the cards kept in a league file
(:mod:`~adjacency.league.store.card_rows`) are made again, not served stale."""


@dataclass(frozen=True)
class CardGame:
    """One finished game a version played: its ``side``, the game's record text, the
    ``points`` the version scored (1, 1/2, 0), how it ended (``termination``), the
    opponent's name and the seconds its clock was charged for each of its hosted moves
    (``charged``: ply to seconds)."""

    id: int
    side: Color
    record: str
    points: float
    termination: str
    opponent: str
    charged: dict[int, float]


def games_of_version(store: LeagueStore, member_id: int, submission_id: int) -> list[CardGame]:
    """The finished rated and event games (a voided game is not finished) that member
    ``member_id`` played with its version ``submission_id``, oldest first, at most the
    :data:`MAX_GAMES` newest, each with its side's charged seconds."""
    rows = store.database.query(
        "SELECT g.id, g.x_id, g.record, g.result, g.termination, mx.name, mo.name"
        " FROM games g JOIN members mx ON mx.id = g.x_id JOIN members mo ON mo.id = g.o_id"
        " WHERE g.status = 'finished' AND g.record IS NOT NULL"
        " AND ((g.x_id = ? AND g.x_version = ?) OR (g.o_id = ? AND g.o_version = ?))"
        " AND (g.rated_seq IS NOT NULL OR g.pair_id IN"
        "  (SELECT pair_id FROM event_boards WHERE pair_id IS NOT NULL))"
        " ORDER BY g.id DESC LIMIT ?",
        (member_id, submission_id, member_id, submission_id, MAX_GAMES),
    )
    games = []
    for game_id, x_id, record, result, termination, x_name, o_name in reversed(rows):
        side: Color = "x" if int(x_id) == member_id else "o"
        won = result == side
        points = 0.5 if result in (None, "draw") else (1.0 if won else 0.0)
        charged = {
            int(ply): float(seconds)
            for ply, seconds in store.database.query(
                "SELECT ply, charged FROM move_times WHERE game_id = ? AND member_id = ?",
                (game_id, member_id),
            )
        }
        games.append(
            CardGame(
                id=int(game_id),
                side=side,
                record=str(record),
                points=points,
                termination=str(termination or ""),
                opponent=str(o_name if side == "x" else x_name),
                charged=charged,
            )
        )
    return games


def card_basis(version: int, games: list[CardGame]) -> str:
    """What the card of version ``version`` from ``games`` is made from, as one digest
    (SHA-256, hex): every field of every game (its id, side, record, points, end,
    opponent's name and charged seconds) and the making's settings
    (:data:`CARD_FORMAT`, :data:`CARD_DEPTH`, :data:`CARD_SOLVE_NODES`). Two asks with
    one basis get one card; a game played since, one voided, an opponent renamed or a
    new making each give another basis."""
    made_from = {
        "format": CARD_FORMAT,
        "depth": CARD_DEPTH,
        "nodes": CARD_SOLVE_NODES,
        "version": version,
        "games": [asdict(game) for game in games],
    }
    text = json.dumps(made_from, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def phase(ply: int, plies_left: int) -> str:
    """The phase of the move played ``ply`` plies into its game (0: the first) with
    ``plies_left`` plies left before it: the end wins over the opening in a short game."""
    if plies_left <= END_PLIES:
        return "end"
    return "opening" if ply < OPENING_PLIES else "middle"


def reviewed_moves(
    record: str, depth: int = CARD_DEPTH, solve_nodes: int = CARD_SOLVE_NODES
) -> list[dict[str, Any]]:
    """Every move of the game ``record`` as the review judged it, in the game's order:
    the review's ``move`` event (``ply`` from 1, ``mover``, ``value``, ``exact``,
    ``best``, ``loss``, ``mark``) with the move played (``move``), the position before
    it (``fen``) and its plies left (``plies_left``)."""
    game = game_from_text(record)
    moves = [move.square for move in game.moves]
    judged: list[dict[str, Any]] = []

    def emit(event: str, data: dict[str, Any]) -> None:
        if event == "move":
            judged.append(data)

    review(game.positions, moves, emit, Stopper(), depth=depth, solve_nodes=solve_nodes)
    judged.sort(key=lambda data: int(data["ply"]))
    for data in judged:
        before = game.positions[int(data["ply"]) - 1]
        data["move"] = moves[int(data["ply"]) - 1]
        data["fen"] = before.fen()
        data["plies_left"] = before.plies_left
    return judged


def _point(game: CardGame, data: dict[str, Any]) -> dict[str, Any]:
    """A move named on the card: its game, ply, the move, the better one, the squares
    lost, the mark and the position before it."""
    return {
        "game": game.id,
        "ply": int(data["ply"]),
        "move": data["move"],
        "best": data["best"],
        "loss": round(float(data["loss"]), 2),
        "mark": data["mark"],
        "exact": bool(data["exact"]),
        "fen": data["fen"],
    }


def _own_view(data: dict[str, Any]) -> float:
    """The value after a move from its mover's view (the review gives X's)."""
    value = float(data["value"])
    return value if data["mover"] == "x" else -value


def losing_move(game: CardGame, own: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The move that lost ``game`` of the version's reviewed moves ``own`` (see the
    module); ``None`` when the game was lost by a failure, or no move of its lost."""
    if game.termination in FAILED:
        return None
    turning = [
        data
        for data in own
        if float(data["loss"]) > 0 and _own_view(data) < 0 <= _own_view(data) + float(data["loss"])
    ]
    if turning:
        return turning[-1]
    lost = [data for data in own if float(data["loss"]) > 0]
    return max(lost, key=lambda data: float(data["loss"])) if lost else None


def allowed_seconds(time_control: str, moves: int) -> float | None:
    """What a clock of ``time_control`` (``"60+1"`` or ``"5 s/move"``) allows a side
    over ``moves`` moves; ``None`` for a control that does not read."""
    if time_control.endswith(" s/move"):
        try:
            return float(time_control.removesuffix(" s/move")) * moves
        except ValueError:
            return None
    try:
        base, increment = parse_clock(time_control)
    except ValueError:
        return None
    return base + increment * moves


def _accuracy(moves: list[dict[str, Any]]) -> float | None:
    if not moves:
        return None
    return round(sum(move_accuracy(float(data["loss"])) for data in moves) / len(moves), 1)


def card(
    version: int, games: list[CardGame], reviews: dict[int, list[dict[str, Any]]]
) -> dict[str, Any]:
    """The report card of ``version`` (its number) from its finished ``games`` and
    each game's :func:`reviewed_moves` (``reviews``, by game id; a game without its
    review is counted in the games and time but not in the moves)."""
    own_by_game: dict[int, list[dict[str, Any]]] = {}
    for game in games:
        own_by_game[game.id] = [
            data for data in reviews.get(game.id, []) if data["mover"] == game.side
        ]
    moves = [(game, data) for game in games for data in own_by_game[game.id]]
    phases: dict[str, Any] = {}
    for name in PHASES:
        within = [
            (game, data)
            for game, data in moves
            if phase(int(data["ply"]) - 1, int(data["plies_left"])) == name
        ]
        worst = max(within, key=lambda pair: float(pair[1]["loss"]), default=None)
        phases[name] = {
            "moves": len(within),
            "accuracy": _accuracy([data for _, data in within]),
            "worst": _point(*worst) if worst and float(worst[1]["loss"]) > 0 else None,
        }
    marks = [_point(game, data) for game, data in moves if data["mark"] in MARKS]
    losses = []
    for game in games:
        if game.points == 0.0:
            lost_by = losing_move(game, own_by_game[game.id])
            losses.append(
                {
                    "game": game.id,
                    "opponent": game.opponent,
                    "termination": game.termination,
                    "move": None if lost_by is None else _point(game, lost_by),
                }
            )
    return {
        "version": version,
        "games": len(games),
        "reviewed": sum(1 for game in games if game.id in reviews),
        "points": sum(game.points for game in games),
        "moves": len(moves),
        "accuracy": _accuracy([data for _, data in moves]),
        "phases": phases,
        **{f"{mark}_count": sum(1 for m in marks if m["mark"] == mark) for mark in MARKS},
        "marks": marks,
        "losses": losses,
        "time": time_use(games),
    }


def time_use(games: list[CardGame]) -> dict[str, Any]:
    """The version's time against its clock over ``games``: its hosted moves, the
    seconds charged, the seconds its clocks allowed over those moves in all (``None``
    when no game's control reads), their ratio (``share``) and its slowest move."""
    charged = 0.0
    allowed = 0.0
    readable = False
    count = 0
    slowest: dict[str, Any] | None = None
    for game in games:
        if not game.charged:
            continue
        parsed = game_from_text(game.record)
        limit = allowed_seconds(parsed.tags.get("TimeControl", ""), len(game.charged))
        if limit is not None:
            allowed += limit
            readable = True
        for ply, seconds in game.charged.items():
            count += 1
            charged += seconds
            if slowest is None or seconds > slowest["seconds"]:
                fen = parsed.positions[ply].fen() if ply < len(parsed.positions) else None
                slowest = {
                    "game": game.id,
                    "ply": ply + 1,
                    "seconds": round(seconds, 3),
                    "fen": fen,
                }
    return {
        "moves": count,
        "charged": round(charged, 2),
        "allowed": round(allowed, 2) if readable else None,
        "share": round(charged / allowed, 3) if readable and allowed > 0 else None,
        "mean": round(charged / count, 3) if count else None,
        "slowest": slowest,
    }


SUMMARY = (
    "version",
    "games",
    "points",
    "moves",
    "accuracy",
    "opening",
    "middle",
    "end",
    "inaccuracies",
    "mistakes",
    "blunders",
    "lost_games",
    "seconds",
    "clock_share",
)
"""The columns of a card's one-line summary (:func:`summary`): the CSV's, and the
comparison with the earlier versions on the pages."""


def summary(made: dict[str, Any]) -> dict[str, Any]:
    """A card's figures in one row (the columns :data:`SUMMARY`)."""
    return {
        "version": made["version"],
        "games": made["games"],
        "points": made["points"],
        "moves": made["moves"],
        "accuracy": made["accuracy"],
        **{name: made["phases"][name]["accuracy"] for name in PHASES},
        "inaccuracies": made["inaccuracy_count"],
        "mistakes": made["mistake_count"],
        "blunders": made["blunder_count"],
        "lost_games": len(made["losses"]),
        "seconds": made["time"]["charged"],
        "clock_share": made["time"]["share"],
    }
