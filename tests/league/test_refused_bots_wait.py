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
import math
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from adjacency.client.connect import FIRST_TRIES, GIVE_UP_AFTER, ConnectError, LeagueClient
from adjacency.client.wire import CONNECT_PATH
from adjacency.league.http.app import create_app
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from adjacency.league.play.hall import Hall
from adjacency.league.play.house import HousePlayers
from adjacency.league.play.outbox import Outbox
from adjacency.league.play.presence import Presence
from adjacency.league.play.scheduler import RECONNECT_GRACE, REFUSED_WAIT
from adjacency.serving.sockets import ConnectionGuard, SocketLimits
from hall_helpers import Inbox
from league_helpers import add_member, make_league, wait_until
from web_helpers import uvicorn_thread

WAIT = 30.0
"""Seconds any one wait may take (a guard against hangs only)."""


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


def test_a_bot_the_league_refused_plays_its_event_games_through_the_server(
    tmp_path: Path,
) -> None:
    """Through the real server: another client behind the class's address spends the
    address's handshake rate, so the victim's ``adjacency connect`` is refused (429);
    past the restart's grace, when an absent bot loses at once, its event games wait
    for it, and it plays them once the league lets it in."""
    db = tmp_path / "league.db"
    make_league(db, base=600.0)
    victim, other = (add_member(db, name) for name in ("alice", "bob"))
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, ["alice", "bob"])
        store.events.start("cup")
    limits = LeagueLimits(connects_per_minute=60.0, address_burst=2)  # loopback limited
    app = create_app(db, limits=limits, house_games=False)
    with uvicorn_thread(app, "the league server", ws="websockets-sansio") as url:
        scheduler = app.state.hall.scheduler
        scheduler.up_since = math.inf  # the restart's grace holds until alice is refused
        said: dict[str, list[str]] = {"alice": [], "bob": []}
        clients = {name: LeagueClient(url, token, "random", games=2, announce=said[name].append)
                   for name, token in (("bob", other), ("alice", victim))}  # fmt: skip
        threads = {n: threading.Thread(target=c.run, daemon=True) for n, c in clients.items()}
        threads["bob"].start()
        wait_until(lambda: "connected as bob" in said["bob"], WAIT, "bob to connect")
        ws_url = url.replace("http://", "ws://") + CONNECT_PATH
        while True:  # the address's handshakes spent (no token: each is a 401, then 429)
            with pytest.raises(InvalidStatus) as spent:
                connect(ws_url, open_timeout=WAIT).close()
            if spent.value.response.status_code == 429:
                break
        threads["alice"].start()
        refused = "could not connect: the server answered 429"
        wait_until(lambda: any(refused in s for s in said["alice"]), WAIT, "alice refused")
        scheduler.up_since = time.monotonic() - RECONNECT_GRACE  # an absent bot loses at once
        for thread in threads.values():
            thread.join(WAIT)
        assert not any(thread.is_alive() for thread in threads.values()), said
    with LeagueStore(db) as store:
        event = store.events.named("cup")
        games = [store.games.game(i) for i in store.events.game_ids(event.id)]
    assert event.status == "finished" and len(games) == 2, said
    assert all(g is not None and g.detail_code != "absent" and g.plies > 0 for g in games), games


class _Transport(asyncio.BaseTransport):
    """A connection's transport as the guard reads it: its peer's address."""

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("10.0.0.7", 40000) if name == "peername" else default


def test_a_connection_the_servers_guard_refused_holds_absent_bots_games(tmp_path: Path) -> None:
    """The app reads its connection guard's last refusal (made before any request was
    read, so whose it was is unknown): from then, every absent bot's event game waits."""
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "blue")
    with LeagueStore(db) as store:
        bot = store.members.member_named("blue").id
    app = create_app(db, house_games=False)
    try:
        presence = app.state.hall.presence
        assert presence.refused_elsewhere() is None  # served without a guard: none
        guard = ConnectionGuard(SocketLimits(per_address=1))
        app.state.connections = guard  # as socket_options gives the app its guard
        assert guard.admit(_Transport()) and not presence.held({bot}, REFUSED_WAIT)
        assert not guard.admit(_Transport())  # the address's cap: refused before a request
        assert presence.held({bot}, REFUSED_WAIT)
    finally:
        app.state.heavy.close()
        app.state.reader.close()
        app.state.store.close()
