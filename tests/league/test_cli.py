"""The ``adjacency league`` admin commands and ``adjacency connect``'s refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore, token_hash
from cli_helpers import run
from league_helpers import add_member, env, make_league, thread_server


def test_create_add_revoke_rotate_and_house_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "league.db")
    status, out, _ = run(capsys, "league", "create", "--db", db, "--rows", "6", "--cols", "6",
                         "--rounds", "5", "--clock", "30+0.5")  # fmt: skip
    assert status == 0 and "6x6, 5 rounds, 30+0.5" in out
    admin = out.split("Admin token (shown once, keep it secret): ")[1].split()[0]
    status, _, err = run(capsys, "league", "create", "--db", db)
    assert status == 2 and "already holds a league" in err
    status, out, _ = run(capsys, "league", "add-bot", "team-1", "--db", db)
    token = out.strip().splitlines()[-1]
    assert status == 0 and token.startswith("adjl_")
    with LeagueStore(db) as store:
        assert store.meta.is_admin(admin)
        assert store.members.authenticate(token) is not None
        assert token not in "".join(str(row) for row in store.db.execute("SELECT * FROM members"))
        assert store.db.execute("SELECT token_hash FROM members").fetchone()[0] == token_hash(token)
    status, _, err = run(capsys, "league", "add-bot", "team 1", "--db", db)
    assert status == 2 and "not allowed" in err
    status, _, err = run(capsys, "league", "add-house", "cmd:sh -c evil", "--db", db)
    assert status == 2 and "cannot be house bots" in err
    status, _, err = run(capsys, "league", "add-house", "py:evil.py:Bot", "--db", db)
    assert status == 2 and "py: bots cannot be house bots" in err
    status, _, err = run(capsys, "league", "add-house", "nonsense:depth=2", "--db", db)
    assert status == 2
    status, out, _ = run(capsys, "league", "add-house", "alphabeta:depth=2", "--db", db)
    assert status == 0 and "alphabeta-depth-2" in out
    status, _, _ = run(capsys, "league", "revoke", "team-1", "--db", db)
    assert status == 0
    status, out, _ = run(capsys, "league", "rotate", "team-1", "--db", db)
    fresh = out.strip().splitlines()[-1]
    with LeagueStore(db) as store:
        assert (
            store.members.authenticate(token) is None
            and store.members.authenticate(fresh) is not None
        )
    status, _, err = run(capsys, "league", "revoke", "nobody", "--db", db)
    assert status == 2 and "no member named" in err
    status, out, _ = run(capsys, "league", "standings", "--db", db)
    assert status == 0 and "team-1" in out and "alphabeta-depth-2" in out
    status, _, err = run(capsys, "league", "add-bot", "x", "--db", str(tmp_path / "none.db"))
    assert status == 2 and "no league database" in err
    assert not (tmp_path / "none.db").exists()  # a refusal creates nothing


def test_the_admin_token_can_come_from_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "league.db")
    secret = tmp_path / "admin.txt"
    secret.write_text("short\n")
    status, _, err = run(capsys, "league", "create", "--db", db, "--admin-token-file", str(secret))
    assert status == 2 and "at least 16 characters" in err
    secret.write_text("a-long-admin-token-from-a-file\n")
    status, out, _ = run(capsys, "league", "create", "--db", db, "--admin-token-file", str(secret))
    assert status == 0 and "Admin token" not in out and "a-long-admin" not in out
    with LeagueStore(db) as store:
        assert store.meta.is_admin("a-long-admin-token-from-a-file")


def test_serve_refuses_settings_other_than_the_leagues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    status, _, err = run(capsys, "league", "serve", "--db", str(db), "--rounds", "9")
    assert status == 2 and "settings never change" in err
    status, _, err = run(capsys, "league", "serve", "--db", str(db), "--certfile", "c.pem")
    assert status == 2 and "go together" in err


def test_connect_gives_up_on_a_refused_token_without_echoing_it(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "real")
    wrong = "adjl_" + "W" * 22
    with thread_server(db) as url:
        done = subprocess.run(
            [sys.executable, "-m", "adjacency", "connect", url, "random", "--token", wrong],
            capture_output=True,
            text=True,
            env=env(),
            timeout=120,
        )
    assert done.returncode == 2
    assert "refused this token (401" in done.stderr and wrong not in done.stderr
    assert "Traceback" not in done.stderr
