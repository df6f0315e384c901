"""A deliberately misbehaving engine for the protocol tests: ``fake_engine.py MODE[,MODE]``.

With mode ``good`` it is a correct engine playing the first empty square. The
other modes break one rule each (see ``MODES``); ``spawn-child`` and
``spawn-session-child`` combine with any other (``spawn-child,hang-on-go``).
It writes one line to stderr at start-up, so tests can check that errors
quote the engine's stderr.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from adjacency.core import Position
from adjacency.protocol.wire import SetPosition, parse_command

MODES = {
    "good": "a correct engine: plays the first empty square",
    "never-aepok": "answers aep with id lines but never aepok",
    "crash-at-handshake": "exits with status 3 on aep",
    "no-readyok": "completes the handshake, then never answers isready",
    "readyok-once": "answers only the first isready (the one after the handshake)",
    "crash-at-go": "exits with status 1 on go",
    "crash-after-moves": "plays two moves, then exits on the third go",
    "exit-after-moves": "exits right after its second bestmove (between moves)",
    "hang-on-go": "sleeps without reading input on go (answers nothing, not even stop)",
    "ignores-stop": "keeps reading input on go but never answers, even to stop",
    "slow": "answers go only when it receives stop",
    "occupied": "answers an occupied square",
    "off-board": "answers the square above a-file's last rank (a5 on 4x4)",
    "malformed": "answers 'bestmove hello'",
    "missing-move": "answers a bare 'bestmove'",
    "flood": "sends 5000 info lines (some garbage), a 200 kB line and stderr before each bestmove",
    "crlf": "ends lines with CRLF, adds blank lines, padding, unknown lines and bad UTF-8",
    "talks-after-stop": "after each bestmove sends a second bestmove (occupied) and info lines",
    "garbage": "before each bestmove sends the raw bytes of the file named by the next argument",
    "spawn-child": "also starts a child process (same group, inheriting stdout)",
    "spawn-session-child": "also starts a child process in a new session (setsid: another group)",
}
SPAWNS = {"spawn-child", "spawn-session-child"}


def main() -> None:
    flags = sys.argv[1].split(",")
    if any(flag not in MODES for flag in flags):
        sys.exit(f"unknown mode {sys.argv[1]!r}")
    spawns = SPAWNS.intersection(flags)
    mode = next((flag for flag in flags if flag not in SPAWNS), "good")
    out = sys.stdout
    eol = "\r\n" if mode == "crlf" else "\n"

    def say(text: str) -> None:
        out.write(text + eol)
        out.flush()

    print(f"fake engine starting in mode {mode}, pid {os.getpid()}", file=sys.stderr, flush=True)
    for spawn in sorted(spawns):
        code = "import time; time.sleep(300)"
        child = subprocess.Popen(
            [sys.executable, "-c", code], start_new_session=spawn == "spawn-session-child"
        )
        print(f"child {child.pid}", file=sys.stderr, flush=True)
    position = Position.start()
    gos = readies = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "aep":
            if mode == "crash-at-handshake":
                print("fatal: cannot load my opening book", file=sys.stderr, flush=True)
                sys.exit(3)
            say(f"id name Fake {mode}")
            say("id author the protocol tests")
            say("option name Hash type spin default 16 min 1 max 1024")
            if mode == "crlf":
                say("")
                say("   ")
                say("  garbage line the controller must ignore  ")
            if mode != "never-aepok":
                say("aepok")
            else:
                print("waiting for something that never happens", file=sys.stderr, flush=True)
        elif words[0] == "isready":
            readies += 1
            if mode != "no-readyok" and (mode != "readyok-once" or readies == 1):
                say("readyok")
        elif words[0] == "position":
            command = parse_command(line)
            assert isinstance(command, SetPosition)
            position = command.position
        elif words[0] == "go":
            gos += 1
            if mode == "crash-at-go" or (mode == "crash-after-moves" and gos == 3):
                print("segmentation fault (pretend)", file=sys.stderr, flush=True)
                sys.exit(1)
            if mode == "hang-on-go":
                time.sleep(300)
            if mode in ("ignores-stop", "slow"):
                continue
            answer(mode, position, say)
            if mode == "exit-after-moves" and gos == 2:
                print("exiting between moves", file=sys.stderr, flush=True)
                sys.exit(4)
        elif words[0] == "stop" and mode == "slow":
            answer(mode, position, say)
        elif words[0] == "quit":
            return


def answer(mode: str, position: Position, say: object) -> None:
    assert callable(say)
    move = position.legal_moves()[0]
    occupied = position.board.square_names(position.x | position.o)[0]
    if mode == "flood":
        for number in range(5000):
            say(f"info depth {number} score x{number} nodes {number} pv {move} string flooding")
            print(f"stderr flood {number}", file=sys.stderr)
        sys.stdout.buffer.write(b"info string " + b"z" * 200_000 + b"\n")  # one overlong line
    if mode == "garbage":  # the fuzz test rewrites the file before each move
        with open(sys.argv[2], "rb") as garbage:
            sys.stdout.flush()
            sys.stdout.buffer.write(garbage.read())
    if mode == "crlf":
        say("")
        sys.stdout.flush()
        sys.stdout.buffer.write(b"\xff\xfe not UTF-8 \xc3\r\n")
        say(f"  info   depth 1  score 100 pv  {move}  ")
        say("")
    choice = {
        "occupied": occupied,
        "off-board": f"a{position.rows + 1}",
        "malformed": "hello",
        "missing-move": "",
    }.get(mode, move)
    say(f"bestmove {choice}".rstrip() if mode != "crlf" else f"  bestmove   {choice}  ")
    if mode == "talks-after-stop":
        say(f"bestmove {occupied}")
        say("info string still talking")
        say("readyok")


if __name__ == "__main__":
    main()
