"""The one gate for bot specs that come from outside: a page, a socket, an admin request.

A bot spec is code on this machine's behalf: ``cmd:PROGRAM`` starts a program,
``py:FILE.py:Class`` imports a file, ``@FILE`` reads an options file, and the
engine's ``book`` and ``patterns`` options name files or directories. A person
on the command line may ask any of that of their own machine; a request that
reaches a server over the network may ask none of it. So every spec that
arrives over HTTP or a WebSocket (the web page's players, the lab's bots, the
league's house bots) passes :func:`admit` **before** anything is built, read or
imported, and the servers build bots only from what :func:`admit` returns:

- :class:`NetworkSpec` can be made by :func:`admit` alone (its constructor
  refuses any other caller), and :func:`build` takes nothing else, so a route
  that forgets the gate has no spec to build a bot from;
- :func:`admit` checks the text *without* touching the file system: its size
  and characters, then the bot's name against the registry (refusing the raw
  bots, which run programs and files), then every ``@FILE`` item, and only
  then parses the options (which reads nothing once ``@`` is refused) and holds
  each value to the registry's shared-server bounds (``Option.shared_cap``,
  ``Option.shared``).

The one exception is the operator's own: ``adjacency play --bot NAME=SPEC`` names bots of
the person who started the server (a course project's ``cmd:java ...``, say), which
:func:`offer_local_bots` records once, in that process, from the command line. A request
may then ask for ``local:NAME``: :func:`admit` takes the name alone, never a spec, and
:func:`build` makes the operator's spec; a name that was not offered is refused like an
unknown bot.

A registered text option must say which values a shared server accepts
(``Option.shared``; :func:`~adjacency.bots.registry.register` refuses one that
does not), so a new bot cannot add a path-taking option that slips through.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final, final

from ..core.text import quote
from .base import Bot, BotError
from .lookup import entry, make_bot, option_values, parse_spec

MAX_SPEC = 200
"""Characters of a spec the gate accepts (a built-in bot's spec is far shorter)."""

_GATE: Final = object()
"""Proof that :func:`admit` made a :class:`NetworkSpec` (module-private)."""

LOCAL: Final = "local"
"""The prefix of the operator's own bots in a request's spec: ``local:NAME``."""

LOCAL_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a local bot's name may be (it is shown on the page and sent back in requests)."""

_local: dict[str, str] = {}
"""The operator's bots, name -> spec, as :func:`offer_local_bots` recorded them."""


def offer_local_bots(bots: Mapping[str, str]) -> None:
    """Offer the operator's bots (``adjacency play --bot NAME=SPEC``) to this process's
    pages as ``local:NAME``: any spec, since the person who starts the server may run
    what they like on their own machine. Each spec is parsed now (a bad one is a
    :class:`BotError` before the server starts) but nothing is started or read until a
    game asks for it. Replaces any earlier offer."""
    checked: dict[str, str] = {}
    for name, spec in bots.items():
        if not LOCAL_NAME.fullmatch(name):
            raise BotError(f"local bot name {quote(name)}: use 1 to 32 letters, digits, '-' or '_'")
        parse_spec(spec)
        checked[name] = spec
    _local.clear()
    _local.update(checked)


def local_bot_names() -> list[str]:
    """The names the operator offered, in the order given."""
    return list(_local)


@final
class NetworkSpec:
    """A bot spec from outside that :func:`admit` checked: a built-in bot, options
    within the shared-server bounds, no program, file or path anywhere in it.

    ``text`` is the canonical spec (:class:`~adjacency.bots.registry.Spec`'s text);
    ``name`` the bot's registry name. Only :func:`admit` makes one; a copy made by
    :mod:`pickle` (a house move sent to a worker process) is admitted again.
    """

    __slots__ = ("name", "text")
    name: str
    text: str

    def __init__(self, name: str, text: str, proof: object = None) -> None:
        if proof is not _GATE:
            raise TypeError("a NetworkSpec is made by adjacency.bots.gate.admit only")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "text", text)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("a NetworkSpec is immutable")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return admit, (self.text,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NetworkSpec) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"NetworkSpec({self.text!r})"


def admit(text: object) -> NetworkSpec:
    """``text`` as a :class:`NetworkSpec`, or :class:`BotError` saying why a server
    refuses it (the web answers 400 with that reason). Reads, imports and starts nothing.

    Refused: a spec that is not text, longer than :data:`MAX_SPEC` or holding control
    characters; an unknown bot; a bot that runs a program or a file (``cmd:``,
    ``py:``); an options file (``@FILE``); an option value out of its range, above
    its shared-server cap, or naming a file or directory (``book=``, ``patterns=``).
    """
    if not isinstance(text, str):
        raise BotError(f"a bot spec must be text like 'alphabeta:depth=4', got {quote(text)}")
    if len(text) > MAX_SPEC:
        raise BotError(f"bot spec too long: {len(text)} characters, at most {MAX_SPEC}")
    if not text.isprintable():
        raise BotError(f"bot spec {quote(text)} holds control characters")
    name, _, rest = text.strip().partition(":")
    if name.strip().lower() == LOCAL:
        if rest.strip() not in _local:
            offered = ", ".join(f"local:{n}" for n in _local) or "none"
            raise BotError(f"no local bot {quote(text)} on this server (offered: {offered})")
        return NetworkSpec(LOCAL, f"{LOCAL}:{rest.strip()}", _GATE)
    found = entry(name.strip().lower())  # the registry's names only; reads no file
    if found.raw:
        raise BotError(
            f"bot {found.name!r} runs a program or a Python file of this machine and "
            "cannot be started by a page, a socket or a request to this server; "
            "choose a built-in bot (adjacency bots lists them)"
        )
    if any(item.strip().startswith("@") for item in rest.split(",")):
        raise BotError(
            f"bot spec {quote(text)}: an options file (@FILE) names a file of this server "
            "and cannot be given to it; write the options as key=value"
        )
    parsed = parse_spec(text)
    check_shared(parsed.name, option_values(parsed))
    return NetworkSpec(parsed.name, str(parsed), _GATE)


def check_shared(bot: str, values: Mapping[str, Any]) -> None:
    """Raise :class:`BotError` if an option value of ``bot`` is beyond what a server
    shared with other people accepts: above its ``Option.shared_cap`` (the engine's
    ``tt`` and the MCTS ``tree`` at 256 MB, populations, threads, time...) or, for a
    text option, not one of its ``Option.shared`` values (``book`` and ``patterns``
    would otherwise name files of the server). ``values`` are the typed values of
    :func:`~adjacency.bots.lookup.option_values`.
    """
    for option in entry(bot).options:
        value = values.get(option.name)
        if option.shared is not None and option.name in values and value not in option.shared:
            raise BotError(
                f"{bot} option {option.name}={value} names a file of this server; bots "
                f"started by a page or a request take {' or '.join(option.shared)}"
            )
        cap = option.shared_cap
        if cap is None or not isinstance(value, int | float) or isinstance(value, bool):
            continue
        if value > cap:
            raise BotError(
                f"{bot} option {option.name}={value:g} is above this server's limit of "
                f"{cap:g} for bots started by a page or a request"
            )


def build(spec: NetworkSpec, seed: int | None = None) -> Bot:
    """The bot of an admitted spec (seeded with ``seed`` unless the spec sets one).

    Takes a :class:`NetworkSpec` only (a plain string is a :class:`TypeError`, also
    for callers without type checks): the servers' one way to make a bot.
    """
    if not isinstance(spec, NetworkSpec):
        raise TypeError(f"build takes a NetworkSpec from admit(), got {type(spec).__name__}")
    if spec.name == LOCAL:
        return make_bot(_local[spec.text.partition(":")[2]], seed=seed)
    return make_bot(spec.text, seed=seed)
