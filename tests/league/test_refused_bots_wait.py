"""A refusal the league made itself never becomes a forfeit.

An event game whose bot is not connected is its loss at once (an absence), unless the
league itself refused that bot's connection lately (its rates, its connection caps, its
reserved places): then the game waits for it, for :data:`REFUSED_WAIT` seconds after
the last refusal (the client tries again within seconds, each refusal starting the wait
again). A connection the league refused before it knew whose it was (the connection
guard's, or over an address's rate) holds every absent bot's game so. And the client
never gives up on a league that answered with such a refusal before its whole give-up
time.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from adjacency.client.connect import FIRST_TRIES, GIVE_UP_AFTER, ConnectError, LeagueClient
from adjacency.league.league_file import LeagueStore
from adjacency.league.play.hall import Hall
from adjacency.league.play.house import HousePlayers
from adjacency.league.play.outbox import Outbox
from adjacency.league.play.presence import Presence
from adjacency.league.play.scheduler import RECONNECT_GRACE, REFUSED_WAIT
from hall_helpers import Inbox
from league_helpers import add_member, make_league


def _refuse_blue(presence: Presence, blue: int, how: str) -> None:
    """The league refuses a connection now: blue's own, one whose bot it could not
    tell, or one its connection guard refused before any request was read."""
    if how == "blue's":
        presence.refuse(blue)
    elif how == "unknown":
        presence.refuse(None)
    else:
        at = time.monotonic()
        presence.refused_elsewhere = lambda: at  # the guard's last refusal, as the app reads it


def _forget(presence: Presence, how: str) -> None:
    """Make the last refusal ``REFUSED_WAIT`` seconds old."""
    if how == "blue's":
        presence.refused = {m: t - REFUSED_WAIT for m, t in presence.refused.items()}
    elif how == "unknown":
        presence.anyone_refused -= REFUSED_WAIT
    else:
        at = presence.refused_elsewhere()
        assert at is not None
        presence.refused_elsewhere = lambda: at - REFUSED_WAIT


@pytest.mark.parametrize("how", ["blue's", "unknown", "guard"])
def test_an_event_game_waits_for_a_bot_the_league_refused(tmp_path: Path, how: str) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("red", "blue"):
        add_member(db, name)

    async def main() -> None:
        with LeagueStore(db) as store:
            store.events.create("cup", "round-robin", None, ["red", "blue"])
            store.events.start("cup")
            hall = Hall(store, HousePlayers())
            try:
                red = Outbox(store.members.member_named("red"), Inbox().send)
                red.leaving = True  # its event's games only
                hall.attach(red)
                hall.scheduler.up_since -= RECONNECT_GRACE  # past the restart's grace
                blue = store.members.member_named("blue").id
                _refuse_blue(hall.presence, blue, how)
                assert hall.scheduler.pair() == []  # it waits for blue
                assert store.games.games() == []
                _forget(hall.presence, how)  # no refusal for REFUSED_WAIT: blue is absent
                [live] = hall.scheduler.pair()
                assert live.game.result is not None  # its loss at once, as any absence
                [game] = store.games.games()
                assert game.detail_code == "absent" and game.points(blue) == 0
            finally:
                await hall.stop()

    asyncio.run(main())


def test_the_client_tries_a_league_that_refused_it_for_its_whole_give_up_time() -> None:
    now = [0.0]
    lines: list[str] = []

    def wait(seconds: float) -> None:
        now[0] += seconds

    client = LeagueClient("http://127.0.0.1:1", "t", "random", announce=lines.append,
                          sleep=wait, clock=lambda: now[0])  # fmt: skip

    def refused() -> str:
        raise ConnectError("the server answered 429 your address holds 256 connections",
                           answered=True)  # fmt: skip

    client._session = refused  # type: ignore[method-assign]
    with pytest.raises(ConnectError, match=f"gave up: no connection for {GIVE_UP_AFTER:g} s"):
        client.run()
    tries = [line for line in lines if line.startswith("could not connect: the server answered")]
    assert len(tries) > FIRST_TRIES and now[0] >= GIVE_UP_AFTER
    assert "s left before giving up)" in tries[-1]
