"""The codes of how a game (or a league challenge) ended, and their parameters:
``X (Alice) resigned`` is :attr:`DetailCode.RESIGNED` with ``{"player": "X (Alice)"}``.

A game ends with a :class:`Detail`: the code and its params as the server decided them,
and the English text of the end as it was written then (a record's ``TerminationDetail``,
the command line). The core keeps the codes and their parameter names only; the
sentences are the catalogues' ``detail.<code>`` messages, rendered where pages are
served (:mod:`adjacency.serving.details`), so rewording a sentence changes no stored
code. A detail with no code (``code`` ``None``) is text no server wrote: an engine's or
a bot's own words, a record written before the codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .errors import InvalidRecordError
from .text import quote


class DetailCode(StrEnum):
    """Every end a server describes; the values are stable across releases (stored in
    databases and records, and the pages' catalogue keys ``detail.<code>``)."""

    # People and bots giving up, stopping, or running out of time.
    RESIGNED = "resigned"
    ABORTED = "aborted"
    OUT_OF_TIME = "out-of-time"
    CLOCK = "clock"
    CLOCK_CONNECTED = "clock-connected"
    CLOCK_NOT_CONNECTED = "clock-not-connected"
    CLOCK_PAGE_OPEN = "clock-page-open"
    CLOCK_PAGE_CLOSED = "clock-page-closed"
    LATE = "late"
    ABSENT = "absent"
    ABSENT_PAGE_CLOSED = "absent-page-closed"
    ABSENT_BOTH = "absent-both"
    EVENT_STARTED = "event-started"
    EVENT_NEEDS_SLOT = "event-needs-slot"
    # Illegal answers: the position's and the board's own refusals (core/position.py and
    # core/board.py), alone and answered by a named mover (``-by``).
    NOT_A_SQUARE = "not-a-square"
    OCCUPIED_BY = "occupied-by"
    MALFORMED_SQUARE_BY = "malformed-square-by"
    OFF_THE_BOARD_BY = "off-the-board-by"
    OFF_BOARD_BY = "off-board-by"
    OCCUPIED = "occupied"
    MALFORMED_SQUARE = "malformed-square"
    OFF_THE_BOARD = "off-the-board"
    OFF_BOARD = "off-board"
    # Crashes and the server's own stops.
    HOUSE_CRASHED = "house-crashed"
    COULD_NOT_START = "could-not-start"
    BOT_FAILED = "bot-failed"
    # The same three as a public page tells them: without the program's own output.
    HOUSE_CRASHED_PUBLIC = "house-crashed-public"
    COULD_NOT_START_PUBLIC = "could-not-start-public"
    BOT_FAILED_PUBLIC = "bot-failed-public"
    NOT_STORED = "not-stored"
    SERVER_STOPPED = "server-stopped"
    SERVER_STOPPED_DURING = "server-stopped-during"
    HOSTED_SERVER_FAILED = "hosted-server-failed"
    HOSTED_STARVED = "hosted-starved"
    # Stored by earlier leagues, which drew a leg starved twice; no longer given.
    HOSTED_STARVED_TWICE = "hosted-starved-twice"
    HOSTED_LATE = "hosted-late"
    HOSTED_CPU = "hosted-cpu"
    # League challenges (a person's page shows why one ended).
    DECLINED = "declined"
    CHALLENGER_LEFT = "challenger-left"
    PAGE_STOPPED = "page-stopped"
    PLAYING_OTHER = "playing-other"
    CHALLENGED_OTHER = "challenged-other"
    CHALLENGER_IN_EVENT = "challenger-in-event"
    NO_ANSWER = "no-answer"
    BOT_REVOKED = "bot-revoked"
    # A finished game the teacher voided afterwards (it counts nowhere).
    VOIDED = "voided"


_SQUARE = ("square", "last_file", "rows")
PARAMS: dict[DetailCode, tuple[str, ...]] = {
    DetailCode.RESIGNED: ("player",),
    DetailCode.ABORTED: ("player",),
    DetailCode.OUT_OF_TIME: ("player",),
    DetailCode.CLOCK: ("player",),
    DetailCode.CLOCK_CONNECTED: ("player",),
    DetailCode.CLOCK_NOT_CONNECTED: ("player",),
    DetailCode.CLOCK_PAGE_OPEN: ("player",),
    DetailCode.CLOCK_PAGE_CLOSED: ("player",),
    DetailCode.LATE: ("player",),
    DetailCode.ABSENT: ("player",),
    DetailCode.ABSENT_PAGE_CLOSED: ("player",),
    DetailCode.ABSENT_BOTH: ("x", "o"),
    DetailCode.EVENT_STARTED: (),
    DetailCode.EVENT_NEEDS_SLOT: (),
    DetailCode.NOT_A_SQUARE: ("player", "move"),
    DetailCode.OCCUPIED_BY: ("player", "move", "square", "owner", "fen"),
    DetailCode.MALFORMED_SQUARE_BY: ("player", "move", "fen", *_SQUARE),
    DetailCode.OFF_THE_BOARD_BY: ("player", "move", "fen", *_SQUARE, "size"),
    DetailCode.OFF_BOARD_BY: ("player", "move", "fen", "reason"),
    DetailCode.OCCUPIED: ("move", "square", "owner", "fen"),
    DetailCode.MALFORMED_SQUARE: ("move", "fen", *_SQUARE),
    DetailCode.OFF_THE_BOARD: ("move", "fen", *_SQUARE, "size"),
    DetailCode.OFF_BOARD: ("move", "fen", "reason"),
    DetailCode.HOUSE_CRASHED: ("player", "spec", "error"),
    DetailCode.COULD_NOT_START: ("player", "error"),
    DetailCode.BOT_FAILED: ("player", "error"),
    DetailCode.HOUSE_CRASHED_PUBLIC: ("player", "spec"),
    DetailCode.COULD_NOT_START_PUBLIC: ("player",),
    DetailCode.BOT_FAILED_PUBLIC: ("player",),
    DetailCode.NOT_STORED: (),
    DetailCode.SERVER_STOPPED: (),
    DetailCode.SERVER_STOPPED_DURING: (),
    DetailCode.HOSTED_SERVER_FAILED: ("player",),
    DetailCode.HOSTED_STARVED: ("player", "account"),
    DetailCode.HOSTED_STARVED_TWICE: ("player", "account"),
    DetailCode.HOSTED_LATE: ("player", "clock", "charged", "cpu", "wall"),
    DetailCode.HOSTED_CPU: ("player", "clock", "cpu", "wall"),
    DetailCode.DECLINED: ("player",),
    DetailCode.CHALLENGER_LEFT: ("player",),
    DetailCode.PAGE_STOPPED: (),
    DetailCode.PLAYING_OTHER: (),
    DetailCode.CHALLENGED_OTHER: (),
    DetailCode.CHALLENGER_IN_EVENT: (),
    DetailCode.NO_ANSWER: ("player", "seconds"),
    DetailCode.BOT_REVOKED: (),
    DetailCode.VOIDED: ("reason",),
}
"""Each code's parameter names: the fields its catalogue messages fill in."""

NAMED: dict[DetailCode, DetailCode] = {
    DetailCode.OCCUPIED: DetailCode.OCCUPIED_BY,
    DetailCode.MALFORMED_SQUARE: DetailCode.MALFORMED_SQUARE_BY,
    DetailCode.OFF_THE_BOARD: DetailCode.OFF_THE_BOARD_BY,
    DetailCode.OFF_BOARD: DetailCode.OFF_BOARD_BY,
}
"""A refusal's code, and its code when a named mover answered it (``player`` added)."""

PUBLIC: dict[DetailCode, DetailCode] = {
    DetailCode.HOUSE_CRASHED: DetailCode.HOUSE_CRASHED_PUBLIC,
    DetailCode.COULD_NOT_START: DetailCode.COULD_NOT_START_PUBLIC,
    DetailCode.BOT_FAILED: DetailCode.BOT_FAILED_PUBLIC,
}
"""A code whose ``error`` param is a program's own output (its stderr, its files'
paths), and the code a public page tells the same end with: its params less ``error``.
A team's error output is its own and its teacher's, never the class's."""


def coded(code: object, params: object, where: str = "detail") -> tuple[DetailCode, dict[str, str]]:
    """``code`` and ``params`` checked: a known code, and exactly its params, all text.
    Raises :class:`InvalidRecordError` saying what is wrong (a record's or a row's
    code is input)."""
    try:
        known = DetailCode(code)  # type: ignore[arg-type]
    except ValueError:
        raise InvalidRecordError(
            f"{where}: detail code {quote(code)} is not one of {', '.join(DetailCode)}"
        ) from None
    names = PARAMS[known]
    if (
        not isinstance(params, Mapping)
        or set(params) != set(names)
        or not all(isinstance(value, str) for value in params.values())
    ):
        raise InvalidRecordError(
            f"{where}: detail {known.value!r} takes the text params "
            f"{', '.join(names) or '(none)'}, got {quote(params)}"
        )
    return known, {name: params[name] for name in names}


@dataclass(frozen=True)
class Detail:
    """How a game ended, in words (``text``) and, for an end a server wrote, as a code
    with its params (``code`` ``None`` for anyone else's words)."""

    text: str = ""
    code: DetailCode | None = None
    params: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code is not None:
            coded(self.code, self.params)
        elif self.params:
            raise ValueError(f"params {dict(self.params)!r} without a detail code")

    def fields(self) -> dict[str, Any]:
        """The API's fields of the code: ``detail_code`` (``None``: no code) and
        ``detail_params``."""
        code = None if self.code is None else self.code.value
        return {"detail_code": code, "detail_params": dict(self.params)}
