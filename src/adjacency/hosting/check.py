"""The check before a version plays: :func:`check_bot`.

A built bot is accepted only when it answers a legal move, in time, on each position of
a fixed set (:func:`check_positions`) on the league's board: the start with the first
side to move, the start after one move (the other side), a middle-game position and one
two plies from the end, so it plays both colours, a full board and an almost full one
(a short game has fewer distinct ones: 3 at 2 rounds on 8x8, 2 at 1 round).
The positions come from a fixed seed, the same for every team, so a refusal can name the
position (its text) and a team can try it at home (``adjacency move SPEC FEN``).

Nothing here stands in for the bot: a late, illegal or missing answer, or a crash, is the
refusal's reason, as it would be a loss in a game. "Late" is the games' clock
(:mod:`.move_clock`): the move's own wall time, its clock's seconds and a grace.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..bots import Bot, BotError, BotStarved, Limit
from ..bots.base import BotFailure
from ..core import Color, Position
from ..core.errors import AdjacencyRuntimeError
from ..core.game import Termination
from ..sandbox import Reason, SandboxedProcess
from .fx_run import bot_span
from .move_clock import GRACE, MoveTime, MoveWatch, StartWatch, blame, ceiling, started_words
from .team_words import team_words

SEED = 20_260_101
"""The fixed seed of the checked positions (the same for every team)."""


def check_positions(rows: int, cols: int, rounds: int, first: Color = "x") -> list[Position]:
    """The checked positions of a league's board (see the module docstring), in order."""
    start = Position.start(rows, cols, rounds, first=first)
    chooser = random.Random(SEED)
    line = [start]
    position = start
    while not position.is_over and position.plies_left > 0:
        position = position.play(chooser.choice(position.legal_moves()))
        line.append(position)
    playable = [p for p in line if not p.is_over]
    chosen = [playable[0]]
    if len(playable) > 1:
        chosen.append(playable[1])
    middle = playable[len(playable) // 2]
    late = playable[-2] if len(playable) >= 2 else playable[-1]
    for extra in (middle, late):
        if extra not in chosen:
            chosen.append(extra)
    return chosen


@dataclass(frozen=True)
class Verdict:
    """A check's outcome: ``accepted``, and ``detail``: the positions answered and the
    longest answer's seconds, or which position failed and how; ``picture``: a refusal's
    PNG picture of the program's board at the failed move, where it draws one."""

    accepted: bool
    detail: str
    picture: bytes | None = None
    output: str = ""
    """A refusal's last standard error of the program (:func:`last_output`): its prints
    and traces, for its team to read; empty where none was kept."""


RETRIES = 2
"""Times a position is asked again when the server starved the bot's move
(:func:`~.move_clock.blame`'s ``ABANDONED``) before the check gives up on it."""


class ServerBusy(AdjacencyRuntimeError):
    """A check that could not be judged: the machine did not give the program its core
    (its start, or one of its moves, starved past every retry). Never a refusal: the
    version waits and is checked again once the machine has a core for it."""


def check_bot(
    make: Callable[[], Bot], rows: int, cols: int, rounds: int, seconds: float, kind: str
) -> Verdict:
    """Check the bot ``make`` builds (one bot of ``kind``, closed at the end) on
    :func:`check_positions`, ``seconds`` a move on the games' clock: a sandboxed bot is
    judged by :func:`~.move_clock.blame` as in a game (a move the server starved is
    asked again, up to :data:`RETRIES` times, of a fresh start where the server ended
    the program: :class:`CheckedProgram`), its start's excess over its kind's allowance
    charged to its first answer as a game charges it. A bot that cannot start, or whose
    program ended after an answer, is refused with its reason (a game would lose it);
    :class:`ServerBusy` where the machine did not give it its core to start, or to
    answer a position, past every retry."""
    positions = check_positions(rows, cols, rounds)
    try:
        program = CheckedProgram(make, kind)
        try:
            return _answered(program, positions, seconds)
        finally:
            program.bot.close()
    except BotError as exc:  # at its start, or at a fresh start its retry needed
        return Verdict(False, f"the bot could not start: {team_words(str(exc))}")


def _answered(program: CheckedProgram, positions: list[Position], seconds: float) -> Verdict:
    """:func:`check_bot`'s verdict on ``program``'s answers to ``positions``, asked in
    order until one is refused (:class:`~adjacency.bots.BotError` where a fresh start
    fails, :class:`ServerBusy` where a move starved past every retry)."""
    slowest: MoveTime | None = None
    for number, position in enumerate(positions, 1):
        side = position.turn.upper()
        where = f"position {number} of {len(positions)} ({position.fen()}, {side} to move)"
        outcome = program.ask(position, seconds)
        if isinstance(outcome, str):
            refused = outcome
        elif isinstance(outcome, Starved):
            raise ServerBusy(f"{where}: {outcome.why} (asked {RETRIES + 1} times)")
        elif outcome[0] not in position.legal_moves():
            refused = f"the answer {outcome[0]!r} is not a legal move"
        else:
            slowest = longer(slowest, outcome[1])
            continue
        return Verdict(False, f"{where}: {refused}", output=last_output(program.bot))
    return Verdict(
        True, f"{len(positions)} positions answered legally; the longest took {times(slowest)}"
    )


class CheckedProgram:
    """The checked bot as it runs (``bot``, started by :func:`start_on_clock`) and what
    its next answer's clock is short (``extra``: a start's excess, charged to the first
    answer after it). :class:`~adjacency.bots.BotError` when it cannot start;
    :class:`ServerBusy` when its start starved past every retry."""

    def __init__(self, make: Callable[[], Bot], kind: str) -> None:
        self.make = make
        self.kind = kind
        self.bot, self.extra = start_on_clock(make, kind)

    def ask(self, position: Position, seconds: float) -> tuple[str, MoveTime] | str | Starved:
        """``position`` asked on the games' clock (:func:`ask_on_clock`), again while the
        server starved the answer, up to :data:`RETRIES` times: the last outcome. A
        starved move's program the server ended is started afresh before it is asked
        again (its start a start, as the first one was), so that the answer is watched,
        capped and charged on the process that makes it."""
        for attempt in range(RETRIES + 1):
            if attempt and not _running(self.bot):
                self.bot.close()
                self.bot, self.extra = start_on_clock(self.make, self.kind)
            self.bot.new_game()
            outcome = ask_on_clock(self.bot, position, seconds, self.extra)
            self.extra = 0.0
            if not isinstance(outcome, Starved):
                break
        return outcome


def longer(slowest: MoveTime | None, took: MoveTime) -> MoveTime:
    """The answer of the two that took the longer wall time."""
    return took if slowest is None or took.wall > slowest.wall else slowest


def times(spent: MoveTime | None) -> str:
    """A move's wall and CPU seconds side by side, as a verdict gives them:
    ``6.48 s of wall time, 4.90 s of CPU``."""
    if spent is None:
        return "no time"
    return f"{spent.wall:.2f} s of wall time, {spent.cpu:.2f} s of CPU"


@dataclass(frozen=True)
class Starved:
    """A move made late by the server, not the bot (it waited for a CPU): ``why``."""

    why: str


def last_output(bot: Bot) -> str:
    """What ``bot``'s program last wrote to its standard error, its prints and traces: at
    most the last :data:`~adjacency.sandbox.process.OUTPUT_TAIL` bytes, decoded (a byte
    that is no UTF-8 replaced), for its team to read at a refusal; empty for a bot outside
    a sandbox."""
    process = _process(bot)
    return process.output_tail().decode("utf-8", "replace") if process is not None else ""


def _running(bot: Bot) -> bool:
    """Whether ``bot``'s sandboxed program still runs (a bot outside a sandbox: yes)."""
    process = _process(bot)
    return process is None or process.alive


def _process(bot: Bot) -> SandboxedProcess | None:
    engine = getattr(bot, "engine", None)
    transport = getattr(engine, "transport", None)
    return transport if isinstance(transport, SandboxedProcess) else None


def _chosen(bot: Bot, position: Position, limit: Limit) -> tuple[str | None, str | None, bool]:
    """``bot``'s move in ``position`` within ``limit``: ``(move, None, False)``, or
    ``(None, its failure in its team's words, whether it was a loss on time)``."""
    try:
        return bot.choose_move(position, limit), None, False
    except BotFailure as exc:
        return None, team_words(exc.detail), exc.termination is Termination.TIME_FORFEIT
    except BotError as exc:
        return None, team_words(str(exc)), False


def _over_cpu(bot: Bot, seconds: float, extra: float, spent: MoveTime) -> str:
    """The refusal of a move its sandbox stopped for its CPU, ``seconds`` on its clock
    (``extra`` its start's excess; negative: its game's opening), with its account and,
    for a driven program, where it thought."""
    opened = f", {-extra:g} s of them to open its game" if extra < 0 else ""
    thinking = getattr(bot, "thinking", None)  # a driven program's: where it thought
    seen = f"; {thinking}" if thinking else ""
    return f"used more than its {seconds:g} s of CPU{opened} ({spent.account()}){seen}"


def _late(
    spent: MoveTime, seconds: float, answered: bool, failure: str | None, waited: float
) -> str | Starved | None:
    """The games' clock's judgement of a move waited for ``waited`` wall seconds at most
    (:func:`blame`): the refusal's reason, :class:`Starved` when the server, not the bot,
    made it late, or ``None``."""
    judged = blame(spent, seconds, answered, waited)
    if judged is None:
        return None
    termination, why = judged
    if termination is Termination.ABANDONED:
        return Starved(f"{why}: the server was too busy to give it its time")
    return why if failure is None else f"{failure}; {why}"


def start_on_clock(make: Callable[[], Bot], kind: str) -> tuple[Bot, float]:
    """The bot ``make`` starts (a program of ``kind``), and what its first answer's clock
    is short (:meth:`~.move_clock.StartWatch.over`: its start's seconds beyond its kind's
    allowance less its game's opening; negative: seconds more);
    :class:`~adjacency.bots.BotError` when it cannot start. A start the machine starved
    (:class:`~adjacency.bots.BotStarved`) is tried again up to :data:`RETRIES` times,
    then :class:`ServerBusy`."""
    for attempt in range(RETRIES + 1):
        try:
            return _started(make, kind)
        except BotStarved as exc:
            if attempt == RETRIES:
                raise ServerBusy(
                    f"the program could not start: {exc} (started {RETRIES + 1} times)"
                ) from None
    raise AssertionError("unreachable")


def _started(make: Callable[[], Bot], kind: str) -> tuple[Bot, float]:
    watch = StartWatch()
    bot = make()
    process = _process(bot)
    return bot, watch.over(process, kind) if process is not None else 0.0


def ask_on_clock(
    bot: Bot, position: Position, seconds: float, extra: float = 0.0
) -> tuple[str, MoveTime] | str | Starved:
    """One move of ``bot`` in ``position`` on the games' clock, ``seconds`` of it less
    ``extra`` (its start's excess, charged to its first move: :func:`start_on_clock`): a
    sandboxed bot judged by :func:`~.move_clock.blame` (its own wall time within its
    seconds and the grace; its CPU stopped past them); ``(move, its seconds)``, a
    refusal's reason in its team's words (:func:`~.team_words.team_words`), or
    :class:`Starved` when the server, not the bot, made it late. The move is not checked
    against the rules (the caller's)."""
    process = _process(bot)
    charged = process.cpu_seconds() if process is not None else 0.0
    on_clock = seconds
    seconds = seconds - extra
    if process is not None:
        process.cap_cpu(charged + max(0.0, seconds) + GRACE)
    watch = MoveWatch(process, charged)
    waited = ceiling(on_clock)
    limit = Limit(time=max(seconds, 0.01), clock=waited)
    try:
        move, failure, forfeit = _chosen(bot, position, limit)
    finally:
        if process is not None:
            process.cap_cpu(None)
    if process is not None and _process(bot) is not process:
        # Its program had ended before it was asked, and its bot started it again: the
        # answer is not the checked program's, whose game would be lost.
        return f"the program had ended before it was asked ({process.describe_exit()})"
    spent = watch.stop(failure is None, bot_span(bot))  # a failed move's runs to now
    started = f"; {started_words(extra)}" if extra > 0 else ""
    if process is not None and process.reason is Reason.CPU:
        return _over_cpu(bot, seconds, extra, spent) + started
    late = None
    if failure is None or forfeit:
        late = _late(spent, seconds, not forfeit, failure, waited)
    if isinstance(late, str):
        return late + started
    if late is not None:
        return late
    if failure is not None or move is None:
        return failure or "no move"
    return move, spent
