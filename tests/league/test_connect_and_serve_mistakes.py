"""What the league's commands do with a user's mistakes, through the real command line:

* ``adjacency connect`` to an address that answers but is no league says so (not "the
  league refused this token"), and to a port where nothing listens says so and gives up
  after a bounded number of tries; both end at once with one line, no traceback;
* ``connect --games N`` plays N games and leaves without losing another on time (it says
  it is leaving once its last game has started);
* ``league serve`` on a port in use creates no league file and prints no admin token;
  ``serve --rows 8 --cols 8`` on a 6x6 league is refused (given settings are checked
  even when they equal the defaults).
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from cli_helpers import run
from league_helpers import add_member, env, make_league, thread_server
from net_helpers import reserved_port

pytestmark = pytest.mark.slow


def connect(url: str, token: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "adjacency", "connect", url, "random", *extra],
        capture_output=True, text=True, timeout=120,
        env={**env(), "ADJACENCY_LEAGUE_TOKEN": token},
    )  # fmt: skip


def test_connect_to_an_address_that_is_no_league_says_so_and_stops(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "team")
    with thread_server(db) as url:
        done = connect(f"{url}/not-the-league", token)
    assert done.returncode == 2, done.stderr
    assert "no league answers at ws://127.0.0.1:" in done.stderr
    assert "refused this token" not in done.stderr and "Traceback" not in done.stderr
    assert token not in done.stderr


def test_connect_where_nothing_listens_says_so_and_gives_up(tmp_path: Path) -> None:
    with reserved_port() as port:  # held, never listening: every try is refused
        done = connect(f"http://127.0.0.1:{port}", "adjl_" + "T" * 22)
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("could not connect: nothing listens at 127.0.0.1:") == 5
    assert "gave up after 5 tries" in done.stderr and "Traceback" not in done.stderr


def test_connect_with_games_leaves_without_losing_one_more_game(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "house-random", "house", "random")
    token = add_member(db, "team")
    with thread_server(db, house_games=False) as url:
        done = connect(url, token, "--games", "2")
        with LeagueStore(db) as store:  # what the server holds right after the client left
            team = store.members.member_named("team").id
            games = store.games.games(team)
    assert done.returncode == 0, done.stderr
    assert [g.status for g in games] == ["finished", "finished"]
    assert {g.termination for g in games} == {"normal"}


def test_serve_on_a_port_in_use_creates_no_league_and_prints_no_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        status, out, err = run(capsys, "league", "serve", "--db", str(db), "--port", port)
    assert status == 2 and f"cannot listen on 127.0.0.1:{port}" in err
    assert not db.exists() and "token" not in (out + err).lower()


def test_serve_refuses_given_settings_equal_to_the_defaults_on_another_league(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db)  # 6x6, 4 rounds
    status, _, err = run(capsys, "league", "serve", "--db", str(db), "--port", "0",
                         "--rows", "8", "--cols", "8")  # fmt: skip
    assert status == 2 and "settings never change" in err
    assert "rows 6, not 8" in err and "cols 6, not 8" in err and "rounds" not in err
