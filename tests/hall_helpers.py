"""Helpers of the tests that drive the league's hall directly (no HTTP): a hall on a new
league in a temporary folder, and bots "connected" to it through an in-memory inbox."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from adjacency.league.league_file import LeagueStore, Member
from adjacency.league.play.hall import Hall
from adjacency.league.play.house import HousePlayers
from adjacency.league.play.outbox import Outbox
from adjacency.league.rules import LeagueRules
from adjacency.league.settings import LeagueSettings


class Inbox:
    """What a member's connection received."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]


def run(
    test: Callable[[LeagueStore, Hall], Awaitable[None]], tmp_path: Path, **settings: Any
) -> None:
    """Run ``test(store, hall)`` on a new 6x6, 4-round league on a 60+0 clock (``settings``
    change it) with the rules' shortest game off; the hall is stopped afterwards."""

    async def main() -> None:
        store = LeagueStore(tmp_path / "league.db")
        values: dict[str, Any] = {"rows": 6, "cols": 6, "rounds": 4, "base": 60.0, "increment": 0.0}
        store.meta.create(LeagueSettings(**{**values, **settings}), "adjl_a")
        store.meta.set_rules(LeagueRules(min_game=0.0))
        hall = Hall(store, HousePlayers())
        try:
            await test(store, hall)
        finally:
            await hall.stop()
            store.close()

    asyncio.run(main())


def connect(hall: Hall, member: Member) -> Inbox:
    """Attach ``member`` to the hall as a connected bot; its inbox."""
    inbox = Inbox()
    hall.attach(Outbox(member, inbox.send))
    return inbox
