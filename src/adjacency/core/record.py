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

    1. c3 {[%emt 2.114]} (1. d3 e4) 1... f6 {[%emt 0.003]} 2. d3 ... 1-0

A move may be followed by variations in parentheses: other moves from the position
before it, each a line that may hold variations of its own (a tree of :class:`Node`,
:func:`record_from_text`, ``game_to_text(game, tree)``). Loading replays and validates
every move, the variations' too.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from .details import Detail, coded
from .errors import AdjacencyError, InvalidRecordError
from .game import RESULT_TOKENS, Game, Move, Termination
from .position import RULES_VERSION, Outcome, Position, check_color
from .text import parse_int, quote

FORMAT = "adjacency-game/1"
_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_TOKEN = re.compile(r"\{[^}]*\}|[()]|[^\s(){}]+|\S")
_EMT = re.compile(r"\[%emt\s+([0-9]+(?:\.[0-9]+)?)\]")
_OUTCOMES: dict[str, Outcome | None] = {token: outcome for outcome, token in RESULT_TOKENS.items()}
_KNOWN_TAGS = (
    "Event", "Date", "X", "O", "Rows", "Cols", "Rounds", "First", "FEN",
    "Result", "Score", "Termination", "TerminationDetail", "DetailCode", "DetailParams",
    "Rules",
)  # fmt: skip


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


# ------------------------------------------------------------------ variations


@dataclass
class Node:
    """A move in a tree of variations: its square, the mover's thinking time (if known)
    and the moves that may follow it, the first of them the line's own continuation and
    the others its variations. A tree is the list of a position's first moves, the
    first of them the main line's."""

    square: str
    seconds: float | None = None
    children: list[Node] = field(default_factory=list)


def main_line(tree: list[Node]) -> list[Node]:
    """The tree's main line: from its first move, each node's first child."""
    line: list[Node] = []
    nodes = tree
    while nodes:
        line.append(nodes[0])
        nodes = nodes[0].children
    return line


def tree_of(game: Game) -> list[Node]:
    """The tree of ``game`` without variations: its moves as one line."""
    tree: list[Node] = []
    nodes = tree
    for move in game.moves:
        node = Node(move.square, move.seconds)
        nodes.append(node)
        nodes = node.children
    return tree


def _line_tokens(nodes: list[Node], ply: int, tokens: list[str], game: Game | None) -> None:
    """The move text of the line from ``nodes`` (``nodes[0]`` at ``ply``, its siblings
    as variations), appended to ``tokens``; on the main line (``game`` given) the
    thinking times are the game's."""
    number = True  # a variation, and the line after one, restate the move number
    while nodes:
        first, others = nodes[0], nodes[1:]
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}.")
        elif number:
            tokens.append(f"{ply // 2 + 1}...")
        tokens.append(first.square)
        seconds = game.moves[ply].seconds if game is not None else first.seconds
        if seconds is not None:
            tokens.append(f"{{[%emt {seconds:.3f}]}}")
        for other in others:
            inner: list[str] = []
            _line_tokens([other], ply, inner, None)
            inner[0], inner[-1] = f"({inner[0]}", f"{inner[-1]})"
            tokens += inner
        number = bool(others)
        nodes = first.children
        ply += 1


# ---------------------------------------------------------------------- text


def game_to_text(game: Game, tree: list[Node] | None = None) -> str:
    """The record of ``game`` in the text format, ending with a newline; with ``tree``
    (its main line the game's moves), with the tree's variations. Raise
    :class:`InvalidRecordError` for a tree whose main line is not the game's."""
    squares = [node.square for node in main_line(tree)] if tree is not None else None
    if squares is not None and squares != [move.square for move in game.moves]:
        raise InvalidRecordError(
            f"the variations' main line {quote(' '.join(squares)[:200])} is not the game's moves"
        )
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
    if game.detail_code is not None:
        tags.append(("DetailCode", game.detail_code.value))
        tags.append(("DetailParams", json.dumps(game.detail_params, ensure_ascii=False)))
    tags += sorted(game.tags.items())
    lines = [f'[{name} "{_quote(value)}"]' for name, value in tags]
    tokens: list[str] = []
    _line_tokens(tree_of(game) if tree is None else tree, 0, tokens, game)
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
    return record_from_text(text)[0]


def record_from_text(text: str) -> tuple[Game, list[Node]]:
    """Load exactly one game and its tree of variations (its main line the game's
    moves) from the text format; raise :class:`InvalidRecordError`."""
    records = records_from_text(text)
    if len(records) != 1:
        raise InvalidRecordError(f"expected one game record, found {len(records)}")
    return records[0]


def games_from_text(text: str) -> list[Game]:
    """Load every game in a text that holds records one after another."""
    return [game for game, _ in records_from_text(text)]


def records_from_text(text: str) -> list[tuple[Game, list[Node]]]:
    """Load every game, each with its tree of variations, in a text that holds records
    one after another."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"a record must be text, got {type(text).__name__}")
    games: list[tuple[Game, list[Node]]] = []
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


class _Reader:
    """Reads a record's move text into a tree of variations, replaying every move."""

    def __init__(self, start: Position, where: str) -> None:
        self.where = where
        self.tree: list[Node] = []
        self.siblings = self.tree  # where the next move goes
        self.position = start
        self.ply = 0
        self.last: Node | None = None  # the last move read (its comment follows)
        self.before: tuple[list[Node], Position, int] | None = None  # where it went
        self.stack: list[tuple[list[Node], Position, int, Any, Node | None]] = []

    def fail(self, message: str) -> InvalidRecordError:
        inside = " (in a variation)" if self.stack else ""
        return InvalidRecordError(f"{self.where}: {message}{inside}")

    def number(self, token: str) -> None:
        ply = self.ply
        expected = f"{ply // 2 + 1}." + ("" if ply % 2 == 0 else "..")
        if token != expected:
            raise self.fail(
                f"move number {quote(token)} out of place; expected {expected!r} "
                f"before ply {ply + 1}"
            )

    def move(self, token: str) -> None:
        if any(node.square == token for node in self.siblings):
            raise self.fail(f"move {self.ply + 1} ({quote(token)}) is there twice")
        try:
            after = self.position.play(token)
        except AdjacencyError as exc:
            raise self.fail(f"move {self.ply + 1} ({quote(token)}): {exc}") from None
        node = Node(token)
        self.siblings.append(node)
        self.before = (self.siblings, self.position, self.ply)
        self.siblings, self.position, self.last = node.children, after, node
        self.ply += 1

    def comment(self, token: str) -> None:
        emt = _EMT.search(token)
        if emt and self.last is not None and self.last.seconds is None:
            seconds = float(emt.group(1))
            if not math.isfinite(seconds):
                raise self.fail(f"move time {quote(token)} is too large")
            self.last.seconds = seconds

    def open(self) -> None:
        if self.before is None:
            raise self.fail("a variation '(' with no move before it that it replaces")
        self.stack.append((self.siblings, self.position, self.ply, self.before, self.last))
        self.siblings, self.position, self.ply = self.before
        self.before = self.last = None

    def close(self) -> None:
        if not self.stack:
            raise self.fail("')' closes no variation")
        if self.before is None:
            raise self.fail("an empty variation '()'")
        self.siblings, self.position, self.ply, self.before, self.last = self.stack.pop()


def _build(tags: dict[str, str], body: str, line: int) -> tuple[Game, list[Node]]:
    where = f"record starting at line {line}"
    start = _start_position(tags, where)
    reader = _Reader(start, where)
    result_token = None
    for token in _TOKEN.findall(body):
        if result_token is not None:
            raise InvalidRecordError(
                f"{where}: text {quote(token)} after the result {quote(result_token)}"
            )
        if token.startswith("{"):
            reader.comment(token)
        elif token == "(":
            reader.open()
        elif token == ")":
            reader.close()
        elif token in _OUTCOMES:
            if reader.stack:
                raise reader.fail(f"the result {quote(token)} comes before ')'")
            result_token = token
        elif token.endswith("."):
            reader.number(token)
        else:
            reader.move(token)
    if reader.stack:
        raise InvalidRecordError(f"{where}: a variation is not closed: ')' is missing")
    moves = [Move(node.square, node.seconds) for node in main_line(reader.tree)]
    game = _new_game(tags, start, moves, where)
    claimed = tags.get("Result", result_token or "*")
    if result_token is not None and result_token != claimed:
        raise InvalidRecordError(
            f"{where}: Result tag {quote(claimed)} differs from the result "
            f"{quote(result_token)} in the moves"
        )
    _apply_result(game, claimed, tags.get("Termination"), _text_detail(tags, where), where)
    return game, reader.tree


def _text_detail(tags: dict[str, str], where: str) -> Detail:
    """The detail of a text record: ``TerminationDetail``, with ``DetailCode`` and
    ``DetailParams`` (a JSON object) when a server wrote it."""
    text = tags.get("TerminationDetail", "")
    if "DetailCode" not in tags:
        if "DetailParams" in tags:
            raise InvalidRecordError(f"{where}: tag DetailParams without a DetailCode tag")
        return Detail(text)
    try:
        params = json.loads(tags.get("DetailParams", "{}"))
    except (ValueError, RecursionError):
        raise InvalidRecordError(
            f"{where}: tag DetailParams {quote(tags['DetailParams'])} is not a JSON object"
        ) from None
    code, checked = coded(tags["DetailCode"], params, where)
    return Detail(text, code, checked)


def check_rules(value: object, where: str) -> None:
    """Refuse a record that names rules other than these (:data:`RULES_VERSION`): its
    moves were judged by other rules, so replaying them here would say something else.
    A record without the field (the text format's optional ``Rules`` tag, or a record
    from before it was kept) is read under these rules."""
    if value is not None and value != RULES_VERSION:
        raise InvalidRecordError(
            f"{where}: made under rules version {quote(value)}; this package plays rules "
            f"version {RULES_VERSION!r}"
        )


def _new_game(tags: dict[str, str], start: Position, moves: list[Move], where: str) -> Game:
    check_rules(tags.get("Rules"), where)
    extra = {k: v for k, v in tags.items() if k not in _KNOWN_TAGS}
    game = Game(
        start,
        x_name=tags.get("X", "X"),
        o_name=tags.get("O", "O"),
        event=tags.get("Event", "Casual game"),
        date=tags.get("Date", "????.??.??"),
        tags=extra,
    )
    game.replay(moves, where)
    return game


def _apply_result(
    game: Game, token: str, termination: str | None, detail: Detail, where: str
) -> None:
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
        "rules": RULES_VERSION,
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
        "detail_code": None if game.detail_code is None else game.detail_code.value,
        "detail_params": dict(game.detail_params),
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
    check_rules(data.get("rules"), where)
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
    _apply_result(game, RESULT_TOKENS[result], termination, _json_detail(data, where), where)
    return game


def _json_detail(data: dict[str, Any], where: str) -> Detail:
    """The detail of a JSON record: ``termination_detail``, with ``detail_code`` and
    ``detail_params`` when a server wrote it (a record from before the codes has none)."""
    text = _text_field(data, "termination_detail", "", where)
    code, params = data.get("detail_code"), data.get("detail_params", {})
    if code is None:
        if params:
            raise InvalidRecordError(f"{where}: 'detail_params' without a 'detail_code'")
        return Detail(text)
    known, checked = coded(code, params, where)
    return Detail(text, known, checked)


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
