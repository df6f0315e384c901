"""The engine's settings: one validated, frozen record, :class:`EngineConfig`.

Every front end that builds an :class:`~adjacency.engine.searcher.Engine` (the
``engine`` bot, ``adjacency solve``/``analyse``/``bench``, the web's analysis board,
the solved-game table) describes it with an :class:`EngineConfig`, so each setting has
one name, one range and one check, here. A setting the profile decides
(:mod:`adjacency.engine.profiles`: move ordering, late move reductions, forward
pruning) is ``None`` until set: "unset" has that one representation, and
:meth:`EngineConfig.resolved` fills the profile's values in.

The ``engine`` bot's spec spells four settings with the short names users type
(``tt``, ``eval``, ``lmr``, ``null``) and "unset" as ``-1``, because a spec holds
numbers only; :mod:`adjacency.bots.engine_bot` translates in one
place, and its options take their ranges from the constants below.

Bad values raise :class:`~adjacency.core.errors.InvalidSettingsError` whose message
names the setting, what it accepts and the value given; nothing is built.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypedDict, TypeGuard

from ..core.errors import InvalidSettingsError
from ..core.text import quote
from .kernels import layout as L
from .kernels.search import ORDER_ALL
from .profiles import DEFAULT_PROFILE, PROFILES

DRIVERS = ("pvs", "mtdf")
"""The iterative-deepening drivers: principal variation search or MTD(f)."""
EVALUATIONS = ("positional", "material")
"""The evaluations: the profile's (hand-tuned, or learned on 8x8) or the piece count."""
TERMS = {
    "exposure": L.W_EXPOSURE,
    "tempo": L.W_TEMPO,
    "parity": L.W_PARITY,
    "horizon": L.W_HORIZON,
}
"""The hand-tuned evaluation's terms by name, and their slots in ``S[W:]``
(:mod:`adjacency.engine.kernels.evaluate`): what ``adjacency tune`` varies."""

THREADS_MAX = 256
"""The most search threads an engine runs."""
TERM_MAX = 1000
"""The largest weight of an evaluation term."""
NULL_REDUCTION_MAX = 8
"""The largest null-move reduction ``R`` (:mod:`adjacency.engine.kernels.search`)."""
PROBCUT_MAX = 1000
"""The largest ProbCut margin, in 1/16 piece (:mod:`adjacency.engine.kernels.search`)."""


def _is_whole(value: object) -> bool:
    """True for an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[float]:
    """True for an ``int`` or ``float`` that is not a ``bool``."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_whole(name: str, value: object, low: int, high: int) -> None:
    """Refuse ``value`` unless it is a whole number from ``low`` to ``high``."""
    if not _is_whole(value) or not low <= value <= high:  # type: ignore[operator]
        raise InvalidSettingsError(
            f"{name} must be a whole number from {low} to {high}, got {quote(value)}"
        )


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    """Refuse ``value`` unless it is one of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        allowed = ", ".join(choices)
        raise InvalidSettingsError(f"{name} must be one of {allowed}, got {quote(value)}")


@dataclass(frozen=True)
class EngineConfig:
    """Everything an :class:`~adjacency.engine.searcher.Engine` is built from, checked.

    ``profile`` fixes the evaluation's weights and the search's settings; ``ordering``,
    ``reductions``, ``null_reduction``, ``probcut`` and ``next_iteration`` override the
    profile's when set (``None``: the profile's), and ``terms`` overrides weights of the hand-tuned
    evaluation by name (:data:`TERMS`). ``threads``: search threads sharing the table
    (1: no helpers); ``tt_mb``: the table's size in MB; ``use_tt``: whether the search
    reads the table (the solver always does).

    Raises :class:`~adjacency.core.errors.InvalidSettingsError` for a setting out of range
    (checked in the order of the fields; the first bad one is reported).
    """

    tt_mb: float = 64.0
    evaluation: str = "positional"
    driver: str = "pvs"
    profile: str = DEFAULT_PROFILE
    threads: int = 1
    use_tt: bool = True
    ordering: int | None = None
    """Move-ordering bits (``ORDER_*`` of :mod:`adjacency.engine.kernels.search`)."""
    reductions: bool | None = None
    """Late move reductions."""
    null_reduction: int | None = None
    """Null-move pruning's reduction ``R`` (0: off)."""
    probcut: int | None = None
    """ProbCut's margin in 1/16 piece (0: off)."""
    next_iteration: float | None = None
    """With a time limit, start no new iteration of the search once this fraction of the
    time is spent (above 0, at most 1; 1: iterate until the deadline, whose unfinished
    iteration's move is played only if it already proved better; docs/engine.md, Time
    management)."""
    terms: Mapping[str, int] = field(default_factory=dict)
    """Weights of the hand-tuned evaluation by name; a read-only copy once built."""
    patterns: str = "shipped"
    """The pattern evaluation's weights (profiles that use it, v4): ``"shipped"`` or the
    path of a pattern file written by ``adjacency train-eval --kind patterns``, so a
    candidate's weights can play a match against the shipped ones. The file is read
    when the engine is built (a :class:`~adjacency.engine.weights_file.WeightsError`
    if it is not one)."""

    def __post_init__(self) -> None:
        _check_whole("threads", self.threads, 1, THREADS_MAX)
        tt_mb: object = self.tt_mb
        if not (_is_number(tt_mb) and math.isfinite(tt_mb) and tt_mb > 0):
            raise InvalidSettingsError(f"tt_mb must be a number above 0, got {quote(tt_mb)}")
        _check_choice("profile", self.profile, tuple(PROFILES))
        _check_choice("driver", self.driver, DRIVERS)
        _check_choice("evaluation", self.evaluation, EVALUATIONS)
        use_tt: object = self.use_tt
        if not isinstance(use_tt, bool):
            raise InvalidSettingsError(f"use_tt must be true or false, got {quote(use_tt)}")
        reductions: object = self.reductions
        if reductions is not None and not isinstance(reductions, bool):
            raise InvalidSettingsError(
                f"reductions must be true, false or None (the profile's), got {quote(reductions)}"
            )
        if self.ordering is not None:
            _check_whole("ordering", self.ordering, 0, ORDER_ALL)
        fraction: object = self.next_iteration
        if fraction is not None and not (_is_number(fraction) and 0 < fraction <= 1):
            raise InvalidSettingsError(
                "next_iteration must be a fraction of the time above 0 and at most 1, "
                f"or None (the profile's), got {quote(fraction)}"
            )
        terms: object = self.terms
        if not isinstance(terms, Mapping):
            raise InvalidSettingsError(
                f"terms must map evaluation terms to weights, got {quote(terms)}"
            )
        for name, value in terms.items():
            if name not in TERMS:
                raise InvalidSettingsError(
                    f"evaluation term must be one of {', '.join(TERMS)}, got {quote(name)}"
                )
            _check_whole(f"evaluation term {name}", value, 0, TERM_MAX)
        for name, top in (("null_reduction", NULL_REDUCTION_MAX), ("probcut", PROBCUT_MAX)):
            value = getattr(self, name)
            if value is not None:
                _check_whole(f"pruning setting {name}", value, 0, top)
        patterns: object = self.patterns
        if not isinstance(patterns, str) or not patterns:
            raise InvalidSettingsError(
                f"patterns must be shipped or a pattern file's path, got {quote(patterns)}"
            )
        object.__setattr__(self, "terms", MappingProxyType(dict(terms)))

    def __hash__(self) -> int:
        return hash((*(getattr(self, f.name) for f in _SCALARS), tuple(sorted(self.terms.items()))))

    def resolved(self) -> EngineConfig:
        """This configuration with every unset (``None``) setting the profile's."""
        profile = PROFILES[self.profile]
        return dataclasses.replace(
            self,
            ordering=profile.ordering if self.ordering is None else self.ordering,
            reductions=profile.reductions if self.reductions is None else self.reductions,
            null_reduction=(
                profile.null_reduction if self.null_reduction is None else self.null_reduction
            ),
            probcut=profile.probcut if self.probcut is None else self.probcut,
            next_iteration=(
                profile.next_iteration if self.next_iteration is None else self.next_iteration
            ),
        )

    def with_settings(self, **settings: object) -> EngineConfig:
        """A copy with ``settings`` (field names) changed, checked again; a name that is no
        setting is an :class:`~adjacency.core.errors.InvalidSettingsError`."""
        unknown = sorted(set(settings) - FIELDS)
        if unknown:
            raise InvalidSettingsError(
                f"unknown engine setting {quote(unknown[0])}; settings: {', '.join(sorted(FIELDS))}"
            )
        return dataclasses.replace(self, **settings)  # type: ignore[arg-type]


class EngineSettings(TypedDict, total=False):
    """The fields of :class:`EngineConfig` as keyword arguments (``Engine(tt_mb=4)``)."""

    tt_mb: float
    evaluation: str
    driver: str
    profile: str
    threads: int
    use_tt: bool
    ordering: int | None
    reductions: bool | None
    null_reduction: int | None
    probcut: int | None
    next_iteration: float | None
    terms: Mapping[str, int]
    patterns: str


FIELDS = frozenset(f.name for f in dataclasses.fields(EngineConfig))
"""The names of the settings."""
_SCALARS = tuple(f for f in dataclasses.fields(EngineConfig) if f.name != "terms")
