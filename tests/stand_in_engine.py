"""The example engine (examples/engines/minimal_engine.py), but it says that its first
answer after each ``newgame`` is a stand-in, not its bot's own: it sends ``info string
stand-in: ...`` before that ``bestmove`` (docs/protocol.md), as a kit or a third-party
engine answering with a fallback must. That is exactly one stand-in per game, whichever
side it plays. It reads the example's own code; nothing is copied."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "engines" / "minimal_engine.py"
MARK = "info string stand-in: a fallback answered, not the bot\n"

due = [False]
"""Whether the next answer is the game's stand-in."""


def lines() -> Iterator[str]:
    for line in sys.__stdin__ or ():
        if line.split()[:1] == ["newgame"]:
            due[0] = True
        yield line


class Marking:
    """Standard output that puts the mark before the first answer of each game."""

    def __init__(self, out: Any) -> None:
        self.out = out

    def write(self, text: str) -> int:
        if "bestmove" in text and due[0]:
            due[0] = False
            text = text.replace("bestmove", MARK + "bestmove", 1)
        return int(self.out.write(text))

    def flush(self) -> None:
        self.out.flush()


if __name__ == "__main__":
    spec = importlib.util.spec_from_file_location("minimal_engine", EXAMPLE)
    assert spec is not None and spec.loader is not None
    engine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(engine)
    sys.stdin = lines()  # type: ignore[assignment]
    sys.stdout = Marking(sys.__stdout__)  # type: ignore[assignment]
    engine.main()
