"""An upgrade as docs/deploy.md does it: the league file an earlier version made, served
by this version's systemd command line, keeps its games and plays on.

The file is the fixture main at cb03095 wrote through its own store (before numbered
schema versions: tests/data/stores/cb03095/league.db, a 6x6 league with the bot
``alpha``, the house bot ``beta``, two finished games, one in flight and an event). The
server upgrades it in place when it opens it; the in-flight game is aborted unrated; a
new token for ``alpha`` is made while the server runs; ``alpha`` plays a game through
the real ``adjacency connect``; and the upgraded league backs up.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore, StoredGame
from adjacency.league.store.schema import STORE_SCHEMA
from adjacency.storage import APPLICATION_IDS
from deploy_helpers import league_command
from league_helpers import ADMIN, env, spawn, start_client, wait_until
from store_helpers import DATA, header

pytestmark = pytest.mark.slow


def finished_games(db: Path) -> list[StoredGame]:
    with LeagueStore(db, create=False) as store:
        return store.games.games(
            store.members.member_named("alpha").id, status="finished", with_record=True
        )


def test_a_league_made_by_an_earlier_version_is_served_after_the_upgrade(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    shutil.copyfile(DATA / "cb03095" / "league.db", db)
    assert header(db)[1] == 0  # from before numbered versions
    token_file = tmp_path / "admin-token"
    token_file.write_text(ADMIN + "\n")
    server = spawn(league_command(db, 0, token_file), tmp_path / "league.log")
    try:
        wait_until(lambda: "ready at" in server.text(), 60, "the league to start")
        assert server.popen.poll() is None, server.text()
        assert header(db) == (APPLICATION_IDS["league"], STORE_SCHEMA.version)
        rotated = subprocess.run(
            [sys.executable, "-m", "adjacency", "league", "rotate", "alpha", "--db", str(db)],
            capture_output=True,
            text=True,
            env=env(),
            timeout=60,
        )
        assert rotated.returncode == 0, rotated.stderr
        token = rotated.stdout.strip().splitlines()[-1]
        client = start_client(server.url, token, "greedy", tmp_path / "client.log")
        try:
            wait_until(lambda: len(finished_games(db)) == 3, 60, "a game of alpha's")
        finally:
            client.stop()
    finally:
        server.stop()
    finished = finished_games(db)
    with LeagueStore(db, create=False) as store:
        aborted = store.games.games(store.members.member_named("alpha").id, status="aborted")
    assert len(finished) == 3  # the two the earlier version stored, and the new one
    assert [g.record for g in finished].count("record") == 2  # the old games' records kept
    assert len(aborted) == 1  # the game in flight in the old file, aborted unrated
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "adjacency",
            "league",
            "backup",
            "--db",
            str(db),
            "--out",
            str(tmp_path / "after-upgrade.db"),
        ],
        capture_output=True,
        text=True,
        env=env(),
        timeout=60,
    )
    assert done.returncode == 0 and "3 finished games, 2 members" in done.stdout, done
