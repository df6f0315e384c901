"""Bot spec strings and the registry of every bot.

A spec names a bot and sets its options: ``name`` or ``name:key=value,key=value``,
for example ``alphabeta:depth=6`` or ``anneal:t0=2.0,cooling=0.95,seed=7``.
Every bot accepts ``seed`` (an integer) for reproducible play. A bot registered
with ``positional=NAME`` also takes that option's value bare as the first item
(``report-a:minimax`` is ``report-a:algorithm=minimax``). A bot registered
with ``raw=True`` (the external-engine client ``cmd:...``, a user's Python class
``py:FILE.py:Class``) receives the whole text after the colon unparsed. An item
``@FILE`` loads option values from a JSON object ``{"option": value}`` (what
``adjacency tune`` writes); options written after it override the file's:
``anneal:@tuned.json,seed=3``.

Modules register their bots with :func:`register`; :mod:`adjacency.bots.catalog`
imports them all, and :mod:`adjacency.bots.lookup` (``make_bot``, ``entries``,
``parse_spec``) imports the catalog and reads the result. This module imports no bot
module, so every bot module can import it: it holds the table, what a bot declares
(:class:`Option`, :class:`BotEntry`), the checking of a spec against one bot
(:meth:`BotEntry.parse`, :meth:`BotEntry.option_values`) and the bots registered so far
(:func:`registered`). Plugin bots (:func:`plugins`) are declared by packaging entry points
(:data:`PLUGIN_GROUP`) and registered when a spec first names them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from typing import Any

from .. import DISTRIBUTION
from ..core.text import is_ascii_decimal, is_ascii_number, quote
from .base import Bot, BotError

OptionValue = int | float | bool | str


@dataclass(frozen=True)
class Option:
    """One option of a bot: its type follows ``default`` (or ``choices``).

    ``cap`` is the largest value a server shared with other people accepts (the
    web page, the league): options that size memory (tables, trees, populations),
    threads or thinking time declare one below their ``maximum``, which is what a
    person may ask of their own machine. :func:`register` refuses a numeric option
    with neither a ``maximum`` nor a ``cap``, so a new bot cannot leave a shared
    server unbounded; :func:`shared_cap` reads the effective bound.
    """

    name: str
    default: OptionValue
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None
    cap: float | None = None
    shared: tuple[str, ...] | None = None
    """For a text option, the only values a shared server accepts (``None``: any): the
    engine's ``book`` and ``patterns`` may name files of the machine that runs the bot,
    which a person on a shared server's web page must not choose."""

    @property
    def numeric(self) -> bool:
        """Whether the option takes a number (an int or float, not a bool or choice)."""
        return not self.choices and type(self.default) in (int, float)

    @property
    def shared_cap(self) -> float | None:
        """The most a shared server accepts: ``cap``, else ``maximum`` (numeric options)."""
        if not self.numeric:
            return None
        return self.cap if self.cap is not None else self.maximum

    @property
    def kind(self) -> str:
        """``choice`` for an option with choices, else its default's type name: ``int``,
        ``float``, ``bool`` or ``str``."""
        if self.choices:
            return "choice"
        return type(self.default).__name__

    def describe_range(self) -> str:
        """The accepted values in words, for help and errors: ``one of a|b``, ``true|false``,
        ``int in [1, 64]`` (an open end as ``-inf`` or ``inf``), or the bare kind."""
        if self.choices:
            return "one of " + "|".join(self.choices)
        if self.kind == "bool":
            return "true|false"
        low = "" if self.minimum is None else f"{self.minimum:g}"
        high = "" if self.maximum is None else f"{self.maximum:g}"
        if low or high:
            return f"{self.kind} in [{low or '-inf'}, {high or 'inf'}]"
        return self.kind

    def parse(self, text: str, bot: str) -> OptionValue:
        """Convert ``text`` to this option's type and check its range."""
        where = f"bot {quote(bot)}: option {self.name}={quote(text)}"
        value: OptionValue
        if self.choices:
            if text not in self.choices:
                raise BotError(f"{where} is not one of {', '.join(self.choices)}")
            return text
        if isinstance(self.default, bool):
            lowered = text.lower()
            if lowered not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                raise BotError(f"{where} must be true or false")
            return lowered in ("true", "1", "yes", "on")
        # ASCII digits only, bounded (core.text): int() and float() accept far more.
        if isinstance(self.default, int):
            if not is_ascii_number(text, signed=True):
                raise BotError(f"{where} must be {self.describe_range()}")
            value = int(text)
        elif isinstance(self.default, float):
            value = float(text) if is_ascii_decimal(text) else math.nan
            if not math.isfinite(value):
                raise BotError(f"{where} must be {self.describe_range()}")
        else:
            return text
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise BotError(f"{where} is out of range: must be {self.describe_range()}")
        return value


SEED = Option("seed", -1, "random seed for reproducible play (-1: unseeded)", minimum=-1)

Factory = Callable[..., Bot]


@dataclass(frozen=True)
class BotEntry:
    """A registered bot: ``factory(rng=..., **options)`` builds it."""

    name: str
    summary: str
    family: str
    options: tuple[Option, ...]
    factory: Factory
    raw: bool = False
    positional: str | None = None
    """The option whose value may be given bare, as the spec's first item."""
    seeded: bool = False
    """A raw bot whose factory also takes ``rng`` (seeded as the other bots are)."""

    def option(self, name: str) -> Option:
        """The option called ``name`` (``seed`` included); :class:`BotError` naming the accepted
        options if the bot has none of that name."""
        for option in (*self.options, SEED):
            if option.name == name:
                return option
        accepted = ", ".join(o.name for o in (*self.options, SEED))
        raise BotError(f"bot {self.name!r} has no option {quote(name)}; accepted: {accepted}")

    def parse(self, rest: str, text: str) -> Spec:
        """The spec of this bot whose text after the colon is ``rest`` (``text``, the whole
        spec, is what errors quote): a raw bot's text unparsed, else every option checked."""
        if self.raw:
            if not rest.strip():
                raise BotError(
                    f"bot {self.name!r} needs text after the colon, e.g. '{self.name}:...'"
                )
            return Spec(self.name, {}, rest.strip())
        options: dict[str, str] = {}
        from_file: set[str] = set()
        for index, item in enumerate(filter(None, (part.strip() for part in rest.split(",")))):
            if item.startswith("@"):
                for key, value in _options_file(item[1:], self).items():
                    options[key] = value
                    from_file.add(key)
                continue
            if index == 0 and self.positional and "=" not in item:
                self.option(self.positional).parse(item, self.name)  # raises for a bad value
                options[self.positional] = item
                continue
            key, eq, value = item.partition("=")
            key = key.strip().lower()
            if not eq or not key or not value.strip():
                raise BotError(f"bot spec {quote(text)}: expected key=value, got {quote(item)}")
            self.option(key)  # raises for unknown options
            if key in options and key not in from_file:
                raise BotError(f"bot spec {quote(text)}: option {quote(key)} given twice")
            from_file.discard(key)
            options[key] = value.strip()
        return Spec(self.name, options, positional=self.positional)

    def option_values(self, spec: Spec) -> dict[str, Any]:
        """The typed values of every option of ``spec``, a spec of this bot (defaults filled
        in), seed included."""
        values: dict[str, Any] = {o.name: o.default for o in self.options}
        values["seed"] = SEED.default
        for key, text in spec.options.items():
            values[key] = self.option(key).parse(text, spec.name)
        return values


_REGISTRY: dict[str, BotEntry] = {}

PLUGIN_GROUP = "adjacency.bots"
"""The packaging entry-point group of plugin bots: bots registered by modules above this
layer, for optional libraries. An installed distribution declares each as
``NAME = "MODULE:FACTORY [EXTRA]"`` under ``[project.entry-points."adjacency.bots"]`` of its
``pyproject.toml`` (ours: ``openspiel``); the registry reads the declarations from the
installed metadata and imports ``MODULE``, which registers bot ``NAME``, only when a spec
names it, so the bots layer never imports upward and works without the extra."""


@dataclass(frozen=True)
class Plugin:
    """A plugin bot as its entry point declares it, known without importing anything."""

    name: str
    module: str
    extra: str
    """The extra of its distribution that it needs (``""``: none)."""
    distribution: str = DISTRIBUTION

    @property
    def install(self) -> str:
        """The pip command that installs the plugin's extra."""
        extra = f"[{self.extra}]" if self.extra else ""
        return f"pip install '{self.distribution}{extra}'"

    @property
    def loaded(self) -> bool:
        """True once its module registered it (then
        :func:`~adjacency.bots.lookup.entries` lists it too)."""
        return self.name in _REGISTRY


@cache
def _entry_points() -> dict[str, metadata.EntryPoint]:
    """The installed entry points of :data:`PLUGIN_GROUP` by bot name (the first of a name
    wins), read once per process from the distributions' metadata."""
    found: dict[str, metadata.EntryPoint] = {}
    for point in metadata.entry_points(group=PLUGIN_GROUP):
        found.setdefault(point.name.strip().lower(), point)
    return found


def plugins() -> list[Plugin]:
    """Every plugin bot, loaded or not; imports nothing (front ends list them cheaply)."""
    return [
        Plugin(
            name,
            point.module,
            point.extras[0] if point.extras else "",
            point.dist.name if point.dist is not None else DISTRIBUTION,
        )
        for name, point in _entry_points().items()
    ]


def _load_plugin(name: str) -> None:
    """Load the entry point of plugin bot ``name`` (its module registers it); a missing
    extra is a BotError with the command that installs it."""
    point = _entry_points().get(name)
    if name in _REGISTRY or point is None:
        return
    plugin = next(plugin for plugin in plugins() if plugin.name == name)
    try:
        point.load()
    except ImportError as exc:
        needs = f"needs the {plugin.extra} extra" if plugin.extra else "cannot be loaded"
        raise BotError(f"bot {name!r} {needs} ({exc}): {plugin.install}") from None


def register(
    name: str,
    summary: str,
    family: str,
    options: tuple[Option, ...] = (),
    raw: bool = False,
    positional: str | None = None,
    seeded: bool = False,
) -> Callable[[Factory], Factory]:
    """Class or function decorator adding a bot to the registry under ``name``."""

    def decorate(factory: Factory) -> Factory:
        if name in _REGISTRY:
            raise RuntimeError(f"bot {name!r} is registered twice")
        for option in options:
            _check_cap(name, option)
        _REGISTRY[name] = BotEntry(name, summary, family, options, factory, raw, positional, seeded)
        return factory

    return decorate


def _check_cap(bot: str, option: Option) -> None:
    """Refuse (at import) an option a shared server could not bound (see :class:`Option`):
    a number with neither a maximum nor a cap, and free text (a path, say) without the
    values a shared server accepts (``shared``), which the network gate holds it to."""
    if option.kind == "str" and option.shared is None:
        raise RuntimeError(
            f"bot {bot!r}: text option {option.name!r} needs shared=(...), the values a "
            "shared server accepts (free text may name a file of the server)"
        )
    if not option.numeric:
        return
    if option.shared_cap is None:
        raise RuntimeError(
            f"bot {bot!r}: numeric option {option.name!r} needs a maximum or a cap "
            "(the most a shared server accepts)"
        )
    default = float(option.default)  # type: ignore[arg-type]
    if option.shared_cap < default or (
        option.maximum is not None and option.shared_cap > option.maximum
    ):
        raise RuntimeError(
            f"bot {bot!r}: option {option.name!r} has cap {option.shared_cap:g} below its "
            "default or above its maximum"
        )


def all_registered() -> list[BotEntry]:
    """The bots registered so far, in registration order; imports no bot module."""
    return list(_REGISTRY.values())


def registered(name: str) -> BotEntry:
    """The bot called ``name`` among those registered so far (a plugin's module is loaded
    when ``name`` names one); raise :class:`BotError` listing the names. Imports no other bot
    module: a bot module reads here, at call time, the bots it builds on."""
    _load_plugin(name)
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(dict.fromkeys([*_REGISTRY, *_entry_points()]))
        raise BotError(f"unknown bot {quote(name)}; known bots: {known}") from None


@dataclass(frozen=True)
class Spec:
    """A parsed spec string: the bot's name and its option values as text."""

    name: str
    options: dict[str, str]
    raw: str | None = None
    positional: str | None = None
    """The option written bare (first) when the spec is printed."""

    def __str__(self) -> str:
        if self.raw is not None:
            return f"{self.name}:{self.raw}"
        if not self.options:
            return self.name
        items = [
            v if k == self.positional else f"{k}={v}"
            for k, v in sorted(self.options.items(), key=lambda kv: kv[0] != self.positional)
        ]
        return self.name + ":" + ",".join(items)


OPTIONS_FILE_LIMIT = 1 << 20
"""Bytes read at most from an ``@FILE`` of option values."""


def _options_file(path: str, found: BotEntry) -> dict[str, str]:
    """Option values (as text, each checked) from the JSON object in ``path``."""
    import json

    where = f"bot {found.name!r}: options file {quote(path)}"
    try:
        with open(path, "rb") as handle:
            content = handle.read(OPTIONS_FILE_LIMIT + 1)
    except OSError as exc:
        raise BotError(f"{where} cannot be read: {exc.strerror or exc}") from None
    if len(content) > OPTIONS_FILE_LIMIT:
        raise BotError(f"{where} is larger than {OPTIONS_FILE_LIMIT} bytes")
    try:
        data = json.loads(content)
    except (ValueError, RecursionError):
        raise BotError(f"{where} is not a JSON object of option values") from None
    if not isinstance(data, dict):
        raise BotError(f'{where} must hold a JSON object such as {{"depth": 4}}')
    options: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, bool):
            text = str(value).lower()
        elif isinstance(value, int | float | str):
            text = str(value)
        else:
            raise BotError(f"{where}: option {quote(key)} must be a number, true/false or text")
        option = found.option(str(key).lower())  # raises for unknown options
        option.parse(text, found.name)  # raises for a bad value
        options[option.name] = text
    return options
