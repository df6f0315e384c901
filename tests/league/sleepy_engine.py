"""The example engine (examples/engines/minimal_engine.py), but it thinks for 60% of each
``go movetime``: a ``cmd:`` bot that is reliably in the middle of a game (the league tests
kill its client mid-game). It reads the example's own code; nothing is copied."""

from __future__ import annotations

import importlib.util
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "engines" / "minimal_engine.py"


def slow_lines() -> Iterator[str]:
    for line in sys.__stdin__ or ():
        found = re.match(r"go .*movetime (\d+)", line)
        if found:
            time.sleep(0.6 * int(found.group(1)) / 1000)
        yield line


if __name__ == "__main__":
    spec = importlib.util.spec_from_file_location("minimal_engine", EXAMPLE)
    assert spec is not None and spec.loader is not None
    engine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(engine)
    sys.stdin = slow_lines()  # type: ignore[assignment]
    engine.main()
