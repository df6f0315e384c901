"""The engine protocol's messages: parsing and formatting lines (docs/protocol.md).

The protocol is modelled on UCI (chess) and UAI (Ataxx): one message per line
of UTF-8 text, tokens separated by any whitespace, CRLF tolerated. Like UCI, a
reader skips unknown leading tokens (``joho isready`` is ``isready``) and
ignores unknown tokens inside a known command, so both sides can grow.

This module only turns text into typed messages and back; it knows the game
core (positions, square names) but nothing about bots or processes.
Malformed arguments of a known command raise :class:`ProtocolError`, which
quotes the line and says what is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Position, check_color
from ..core.board import board
from ..core.errors import AdjacencyError
from ..core.text import is_ascii_number, parse_int, quote


class ProtocolError(AdjacencyError):
    """A line that breaks the protocol; the message quotes it and says what is accepted."""


# ------------------------------------------------------------------ controller -> engine


@dataclass(frozen=True)
class Aep:
    """``aep``: start the handshake."""


@dataclass(frozen=True)
class IsReady:
    """``isready``: answer ``readyok`` (also while searching)."""


@dataclass(frozen=True)
class NewGame:
    """``newgame``: the next position belongs to a new game."""


@dataclass(frozen=True)
class Stop:
    """``stop``: answer ``bestmove`` now."""


@dataclass(frozen=True)
class Quit:
    """``quit``: exit as soon as possible."""


@dataclass(frozen=True)
class SetOption:
    """``setoption name <id> value <v>`` (the id may contain spaces; the value may be empty)."""

    name: str
    value: str


@dataclass(frozen=True)
class SetPosition:
    """``position ...``: ``start`` is the base position, ``moves`` the squares played from it."""

    start: Position
    moves: tuple[str, ...] = ()

    @property
    def position(self) -> Position:
        """The position after the moves (they were checked when the line was parsed)."""
        current = self.start
        for move in self.moves:
            current = current.play(move)
        return current


@dataclass(frozen=True)
class Go:
    """``go``: search the current position. Times are milliseconds; ``None`` = not given."""

    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    xtime: int | None = None
    otime: int | None = None
    infinite: bool = False


Command = Aep | IsReady | NewGame | Stop | Quit | SetOption | SetPosition | Go

_SIMPLE: dict[str, Command] = {
    "aep": Aep(),
    "isready": IsReady(),
    "newgame": NewGame(),
    "stop": Stop(),
    "quit": Quit(),
}
COMMAND_WORDS = (*_SIMPLE, "setoption", "position", "go")
"""Every command word a controller may send."""

_GO_NUMBERS = ("movetime", "depth", "nodes", "xtime", "otime")


def parse_command(line: str) -> Command | None:
    """Parse one controller line. ``None`` for a blank line.

    Leading unknown tokens are skipped (as in UCI); a line with no known
    command word raises :class:`ProtocolError`, as does a known command with
    malformed arguments (an illegal move in ``position``, a non-number in ``go``).
    """
    tokens = line.split()
    if not tokens:
        return None
    start = next((i for i, token in enumerate(tokens) if token in COMMAND_WORDS), None)
    if start is None:
        raise ProtocolError(
            f"unknown command in {quote(line.strip())}; expected one of {', '.join(COMMAND_WORDS)}"
        )
    word, args = tokens[start], tokens[start + 1 :]
    if word in _SIMPLE:
        return _SIMPLE[word]
    if word == "setoption":
        return _parse_setoption(line, args)
    if word == "position":
        return _parse_position(line, args)
    return _parse_go(line, args)


def _parse_setoption(line: str, args: list[str]) -> SetOption:
    if not args or args[0] != "name" or len(args) < 2 or args[1] == "value":
        raise ProtocolError(f"{quote(line.strip())}: expected 'setoption name <id> [value <v>]'")
    if "value" in args:
        split = args.index("value")
        name, value = args[1:split], args[split + 1 :]
    else:
        name, value = args[1:], []
    return SetOption(" ".join(name), " ".join(value))


def _parse_position(line: str, args: list[str]) -> SetPosition:
    text = line.strip()
    if "moves" in args:
        split = args.index("moves")
        head, moves = args[:split], args[split + 1 :]
    else:
        head, moves = args, []
    if not head or head[0] not in ("startpos", "fen"):
        raise ProtocolError(
            f"{quote(text)}: expected 'position startpos [rows R cols C rounds N first x|o] "
            "[moves ...]' or 'position fen <board> <side> <plies-left> [moves ...]'"
        )
    try:
        if head[0] == "fen":
            if len(head) != 4:
                raise ProtocolError(
                    f"{quote(text)}: 'position fen' takes 3 fields <board> <side> <plies-left>, "
                    f"got {len(head) - 1}"
                )
            start = Position.from_fen(" ".join(head[1:]))
        else:
            start = _startpos(text, head[1:])
        current = start
        for move in moves:
            current = current.play(move)
    except ProtocolError:
        raise
    except AdjacencyError as exc:
        raise ProtocolError(f"{quote(text)}: {exc}") from None
    return SetPosition(start, tuple(current.board.name(current.board.square(m)) for m in moves))


def _startpos(text: str, args: list[str]) -> Position:
    settings: dict[str, str] = {}
    keys = ("rows", "cols", "rounds", "first")
    for index in range(0, len(args) - 1, 2):
        if args[index] in keys:
            settings[args[index]] = args[index + 1]
    numbers: dict[str, int] = {}
    for key in ("rows", "cols", "rounds"):
        if key in settings:
            numbers[key] = parse_int(settings[key], f"{quote(text)}: {key}", ProtocolError)
    rows, cols = numbers.get("rows", 8), numbers.get("cols", 8)
    rounds = numbers.get("rounds", board(rows, cols).max_rounds())
    return Position.start(rows, cols, rounds, check_color(settings.get("first", "x"), "first"))


def _parse_go(line: str, args: list[str]) -> Go:
    values: dict[str, int] = {}
    for index, token in enumerate(args):
        if token in _GO_NUMBERS:
            value = args[index + 1] if index + 1 < len(args) else ""
            values[token] = parse_int(
                value, f"{quote(line.strip())}: {token}", ProtocolError, signed=True, minimum=0
            )
    return Go(infinite="infinite" in args, **values)


def format_command(command: Command) -> str:
    """The line (without newline) that sends ``command``."""
    for word, simple in _SIMPLE.items():
        if command == simple:
            return word
    if isinstance(command, SetOption):
        return f"setoption name {command.name} value {command.value}".rstrip()
    if isinstance(command, SetPosition):
        text = "position fen " + command.start.fen()
        return text + (" moves " + " ".join(command.moves) if command.moves else "")
    assert isinstance(command, Go)
    parts = ["go"]
    for key in _GO_NUMBERS:
        value = getattr(command, key)
        if value is not None:
            parts += [key, str(value)]
    if command.infinite:
        parts.append("infinite")
    return " ".join(parts)


# ------------------------------------------------------------------ engine -> controller


@dataclass(frozen=True)
class Id:
    """``id name <text>`` or ``id author <text>``."""

    field: str
    value: str


@dataclass(frozen=True)
class OptionSpec:
    """``option name <id> type <t> default <v> [min <a> max <b>] [var <v>]...``."""

    name: str
    type: str
    default: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class AepOk:
    """``aepok``: the handshake is complete."""


@dataclass(frozen=True)
class ReadyOk:
    """``readyok``: the answer to ``isready``."""


@dataclass(frozen=True)
class Info:
    """``info ...``: search progress. ``score`` is hundredths of a piece, mover's view."""

    depth: int | None = None
    score: int | None = None
    nodes: int | None = None
    nps: int | None = None
    time: int | None = None
    pv: tuple[str, ...] = ()
    string: str = ""


STAND_IN = "stand-in"
"""The first word of an ``info string`` by which an engine says that the ``bestmove``
of this search is not its bot's own move (a fallback, an offer): ``info string
stand-in`` or ``info string stand-in: why``. The controller counts such moves apart
(docs/protocol.md)."""


def says_stand_in(text: str) -> bool:
    """Whether an ``info string`` text is the :data:`STAND_IN` mark."""
    word = text.strip().split(maxsplit=1)[0] if text.strip() else ""
    return word.rstrip(":") == STAND_IN


@dataclass(frozen=True)
class BestMove:
    """``bestmove <sq>``; ``move`` is the token as sent (``None`` if missing)."""

    move: str | None


EngineMessage = Id | OptionSpec | AepOk | ReadyOk | Info | BestMove

OPTION_TYPES = ("check", "spin", "combo", "string", "button")
_INFO_NUMBERS = ("depth", "score", "nodes", "nps", "time")
_OPTION_WORDS = ("name", "type", "default", "min", "max", "var")


def parse_engine_line(line: str) -> EngineMessage | None:
    """Parse one engine line; ``None`` for a blank line or an unknown message.

    Lenient by design (a controller must not lose a game over a garbled
    ``info``): malformed numbers in ``info`` are skipped. ``bestmove`` keeps
    its token unchecked; the caller judges it against the position.
    """
    tokens = line.split()
    while tokens and tokens[0] not in ("id", "option", "aepok", "readyok", "info", "bestmove"):
        tokens = tokens[1:]
    if not tokens:
        return None
    word, args = tokens[0], tokens[1:]
    if word == "aepok":
        return AepOk()
    if word == "readyok":
        return ReadyOk()
    if word == "bestmove":
        return BestMove(args[0] if args else None)
    if word == "id":
        if len(args) >= 1 and args[0] in ("name", "author"):
            return Id(args[0], " ".join(args[1:]))
        return None
    if word == "option":
        return _parse_option(args)
    return _parse_info(args)


def _parse_option(args: list[str]) -> OptionSpec | None:
    fields: dict[str, list[str]] = {}
    choices: list[list[str]] = []
    current: list[str] = []
    for token in args:
        if token == "var":
            current = []
            choices.append(current)
        elif token in _OPTION_WORDS and token not in fields:
            current = fields[token] = []
        else:
            current.append(token)
    name, kind = " ".join(fields.get("name", [])), " ".join(fields.get("type", []))
    if not name or kind not in OPTION_TYPES:
        return None
    bounds = [" ".join(fields.get(key, [])) for key in ("min", "max")]
    low, high = (int(b) if is_ascii_number(b, signed=True) else None for b in bounds)
    default = " ".join(fields.get("default", []))
    return OptionSpec(
        name,
        kind,
        "" if default == "<empty>" else default,
        low,
        high,
        tuple(" ".join(choice) for choice in choices),
    )


def _parse_info(args: list[str]) -> Info:
    values: dict[str, int] = {}
    pv: list[str] = []
    string = ""
    index = 0
    while index < len(args):
        token = args[index]
        if token == "string":
            string = " ".join(args[index + 1 :])
            break
        if token in _INFO_NUMBERS and index + 1 < len(args):
            value = args[index + 1]
            if is_ascii_number(value, signed=True):
                values[token] = int(value)
            index += 2
            continue
        if token == "pv":
            index += 1
            while index < len(args) and args[index] not in (*_INFO_NUMBERS, "string", "pv"):
                pv.append(args[index])
                index += 1
            continue
        index += 1
    return Info(pv=tuple(pv), string=string, **values)


def format_message(message: EngineMessage) -> str:
    """The line (without newline) that sends ``message``."""
    if isinstance(message, AepOk):
        return "aepok"
    if isinstance(message, ReadyOk):
        return "readyok"
    if isinstance(message, BestMove):
        return f"bestmove {message.move or '(none)'}"
    if isinstance(message, Id):
        return f"id {message.field} {message.value}"
    if isinstance(message, OptionSpec):
        parts = ["option name", message.name, "type", message.type]
        if message.type != "button":
            parts += ["default", message.default or "<empty>"]
        if message.minimum is not None and message.maximum is not None:
            parts += ["min", str(message.minimum), "max", str(message.maximum)]
        for choice in message.choices:
            parts += ["var", choice]
        return " ".join(parts)
    parts = ["info"]
    for key in _INFO_NUMBERS:
        value = getattr(message, key)
        if value is not None:
            parts += [key, str(value)]
    if message.pv:
        parts += ["pv", *message.pv]
    if message.string:
        parts += ["string", message.string]
    return " ".join(parts)
