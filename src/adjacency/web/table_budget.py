"""The memory budget of the games' bots: table megabytes per client and for the server.

Why: the count of bot slots bounds how many bots search, not what they hold. A bot's
search tables (the engine's ``tt``, MCTS's ``tree``) are allocated when it is built and
kept while its game may need it, so eight bot-vs-bot games of ``tt=256`` held 4 GB.
:class:`TableBudget` charges each new game with bots the sum of its bots' table sizes
(:func:`table_mb`) against a budget for the server (:attr:`~.limits.Limits.bot_tables_mb`,
sized to the machine: :func:`machine_tables_mb`) and one per client (address and browser
alike, :func:`~.limits.holders`); beyond it the new game is 429. A game's charge is
returned once it no longer keeps its bots (over, deleted, or left by its page).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from ..bots import BotError
from ..bots.lookup import option_values, parse_spec
from ..serving.errors import TooMany

TABLE_OPTIONS = ("tt", "tree")
"""The bot options that size a table in MB (the engine's and MCTS's)."""


def table_mb(spec: str) -> int:
    """The megabytes of search tables a bot of ``spec`` allocates (0 for a bot without,
    or one the registry does not describe: a local program's, which runs elsewhere)."""
    try:
        values = option_values(parse_spec(spec))
    except BotError:
        return 0
    return sum(int(values[name]) for name in TABLE_OPTIONS if name in values)


def machine_tables_mb() -> int:
    """The server's default table budget: an eighth of this machine's memory, between 128
    and 512 MB (a 4 GB machine: 512), so the web app with its tables full stays under
    1 GB."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 512
    return max(128, min(512, total // (8 * 1024 * 1024)))


class TableBudget:
    """Table megabytes charged to the games that keep bots (thread-safe).

    ``live(game_id)`` answers whether a charged game still keeps its bots; it is asked
    without this budget's lock held (it may read the game), so a charge is returned
    at the next :meth:`take` after its game let its bots go.
    """

    def __init__(self, total: int, per_client: int, live: Callable[[str], bool]) -> None:
        self.total = total
        self.per_client = per_client
        self._live = live
        self._charges: dict[str, tuple[tuple[str, ...], int]] = {}
        self._lock = threading.Lock()

    def take(self, game_id: str, clients: tuple[str, ...], mb: int) -> None:
        """Charge ``mb`` to ``game_id`` for ``clients``; :class:`TooMany` (429), charging
        nothing, when the server's or a client's budget would be exceeded."""
        if mb <= 0:
            return
        with self._lock:
            charged = list(self._charges)
        gone = [g for g in charged if not self._live(g)]
        with self._lock:
            for game in gone:
                self._charges.pop(game, None)
            used = sum(mb for _, mb in self._charges.values())
            if used + mb > self.total:
                raise TooMany(
                    f"the bots playing on this server hold {used} MB of search tables and "
                    f"this game's would add {mb} MB, beyond the server's {self.total} MB; "
                    "choose smaller tables (tt, tree) or try again later",
                    code="table_budget",
                )
            for client in clients:
                mine = sum(m for owners, m in self._charges.values() if client in owners)
                if mine + mb > self.per_client:
                    kind = client.split(" ", 1)[0]
                    raise TooMany(
                        f"your {kind}'s games hold {mine} MB of search tables and this "
                        f"game's would add {mb} MB, beyond the {self.per_client} MB one "
                        "client may hold; choose smaller tables (tt, tree) or finish a game",
                        code="table_budget",
                    )
            self._charges[game_id] = (clients, mb)

    def give(self, game_id: str) -> None:
        """Return ``game_id``'s charge (a no-op without one)."""
        with self._lock:
            self._charges.pop(game_id, None)

    def used(self) -> int:
        """Megabytes charged now (games that let their bots go included until the next
        :meth:`take`)."""
        with self._lock:
            return sum(mb for _, mb in self._charges.values())
