"""Hints: the strongest bot's suggestion, from a pool of reusable hint bots.

Building a bot can be expensive (the compiled engine allocates its 64 MB
transposition table), so hint bots are built once per spec and reused.

Pool contract (:class:`HintBots`), thread-safe:

* A bot serves one hint at a time: :meth:`HintBots.borrow` hands it to one
  caller, who alone uses it until the ``with`` block ends. A concurrent hint
  for the same spec gets another instance (at most ``per_spec`` exist per
  spec); beyond that it waits until one is returned.
* A reused bot is told :meth:`Bot.new_game` first, so a hint never depends on
  the hints before it (as with a freshly built bot).
* A bot whose search raised is closed and dropped, never reused.
* :meth:`HintBots.close` (server shutdown) closes the idle bots at once and
  the borrowed ones when they come back; a closed pool refuses new hints
  with :class:`NotNow`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..bots import Bot, Limit
from ..bots.gate import admit
from ..bots.gate import build as build_bot
from ..core import Position
from ..serving.errors import NotNow
from .levels import is_baseline
from .models import Hint

log = logging.getLogger(__name__)

HINT_TIME = 3.0
"""Seconds the hint bot may think at most."""

BotFactory = Callable[[str], Bot]
"""Builds a bot from its spec (default: the network gate's ``admit`` and ``build``)."""


class HintBots:
    """A thread-safe pool of hint bots, at most ``per_spec`` instances per spec."""

    def __init__(self, factory: BotFactory | None = None, per_spec: int = 2) -> None:
        if per_spec < 1:
            raise ValueError(f"per_spec must be at least 1, got {per_spec}")
        self._factory = factory
        self.per_spec = per_spec
        self._idle: dict[str, list[Bot]] = {}
        self._count: dict[str, int] = {}
        """Instances of each spec that exist now (idle, borrowed or being built)."""
        self._ready = threading.Condition(threading.Lock())
        self._closed = False

    def _build(self, spec: str) -> Bot:
        if self._factory is not None:
            return self._factory(spec)
        return build_bot(admit(spec))  # looked up at call time: tests patch build_bot

    @contextmanager
    def borrow(self, spec: str) -> Iterator[Bot]:
        """An idle bot of ``spec``, or a new one, for the caller alone; returned on exit.

        Waits while ``per_spec`` bots of this spec are borrowed. Raises
        :class:`NotNow` once the pool is closed, and whatever the factory
        raises for a spec it cannot build.
        """
        with self._ready:
            while True:
                if self._closed:
                    raise NotNow("the server is shutting down; no more hints")
                idle = self._idle.get(spec)
                if idle:
                    bot: Bot | None = idle.pop()
                    reused = True
                    break
                if self._count.get(spec, 0) < self.per_spec:
                    bot, reused = None, False
                    self._count[spec] = self._count.get(spec, 0) + 1
                    break
                self._ready.wait()
        if bot is None:  # built outside the lock: the engine allocates and may compile
            try:
                bot = self._build(spec)
            except BaseException:
                self._forget(spec)
                raise
        try:
            if reused:
                bot.new_game()
            yield bot
        except BaseException:
            self._forget(spec)
            _close(bot)
            raise
        with self._ready:
            if not self._closed:
                self._idle.setdefault(spec, []).append(bot)
                self._ready.notify()
                return
            self._count[spec] -= 1
        _close(bot)

    def _forget(self, spec: str) -> None:
        """One instance of ``spec`` is gone: free its place for a waiting hint."""
        with self._ready:
            self._count[spec] -= 1
            self._ready.notify()

    def built(self, spec: str) -> int:
        """How many bots of ``spec`` exist now (idle or borrowed)."""
        with self._ready:
            return self._count.get(spec, 0)

    def close(self) -> None:
        """Close the idle bots now, borrowed ones when returned; refuse new hints."""
        with self._ready:
            self._closed = True
            bots = [bot for idle in self._idle.values() for bot in idle]
            for spec, idle in self._idle.items():
                self._count[spec] -= len(idle)
            self._idle.clear()
            self._ready.notify_all()
        for bot in bots:
            _close(bot)

    def suggest(self, spec: str, position: Position, seconds: float) -> Hint:
        """The move a bot of ``spec`` chooses in ``position`` within ``seconds``, as a Hint.

        ``score`` is the bot's evaluation (``None`` for baseline bots, whose
        scores are not evaluations).
        """
        with self.borrow(spec) as bot:
            square = bot.choose_move(position, Limit(time=seconds))
            report = bot.report  # read before another hint may reuse the bot
            name = bot.spec
        return Hint(
            square=square,
            flips=position.flips(square),
            bot=name,
            depth=report.depth if report else None,
            score=report.score if report and not is_baseline(spec) else None,
        )


def _close(bot: Bot) -> None:
    try:
        bot.close()
    except Exception:
        log.exception("closing hint bot %r failed", bot)
