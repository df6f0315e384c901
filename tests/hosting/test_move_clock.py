"""A hosted move is judged by its own wall time, as the course judges it
(:mod:`adjacency.hosting.move_clock`), through :class:`BotSeat` (the seat every hosted
game's move goes through, real bubblewrap and the system's Python inside):

- a bot that answers by its own wall clock at its clock's seconds is in time: the
  course's rule of 5 s a move, on a shorter clock here, with the same grace;
- a bot that sleeps past its clock and the grace loses on time;
- a bot that never answers while its threads spin, having tried to lower their priority
  (``SCHED_IDLE``, ``nice 19``: refused by the sandbox), loses on time, ended once its
  CPU reaches its clock: its group's waits never excuse it;
- beside 16 busy loops the test starts outside the league, each verdict is the quiet
  machine's: a bot computing within its clock is in time, one sleeping past it loses on
  time, a spinner whose threads tried to pin themselves to one CPU loses on time (the
  games' programs outweigh the machine's other work, and what it still takes of their
  core is never charged);
- a bot that computes within its clock but is starved of a core by work the test weighs
  above the games is not lost: its move is ``ABANDONED``, saying what it used and how
  long it waited for a CPU.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from adjacency.bots import Bot, Limit
from adjacency.bots.external import ExternalBot
from adjacency.core import Position
from adjacency.core.game import Termination
from adjacency.hosting.check import ServerBusy, check_bot
from adjacency.hosting.move_clock import (
    GRACE,
    MoveWatch,
    StartWatch,
    ceiling,
    start_allowance,
    wall_cap,
)
from adjacency.hosting.player import Choice
from adjacency.hosting.seat import Answer, BotSeat
from adjacency.sandbox import SandboxedProcess
from adjacency.system import proctree
from hosted_helpers import first_empty_program
from load_helpers import busy_loops, heavier_load, tree_of
from sandbox_helpers import write_program

BOT = first_empty_program(
    "clock-test",
    """\
import threading
BEHAVIOUR, SECONDS = sys.argv[1], float(sys.argv[2])

def spin():
    while True:
        pass

def think():
    if BEHAVIOUR == "sleep":
        time.sleep(SECONDS)
    elif BEHAVIOUR == "wall":  # the course's own timer: search until the wall clock says
        end = time.monotonic() + SECONDS
        while time.monotonic() < end:
            pass
    elif BEHAVIOUR in ("idle", "nice", "pinned"):  # never answers; its threads spin,
        try:  # lowered or pinned to one CPU if it can
            if BEHAVIOUR == "idle":
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            elif BEHAVIOUR == "nice":
                os.nice(19)
            else:
                os.sched_setaffinity(0, {0})
        except OSError:
            pass
        threading.Thread(target=spin, daemon=True).start()
        spin()
    else:
        end = time.process_time() + SECONDS
        while time.process_time() < end:
            pass
""",
)

FEN = Position.start(6, 6, rounds=4).fen()


def _seat(folder: Path, behaviour: str, seconds: float) -> BotSeat:
    write_program(folder, "bot.py", BOT)
    seat = BotSeat(Choice(folder, "bot.py", [behaviour, str(seconds)], kind="python"))
    seat.open()
    return seat


def _move(folder: Path, behaviour: str, seconds: float, left: float, cap: float) -> Answer:
    seat = _seat(folder, behaviour, seconds)
    try:
        return seat.move(FEN, left, cap)
    finally:
        seat.close()


@pytest.fixture
def folder(sandbox_box: Path) -> Path:
    return sandbox_box


def test_a_bot_answering_by_its_wall_clock_at_its_time_is_in_time(folder: Path) -> None:
    """The course's rule, on a 1.5 s clock: the bot's own timer stops it at 1.5 s of
    wall time, and the driver's reading and the pipes fit the grace."""
    left = 1.5
    answer = _move(folder, "wall", left, left, ceiling(left))
    assert answer.failure is None, answer.failure
    assert answer.move in Position.from_fen(FEN).legal_moves()
    # charged its own wall time less the grace (less any share the machine took), or its
    # CPU less the grace where that is more: a bot that spins until its timer fires is
    # in time by its clock too, as the course's wall-clock rule says
    assert left <= answer.wall
    expected = max(0.0, answer.own - GRACE, answer.cpu - min(GRACE, answer.own))
    assert answer.charged == pytest.approx(expected)
    assert answer.charged < left, answer


def test_a_request_the_server_wrote_late_starts_the_move_late(folder: Path) -> None:
    """The server's thread that writes a move's request is held up 1 s (here it sleeps;
    on a loaded machine, it waits for a CPU) before it writes: the program had nothing
    to think about meanwhile, so its move's wall time starts at the write, and a bot
    answering at once has a move of far less than that second."""
    seat = _seat(folder, "compute", 0.0)
    try:
        process, bot = seat.process, seat.bot
        assert process is not None and bot is not None
        watch = MoveWatch(process, process.cpu_seconds())
        time.sleep(1.0)
        move = bot.choose_move(Position.from_fen(FEN), Limit(time=1.5, clock=ceiling(1.5)))
        took = watch.stop()
    finally:
        seat.close()
    assert move in Position.from_fen(FEN).legal_moves()
    assert took.wall < 0.9, took


def test_a_bot_that_sleeps_past_its_time_and_the_grace_loses_on_time(folder: Path) -> None:
    left = 1.0
    answer = _move(folder, "sleep", left + GRACE + 0.4, left, ceiling(left))
    assert answer.failure is not None, "a bot sleeping past its clock and grace was not late"
    termination, why = answer.failure
    assert termination is Termination.TIME_FORFEIT, why
    assert f"more than its {wall_cap(left):.2f} s" in why and "grace" in why


@pytest.mark.parametrize("behaviour", ["idle", "nice", "pinned"])
def test_a_starver_lowering_its_threads_loses_on_time(folder: Path, behaviour: str) -> None:
    """Its threads spin at the priority they started with, wherever the kernel puts
    them (the sandbox refuses the change): it is ended once its CPU reaches its clock
    and the grace, a loss on time, whatever its group's waits say. The ceiling is set
    out of the way so that the CPU cap, not the load of the machine the test shares,
    ends it."""
    left = 0.5
    answer = _move(folder, behaviour, 0.0, left, 50.0)
    assert answer.out_of_cpu, answer
    assert answer.move is None
    assert answer.cpu >= left  # it got its clock's worth of a core and did not answer


def test_beside_sixteen_busy_loops_each_verdict_is_the_quiet_machine_s(folder: Path) -> None:
    """The verdicts of a loaded machine are a quiet one's: a bot computing 0.6 s of CPU
    on a 1.5 s clock is in time, charged no more than its own seconds; one sleeping past
    its clock and the grace loses on time; a spinner that tried to pin its threads to
    one CPU loses on time, at its clock's CPU, however long the loops kept it waiting.
    Wall times are not asserted: only the verdicts and what was charged."""
    left = 1.5
    with busy_loops():
        computing = _move(folder, "compute", 0.6, left, ceiling(left))
        sleeping = _move(folder, "sleep", left + GRACE + 0.5, left, ceiling(left))
        pinned = _move(folder, "pinned", 0.0, 0.5, 50.0)
    assert computing.failure is None, computing.failure
    assert computing.move in Position.from_fen(FEN).legal_moves()
    assert computing.charged <= max(computing.own - GRACE, computing.cpu), computing
    assert computing.charged < left, computing
    assert sleeping.failure is not None and sleeping.failure[0] is Termination.TIME_FORFEIT
    assert pinned.out_of_cpu and pinned.move is None and pinned.cpu >= 0.5, pinned


def test_a_computing_bot_starved_of_its_core_is_abandoned_not_lost(folder: Path) -> None:
    """Work weighed above the games (the test's own cgroup), on the one CPU the test
    holds the bot to, leaves it next to no core: its move is not lost but ``ABANDONED``,
    its account naming how long it waited for a CPU and the share of its core it had."""
    left = 1.0
    seat = _seat(folder, "compute", 0.95)  # within its clock, more than the load leaves it
    try:
        process = seat.process
        with heavier_load(tree_of(lambda: process.pid if process is not None else None)):
            answer = seat.move(FEN, left, ceiling(left))
    finally:
        seat.close()
    assert answer.failure is not None, "the starved bot answered in time: no load reached it"
    termination, why = answer.failure
    assert termination is Termination.ABANDONED, why
    assert "s of CPU and was idle" in why and "for a CPU the machine gave to other work" in why
    assert re.search(r"it had \d+% of its core", why), why
    assert answer.move is None


EARLY_BOOK = first_empty_program(
    "early-book",
    """\
BURN = float(sys.argv[1])
end = time.process_time() + BURN  # a book of first moves, computed before the handshake
while time.process_time() < end:
    pass

def think():
    pass
""",
)


@pytest.mark.parametrize("burn", [0.0, 2.5])
def test_cpu_burned_before_the_handshake_answer_is_charged_to_the_first_move(
    folder: Path, burn: float
) -> None:
    """A Python program's start is free up to its runtime's allowance (1 s); 2.5 s of CPU
    burned before it answers ``aep`` is charged to its first move by the same clock, so
    a move it answers at once on a 1 s clock is late, saying why. Without the burn the
    same move is in time."""
    write_program(folder, "book.py", EARLY_BOOK)
    seat = BotSeat(Choice(folder, "book.py", [str(burn)], kind="python"))
    seat.open()
    try:
        left = 1.0
        answer = seat.move(FEN, left, ceiling(left))
    finally:
        seat.close()
    if not burn:
        assert answer.failure is None, answer.failure
        assert answer.charged < left
        return
    assert answer.failure is not None, "2.5 s burned before the handshake was free"
    termination, why = answer.failure
    assert termination is Termination.TIME_FORFEIT, why
    assert "its start took" in why and "charged to its first move" in why
    assert answer.charged >= burn - start_allowance("python")


@pytest.mark.parametrize("burn", [0.0, 2.5])
def test_the_check_charges_a_start_as_a_game_does(folder: Path, burn: float) -> None:
    """The version check starts the program as a game does and charges its start's excess
    over its runtime's allowance to its first answer: a program that burns 2.5 s before
    the handshake is refused at the first position on a 1 s clock, saying why; without the
    burn it is accepted."""
    write_program(folder, "book.py", EARLY_BOOK)
    choice = Choice(folder, "book.py", [str(burn)], kind="python")
    verdict = check_bot(choice.bot_now, 6, 6, 4, 1.0, choice.kind)
    if not burn:
        assert verdict.accepted, verdict.detail
        return
    assert not verdict.accepted, "2.5 s burned before the handshake was free in the check"
    assert verdict.detail.startswith("position 1 of"), verdict.detail
    assert "its start took" in verdict.detail and "charged to its first move" in verdict.detail


def test_the_server_s_preparation_of_a_sandbox_is_not_its_program_s_start(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start is timed from the handshake's write, never before its sandbox's first
    process (whose fork the kernel records): the server's work before the fork (here
    held 2 s, as a loaded server's threads were) is not charged to the program, which
    is in time on a 1 s clock."""
    spawn = SandboxedProcess._spawn
    forked: list[float] = []

    def held(self: SandboxedProcess, *args: Any) -> Any:
        time.sleep(2.0)
        forked.append(time.monotonic())
        return spawn(self, *args)

    monkeypatch.setattr(SandboxedProcess, "_spawn", held)
    write_program(folder, "book.py", EARLY_BOOK)
    seat = BotSeat(Choice(folder, "book.py", ["0"], kind="python"))
    watch = StartWatch()
    seat.open()
    try:
        process = seat.process
        assert process is not None and process.began is not None
        assert process.began >= forked[0] - 1 / proctree.TICKS, (process.began, forked)
        took = watch.took(process)
        assert took.wall <= time.monotonic() - forked[0] + 1 / proctree.TICKS, took
        left = 1.0
        answer = seat.move(FEN, left, ceiling(left))
    finally:
        seat.close()
    assert answer.failure is None, answer.failure


SAYS_THEN_THINKS = first_empty_program(
    "says-then-thinks",
    """\
def think():
    print("info string thinking", flush=True)  # heard at once, then nothing for seconds
    print("thinking hard", file=sys.stderr, flush=True)  # its own print: kept for its team
    end = time.process_time() + 30.0
    while time.process_time() < end:
        pass
""",
)


def test_a_move_stopped_for_its_cpu_tells_its_whole_wall_time(folder: Path) -> None:
    """A move stopped for its CPU is told with the wall time it ran, not the time to the
    last line it wrote: one that says a word at once and then computes past its second
    shows at least as many seconds of wall time as of CPU (one thread). What it printed
    is the refusal's output."""
    write_program(folder, "thinks.py", SAYS_THEN_THINKS)
    choice = Choice(folder, "thinks.py", [], kind="python")
    verdict = check_bot(choice.bot_now, 6, 6, 4, 1.0, choice.kind)
    assert not verdict.accepted
    found = re.search(
        r"used ([0-9.]+) s of CPU and was idle [0-9.]+ s in ([0-9.]+) s of wall time",
        verdict.detail,
    )
    assert found is not None, verdict.detail
    cpu, wall = float(found[1]), float(found[2])
    assert cpu >= 1.0 and wall >= cpu * 0.9, verdict.detail
    assert verdict.output == "thinking hard\n"  # its last output, for its team


def test_a_starved_move_is_asked_again_of_a_fresh_start_watched_on_it(folder: Path) -> None:
    """The check's first program has its move starved (work weighed above the games, on
    the one CPU the test holds that program to): the server ends it, and the position
    is asked again of a fresh start, which the load does not reach. That start's move
    is capped and read on its own process: a spinner is stopped for its CPU, with the
    CPU it used, not refused for an answer no one watched (0.00 s of CPU in the wall
    time of a process that was no longer there)."""
    write_program(folder, "thinks.py", SAYS_THEN_THINKS)
    choice = Choice(folder, "thinks.py", [], kind="python")
    started: list[ExternalBot] = []

    def make() -> Bot:
        started.append(choice.bot_now())
        return started[-1]

    def first() -> list[int]:  # the first program's processes, once it runs
        engine = started[0].engine if started else None
        process = engine.transport if engine is not None else None
        return tree_of(lambda: process.pid if isinstance(process, SandboxedProcess) else None)()

    with heavier_load(first):
        verdict = check_bot(make, 6, 6, 4, 1.0, choice.kind)
    assert len(started) >= 2, f"the first move was not starved: {verdict.detail}"
    assert not verdict.accepted
    # Stopped by its CPU watch, or (when the suite's own load starves the fresh start too
    # and its wall cap comes first) by its own wall time, which is its CPU here: either
    # way a refusal for time it used.
    assert (
        "used more than its 1 s of CPU" in verdict.detail
        or "s of wall time of its own, more than its" in verdict.detail
    ), verdict.detail
    found = re.search(r"used ([0-9.]+) s of CPU and was idle", verdict.detail)
    assert found is not None and float(found[1]) >= 1.0, verdict.detail


DIES_AFTER_ANSWERING = first_empty_program("answers-once", "def think():\n    pass\n").replace(
    'print("bestmove", first_empty(fen), flush=True)\n',
    'print("bestmove", first_empty(fen), flush=True)\n        break\n',
)
"""The first-empty program that ends once it has answered one position."""


def test_a_program_that_ends_after_an_answer_is_refused_as_a_game_would_lose_it(
    folder: Path,
) -> None:
    """A program that answers its first position and then exits is not started again
    for the next one (a game would lose it between moves): it is refused there, saying
    how it ended (found gone before it was asked, or while it was)."""
    write_program(folder, "once.py", DIES_AFTER_ANSWERING)
    choice = Choice(folder, "once.py", [], kind="python")
    verdict = check_bot(choice.bot_now, 6, 6, 4, 1.0, choice.kind)
    assert not verdict.accepted
    assert verdict.detail.startswith("position 2 of"), verdict.detail
    assert "exited with status 0" in verdict.detail, verdict.detail


OPENS_SLOWLY = first_empty_program(
    "opens-slowly",
    """\
OPENED = []

def think():  # its first answer opens its game: 1.8 s of CPU, then none
    if not OPENED:
        OPENED.append(True)
        end = time.process_time() + 1.8
        while time.process_time() < end:
            pass
""",
)


@pytest.mark.parametrize(("kind", "accepted"), [("python", False), ("javafx", True)])
def test_a_window_program_s_first_move_has_its_game_s_opening_free(
    folder: Path, kind: str, accepted: bool
) -> None:
    """A program played through its window opens its game at its first move (its forms
    followed, its board drawn): that move has the opening's allowance more on a 1 s clock
    (1 s) and the grace (0.5 s), so 1.8 s of CPU there is in time; a program of the
    engine protocol has no opening, and is stopped. A machine that starves the move
    holds the version instead of judging it (its move waited for by its clock's
    ceiling)."""
    write_program(folder, "opens.py", OPENS_SLOWLY)
    choice = Choice(folder, "opens.py", [], kind="python")
    try:
        verdict = check_bot(choice.bot_now, 6, 6, 4, 1.0, kind)
    except ServerBusy as busy:
        # A machine that gave it too little of a core for 1.8 s of CPU within the wall
        # seconds its move is waited for (three times its clock's cap) starved it: held,
        # never refused, whether the opening's allowance was its or not.
        assert "the server was too busy" in str(busy), busy
        return
    assert verdict.accepted is accepted, verdict.detail
    if not accepted:
        # Refused for its own time: stopped at its CPU cap (1.5 s) where the sandbox's
        # monitor ticked before it answered, else judged by its own wall time when it
        # answered first (its 1.8 s of CPU within 0.3 s of the cap: a late tick).
        own = ("used more than its 1 s of CPU", "of wall time of its own, more than its 1.50 s")
        assert any(words in verdict.detail for words in own), verdict.detail
