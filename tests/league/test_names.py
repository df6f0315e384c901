"""Member names: a name starts with a letter or a digit, is not one of the
league's own words, and cannot be told apart from no member's (case, look-alike
characters); refused over HTTP (400 or 409 with the reason) and by the CLI (one line,
status 2), changing nothing, while members stored under the old rules still load."""

from __future__ import annotations

import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.league.http.app import create_app
from adjacency.league.league_file import LeagueError, LeagueStore
from adjacency.league.store.names import NAME_CHARS, RESERVED, skeleton
from adjacency.league.store.records import NameTaken
from cli_helpers import run_process
from league_helpers import ADMIN, env, get, make_league, request, thread_server

LOOK_ALIKES = [("o", "0"), ("l", "1"), ("l", "I"), ("i", "1"), ("s", "5"), ("m", "rn"),
               ("w", "vv"), ("d", "cl"), ("-", "_"), ("-", "."), ("a", "A")]  # fmt: skip
"""(letter, what can stand for it) pairs a look-alike name is made with."""

names = st.text(alphabet=sorted(NAME_CHARS), min_size=1, max_size=32)


@given(names)
def test_the_skeleton_is_idempotent(name: str) -> None:
    assert skeleton(skeleton(name)) == skeleton(name)


@settings(max_examples=30, deadline=None)  # each example creates a league file
@given(
    st.text(alphabet="abcdefghjkmnopstuvwxyz", min_size=3, max_size=12),
    st.lists(st.sampled_from(LOOK_ALIKES), min_size=1, max_size=4),
)
def test_two_names_with_one_skeleton_cannot_both_be_members(
    tmp_path_factory: pytest.TempPathFactory, base: str, swaps: list[tuple[str, str]]
) -> None:
    name = "t" + base
    alike = name
    for letter, stand_in in swaps:
        alike = alike.replace(letter, stand_in, 1)
    alike = alike[:32]
    assert skeleton(alike) == skeleton(name)
    db = tmp_path_factory.mktemp("names") / "league.db"
    make_league(db)
    with LeagueStore(db) as store:
        store.members.add_member(name, "person")
        with pytest.raises(NameTaken):
            store.members.add_member(alike, "person")
        assert [m.name for m in store.members.members()] == [name]


def test_every_route_word_is_reserved(tmp_path: Path) -> None:
    """The league's own paths cannot be member names: a new route's words must be added
    to RESERVED (or this fails)."""
    db = tmp_path / "league.db"
    make_league(db)
    app = create_app(db)
    words = set()
    for route in app.routes:
        for part in str(getattr(route, "path", "")).strip("/").split("/"):
            if part and "{" not in part:
                words.add(part.lower())
    assert words and words <= RESERVED, sorted(words - RESERVED)


BAD_FORM = [".", "..", "-", "--help", "-rf", "_x", ".hidden"]
RESERVED_NAMES = ["admin", "root", "house", "Adm1n", "ROOT", "play", "api", "static", "bot"]


def test_http_join_refuses_bad_reserved_and_look_alike_names(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with thread_server(db, house_games=False) as url:
        joined = request(f"{url}/api/league/people", "POST", {"name": "mallory"})
        assert joined.status == 201
        for name in BAD_FORM:
            answer = request(f"{url}/api/league/people", "POST", {"name": name})
            assert answer.status == 400, (name, answer)
            assert "must start with a letter or a digit" in answer.body["detail"]
        for name in RESERVED_NAMES:
            answer = request(f"{url}/api/league/people", "POST", {"name": name})
            assert answer.status == 400, (name, answer)
            assert "reserved" in answer.body["detail"]
        for name in ["mal1ory", "MaIlory", "rnallory", "ma11ory"]:
            answer = request(f"{url}/api/league/people", "POST", {"name": name})
            assert answer.status == 409, (name, answer)
            assert answer.body["detail"] == (
                f"name '{name}' is too much like the member 'mallory''s (letters and "
                "digits that look alike, or case): choose another"
            )
        taken = request(f"{url}/api/league/people", "POST", {"name": "MALLORY"})
        assert taken.status == 409 and "exists already" in taken.body["detail"]
        added = request(
            f"{url}/api/league/admin/members", "POST", {"name": "adm1n", "kind": "bot"}, ADMIN
        )
        assert added.status == 400 and "reserved" in added.body["detail"]
    with LeagueStore(db) as store:  # nothing but mallory was added
        assert [m.name for m in store.members.members()] == ["mallory"]


def league_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return run_process("league", *argv, env=env())


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("admin", "name 'admin' is reserved"),
        ("h0use", "name 'h0use' looks like 'house', which is reserved"),
        ("-rf", "must start with a letter or a digit"),
        ("..", "must start with a letter or a digit"),
        ("team-b1ue", "too much like the member 'team-blue''s"),
        ("Team-Blue", "a member named 'team-blue' exists already"),
    ],
)
def test_the_cli_refuses_with_one_line_and_status_2(
    tmp_path: Path, name: str, message: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueStore(db) as store:
        store.members.add_member("team-blue", "bot")
    done = league_cli("add-bot", "--db", str(db), "--", name)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr, done.stderr
    with LeagueStore(db) as store:
        assert [m.name for m in store.members.members()] == ["team-blue"]


def test_members_stored_under_the_old_rules_still_load(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with sqlite3.connect(db) as raw:  # what a league of the old rules could hold
        for name in ("-rf", "admin", "mal1ory"):
            raw.execute(
                "INSERT INTO members (name, kind, token_hash, created) VALUES (?, 'bot', ?, ?)",
                (name, f"hash-{name}", time.time()),
            )
    with LeagueStore(db) as store:
        assert [m.name for m in store.members.members()] == ["-rf", "admin", "mal1ory"]
        with pytest.raises(LeagueError, match="too much like"):
            store.members.add_member("mallory", "bot")  # the old member's look-alikes stay refused
    with thread_server(db, house_games=False) as url:
        names = {row["name"] for row in get(f"{url}/api/league/standings")}
        assert names == {"-rf", "admin", "mal1ory"}
        assert get(f"{url}/api/league/members/-rf")["name"] == "-rf"
    done = league_cli("revoke", "--db", str(db), "--", "-rf")
    assert done.returncode == 0, done.stderr
