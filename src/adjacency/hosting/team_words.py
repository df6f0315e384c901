"""A hosted program's failure in its team's words: :func:`team_words`.

A failed move's detail comes from the protocol's client in an operator's words: the
command line that started the engine (for a sandboxed program, a shell line of the
server's with its folders), what happened, then the last lines of its standard error
verbatim (the platform's frames, the driver's notes, a follow-on exception). A team reads
it as a refusal or a loss, so it is told in this order, and nothing else:

1. what happened, in one line (the caller's words before it say at which move, with
   which choice): ``while choosing a move, the program exited with status 1``;
2. the team's own cause: the first exception whose frames are the team's, with its file
   and line, and those frames (:func:`~.java_traces.team_cause`); where no trace names
   the team's code, the last lines it wrote, as they were;
3. the board as its window showed it, where the driver drew it.

No command line, no folder of the server's, no follow-on exception after the cause, and
no word of the engine protocol (``aep``, ``readyok``, ``bestmove``, ``stop``): what the
client says in the protocol's terms is said in what the student sees
(:data:`STUDENT_WORDS`: the program did not finish opening, gave no move, your bot chose
e4, which is occupied). A finding of the driver's that names the team's bug (your bot
chose an occupied square, your window flips diagonal neighbours) comes first, after what
happened. A line of the driver's that the client cut for its length is cut back to its
last whole sentence.
"""

from __future__ import annotations

import re

from .java_traces import Thrown, team_cause

STDERR_HEAD = "; last lines of its stderr:\n"
"""Where the protocol client's failure text starts quoting standard error."""

SAID = "fxdriver: "
"""How the JavaFX driver's lines begin."""

BOARD_HEAD = "its board as its window shows it, top row first:"
"""The driver's line before the board's rows."""

LAST_BOARD_HEAD = "its board as its window last showed it, top row first:"
"""The driver's line before the board's rows as it last read them, where the window no
longer answers (a program ending its JVM from its JavaFX thread)."""

BOARD_ROWS = 8

LAST_LINES = 20
"""The lines quoted where no trace names the team's code: its last ones."""

OWN_FRAMES = 6
"""The team's frames shown under its cause, innermost first."""

_COMMAND = re.compile(r"engine (?:'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\") ")
"""The client's ``engine 'COMMAND' `` (a Python repr of the command line)."""

_NUMBER = r"(\d+(?:\.\d+)?)"

STUDENT_WORDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (
            r"the program answered 'bestmove ([a-z]+\d+)': illegal move '[^']*': \1 is "
            r"occupied by [xo] in '[^']*'; moves must go on an empty square",
            r"your bot chose \1, which is occupied",
        ),
        (
            r"the program answered 'bestmove (\S+)': illegal move '[^']*'(?: in '[^']*')?: ",
            r"your bot chose \1, which is not a move: ",
        ),
        (
            r"the program answered 'bestmove': no square given",
            "your bot gave no move: its answer named no square",
        ),
        (rf"sent no 'aepok' within {_NUMBER}s of 'aep'", r"did not finish opening within \1 s"),
        (r" during the handshake \(before 'aepok'\)", " while it was opening"),
        (
            rf"sent no 'readyok' within {_NUMBER}s of 'isready'",
            r"stopped answering: it was not ready for its move within \1 s",
        ),
        (
            r"sent no 'readyok' before its move's deadline",
            "was not ready for its move before the move's time ran out",
        ),
        (
            rf"sent no bestmove within its clock's {_NUMBER}s and {_NUMBER}s after 'stop'",
            r"gave no move in the \1 s the server waited for it, nor in the \2 s after",
        ),
        (
            rf"sent no bestmove within its {_NUMBER}s budget \+ {_NUMBER}s margin and "
            rf"{_NUMBER}s after 'stop'",
            r"gave no move in its \1 s for the move and \2 s of grace, nor in the \3 s "
            "after its time was up",
        ),
        (
            rf"sent no bestmove within {_NUMBER}s after 'stop'",
            r"gave no move within \1 s after it was asked to stop",
        ),
        (rf"sent no bestmove within {_NUMBER}s", r"gave no move within \1 s"),
        (r"sent no bestmove", "gave no move"),
        (
            rf"answered only after 'stop', {_NUMBER}s into a {_NUMBER}s budget",
            r"answered only after its time was up, \1 s into its \2 s for the move",
        ),
        (r"; its process group \d+ was killed|; it was killed", "; it was stopped"),
        (r" \(could not send '[^']*'\)", " (it no longer read what the server sent)"),
    )
)
"""The protocol client's words (:mod:`adjacency.protocol.client`, the external bot's)
and what a student reads instead, each applied in turn to what happened (its command
line already ``the program``)."""

MARKED = re.compile(r"^the program's bot marked ([a-z]+\d+), a square that was not empty$")
"""The driver's line where its program's bot put its mark on an occupied square."""

RULE_DIFFERENCE = "your window "
"""How the driver's account of a rule its window plays otherwise begins (``your window
flips diagonal neighbours: ...``); the driver then ends the program."""

EXITED = re.compile(r"the program exited with status \d+")

CUT = re.compile(r"^(?P<kept>.*)\.\.\. \((?P<length>\d+) characters\)$")
"""A line the protocol's client cut for its length (:func:`~adjacency.protocol.client.cut`)."""

SENTENCE_END = re.compile(r"[.;:!?,](?=\s)")
"""Where a sentence or a clause of it ends: a cut line is cut back to the last one."""


def team_words(detail: str) -> str:
    """``detail`` (a failed move's, from the protocol's client) told as the module
    docstring says; a detail that is not the client's is returned as it is, but for any
    command line in it."""
    head, quoted, tail = detail.partition(STDERR_HEAD)
    first, *more = head.split("\n")  # a driven program's illegal answer: the driver's lines
    head = student_words(_COMMAND.sub("the program ", first))
    lines = [*more, *(line.removeprefix("  ") for line in tail.split("\n") if quoted)]
    said = [whole_sentences(line.removeprefix(SAID)) if line.startswith(SAID) else line
            for line in lines]  # fmt: skip
    head = _with_finding(head, said)
    said = [line for line in said if MARKED.match(line) is None]
    if not quoted:
        return "\n".join([head, *said])
    board = _board(said)
    cause = team_cause(said)
    if cause is None:
        kept = [line for line in said if line not in board][-LAST_LINES:]
        return "\n".join([f"{head}; its last lines:", *(f"  {line}" for line in kept), *board])
    return "\n".join([head, *cause_lines(cause), *board])


def cause_lines(cause: Thrown) -> list[str]:
    """The team's ``cause`` told: its headline, what it means where it is a known mistake
    (:meth:`~.java_traces.Thrown.hint`), and its own frames (:data:`OWN_FRAMES` at most)."""
    told = [frame for frame in cause.own_frames if frame.where]  # a file and line alone: said
    hint = cause.hint()
    return [
        f"its cause: {cause.headline()}",
        *([f"  {hint}"] if hint else []),
        *(f"    {frame}" for frame in told[:OWN_FRAMES]),
    ]


def told_stderr(text: str) -> str:
    """A program's standard error ``text`` as a refusal quotes it: the team's cause
    where a trace names its code (:func:`cause_lines`); else its last
    :data:`LAST_LINES` lines. A program that prints on and on before it fails is told by
    its failure, not its prints."""
    lines = text.splitlines()
    cause = team_cause([line.removeprefix(SAID) for line in lines])
    if cause is not None:
        return "\n".join(cause_lines(cause))
    return "\n".join(["its last lines:", *(f"  {line}" for line in lines[-LAST_LINES:])])


def student_words(text: str) -> str:
    """``text`` (the client's account of what happened, its command line replaced by
    ``the program``) with :data:`STUDENT_WORDS` in place of the protocol's."""
    for pattern, words in STUDENT_WORDS:
        text = pattern.sub(words, text)
    return text


def whole_sentences(line: str) -> str:
    """``line`` (the driver's words, never a program's own line, which is quoted as it
    was), or where the protocol's client cut it for its length, what it kept up to the
    last end of a sentence or clause (``.``, ``;``, ``:``, ``,`` before a space) and a
    note of the rest; a cut line with no such end keeps its cut."""
    cut = CUT.match(line)
    if cut is None:
        return line
    kept = cut["kept"]
    ends = [m.start() for m in SENTENCE_END.finditer(kept)]
    if not ends:
        return line
    return f"{kept[: ends[-1]]} (and more: {cut['length']} characters in all)"


def _with_finding(head: str, said: list[str]) -> str:
    """``head`` with the driver's finding in ``said`` that names the team's bug: the
    occupied square its bot chose (unless ``head`` says it already), or the rule its
    window plays otherwise, which is what ended the program."""
    marked = [m for m in map(MARKED.match, said) if m is not None]
    if marked and "which is occupied" not in head:
        head = f"{head} after your bot chose {marked[-1][1]}, which is occupied"
    rule = next((line for line in said if line.startswith(RULE_DIFFERENCE)), None)
    if rule is not None and EXITED.search(head):
        head = EXITED.sub(rule.rstrip("."), head, count=1)
    return head


def _board(said: list[str]) -> list[str]:
    """The driver's heading and rows of the board, from the last heading on."""
    heads = [i for i, line in enumerate(said) if line in (BOARD_HEAD, LAST_BOARD_HEAD)]
    if not heads:
        return []
    return said[heads[-1] : heads[-1] + 1 + BOARD_ROWS]
