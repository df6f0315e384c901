"""``adjacency league remove NAME`` and the expiry of people who never played:
through the CLI beside a running server and through the admin API."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from adjacency.league.league_file import LeagueStore
from cli_helpers import run_process
from league_helpers import (
    ADMIN,
    add_member,
    env,
    get,
    join,
    make_league,
    request,
    thread_server,
    wait_until,
)


def league_cli(
    *argv: str, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run_process(*argv, env={**env(), **(extra_env or {})})


def test_remove_drops_the_token_and_connection_and_keeps_the_games(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "team-a")
    add_member(db, "sparring", "house", "random")
    with thread_server(db) as url:
        played = league_cli(
            "connect", url, "random", "--games", "1",
            extra_env={"ADJACENCY_LEAGUE_TOKEN": token},
        )  # fmt: skip
        assert played.returncode == 0, played.stderr
        games = get(f"{url}/api/league/games?member=team-a")
        finished = [g for g in games if g["status"] == "finished"]
        assert finished
        socket = url.replace("http://", "ws://") + "/api/league/connect"
        with connect(socket, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
            assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
            done = league_cli("league", "remove", "team-a", "--db", str(db))
            assert done.returncode == 0, done.stderr
            assert "its games stay in the history" in done.stdout
            with pytest.raises(ConnectionClosed):
                while True:  # the server closes it (its games go on: game_start, ...)
                    ws.recv(timeout=30)
        refused = request(f"{url}/api/league/me", token=token)
        assert refused.status == 401
        standings = get(f"{url}/api/league/standings")
        assert "team-a" not in {row["name"] for row in standings}
        assert "sparring" in {row["name"] for row in standings}
        history = get(f"{url}/api/league/games?member=sparring")
        kept = [g for g in history if g["id"] == finished[0]["id"]]
        assert kept and "team-a" in (kept[0]["x"], kept[0]["o"])
        assert get(f"{url}/api/league/games/{finished[0]['id']}")["status"] == "finished"
    again = league_cli("league", "rotate", "team-a", "--db", str(db))
    assert again.returncode == 2 and "was removed" in again.stderr
    taken = league_cli("league", "add-bot", "team-a", "--db", str(db))
    assert taken.returncode == 2 and "exists already" in taken.stderr
    with LeagueStore(db) as store:
        removed = store.members.member_named("team-a")
        assert removed.removed and removed.revoked
        assert store.members.pairable([removed.id])[removed.id][1] is None  # its token dropped


def test_removing_a_person_who_never_played_frees_the_name(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with thread_server(db, house_games=False) as url:
        secret = join(url, "ada")
        admin = f"{url}/api/league/admin/members"
        assert request(f"{admin}/ada/remove", "POST").status == 401
        removed = request(f"{admin}/ada/remove", "POST", token=ADMIN)
        assert removed.status == 200
        assert removed.body == {"name": "ada", "removed": True, "deleted": True}
        assert request(f"{url}/api/league/me", token=secret).status == 401
        assert request(f"{admin}/ada/remove", "POST", token=ADMIN).status == 404
        join(url, "ada")  # the name is free again
    done = league_cli("league", "remove", "nobody", "--db", str(db))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["adjacency league: error: no member named 'nobody'"]


def test_people_who_never_played_expire(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    made = league_cli(
        "league", "create", "--db", str(db), "--rows", "6", "--cols", "6",
        "--rounds", "4", "--people-expire-days", "3",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    bad = league_cli("league", "serve", "--db", str(db), "--people-expire-days", "-1")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    with LeagueStore(db) as store:
        assert store.meta.rules().people_expire_days == 3
        for name in ("idle-old", "player-old", "idle-new"):
            store.members.add_member(name, "person")
        house, _ = store.members.add_member("sparring", "house", "random")
    four_days_ago = time.time() - 4 * 86400
    with sqlite3.connect(db) as raw:
        raw.execute(
            "UPDATE members SET created = ? WHERE name IN ('idle-old', 'player-old')",
            (four_days_ago,),
        )
        player = raw.execute("SELECT id FROM members WHERE name = 'player-old'").fetchone()[0]
        raw.execute(  # player-old played once (an aborted game counts: it is history)
            "INSERT INTO games (x_id, o_id, opening, status, started) "
            "VALUES (?, ?, '6/6/6/6/6/6 x 4', 'aborted', ?)",
            (player, house.id, four_days_ago),
        )

    def names() -> set[str]:
        with LeagueStore(db) as store:
            return {m.name for m in store.members.members()}

    with thread_server(db, house_games=False):
        wait_until(lambda: "idle-old" not in names(), 60, "idle-old to expire")
    assert names() == {"player-old", "idle-new", "sparring"}
