"""The example engine (examples/engines/minimal_engine.py), but it says that its first
answer after each ``newgame`` is a stand-in, not its bot's own: it sends ``info string
stand-in: ...`` before that ``bestmove`` (docs/protocol.md), as a kit or a third-party
engine answering with a fallback must. That is exactly one stand-in per game, whichever
side it plays. It reads the example's own code; nothing is copied."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
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


class Before:
    """Standard output that writes ``said()`` (a line, or "" for none) just before each
    ``bestmove`` its engine writes."""

    def __init__(self, out: Any, said: Callable[[], str]) -> None:
        self.out = out
        self.said = said

    def write(self, text: str) -> int:
        if "bestmove" in text:
            text = text.replace("bestmove", self.said() + "bestmove", 1)
        return int(self.out.write(text))

    def flush(self) -> None:
        self.out.flush()


def mark() -> str:
    """The stand-in's mark where the answer is the game's first, else nothing."""
    if not due[0]:
        return ""
    due[0] = False
    return MARK


def example_engine() -> Any:
    """The example engine's module, loaded from its file."""
    spec = importlib.util.spec_from_file_location("minimal_engine", EXAMPLE)
    assert spec is not None and spec.loader is not None
    engine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(engine)
    return engine


if __name__ == "__main__":
    engine = example_engine()
    sys.stdin = lines()  # type: ignore[assignment]
    sys.stdout = Before(sys.__stdout__, mark)  # type: ignore[assignment]
    engine.main()
