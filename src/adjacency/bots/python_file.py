"""The ``py:`` bot: a :class:`~adjacency.bots.base.Bot` class loaded from a user's Python file.

Spec syntax::

    py:PATH/TO/FILE.py:ClassName

A bot written with the Python API (docs/tutorials/python-bot.md) lives in the user's
own file, which no other process has imported, so its registered name means nothing
to ``adjacency connect``, ``match`` or ``tournament``, or to the arena's worker
processes. The spec names the file and the class instead; it is a string, so every
process that builds the bot (a pool worker, a Ray node) loads the file itself, by the
path as written (relative paths against that process's working directory: the same
one for local workers; on Ray, ship the file with ``runtime_env`` ``working_dir``).

Loading: the file is executed once per process as a module of its own (a second spec
naming the same file reuses it, so ``@register`` in the file does not run twice), with
its folder appended to ``sys.path`` so that it can import modules beside it. The
class is built with ``rng=random.Random(seed)`` when its constructor takes ``rng``
(as registered bots do), else with no arguments.

Every failure is a :class:`~adjacency.bots.base.BotError` of one line naming the spec:
a missing file, a file that does not compile or raises while it is executed (the
exception and the line), a missing class (listing the Bot classes the file has), a
name that is not a Bot subclass, and a class whose constructor raises.

This runs the user's own code in the user's own process, as ``cmd:`` runs the user's
program: front ends that serve other people (the web page, a league's house bots)
refuse both (they are ``raw`` specs).
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import random
import sys
import threading
import traceback
from types import ModuleType

from ..core.text import quote
from .base import Bot, BotError
from .registry import register

USAGE = "expected 'py:PATH/TO/FILE.py:ClassName'"

_MODULES: dict[str, ModuleType] = {}
_LOCK = threading.RLock()  # a bot file may build another py: bot as it loads


def split_python_spec(text: str) -> tuple[str, str]:
    """The file and class name of the text after ``py:``; :class:`BotError` if malformed.

    The class is after the last colon, so a path may hold colons (``C:\\bots\\mine.py``).
    """
    path, colon, name = text.strip().rpartition(":")
    path, name = path.strip(), name.strip()
    if not colon or not path or not name:
        raise BotError(f"bot spec {quote('py:' + text)}: {USAGE}")
    if not name.isidentifier():
        raise BotError(
            f"bot spec {quote('py:' + text)}: {quote(name)} is not a Python class name; {USAGE}"
        )
    return path, name


def _failure_line(exc: BaseException, path: str) -> str:
    """The line of ``path`` where ``exc`` was raised, as `` (line N)``, or ``""``."""
    if isinstance(exc, SyntaxError) and exc.lineno is not None:
        return f" (line {exc.lineno})"
    lines = [
        frame.lineno
        for frame in traceback.extract_tb(exc.__traceback__)
        if os.path.realpath(frame.filename) == path
    ]
    return f" (line {lines[-1]})" if lines and lines[-1] is not None else ""


def load_module(path: str, spec: str) -> ModuleType:
    """The module of the Python file ``path``, executed once per process (see the module
    docstring); :class:`BotError` naming ``spec`` for a missing file or one that fails."""
    where = f"bot spec {quote(spec)}"
    expanded = os.path.expanduser(path)
    if not os.path.isfile(expanded):
        missing = "is a folder" if os.path.isdir(expanded) else "does not exist"
        raise BotError(f"{where}: file {quote(path)} {missing}")
    real = os.path.realpath(expanded)
    with _LOCK:
        if real in _MODULES:
            return _MODULES[real]
        name = "adjacency_py_bot_" + hashlib.sha256(real.encode()).hexdigest()[:16]
        loader_spec = importlib.util.spec_from_file_location(name, real)
        if loader_spec is None or loader_spec.loader is None:
            raise BotError(f"{where}: {quote(path)} is not a Python file")
        module = importlib.util.module_from_spec(loader_spec)
        folder = os.path.dirname(real)
        if folder not in sys.path:
            sys.path.append(folder)
        sys.modules[name] = module  # dataclasses and pickling look the module up by name
        try:
            loader_spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:  # a file calling sys.exit() fails too
            sys.modules.pop(name, None)
            kind = "does not compile" if isinstance(exc, SyntaxError) else "raised"
            detail = exc.msg if isinstance(exc, SyntaxError) else str(exc)
            raise BotError(
                f"{where}: {quote(path)} {kind} when loaded{_failure_line(exc, real)}: "
                f"{type(exc).__name__}: {quote(detail)}"
            ) from None
        _MODULES[real] = module
        return module


def load_bot_class(text: str) -> type[Bot]:
    """The Bot subclass that the text after ``py:`` names; :class:`BotError` otherwise."""
    spec = "py:" + text.strip()
    path, name = split_python_spec(text)
    module = load_module(path, spec)
    found = getattr(module, name, None)
    if found is None:
        bots = sorted(
            key
            for key, value in vars(module).items()
            if inspect.isclass(value) and issubclass(value, Bot) and value is not Bot
        )
        listed = ", ".join(bots) if bots else "none"
        raise BotError(
            f"bot spec {quote(spec)}: {quote(path)} has no class {quote(name)} "
            f"(its Bot classes: {listed})"
        )
    if not (inspect.isclass(found) and issubclass(found, Bot)):
        raise BotError(
            f"bot spec {quote(spec)}: {quote(name)} in {quote(path)} is not a Bot "
            f"(a subclass of adjacency.bots.Bot), it is {quote(type(found).__name__, 40)}"
        )
    return found


def _takes_rng(cls: type[Bot]) -> bool:
    """Whether the class's constructor accepts an ``rng`` keyword."""
    try:
        parameters = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    return "rng" in parameters or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()
    )


def make_python_bot(text: str, rng: random.Random) -> Bot:
    """Build the bot that ``py:TEXT`` names (see the module docstring)."""
    cls = load_bot_class(text)
    try:
        bot = cls(rng=rng) if _takes_rng(cls) else cls()  # type: ignore[call-arg]
    except Exception as exc:
        raise BotError(
            f"bot spec {quote('py:' + text.strip())}: {cls.__name__}() raised "
            f"{type(exc).__name__}: {quote(str(exc))}"
        ) from None
    return bot


register(
    "py",
    "a Bot class from your own Python file: py:PATH/TO/FILE.py:ClassName",
    "external",
    raw=True,
    seeded=True,
)(make_python_bot)
