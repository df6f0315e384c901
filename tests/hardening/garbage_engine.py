"""A correct engine that sends hostile lines before every ``bestmove`` (for the client fuzz).

``python garbage_engine.py FILE``: on each ``go`` it sends the lines of FILE
(read then, as raw bytes: the test rewrites it before each move), then the
first empty square. Everything else follows the protocol.
"""

from __future__ import annotations

import sys

from adjacency.core import Position
from adjacency.protocol.wire import SetPosition, parse_command


def main() -> None:
    garbage, out = sys.argv[1], sys.stdout.buffer
    position = Position.start()

    def say(text: str) -> None:
        out.write(text.encode() + b"\n")
        out.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "aep":
            say("id name garbage")
            say("aepok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "position":
            command = parse_command(line)
            assert isinstance(command, SetPosition)
            position = command.position
        elif words[0] == "go":
            with open(garbage, "rb") as lines:
                out.write(lines.read())
            say(f"bestmove {position.legal_moves()[0]}")
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
