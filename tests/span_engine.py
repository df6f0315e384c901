"""The example engine (examples/engines/minimal_engine.py), speaking as a program played
through its window does: before each ``bestmove`` it sends ``info string bot-span S``, the
seconds its window showed its bot took (the driver's line, docs/protocol.md), here a
constant given as its first argument, or a malformed one where that is not a number. It
reads the example's own code; nothing is copied."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "engines" / "minimal_engine.py"


class Spanning:
    """Standard output that puts the span line before each answer."""

    def __init__(self, out: Any, span: str) -> None:
        self.out = out
        self.span = span

    def write(self, text: str) -> int:
        if "bestmove" in text:
            text = text.replace("bestmove", f"info string bot-span {self.span}\nbestmove", 1)
        return int(self.out.write(text))

    def flush(self) -> None:
        self.out.flush()


if __name__ == "__main__":
    spec = importlib.util.spec_from_file_location("minimal_engine", EXAMPLE)
    assert spec is not None and spec.loader is not None
    engine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(engine)
    sys.stdout = Spanning(sys.__stdout__, sys.argv[1])  # type: ignore[assignment]
    engine.main()
