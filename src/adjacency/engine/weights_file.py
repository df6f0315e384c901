"""The learned evaluation's weights file: its format, :func:`load_weights`, :func:`save_weights`.

The file (JSON, ``format`` :data:`FORMAT`) holds, for every number of plies left
from 2 to 64, one weight per feature of :mod:`adjacency.engine.features` in
1/:data:`UNITS` piece. The offline trainer (:mod:`adjacency.engine.training`)
writes it; the driver (:mod:`adjacency.engine.driver`) reads the shipped one
(:data:`DEFAULT_FILE`) through :func:`shipped_weights`. This module needs neither
of them, so the driver does not depend on the trainer.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import AdjacencyError
from .features import N_FEATURES, NAMES
from .layout import MAX_SQUARES, PW_STRIDE

FORMAT = "adjacency-eval"
"""The ``format`` field of a weights file."""
UNITS = 256
"""Weights are stored in 1/UNITS piece."""
DEFAULT_FILE = Path(__file__).parent / "weights" / "eval-8x8.json"
"""The weights shipped with the package (8x8 boards)."""
LEARNED_BOARD = (8, 8)
"""The board size (rows, columns) the shipped weights were trained on."""


class WeightsError(AdjacencyError):
    """A file that is not a weights file of these features (missing, malformed, other units)."""


def save_weights(
    table: np.ndarray, path: Path, version: int, meta: dict[str, Any]
) -> dict[str, Any]:
    """Write ``table`` (rows 2 to 64 of ``PW_STRIDE`` weights) as weights file ``version``
    to ``path``, with the training details ``meta``, and return the file's content."""
    content = {
        "format": FORMAT,
        "version": version,
        "board": "8x8",
        "units": UNITS,
        "features": list(NAMES),
        "weights": {str(p): [int(v) for v in table[p, :N_FEATURES]] for p in range(2, 65)},
        "training": meta,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, indent=0) + "\n", encoding="utf-8")
    return content


def load_weights(path: Path = DEFAULT_FILE) -> tuple[np.ndarray, int]:
    """The weights table (65 rows of ``PW_STRIDE``) and version of a weights file.

    Raises :class:`WeightsError` naming the file if it cannot be read or is not a
    weights file of these features.
    """
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
        if content.get("format") != FORMAT or content.get("features") != list(NAMES):
            raise ValueError("not a weights file for these features")
        if content.get("units") != UNITS:
            raise ValueError(f"units must be {UNITS}")
        table = np.zeros((MAX_SQUARES + 1, PW_STRIDE), dtype=np.int64)
        for key, row in content["weights"].items():
            p = int(key)
            if not 2 <= p <= MAX_SQUARES or len(row) != N_FEATURES:
                raise ValueError(f"bad row for {key} plies")
            table[p, :N_FEATURES] = row
        return table, int(content["version"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise WeightsError(f"cannot read evaluation weights {str(path)!r}: {exc}") from None


@cache
def shipped_weights() -> tuple[np.ndarray, int]:
    """The shipped weights' table and version (:data:`DEFAULT_FILE`, read once per process)."""
    return load_weights()
