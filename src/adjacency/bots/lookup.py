"""The whole table of bots: every bot module imported, then a bot found by name or spec.

:mod:`adjacency.bots.registry` holds the table and checks a spec against a bot; each bot
module registers itself there, and :mod:`adjacency.bots.catalog` imports them all. This
module stands above the catalog: each function imports it first, so it answers from
every bot (and a plugin bot when a spec first names it). It does so when first called,
not when imported: the bots load the engine's compiled kernels, and ``import
adjacency.bots`` (which re-exports these functions) stays cheap for code that needs only
the interface. The bot modules never import this module; one that builds on other bots
reads the table through :func:`~adjacency.bots.registry.registered`.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.text import quote
from .base import Bot, BotError
from .registry import BotEntry, Spec, all_registered, registered


def entries() -> list[BotEntry]:
    """Every registered bot, in registration order."""
    from . import catalog  # noqa: F401  (imports every bot module)

    return all_registered()


def entry(name: str) -> BotEntry:
    """The registered bot called ``name``; raise :class:`BotError` listing the names."""
    from . import catalog  # noqa: F401

    return registered(name)


def parse_spec(text: str) -> Spec:
    """Split a spec string into name and options (checked against the registry)."""
    if not isinstance(text, str) or not text.strip():
        raise BotError(
            f"a bot spec must be a non-empty string like 'alphabeta:depth=6', got {quote(text)}"
        )
    name, _, rest = text.strip().partition(":")
    return entry(name.strip().lower()).parse(rest, text)


def option_values(spec: Spec) -> dict[str, Any]:
    """The typed values of every option of ``spec`` (defaults filled in), seed included."""
    return entry(spec.name).option_values(spec)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from a spec string such as ``"alphabeta:depth=6"``.

    ``seed`` (if given) is used unless the spec sets its own. Raises
    :class:`BotError` for an unknown bot or option or a bad value.
    """
    parsed = parse_spec(spec)
    found = entry(parsed.name)
    if found.raw and not found.seeded:
        bot = found.factory(parsed.raw)
    elif found.raw:
        bot = found.factory(parsed.raw, rng=random.Random(seed))
    else:
        values = option_values(parsed)
        chosen = values.pop("seed")
        if chosen == -1 and seed is not None:
            chosen = seed
        rng = random.Random(None if chosen == -1 else chosen)
        bot = found.factory(rng=rng, **values)
    bot.spec = str(parsed)
    return bot
