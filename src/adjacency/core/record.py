"""Saving and loading game records: a PGN-like text format and JSON.

Text format (docs/records.md has the full description)::

    [Event "Casual game"]
    [Date "2026.11.21"]
    [X "Alice"]
    [O "greedy"]
    [Rows "8"]
    [Cols "8"]
    [Rounds "28"]
    [First "x"]
    [Result "1-0"]
    [Score "40-24"]
    [Termination "normal"]

    1. c3 {[%emt 2.114]} f6 {[%emt 0.003]} 2. d3 ... 1-0

Loading replays and validates every move.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .errors import AdjacencyError, InvalidRecordError
from .game import RESULT_TOKENS, Game, Move, Termination
from .position import Outcome, Position, check_color
from .text import parse_int, quote

FORMAT = "adjacency-game/1"
_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_TOKEN = re.compile(r"\{[^}]*\}|\S+")
_EMT = re.compile(r"\[%emt\s+([0-9]+(?:\.[0-9]+)?)\]")
_OUTCOMES: dict[str, Outcome | None] = {token: outcome for outcome, token in RESULT_TOKENS.items()}
_KNOWN_TAGS = (
    "Event", "Date", "X", "O", "Rows", "Cols", "Rounds", "First", "FEN",
    "Result", "Score", "Termination", "TerminationDetail",
)  # fmt: skip


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


# ---------------------------------------------------------------------- text


def game_to_text(game: Game) -> str:
    """The record of ``game`` in the text format, ending with a newline."""
    start = game.start
    x_count, o_count = game.position.score
    tags = [
        ("Event", game.event),
        ("Date", game.date),
        ("X", game.x_name),
        ("O", game.o_name),
        ("Rows", str(start.rows)),
        ("Cols", str(start.cols)),
        ("Rounds", str(game.rounds)),
        ("First", game.first),
    ]
    if not game.is_standard_start():
        tags.append(("FEN", start.fen()))
    tags += [
        ("Result", game.result_token),
        ("Score", f"{x_count}-{o_count}"),
        ("Termination", game.termination.value),
    ]
    if game.termination_detail:
        tags.append(("TerminationDetail", game.termination_detail))
    tags += sorted(game.tags.items())
    lines = [f'[{name} "{_quote(value)}"]' for name, value in tags]
    tokens: list[str] = []
    for ply, move in enumerate(game.moves):
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}.")
        tokens.append(move.square)
        if move.seconds is not None:
            tokens.append(f"{{[%emt {move.seconds:.3f}]}}")
    tokens.append(game.result_token)
    body, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > 79:
            body.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"


def game_from_text(text: str) -> Game:
    """Load exactly one game from the text format; raise :class:`InvalidRecordError`."""
    games = games_from_text(text)
    if len(games) != 1:
        raise InvalidRecordError(f"expected one game record, found {len(games)}")
    return games[0]


def games_from_text(text: str) -> list[Game]:
    """Load every game in a text that holds records one after another."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"a record must be text, got {type(text).__name__}")
    games: list[Game] = []
    tags: dict[str, str] = {}
    body: list[str] = []
    start_line = 0
    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("[") and not line.startswith("[%"):
            if body:
                games.append(_build(tags, " ".join(body), start_line))
                tags, body = {}, []
            match = _TAG.match(line)
            if not match:
                raise InvalidRecordError(
                    f'line {number}: malformed tag {quote(raw)}; expected [Name "value"]'
                )
            if not tags:
                start_line = number
            tags[match.group(1)] = _unquote(match.group(2))
        elif line:
            if not tags:
                raise InvalidRecordError(f"line {number}: move text {quote(raw)} before any tag")
            body.append(line)
    if tags:
        games.append(_build(tags, " ".join(body), start_line))
    return games


def _int_tag(tags: dict[str, str], name: str, where: str) -> int:
    value = tags.get(name)
    if value is None:
        raise InvalidRecordError(f"{where}: tag {name} (a whole number) is missing")
    return parse_int(value, f"{where}: tag {name}", InvalidRecordError)


def _start_position(tags: dict[str, str], where: str) -> Position:
    try:
        if "FEN" in tags:
            start = Position.from_fen(tags["FEN"])
            for name, value in (("Rows", start.rows), ("Cols", start.cols)):
                if name in tags and _int_tag(tags, name, where) != value:
                    raise InvalidRecordError(
                        f"{where}: tag {name} {quote(tags[name])} contradicts "
                        f"FEN {quote(tags['FEN'])}"
                    )
            return start
        return Position.start(
            _int_tag(tags, "Rows", where),
            _int_tag(tags, "Cols", where),
            _int_tag(tags, "Rounds", where),
            check_color(tags.get("First", "x"), "tag First"),
        )
    except InvalidRecordError:
        raise
    except AdjacencyError as exc:
        raise InvalidRecordError(f"{where}: bad settings: {exc}") from None


def _build(tags: dict[str, str], body: str, line: int) -> Game:
    where = f"record starting at line {line}"
    start = _start_position(tags, where)
    moves: list[Move] = []
    result_token = None
    expected_number = 1
    for token in _TOKEN.findall(body):
        if result_token is not None:
            raise InvalidRecordError(
                f"{where}: text {quote(token)} after the result {quote(result_token)}"
            )
        if token.startswith("{"):
            emt = _EMT.search(token)
            if emt and moves and moves[-1].seconds is None:
                seconds = float(emt.group(1))
                if not math.isfinite(seconds):
                    raise InvalidRecordError(f"{where}: move time {quote(token)} is too large")
                moves[-1] = Move(moves[-1].square, seconds)
        elif token in _OUTCOMES:
            result_token = token
        elif token.endswith("."):
            if token != f"{expected_number}." or len(moves) % 2:
                raise InvalidRecordError(
                    f"{where}: move number {quote(token)} out of place; expected "
                    f"'{expected_number}.' before ply {len(moves) + 1}"
                )
            expected_number += 1
        else:
            moves.append(Move(token))
    game = _new_game(tags, start, moves, where)
    claimed = tags.get("Result", result_token or "*")
    if result_token is not None and result_token != claimed:
        raise InvalidRecordError(
            f"{where}: Result tag {quote(claimed)} differs from the result "
            f"{quote(result_token)} in the moves"
        )
    _apply_result(game, claimed, tags.get("Termination"), tags.get("TerminationDetail", ""), where)
    return game


def _new_game(tags: dict[str, str], start: Position, moves: list[Move], where: str) -> Game:
    extra = {k: v for k, v in tags.items() if k not in _KNOWN_TAGS}
    game = Game(
        start,
        x_name=tags.get("X", "X"),
        o_name=tags.get("O", "O"),
        event=tags.get("Event", "Casual game"),
        date=tags.get("Date", "????.??.??"),
        tags=extra,
    )
    for number, move in enumerate(moves, 1):
        try:
            game.play(move.square, move.seconds)
        except AdjacencyError as exc:
            raise InvalidRecordError(
                f"{where}: move {number} ({quote(move.square)}): {exc}"
            ) from None
    return game


def _apply_result(game: Game, token: str, termination: str | None, detail: str, where: str) -> None:
    if token not in _OUTCOMES:
        raise InvalidRecordError(
            f"{where}: result {quote(token)} is not one of {', '.join(RESULT_TOKENS.values())}"
        )
    outcome = _OUTCOMES[token]
    try:
        kind = Termination(termination) if termination else None
    except ValueError:
        allowed = ", ".join(t.value for t in Termination)
        raise InvalidRecordError(
            f"{where}: termination {quote(termination)} is not one of {allowed}"
        ) from None
    if game.position.is_over:
        if kind == Termination.ABANDONED and outcome is None:  # ended, its result not kept
            game.abandon(detail)
            return
        if outcome != game.result:
            raise InvalidRecordError(
                f"{where}: result {quote(token)} contradicts the final score "
                f"{game.position.score[0]}-{game.position.score[1]}"
            )
        return
    if kind in (None, Termination.UNTERMINATED):
        if outcome is not None:
            raise InvalidRecordError(
                f"{where}: result {quote(token)} given but the game is not finished "
                f"and no forfeit termination is recorded"
            )
        return
    if kind == Termination.ABANDONED:
        game.abandon(detail)
        return
    if kind == Termination.NORMAL or outcome in (None, "draw"):
        raise InvalidRecordError(
            f"{where}: termination {kind.value!r} with result {quote(token)} does not fit "
            f"a game stopped after {len(game.moves)} plies"
        )
    game.forfeit("o" if outcome == "x" else "x", kind, detail)


# ---------------------------------------------------------------------- JSON


def game_to_dict(game: Game) -> dict[str, Any]:
    """A JSON-ready dictionary of the record."""
    return {
        "format": FORMAT,
        "event": game.event,
        "date": game.date,
        "x": game.x_name,
        "o": game.o_name,
        "rows": game.start.rows,
        "cols": game.start.cols,
        "rounds": game.rounds,
        "first": game.first,
        "start": game.start.fen(),
        "moves": [{"square": m.square, "seconds": m.seconds} for m in game.moves],
        "result": game.result,
        "score": list(game.position.score),
        "termination": game.termination.value,
        "termination_detail": game.termination_detail,
        "tags": dict(game.tags),
    }


def game_to_json(game: Game, indent: int | None = 2) -> str:
    """The record as JSON text (:func:`game_to_dict`), indented by ``indent`` (``None``: one
    line)."""
    return json.dumps(game_to_dict(game), indent=indent)


def game_from_dict(data: Any) -> Game:
    """Load a record from :func:`game_to_dict`'s shape; replays and validates every move."""
    where = "JSON record"
    if not isinstance(data, dict):
        raise InvalidRecordError(f"{where} must be an object, got {type(data).__name__}")
    if data.get("format", FORMAT) != FORMAT:
        raise InvalidRecordError(
            f"{where}: unknown format {quote(data.get('format'))}; expected {FORMAT!r}"
        )
    try:
        start = Position.from_fen(data["start"])
    except KeyError:
        raise InvalidRecordError(f"{where}: missing 'start' position text") from None
    except AdjacencyError as exc:
        raise InvalidRecordError(f"{where}: {exc}") from None
    raw_moves = data.get("moves", [])
    if not isinstance(raw_moves, list):
        raise InvalidRecordError(f"{where}: 'moves' must be a list")
    moves = []
    for number, item in enumerate(raw_moves, 1):
        if isinstance(item, str):
            item = {"square": item}
        seconds = item.get("seconds") if isinstance(item, dict) else None
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("square"), str)
            or not (seconds is None or _is_seconds(seconds))
        ):
            raise InvalidRecordError(
                f"{where}: move {number} is malformed: {quote(item)}; expected "
                '{"square": "c3", "seconds": <finite number from 0 or null>}'
            )
        moves.append(Move(item["square"], None if seconds is None else float(seconds)))
    tags = {
        "X": _text_field(data, "x", "X", where),
        "O": _text_field(data, "o", "O", where),
        "Event": _text_field(data, "event", "Casual game", where),
        "Date": _text_field(data, "date", "????.??.??", where),
    }
    extra = data.get("tags", {})
    if not isinstance(extra, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in extra.items()
    ):
        raise InvalidRecordError(f"{where}: 'tags' must be an object of strings to strings")
    tags.update({k: v for k, v in extra.items() if k not in _KNOWN_TAGS})
    game = _new_game(tags, start, moves, where)
    result = data.get("result")
    if not (result is None or isinstance(result, str)) or result not in RESULT_TOKENS:
        raise InvalidRecordError(
            f"{where}: result {quote(result)} is not one of 'x', 'o', 'draw', null"
        )
    termination = data.get("termination")
    if not (termination is None or isinstance(termination, str)):
        raise InvalidRecordError(f"{where}: termination {quote(termination)} must be a string")
    _apply_result(
        game,
        RESULT_TOKENS[result],
        termination,
        _text_field(data, "termination_detail", "", where),
        where,
    )
    return game


def _is_seconds(value: object) -> bool:
    """True for a finite number from 0 (JSON's NaN and Infinity extensions are not)."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def _text_field(data: dict[str, Any], key: str, default: str, where: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise InvalidRecordError(f"{where}: {key!r} must be a string, got {quote(value)}")
    return value


def game_from_json(text: str) -> Game:
    """Load a record from JSON text; raise :class:`InvalidRecordError`."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:  # ValueError: also a number of 5000 digits
        raise InvalidRecordError(f"JSON record is not valid JSON: {exc}") from None
    except RecursionError:
        raise InvalidRecordError("JSON record is nested too deeply") from None
    return game_from_dict(data)
