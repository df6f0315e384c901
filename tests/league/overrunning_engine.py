"""The example engine (examples/engines/minimal_engine.py), but each ``go movetime M``
takes M milliseconds and then ``sys.argv[1]`` seconds more (default 0.3; ``inf``: it
never answers) before it answers, without reading ``stop`` meanwhile: a bot that
overruns the share of its clock it was told, as an alpha-beta bot finishing its
iteration does. With ``sys.argv[2]`` it appends each ``go`` line it reads to that
file. It reads the example's own code; nothing is copied."""

from __future__ import annotations

import importlib.util
import math
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "engines" / "minimal_engine.py"
EXTRA = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
GO_LOG = Path(sys.argv[2]) if len(sys.argv) > 2 else None


def slow_lines() -> Iterator[str]:
    for line in sys.__stdin__ or ():
        if GO_LOG is not None and line.startswith("go"):
            with GO_LOG.open("a") as log:
                log.write(line)
        found = re.match(r"go .*movetime (\d+)", line)
        if found:
            if math.isinf(EXTRA):
                while True:
                    time.sleep(60)
            time.sleep(int(found.group(1)) / 1000 + EXTRA)
        yield line


if __name__ == "__main__":
    spec = importlib.util.spec_from_file_location("minimal_engine", EXAMPLE)
    assert spec is not None and spec.loader is not None
    engine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(engine)
    sys.stdin = slow_lines()  # type: ignore[assignment]
    engine.main()
