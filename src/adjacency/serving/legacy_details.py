"""Reading back the details stored before the codes: a game's end kept as English
text only (the web store's records and the league's ``games.detail`` before their
numbered steps added the codes). The stores' upgrade steps read each such text once
(:func:`explain`) and store its code and params; nothing reads a detail this way after.

:data:`SENTENCES` are the servers' sentences as they were written then, frozen: they
are the format of old stored data, not the pages' words (rewording a catalogue message
must not change how an old file is read). A text no sentence reads (an engine's own
words) stays without a code.

Contract: ``explain(SENTENCES[code].format(**params)) == Detail(text, code, params)``
for params that do not themselves contain a later sentence's fixed words (names are free
text; a name shaped like a sentence may read back as another split, never as an error).
"""

from __future__ import annotations

import re
from functools import cache

from ..core.details import Detail, DetailCode

SENTENCES: dict[str, str] = {
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
"""Every sentence the servers made about an end before the codes were stored, by code
(``{name}`` marks a param). Never change one: a file from before is read by them."""

MAX_EXPLAINED = 600
"""The longest text :func:`explain` reads (a detail quotes its inputs cut short, so a
real one is at most a few hundred characters; the cap also bounds the patterns'
backtracking on a text made to almost match, to milliseconds)."""

_FIELD = re.compile(r"\{(\w+)\}")


def explain(text: str) -> Detail:
    """``text`` with the code and params of the sentence that wrote it, or without a
    code (an empty text, a sentence of no template: an engine's or a bot's own words)."""
    if not text or len(text) > MAX_EXPLAINED:
        return Detail(text)
    for code, pattern in _patterns():
        found = pattern.fullmatch(text)
        if found is not None:
            return Detail(text, DetailCode(code), found.groupdict())
    return Detail(text)


@cache
def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Each sentence as a pattern, those with the most fixed text first (so ``{player}
    answered: illegal move ...`` is read as itself, not as a shorter sentence whose
    param swallowed the rest)."""

    def fixed(template: str) -> int:
        return len(_FIELD.sub("", template))

    patterns = []
    for code, template in sorted(SENTENCES.items(), key=lambda item: -fixed(item[1])):
        parts = _FIELD.split(template)  # fixed, name, fixed, name, ..., fixed
        regex = "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
        )
        patterns.append((code, re.compile(regex, re.DOTALL)))
    return patterns
