#!/usr/bin/env python3
"""Runs a bot over the engine protocol (docs/protocol.md) on standard input and output.

    python3 engine.py greedy          # or alphabeta (the default), or my_bot.py: a file
                                      # that defines move(board, deadline)
    python3 engine.py --rules         # test mode: one position per line in, its facts out

Standard library only. Standard output carries protocol lines only (``print`` goes to
standard error). The bot thinks in a thread of its own, so ``isready`` and ``stop`` are
answered at once; when the budget is spent or ``stop`` arrives, the runner answers with the
bot's last offer even if the bot has not returned yet.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import threading
import traceback
from collections.abc import Callable
from typing import TextIO

from board import Board, Deadline, parse_number, parse_position

from bots import BOTS

AIM = 0.85
"""Share of ``movetime`` the bot is told it may use; the runner answers at 95%."""
BARE_GO = 5.0
COMMANDS = ("aep", "isready", "setoption", "newgame", "position", "go", "stop", "quit")

BotFunction = Callable[[Board, Deadline], str]


def gone() -> None:
    """Ends the engine because its controller is gone: its output can no longer be
    read, so no answer it could give matters (and a waiting thread must not hang)."""
    os._exit(0)


def say(text: str) -> None:
    """A line for the person on standard error; a closed standard error is ignored."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr, flush=True)


def load_bot(choice: str) -> BotFunction:
    if choice in BOTS:
        return BOTS[choice]
    spec = importlib.util.spec_from_file_location("student_bot", choice)
    if spec is None or spec.loader is None or not os.path.exists(choice):
        raise SystemExit(f"no bot named {choice!r}: greedy, alphabeta or a .py file defining move")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    move: BotFunction = module.move
    return move


def quote(line: str) -> str:
    text = line.strip()
    return repr(text[:80] + "..." if len(text) > 80 else text)


def is_legal(board: Board, move: str | None) -> bool:
    try:
        board.play(move or "")
    except ValueError:
        return False
    return True


class Search:
    """One ``go``: its deadline, whether it is infinite, the bot's answer once it has one."""

    def __init__(self, board: Board, deadline: Deadline, infinite: bool) -> None:
        self.board = board
        self.deadline = deadline
        self.infinite = infinite
        self.stop_requested = False
        self.answered = False
        self.returned = False
        self.result: str | None = None
        self.timer: threading.Timer | None = None
        self.done = threading.Event()  # set once its bestmove is sent


class Runner:
    def __init__(self, bot: BotFunction, name: str, output: TextIO) -> None:
        self.bot = bot
        self.name = name
        self.output = output
        self.lock = threading.RLock()
        self.position = Board.start()
        self.current: Search | None = None

    def send(self, line: str) -> None:
        """Writes one protocol line. When the controller is gone (a killed client closed
        the pipe's other end) nobody can read an answer: the engine ends at once."""
        with self.lock:
            try:
                self.output.write(line + "\n")
                self.output.flush()
            except (OSError, ValueError):
                gone()

    def error(self, text: str) -> None:
        self.send(f"info string error: {text}")

    def handle(self, line: str) -> bool:
        """Handles one line from the controller; False once the session should end."""
        tokens = line.split()
        if not tokens:
            return True
        at = next((i for i, token in enumerate(tokens) if token in COMMANDS), None)
        if at is None:  # unknown leading tokens are skipped: "joho isready" is "isready"
            self.error(f"unknown command {quote(line)}")
            return True
        word, args = tokens[at], tokens[at + 1 :]
        if word == "aep":
            self.send(f"id name {self.name} (Python kit)")
            self.send("id author the adjacency project")
            self.send("aepok")
        elif word == "isready":
            self.send("readyok")
        elif word == "setoption":
            self.error(f"this engine has no options: {quote(line)}")
        elif word == "position":
            try:
                self.position = parse_position(args)
            except ValueError as exc:
                self.error(f"{quote(line)}: {exc}")
        elif word == "go":
            self.go(line, args)
        elif word == "stop":
            with self.lock:
                if self.current is not None:
                    self.current.stop_requested = True
                    self.finish(self.current, None, forced=True)
        elif word == "quit":
            return False
        return True

    def go(self, line: str, args: list[str]) -> None:
        with self.lock:
            if self.current is not None:
                self.error("go ignored while searching; send 'stop' first")
                return
            movetime = clock = depth = None
            infinite = limited = False
            try:
                words = iter(args)
                for word in words:
                    if word == "infinite":
                        infinite = True
                    elif word in ("movetime", "depth", "nodes", "xtime", "otime"):
                        value = parse_number(next(words, ""), word)
                        if word == "movetime":
                            movetime = value
                        elif word == "depth":
                            limited, depth = True, max(1, value)
                        elif word == "nodes":
                            pass  # not counted by this kit: a bare go's time applies
                        elif word[0] == self.position.turn:
                            clock = value
            except ValueError as exc:
                self.error(f"{quote(line)}: {exc}")
                return
            board = self.position
            if board.is_over():
                self.error(f"the game is over in {board.fen()!r}; no move to make")
                self.send("bestmove (none)")
                return
            budget: float | None  # seconds the answer must come within; None: no limit
            if movetime is not None:
                budget = movetime / 1000
            elif infinite:
                budget = None
            elif clock is not None:
                moves_left = max(1, (board.plies_left + 1) // 2)
                budget = min(clock / moves_left, 0.8 * clock) / 1000
            else:
                budget = None if limited else BARE_GO

            def report(text: str) -> None:
                with self.lock:
                    if not search.answered:
                        self.send(text)

            aim = None if budget is None else budget * AIM
            search = Search(board, Deadline(aim, depth, report), infinite)
            self.current = search
            if budget is not None:
                search.timer = threading.Timer(budget * 0.95, self.finish, (search, None, True))
                search.timer.daemon = True
                search.timer.start()
            threading.Thread(target=self.think, args=(search,), daemon=True).start()

    def quit(self) -> None:
        """``quit`` or the end of input. A search with a time budget still answers with the
        bot's own move, at the latest when its budget is spent (so a piped ``go`` then
        ``quit`` shows what the bot plays, not a stand-in); one without a budget is
        stopped now."""
        with self.lock:
            search = self.current
            if search is None:
                return
            if search.timer is None:
                self.handle("stop")
                return
        search.done.wait()

    def think(self, search: Search) -> None:
        try:
            move = self.bot(search.board, search.deadline)
        except Exception:
            # A bot that raises has crashed: the controller scores the game so and shows
            # the last lines of standard error (this traceback), not a stand-in move.
            try:
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(1)
        self.finish(search, move, forced=False)

    def finish(self, search: Search, move: str | None, forced: bool) -> None:
        """Ends a search with exactly one ``bestmove``: the bot's answer, or on stop or timeout
        its last offer, announced by an ``info string`` line (none if it offered nothing: the
        bot's late return answers then). An infinite search keeps an early answer until
        ``stop``."""
        with self.lock:
            if search.answered:
                return
            if not forced:
                search.returned, search.result = True, move
                if search.infinite and not search.stop_requested:
                    return
            answer = search.result if search.returned else search.deadline.best
            if answer is None and not search.returned:
                # nothing returned, nothing offered: no answer; the controller's clock decides
                say("the bot has neither returned nor offered a move; the runner sends none")
                search.deadline.stopped.set()  # passed() turns true: it answers on its return
                search.done.set()  # a waiting quit exits without an answer
                return
            if not search.returned:
                # the bot's own offer, sent for it: said on the protocol and on standard error
                note = f"the bot had not returned; the runner sends its last offer {answer}"
                say(note)
                self.send(f"info string {note}")
            elif not is_legal(search.board, answer):
                # the bot's own answer goes out as it is: the controller judges it illegal
                say(f"the bot answered {answer!r}, not an empty square")
                answer = "".join(str(answer).split())[:32] or "(none)"
            search.answered = True
            search.deadline.stopped.set()
            if search.timer is not None:
                search.timer.cancel()
            self.current = None
            self.send(f"bestmove {answer}")
            search.done.set()  # after the answer is out: a waiting quit may exit now


def rules(lines: list[str], output: TextIO) -> None:
    """``--rules``: each line is the arguments of a ``position`` command; each answer is
    ``ok FEN X O MOVES`` (the position text with ``;`` for spaces, both scores, the legal
    moves joined by commas or ``-``) or ``error``."""
    answers = []
    for line in lines:
        try:
            board = parse_position(line.split())
        except ValueError:
            answers.append("error")
            continue
        x, o = board.score()
        moves = ",".join(board.legal_moves()) or "-"
        answers.append(f"ok {board.fen().replace(' ', ';')} {x} {o} {moves}")
    output.write("".join(a + "\n" for a in answers))


def main() -> None:
    protocol = sys.stdout
    sys.stdout = sys.stderr  # a stray print must not break the protocol
    choice = sys.argv[1] if len(sys.argv) > 1 else "alphabeta"
    if choice == "--rules":
        rules(sys.stdin.read().splitlines(), protocol)
        return
    runner = Runner(load_bot(choice), os.path.basename(choice).removesuffix(".py"), protocol)
    for line in sys.stdin:
        try:
            if not runner.handle(line):
                break
        except Exception as exc:  # a bug must not end the session: report it and go on
            with contextlib.suppress(OSError, ValueError):
                traceback.print_exc()
            runner.error(f"internal error on {quote(line)}: {exc}")
    runner.quit()  # end of input: a timed search still answers (or finds nobody to read it)
    os._exit(0)


if __name__ == "__main__":
    main()
