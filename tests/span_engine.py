"""The example engine (examples/engines/minimal_engine.py), speaking as a program played
through its window does: before each ``bestmove`` it sends ``info string bot-span S``, the
seconds the driver timed its bot (the driver's line, docs/protocol.md), here a
constant given as its first argument, or a malformed one where that is not a number. It
reads the example's own code; nothing is copied."""

from __future__ import annotations

import sys

from stand_in_engine import Before, example_engine  # this file's folder is on the path

if __name__ == "__main__":
    engine = example_engine()
    span = f"info string bot-span {sys.argv[1]}\n"
    sys.stdout = Before(sys.__stdout__, lambda: span)  # type: ignore[assignment]
    engine.main()
