"""The engine's settings: one declaration each (:data:`SETTINGS`), and the validated,
frozen record built from them, :class:`EngineConfig`.

Every front end that builds an :class:`~adjacency.engine.searcher.Engine` (the
``engine`` bot, ``adjacency solve``/``analyse``/``bench``, the web's analysis board,
the solved-game table) describes it with an :class:`EngineConfig`. Each setting is
declared once, as a :class:`Setting` of :data:`SETTINGS`: its name, default, range,
the profile field that decides it when unset, and its spelling in the ``engine`` bot's
spec (short name, default, range, help, the cap of a shared server) and on the command
line. :class:`EngineConfig`'s defaults and checks, :meth:`EngineConfig.resolved`, the
``engine`` bot's options (:mod:`adjacency.bots.engine_bot`) and the command line's
flags (``--tt``, ``--threads``, ``--driver``: :mod:`adjacency.cli.engine_commands`) are
read from that table, so a setting cannot have two ranges, and a new one reaches the
bot and the typed keywords or the import fails.

"Unset" is ``None`` in Python: a setting the profile decides
(:mod:`adjacency.engine.profiles`: move ordering, late move reductions, forward
pruning, the time fraction) is ``None`` until set, and :meth:`EngineConfig.resolved`
fills the profile's values in. A spec holds numbers only, so it spells "unset" as a
number (``null=-1``, ``next_iteration=0``, ``threads=0``: :attr:`Setting.spec_unset`);
:func:`config_from_spec` and :func:`spec_values` are the one place that converts.

Bad values raise :class:`~adjacency.core.errors.InvalidSettingsError` whose message
names the setting, what it accepts and the value given; nothing is built.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypedDict, TypeGuard

from ..core.errors import InvalidSettingsError
from ..core.text import quote
from .kernels import layout as L
from .profiles import DEFAULT_PROFILE, PROFILES, Profile
from .threads import default_threads

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


SpecValue = int | float | bool | str
"""A value of a spec's option, parsed (``bots.registry.OptionValue``)."""


def _is_whole(value: object) -> bool:
    """True for an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[float]:
    """True for an ``int`` or ``float`` that is not a ``bool``."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_whole(name: str, value: object, low: float, high: float) -> None:
    """Refuse ``value`` unless it is a whole number from ``low`` to ``high``."""
    if not _is_whole(value) or not low <= value <= high:  # type: ignore[operator]
        raise InvalidSettingsError(
            f"{name} must be a whole number from {low:g} to {high:g}, got {quote(value)}"
        )


def _check_terms(terms: object) -> None:
    """Refuse ``terms`` unless it maps names of :data:`TERMS` to weights 0 to :data:`TERM_MAX`."""
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


Rule = Literal["whole", "above-zero", "fraction", "choice", "truth", "text", "terms"]
"""What a set value of a setting must be (:attr:`Setting.rule`)."""


@dataclass(frozen=True)
class Setting:
    """The one declaration of an engine setting (a row of :data:`SETTINGS`).

    ``rule`` names what a set value must be, and so the check and its message:
    ``whole`` (an ``int`` from ``low`` to ``high``), ``above-zero`` (a finite number
    above 0), ``fraction`` (a number above 0 and at most 1), ``choice`` (one of
    ``choices``), ``truth`` (a ``bool``), ``text`` (a non-empty string: ``accepts`` says
    which) or ``terms`` (weights by term name). ``profile`` is the
    :class:`~adjacency.engine.profiles.Profile` field that decides the setting while it is
    ``None``; a setting without one cannot be unset.

    The ``engine`` bot's spec: ``spec`` is its option names (empty: not in the spec;
    ``terms`` has one option per term), with the option's ``spec_default``, range
    ``spec_minimum`` to ``spec_maximum``, ``cap`` (the most a shared server accepts),
    ``shared`` (the only texts a shared server accepts) and ``help`` (``{name}``: the
    option's name). ``spec_unset`` is the spec's number for "unset": ``None`` in
    :class:`EngineConfig`, or ``fallback()`` for a setting no profile decides (threads:
    the process's default). ``flag``: the command line spells it ``--`` + its spec name.
    """

    name: str
    default: Any
    rule: Rule
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()
    accepts: str = ""
    label: str = ""
    """Words before the name in an error (``pruning setting``)."""
    profile: str | None = None
    spec: tuple[str, ...] = ()
    spec_default: SpecValue = 0
    spec_unset: SpecValue | None = None
    spec_minimum: float | None = None
    spec_maximum: float | None = None
    cap: float | None = None
    shared: tuple[str, ...] | None = None
    help: str = ""
    fallback: Callable[[], object] | None = None
    flag: bool = False

    def check(self, value: object) -> None:
        """Raise :class:`~adjacency.core.errors.InvalidSettingsError` unless ``value`` is a
        value of this setting (``None`` only where the profile decides it)."""
        if value is None and self.profile is not None:
            return
        name = self.label + self.name
        if self.rule == "whole":
            _check_whole(name, value, self.low, self.high)
        elif self.rule == "above-zero":
            if not (_is_number(value) and math.isfinite(value) and value > 0):
                raise InvalidSettingsError(f"{name} must be a number above 0, got {quote(value)}")
        elif self.rule == "fraction":
            if not (_is_number(value) and 0 < value <= 1):
                raise InvalidSettingsError(
                    f"{name} must be a fraction of the time above 0 and at most 1, "
                    f"or None (the profile's), got {quote(value)}"
                )
        elif self.rule == "choice":
            if not isinstance(value, str) or value not in self.choices:
                allowed = ", ".join(self.choices)
                raise InvalidSettingsError(f"{name} must be one of {allowed}, got {quote(value)}")
        elif self.rule == "truth":
            if not isinstance(value, bool):
                allowed = "true or false" if self.profile is None else "true, false or None"
                unset = "" if self.profile is None else " (the profile's)"
                raise InvalidSettingsError(f"{name} must be {allowed}{unset}, got {quote(value)}")
        elif self.rule == "text":
            if not isinstance(value, str) or not value:
                raise InvalidSettingsError(f"{name} must be {self.accepts}, got {quote(value)}")
        else:
            _check_terms(value)

    def option_help(self, option: str) -> str:
        """The help text of the spec's option ``option`` (one of :attr:`spec`)."""
        return self.help.format(name=option)

    def from_spec(self, value: SpecValue) -> object:
        """This setting's value for the spec's ``value`` (of one of its options; for
        ``terms``, one term's weight): :attr:`spec_unset` becomes ``None``, or
        ``fallback()`` where no profile decides the setting."""
        if self.spec_unset is None or value != self.spec_unset:
            return value
        return self.fallback() if self.fallback is not None else None

    def to_spec(self, value: object) -> SpecValue | None:
        """The spec's value for this setting's ``value``: ``None`` becomes
        :attr:`spec_unset` (``None`` back where the spec cannot say "unset"); a whole
        number stays one where the spec's option takes an ``int``."""
        if value is None:
            return self.spec_unset
        if isinstance(self.spec_default, int) and not isinstance(value, bool):
            number = float(value)  # type: ignore[arg-type]
            if number.is_integer():
                return int(number)
        return value  # type: ignore[return-value]


def _pruning(name: str, high: int, spec: str, help: str) -> Setting:
    """A pruning setting that the profile decides while unset: a whole number from 0
    (off) to ``high``, and in the spec (option ``spec``) -1, its default, for the
    profile's."""
    return Setting(
        name,
        None,
        "whole",
        low=0,
        high=high,
        label="pruning setting ",
        profile=name,
        spec=(spec,),
        spec_default=-1,
        spec_unset=-1,
        spec_minimum=-1,
        spec_maximum=high,
        help=help,
    )


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "tt_mb",
        64.0,
        "above-zero",
        spec=("tt",),
        spec_default=64,
        spec_minimum=1,
        spec_maximum=4096,
        cap=256,
        help="transposition table size in MB",
        flag=True,
    ),
    Setting(
        "evaluation",
        "positional",
        "choice",
        choices=EVALUATIONS,
        spec=("eval",),
        spec_default="positional",
        help="evaluation",
    ),
    Setting(
        "driver",
        "pvs",
        "choice",
        choices=DRIVERS,
        spec=("driver",),
        spec_default="pvs",
        help="search driver",
        flag=True,
    ),
    Setting(
        "profile",
        DEFAULT_PROFILE,
        "choice",
        choices=tuple(PROFILES),
        spec=("profile",),
        spec_default=DEFAULT_PROFILE,
        help="playing version: evaluation and search settings (v1: the first engine, frozen)",
    ),
    Setting(
        "threads",
        1,
        "whole",
        low=1,
        high=THREADS_MAX,
        spec=("threads",),
        spec_default=0,
        spec_unset=0,
        spec_minimum=0,
        spec_maximum=THREADS_MAX,
        cap=2,
        help="search threads sharing the table (Lazy SMP; 0: 1, or every core in adjacency move)",
        fallback=default_threads,
        flag=True,
    ),
    Setting("use_tt", True, "truth"),
    Setting("ordering", None, "whole", low=0, high=L.ORDER_ALL, profile="ordering"),
    Setting(
        "reductions",
        None,
        "truth",
        profile="reductions",
        spec=("lmr",),
        spec_default=True,
        help="late move reductions (forward pruning; off: full-width search)",
    ),
    _pruning(
        "null_reduction",
        NULL_REDUCTION_MAX,
        "null",
        "null-move reduction R (0: off; -1: the profile's)",
    ),
    _pruning(
        "probcut",
        PROBCUT_MAX,
        "probcut",
        "ProbCut margin in 1/16 piece (0: off; -1: the profile's)",
    ),
    Setting(
        "next_iteration",
        None,
        "fraction",
        profile="next_iteration",
        spec=("next_iteration",),
        # 0 is the profile's, as time 0 is the caller's limit: a fraction of 0 would never
        # start a second iteration, so the spec needs no -1 and its range has no gap.
        spec_default=0.0,
        spec_unset=0.0,
        spec_minimum=0.0,
        spec_maximum=1.0,
        help="start no new iteration once this fraction of the move's time is spent "
        "(1: search to the deadline; 0: the profile's)",
    ),
    Setting(
        "terms",
        MappingProxyType({}),
        "terms",
        spec=tuple(TERMS),
        spec_default=-1,
        spec_unset=-1,
        spec_minimum=-1,
        spec_maximum=TERM_MAX,
        help="{name} weight of the evaluation (-1: the profile's)",
    ),
    Setting(
        "patterns",
        "shipped",
        "text",
        accepts="shipped or a pattern file's path",
        spec=("patterns",),
        spec_default="shipped",
        shared=("shipped",),
        help="pattern evaluation weights (v4): shipped or a file from adjacency train-eval",
    ),
)
"""Every engine setting, in the order of :class:`EngineConfig`'s fields."""

SETTING = {setting.name: setting for setting in SETTINGS}
"""The settings by name."""
SPEC_SETTING = {option: setting for setting in SETTINGS for option in setting.spec}
"""The setting behind each option name of the ``engine`` bot's spec."""


def _declared(name: str) -> Any:
    """The dataclass field of setting ``name``: its declared default (a fresh ``dict``
    for ``terms``), the declaration kept on the field as metadata ``setting``."""
    setting = SETTING[name]
    metadata = {"setting": setting}
    if isinstance(setting.default, Mapping):
        return field(default_factory=dict, metadata=metadata)
    return field(default=setting.default, metadata=metadata)


@dataclass(frozen=True)
class EngineConfig:
    """Everything an :class:`~adjacency.engine.searcher.Engine` is built from, checked.

    ``profile`` fixes the evaluation's weights and the search's settings; ``ordering``,
    ``reductions``, ``null_reduction``, ``probcut`` and ``next_iteration`` override the
    profile's when set (``None``: the profile's), and ``terms`` overrides weights of the hand-tuned
    evaluation by name (:data:`TERMS`). ``threads``: search threads sharing the table
    (1: no helpers); ``tt_mb``: the table's size in MB; ``use_tt``: whether the search
    reads the table (the solver always does). Defaults and ranges: :data:`SETTINGS`.

    Raises :class:`~adjacency.core.errors.InvalidSettingsError` for a setting out of range
    (checked in the order of the fields; the first bad one is reported).
    """

    tt_mb: float = _declared("tt_mb")
    evaluation: str = _declared("evaluation")
    driver: str = _declared("driver")
    profile: str = _declared("profile")
    threads: int = _declared("threads")
    use_tt: bool = _declared("use_tt")
    ordering: int | None = _declared("ordering")
    """Move-ordering bits (``ORDER_*`` of :mod:`adjacency.engine.kernels.search`)."""
    reductions: bool | None = _declared("reductions")
    """Late move reductions."""
    null_reduction: int | None = _declared("null_reduction")
    """Null-move pruning's reduction ``R`` (0: off)."""
    probcut: int | None = _declared("probcut")
    """ProbCut's margin in 1/16 piece (0: off)."""
    next_iteration: float | None = _declared("next_iteration")
    """With a time limit, start no new iteration of the search once this fraction of the
    time is spent (above 0, at most 1; 1: iterate until the deadline, whose unfinished
    iteration's move is played only if it already proved better; docs/engine.md, Time
    management)."""
    terms: Mapping[str, int] = _declared("terms")
    """Weights of the hand-tuned evaluation by name; a read-only copy once built."""
    patterns: str = _declared("patterns")
    """The pattern evaluation's weights (profiles that use it, v4): ``"shipped"`` or the
    path of a pattern file written by ``adjacency train-eval --kind patterns``, so a
    candidate's weights can play a match against the shipped ones. The file is read
    when the engine is built (a :class:`~adjacency.engine.weights_file.WeightsError`
    if it is not one)."""

    def __post_init__(self) -> None:
        for setting in SETTINGS:
            setting.check(getattr(self, setting.name))
        object.__setattr__(self, "terms", MappingProxyType(dict(self.terms)))

    def __hash__(self) -> int:
        return hash((*(getattr(self, f.name) for f in _SCALARS), tuple(sorted(self.terms.items()))))

    def resolved(self) -> EngineConfig:
        """This configuration with every unset (``None``) setting the profile's."""
        profile = PROFILES[self.profile]
        return dataclasses.replace(
            self,
            **{
                setting.name: getattr(profile, setting.profile)
                for setting in SETTINGS
                if setting.profile is not None and getattr(self, setting.name) is None
            },
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
    """The fields of :class:`EngineConfig` as keyword arguments (``Engine(tt_mb=4)``): the
    static types of :data:`SETTINGS` for a type checker, which cannot derive a typed dict
    from a dataclass; the import checks that both name the same settings."""

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


def _check_declarations() -> None:
    """Refuse (at import) a setting declared in :data:`SETTINGS` but missing from
    :class:`EngineConfig` or :class:`EngineSettings`, or the other way round, or out of
    the table's order; a spec option name used twice; a profile field that
    :class:`~adjacency.engine.profiles.Profile` lacks; a flag without one spec name."""
    names = [setting.name for setting in SETTINGS]
    fields = [f.name for f in dataclasses.fields(EngineConfig)]
    if fields != names or set(EngineSettings.__annotations__) != set(names):
        raise RuntimeError(
            f"engine settings declared as {names}, but EngineConfig has {fields} and "
            f"EngineSettings {sorted(EngineSettings.__annotations__)}"
        )
    options = [option for setting in SETTINGS for option in setting.spec]
    if len(options) != len(set(options)):
        raise RuntimeError(f"an engine spec option is declared twice: {options}")
    profile_fields = {f.name for f in dataclasses.fields(Profile)}
    for setting in SETTINGS:
        if setting.profile is not None and setting.profile not in profile_fields:
            raise RuntimeError(f"engine setting {setting.name}: no profile field {setting.profile}")
        if setting.flag and len(setting.spec) != 1:
            raise RuntimeError(f"engine setting {setting.name}: a flag needs one spec name")


_check_declarations()


def config_from_spec(options: Mapping[str, SpecValue]) -> EngineConfig:
    """The :class:`EngineConfig` of the ``engine`` bot's engine options (parsed values by
    spec name: ``tt``, ``eval``, ``driver``, ``lmr``, ``profile``, ``threads``, ``null``,
    ``probcut``, ``next_iteration``, ``patterns`` and the terms; :data:`SPEC_SETTING`):
    each renamed to its setting, its :attr:`Setting.spec_unset` made ``None`` (``threads``:
    :func:`~adjacency.engine.threads.default_threads`), the terms gathered. An option not
    given is the spec's default, as in the bot. Raises
    :class:`~adjacency.core.errors.InvalidSettingsError` for a name that is no engine
    option or a value out of range."""
    unknown = sorted(set(options) - set(SPEC_SETTING))
    if unknown:
        raise InvalidSettingsError(
            f"unknown engine option {quote(unknown[0])}; options: {', '.join(SPEC_SETTING)}"
        )
    settings: dict[str, Any] = {}
    for setting in SETTINGS:
        if not setting.spec:
            continue
        values = {
            option: setting.from_spec(options.get(option, setting.spec_default))
            for option in setting.spec
        }
        if setting.rule == "terms":
            settings[setting.name] = {k: v for k, v in values.items() if v is not None}
        else:
            (settings[setting.name],) = values.values()
    return EngineConfig(**settings)


def spec_values(config: EngineConfig) -> dict[str, SpecValue]:
    """The ``engine`` bot's options for ``config``, by spec name (the inverse of
    :func:`config_from_spec`): ``None`` spelled :attr:`Setting.spec_unset`, a term not set
    its unset weight. A setting the spec cannot state is left out: ``use_tt``,
    ``ordering``, and ``reductions`` while ``None`` (the spec's ``lmr`` is true or false)."""
    values: dict[str, SpecValue] = {}
    for setting in SETTINGS:
        value = getattr(config, setting.name)
        for option in setting.spec:
            given = value.get(option) if setting.rule == "terms" else value
            spelled = setting.to_spec(given)
            if spelled is not None:
                values[option] = spelled
    return values
