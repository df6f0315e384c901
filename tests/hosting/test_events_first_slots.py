"""Events first through the real server (its builder, the sandbox, the system's Python):
with one slot for hosted programs held by a ladder game, an event's round starts at
once, the ladder game stopped for it (aborted, detail ``event-needs-slot``), rather
than after the ladder game's end. The rule's own tests: tests/league/test_events_first.py."""

from __future__ import annotations

from pathlib import Path

from adjacency.league.league_file import LeagueStore, StoredGame
from hosted_helpers import accepted, files_zip, first_empty_program, new_league, served
from league_helpers import add_member, upload, wait_until
from sandbox_helpers import own_sandboxes

SLOW = first_empty_program(
    "slow",
    """\
def think():  # words: the "go" line just read
    movetime = int(words[words.index("movetime") + 1]) if "movetime" in words else 0
    time.sleep(2.5 if movetime > 8000 else 0.5)
""",
)
"""Half a second a move in its checks (at most 5 s a move), 2.5 s in a game on the
league's 60 s clock: a game of 8 plies holds its slot for 20 seconds, far longer than
the server takes to start an event's round, even on a loaded machine (half a second a
move in games let a ladder game end on its own first)."""


def playing(db: Path) -> list[StoredGame]:
    with LeagueStore(db, create=False) as store:
        return store.games.games(status="playing")


def test_an_events_round_takes_the_slot_a_ladder_game_holds(folder: Path) -> None:
    league = new_league(folder, base=60.0)
    names = [f"team{number}" for number in range(1, 5)]
    tokens = [add_member(league, name) for name in names]
    with served(league, hosted_jobs=1) as (url, app):
        for token in tokens:
            assert upload(url, files_zip({"engine.py": SLOW}), token).status == 201
        for token in tokens:
            accepted(url, token)
        ladder = wait_until(lambda: playing(league), 40, "a ladder game in play")[0]
        with LeagueStore(league, create=False) as store:
            busy = {store.members.member(ladder.x_id).name, store.members.member(ladder.o_id).name}
            free = [name for name in names if name not in busy][:2]
            store.events.create("cup", "round-robin", None, free)
            store.events.start("cup")

        def event_game() -> StoredGame | None:
            with LeagueStore(league, create=False) as store:
                pairs = store.events.event_pairs()
                found = [g for g in store.games.games() if g.pair_id in pairs]
            return found[0] if found else None

        started = wait_until(event_game, 20, "the event's game")
        with LeagueStore(league, create=False) as store:
            stopped = store.games.game(ladder.id)
        assert stopped is not None and stopped.status == "aborted", stopped
        assert stopped.detail_code == "event-needs-slot"
        assert started.id > ladder.id
        assert app.state.hosted.most_games == 1  # never more games than the slot
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
