"""The provenance every benchmark prints before its figures: :func:`announce`.

A benchmark's figures are only as good as what says which code, settings, libraries and
machine measured them, so each script starts by writing the provenance record
(:mod:`adjacency.system.provenance`) of its own command line to standard error, each line
marked ``provenance``, where it never mixes with a figure or a JSON answer on standard
output, and a refusal of bad input stays the one unmarked line there.
"""

from __future__ import annotations

import sys
from pathlib import Path


def announce(script: str, argv: list[str] | None = None) -> None:
    """Write the provenance of the benchmark ``script`` run with ``argv`` (default: this
    process's arguments) to standard error."""
    from adjacency.system.provenance import describe, provenance

    args = sys.argv[1:] if argv is None else argv
    record = provenance({"benchmark": Path(script).name, "arguments": args})
    for line in describe(record):
        print(f"provenance {line}", file=sys.stderr)
