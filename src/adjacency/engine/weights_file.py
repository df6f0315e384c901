"""The evaluation weights files: the learned evaluation's (:func:`load_weights`,
:func:`save_weights`) and the pattern evaluation's (:func:`load_patterns`, :func:`save_patterns`).

The file (JSON, ``format`` :data:`FORMAT`) holds, for every number of plies left
from 2 to 64, one weight per feature of :mod:`adjacency.engine.kernels.features` in
1/:data:`UNITS` piece. The offline trainer (:mod:`adjacency.training.fit`)
writes it; the driver (:mod:`adjacency.engine.searcher`) reads the shipped one
(:data:`DEFAULT_FILE`) through :func:`shipped_weights`. This module needs neither
of them, so the driver does not depend on the trainer.

The pattern file (JSON, ``format`` :data:`PATTERN_FORMAT`) holds, for each phase of
:data:`~adjacency.engine.kernels.layout.PAT_PHASE_WIDTH` plies left, the
:data:`~adjacency.engine.kernels.patterns.N_WEIGHTS` fitted weights (one per configuration up
to symmetry, then one per feature, then the parity weight) in 1/:data:`UNITS` piece, and
the name of the pattern set; :func:`shipped_patterns` reads :data:`PATTERN_FILE`. Files
written before the parity weight (no ``terms`` field, one weight fewer a phase) read
with a parity weight of 0, which is how they were fitted and how they played.

Either file's ``training`` section says how it was fitted: the command, its figures, a
provenance record, the training data's identity (``data``: its SHA-256, or
:data:`NOT_RECORDED` and why) and the weights' own SHA-256 (``weights_sha256``,
:func:`weights_sha256`), which :func:`save_weights` and :func:`save_patterns` write.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import AdjacencyError
from .kernels.features import N_FEATURES, NAMES
from .kernels.layout import MAX_SQUARES, PAT_PHASE_WIDTH, PAT_PHASES, PW_STRIDE
from .kernels.patterns import N_WEIGHTS, PATTERN_SET, expand

FORMAT = "adjacency-eval"
"""The ``format`` field of a weights file."""
UNITS = 256
"""Weights are stored in 1/UNITS piece."""
DEFAULT_FILE = Path(__file__).parent / "weights" / "eval-8x8.json"
"""The weights shipped with the package (8x8 boards)."""
LEARNED_BOARD = (8, 8)
"""The board size (rows, columns) the shipped weights were trained on."""
PATTERN_FORMAT = "adjacency-patterns"
"""The ``format`` field of a pattern weights file."""
PATTERN_FILE = Path(__file__).parent / "weights" / "patterns-8x8.json"
"""The pattern weights shipped with the package (8x8 boards)."""
TERMS = ("parity",)
"""The weights a pattern file's phase holds after the features
(:data:`~adjacency.engine.kernels.patterns.PARITY`)."""


NOT_RECORDED = "not recorded"
"""The ``sha256`` of a ``training`` section's ``data`` when the data's hash was not taken
(a file fitted before it was, whose data could not be made again): the section's ``why``
says why. Never a guessed hash."""


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
    }
    content["training"] = {**meta, "weights_sha256": weights_sha256(content)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, indent=0) + "\n", encoding="utf-8")
    return content


def weights_sha256(content: Mapping[str, Any]) -> str:
    """The weights' own SHA-256: of a weights or pattern file's ``weights`` field written
    as compact JSON (``json.dumps(..., separators=(",", ":"))``). Not of the file's bytes:
    the file holds this hash in its ``training`` section, and a record added to that
    section later (provenance) leaves the weights, and so their hash, as they were."""
    text = json.dumps(content["weights"], separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def file_weights_sha256(path: Path) -> str:
    """:func:`weights_sha256` of the weights or pattern file at ``path``;
    :class:`WeightsError` naming the file if it cannot be read or holds no weights."""
    try:
        return weights_sha256(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise WeightsError(f"cannot hash the weights of {str(path)!r}: {exc}") from None


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


def has_parity(weights: np.ndarray) -> bool:
    """Whether fitted pattern weights (one phase's row, or a table of rows) hold the
    parity weight: rows of ``N_WEIGHTS`` do, rows one shorter (a fit without it, as the
    shipped v4 file's) do not."""
    return bool(weights.shape[-1] == N_WEIGHTS)


def save_patterns(
    fitted: np.ndarray, path: Path, version: int, meta: dict[str, Any]
) -> dict[str, Any]:
    """Write ``fitted`` (one row of ``N_WEIGHTS`` per phase, or of one fewer: a fit
    without the parity term, written as files were before it, with no ``terms``) as
    pattern file ``version`` to ``path``, with the training details ``meta``, and return
    the file's content."""
    content = {
        "format": PATTERN_FORMAT,
        "version": version,
        "board": "8x8",
        "units": UNITS,
        "patterns": PATTERN_SET,
        "phase_plies": PAT_PHASE_WIDTH,
        "features": list(NAMES),
        **({"terms": list(TERMS)} if has_parity(fitted) else {}),
        "weights": [[int(v) for v in row] for row in fitted],
    }
    content["training"] = {**meta, "weights_sha256": weights_sha256(content)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, separators=(",", ":")) + "\n", encoding="utf-8")
    return content


def load_patterns(path: Path = PATTERN_FILE) -> tuple[np.ndarray, int]:
    """The kernel's pattern table (``PAT_PHASES`` rows of ``PAT_STRIDE``, see
    :func:`adjacency.engine.kernels.patterns.expand`) and the version of a pattern file.

    Raises :class:`WeightsError` naming the file if it cannot be read or is not a
    pattern file of this pattern set, phase width, features and units.
    """
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
        if content.get("format") != PATTERN_FORMAT or content.get("board") != "8x8":
            raise ValueError(f"format must be {PATTERN_FORMAT!r}, for the 8x8 board")
        if content.get("patterns") != PATTERN_SET or content.get("features") != list(NAMES):
            raise ValueError(f"not a {PATTERN_SET!r} pattern file for these features")
        if content.get("units") != UNITS or content.get("phase_plies") != PAT_PHASE_WIDTH:
            raise ValueError(f"units must be {UNITS} and phase_plies {PAT_PHASE_WIDTH}")
        version = content["version"]
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise ValueError(f"version must be a whole number from 1, got {version!r}")
        terms = content.get("terms", [])
        if terms not in ([], list(TERMS)):
            raise ValueError(f"terms must be {list(TERMS)} (or absent: before them)")
        rows = content["weights"]
        width = N_WEIGHTS - len(TERMS) + len(terms)
        if len(rows) != PAT_PHASES or any(len(row) != width for row in rows):
            raise ValueError(f"weights must be {PAT_PHASES} rows of {width}")
        if any(isinstance(v, bool) or not isinstance(v, int) for row in rows for v in row):
            raise ValueError("weights must be integers")
        fitted = np.zeros((PAT_PHASES, N_WEIGHTS), dtype=np.int64)
        fitted[:, :width] = rows  # a file without the terms: their weights 0
        return expand(fitted), version
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise WeightsError(f"cannot read pattern weights {str(path)!r}: {exc}") from None


@cache
def shipped_patterns() -> tuple[np.ndarray, int]:
    """The shipped pattern table and version (:data:`PATTERN_FILE`, read once per process)."""
    return load_patterns()


SHIPPED = "shipped"
"""The :attr:`~adjacency.engine.config.EngineConfig.patterns` value of the shipped weights."""


def training_record(path: Path) -> dict[str, Any]:
    """The ``training`` section of the weights or pattern file at ``path``: the command
    that fitted it, its figures and its ``provenance`` record (reconstructed from the
    history, unknown fields ``"unknown"``, for a file fitted before records were kept);
    :class:`WeightsError` naming the file if it has none."""
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
        training = content["training"]
        if not isinstance(training, dict):
            raise TypeError("its training section is not an object")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise WeightsError(f"cannot read the training record of {str(path)!r}: {exc}") from None
    return training


SHIPPED_FILES = (DEFAULT_FILE, PATTERN_FILE)
"""Every weights file the package ships (the files of :data:`DEFAULT_FILE`'s folder)."""


def shipped_training() -> dict[str, dict[str, Any]]:
    """The :func:`training_record` of each shipped file (:data:`SHIPPED_FILES`), by file
    name."""
    return {path.name: training_record(path) for path in SHIPPED_FILES}


def pattern_table(choice: str) -> tuple[np.ndarray, int]:
    """The pattern table and version of ``choice``: :data:`SHIPPED` (:func:`shipped_patterns`)
    or the path of a pattern file (:func:`load_patterns`; read again while its size or
    time of change differs, else kept, so the games of a match read it once).
    :class:`WeightsError` naming the file if it cannot be read or is not one."""
    if choice == SHIPPED:
        return shipped_patterns()
    path = Path(choice)
    try:
        stat = path.stat()
    except OSError as exc:
        raise WeightsError(f"cannot read pattern weights {choice!r}: {exc.strerror}") from None
    return _pattern_file(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


@cache
def _pattern_file(path: str, size: int, changed: int) -> tuple[np.ndarray, int]:
    del size, changed  # the cache's key: a file changed in place is read again
    return load_patterns(Path(path))
