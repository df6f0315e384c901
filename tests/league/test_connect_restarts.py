"""``adjacency connect`` stays through server restarts, with a real ``adjacency league
serve`` process and ten real ``adjacency connect`` processes:

* during an event (a Swiss of ten bots), the server is killed with ``kill -9`` twice
  and each time started again on the same port and file, only after every client has
  failed to reconnect twice (so a client that counted its failures since it first
  connected, or took a lost connection for a first connection that never worked,
  would have quit); every client is still running afterwards, reconnected by itself
  each time, said each try with its wait, and played a game to its end on the board
  after the second restart; every game the event finished ended on the board, and the
  games in flight at the kills were aborted and played again;
* after a connection that worked, the client tries again for its whole
  ``GIVE_UP_AFTER`` (on a fake clock: no test waits ten minutes), one line a try, and
  only then gives up.

The wait for the ten bots to connect looks at the standings four times a second
(:data:`league_helpers.POLL`), not fifty: each look is the server's work, taken from
the connections it waits for. It ends at most a quarter second after they are all
connected; what it waits for is unchanged.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from adjacency.client.connect import BACKOFF_MAX, GIVE_UP_AFTER, ConnectError, LeagueClient
from adjacency.league.league_file import LeagueStore
from league_helpers import (
    POLL,
    Process,
    add_member,
    get,
    make_league,
    start_client,
    start_server,
    thread_server,
    wait_until,
)

pytestmark = pytest.mark.slow

WAIT = 45.0
"""Seconds any one wait may take before the test fails (a guard against hangs only)."""

TEAMS = [f"team-{i}" for i in range(10)]
ROUND = len(TEAMS)
"""Games a round of the Swiss plays: five boards, a colour-swapped pair each."""


def event_games(db: Path) -> tuple[str, list[int], list[int]]:
    """The event's status, its finished games and its games in play."""
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("friday")
        return event.status, events.game_ids(event.id), events.game_ids(event.id, "playing")


def kill_during_round(db: Path, server: Process, round_index: int) -> set[int]:
    """``kill -9`` the server while a game of round ``round_index`` (from 0) is in play,
    after at least one of the round's games finished; the games in flight then."""
    low, high = round_index * ROUND, (round_index + 1) * ROUND

    def in_the_round() -> bool:
        _, finished, playing = event_games(db)
        return low < len(finished) < high and bool(playing)

    wait_until(in_the_round, WAIT, f"games of round {round_index + 1} in play")
    server.kill()
    in_flight = set(event_games(db)[2])
    assert in_flight
    return in_flight


def test_ten_clients_play_on_through_two_kill_9_restarts_during_an_event(
    tmp_path: Path, held_port: int
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=20.0, increment=0.1)  # 6x6, 4 rounds: 8 plies a game
    tokens = {name: add_member(db, name) for name in TEAMS}
    with LeagueStore(db) as store:  # what `league event create` does
        store.events.create("friday", "swiss", 3, TEAMS, pace=0.05)
    url = f"http://127.0.0.1:{held_port}"
    log = tmp_path / "server.log"
    serve = ("--pause", "600")  # a bot rests after a ladder game: the event's games only
    server = start_server(db, held_port, log, *serve)
    clients = {
        name: start_client(url, tokens[name], ("greedy", "random")[i % 2], tmp_path / f"{name}.log")
        for i, name in enumerate(TEAMS)
    }
    in_flight: set[int] = set()
    try:
        wait_until(
            lambda: all(r["online"] for r in get(f"{url}/api/league/standings")
                        if r["name"] in TEAMS),
            WAIT,
            "the ten bots to connect",
            POLL,
        )  # fmt: skip
        with LeagueStore(db) as store:  # what `league event start` does
            store.events.start("friday")
        for round_index in (0, 1):
            seen = {name: len(client.text()) for name, client in clients.items()}
            in_flight |= kill_during_round(db, server, round_index)

            def failed_twice(seen: dict[str, int] = seen) -> bool:
                return all(
                    client.text()[seen[name] :].count("could not reconnect:") >= 2
                    for name, client in clients.items()
                )

            wait_until(failed_twice, WAIT, "every client to fail two tries at the dead server")
            last_game = max(event_games(db)[1] + list(in_flight))
            server = start_server(db, held_port, log, *serve)
        wait_until(lambda: event_games(db)[0] == "finished", WAIT, "the event to finish")
        still_running = {name for name, client in clients.items() if client.popen.poll() is None}
    finally:
        for client in clients.values():
            client.stop()
        server.stop()

    assert still_running == set(TEAMS)
    for name, client in clients.items():
        text = client.text()
        assert text.count("connected as") == 3, (name, text)  # the start and two restarts
        assert text.count("connection lost: the connection broke without a close") == 2, text
        assert "reconnecting in " in text and " s left before giving up)" in text, text
        assert "gave up" not in text and "Traceback" not in text, text
        after = [line for line in text.splitlines() if line.startswith("game ") and
                 " ended: " in line and int(line.split()[1].rstrip(":")) > last_game]  # fmt: skip
        assert any(line.endswith("(normal)") for line in after), (name, text)
    with LeagueStore(db) as store:
        event = store.events.named("friday")
        finished = store.events.game_ids(event.id)
        assert set(store.events.game_ids(event.id, "aborted")) == in_flight
        games = [store.games.game(game_id) for game_id in finished]
    assert len(games) == 3 * ROUND  # every leg of every pair once, the aborted ones again
    assert {(g.termination, g.status) for g in games if g is not None} == {("normal", "finished")}
    assert "Traceback" not in log.read_text()


def test_after_a_connection_that_worked_it_tries_for_its_whole_give_up_time(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "team")
    lines: list[str] = []
    now = [0.0]
    slept: list[float] = []

    def fake_sleep(seconds: float) -> None:  # the tries are real, the waits are not
        slept.append(seconds)
        now[0] += seconds

    outcome: list[BaseException] = []
    with thread_server(db) as url:
        client = LeagueClient(url, token, "random", announce=lines.append, sleep=fake_sleep,
                              clock=lambda: now[0])  # fmt: skip

        def play() -> None:
            try:
                client.run()
            except BaseException as exc:  # what the run ended with
                outcome.append(exc)

        runner = threading.Thread(target=play, daemon=True)
        runner.start()
        wait_until(lambda: "connected as team" in lines, WAIT, "the client to connect")
    runner.join(WAIT)  # the server stopped: the client tries until it gives up
    assert not runner.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], ConnectError), outcome
    assert f"gave up: no connection for {GIVE_UP_AFTER:g} s" in str(outcome[0])
    assert now[0] >= GIVE_UP_AFTER and max(slept) <= 1.5 * BACKOFF_MAX
    tries = [line for line in lines if line.startswith("could not reconnect:")]
    assert len(tries) == len(slept)  # one line a try (the last one gives up instead)
    lost = lines[lines.index("connected as team") + 1]  # the server stopped in order
    assert lost.startswith("connection lost: the server closed the connection (1012: restarting)")
    assert tries[0].startswith("could not reconnect: nothing listens at 127.0.0.1:")
    assert f"; try 2 in {slept[1]:.1f} s (" in tries[0]
