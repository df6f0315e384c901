"""The servers' sentences about how a game (or a league challenge) ended, each with a
stable code: ``X (Alice) resigned`` is ``resigned`` with ``{"player": "X (Alice)"}``.

A game's detail is English text where it is kept (a record's ``TerminationDetail``,
the league's ``games.detail`` column, the command line), and stays so: records and
exports do not change with the reader's language. Pages in other languages need the
sentence's meaning instead, so every sentence a server makes is written from one
template of :data:`TEMPLATES` (:func:`detail_text`), and :func:`explain` reads a text
back into its code and params by the same template. The reading, not a stored code,
is what the APIs send (``detail_code``, ``detail_params``): a game stored before the
codes existed, a record imported from a file and a live game all explain alike, with
no second column to keep in step. A page shows the catalogue's ``detail.<code>``
filled with the params, and the English text for a detail no template matches (an
external engine's own words, ``None`` from :func:`explain`).

Contract: ``explain(detail_text(code, **params)) == (code, params)`` for every code and
for params that do not themselves contain a later template's fixed words (names are
free text; a name shaped like a sentence may read back as another split, never as an
error). Each template's params are the fields of its catalogue message.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

TEMPLATES: dict[str, str] = {
    # People and bots giving up, stopping, or running out of time.
    "resigned": "{player} resigned",
    "aborted": "{player} aborted the game before their first move",
    "out-of-time": "{player} ran out of time",
    "clock": "{player} did not move within its clock",
    "clock-connected": "{player} did not move within its clock (connected)",
    "clock-not-connected": "{player} did not move within its clock (not connected)",
    "clock-page-open": "{player} did not move within their clock (their play page was open)",
    "clock-page-closed": "{player} did not move within their clock (their play page was closed)",
    "late": "{player} moved after its time was up",
    # Illegal answers (the position's and the board's own refusals, core/position.py and
    # core/board.py, with and without the mover's name; off-board: any other reason).
    "not-a-square": "{player} answered: illegal move {move}: not a square name like 'c3'",
    "occupied-by": "{player} answered: illegal move {move}: {square} is occupied by {owner} "
    "in {fen}; moves must go on an empty square",
    "malformed-square-by": "{player} answered: illegal move {move} in {fen}: malformed square "
    "{square}: expected a file a-{last_file} followed by a rank 1-{rows}, like 'c3'",
    "off-the-board-by": "{player} answered: illegal move {move} in {fen}: square {square} is "
    "off the {size} board: files run a-{last_file} and ranks 1-{rows}",
    "off-board-by": "{player} answered: illegal move {move} in {fen}: {reason}",
    "occupied": "illegal move {move}: {square} is occupied by {owner} in {fen}; "
    "moves must go on an empty square",
    "malformed-square": "illegal move {move} in {fen}: malformed square {square}: expected a "
    "file a-{last_file} followed by a rank 1-{rows}, like 'c3'",
    "off-the-board": "illegal move {move} in {fen}: square {square} is off the {size} board: "
    "files run a-{last_file} and ranks 1-{rows}",
    "off-board": "illegal move {move} in {fen}: {reason}",
    # Crashes and the server's own stops.
    "house-crashed": "house bot {player} ({spec}) crashed: {error}",
    "could-not-start": "{player} could not start: {error}",
    "bot-failed": "{player} failed: {error}",
    "not-stored": "the server could not store the result (its database refuses writes)",
    "server-stopped": "the server stopped",
    "server-stopped-during": "the server stopped during the game",
    # League challenges (a person's page shows why one ended).
    "declined": "{player} declined",
    "challenger-left": "{player} left or is playing another game",
    "page-stopped": "your page stopped asking while you waited: challenge again",
    "playing-other": "you were playing another game when your turn came",
    "challenged-other": "you challenged someone else",
    "no-answer": "{player} did not answer in {seconds} s",
    "bot-revoked": "the bot was revoked",
}
"""Every sentence the servers make about an end, by code; ``{name}`` marks a param.
Codes are stable across releases (pages key their catalogue messages ``detail.<code>``)."""

MAX_EXPLAINED = 600
"""The longest text :func:`explain` reads (a detail quotes its inputs cut short, so a
real one is at most a few hundred characters; the cap also bounds the patterns' backtracking
on a text made to almost match, to milliseconds)."""

_FIELD = re.compile(r"\{(\w+)\}")


def detail_text(code: str, **params: object) -> str:
    """The English sentence of ``code`` with ``params`` filled in (``KeyError`` for an
    unknown code or a missing param: a server's own sentence always has a template)."""
    return TEMPLATES[code].format(**params)


def explain(text: str) -> tuple[str, dict[str, str]] | None:
    """The code and params of a detail made by :func:`detail_text`, or ``None`` (an
    empty text, a sentence of no template: an engine's or a bot's own words)."""
    if not text or len(text) > MAX_EXPLAINED:
        return None
    for code, pattern in _patterns():
        found = pattern.fullmatch(text)
        if found is not None:
            return code, found.groupdict()
    return None


@cache
def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Each template as a pattern, those with the most fixed text first (so ``{player}
    answered: illegal move ...`` is read as itself, not as a shorter template whose param
    swallowed the rest)."""

    def fixed(template: str) -> int:
        return len(_FIELD.sub("", template))

    patterns = []
    for code, template in sorted(TEMPLATES.items(), key=lambda item: -fixed(item[1])):
        parts = _FIELD.split(template)  # fixed, name, fixed, name, ..., fixed
        regex = "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
        )
        patterns.append((code, re.compile(regex, re.DOTALL)))
    return patterns


def detail_fields(text: str) -> dict[str, Any]:
    """The API's fields beside a detail ``text``: ``detail_code`` (``None`` when no
    template reads it) and ``detail_params`` (what the code's message fills in)."""
    found = explain(text)
    code, params = found if found is not None else (None, {})
    return {"detail_code": code, "detail_params": params}
