"""Separators in look-alike names (docs/league.md, "Names"): ``-``, ``_`` and ``.`` are
all but invisible in a list of names, so the skeleton drops them; ``bob.``, ``m.allory``,
``a_l_i_c_e`` and ``Admin.`` are refused over HTTP as look-alikes of members (or of the
league's own word), and nothing is stored."""

from __future__ import annotations

from pathlib import Path

from adjacency.league.league_file import LeagueStore
from adjacency.league.store.names import skeleton
from league_helpers import join, make_league, request, thread_server


def test_names_that_differ_only_by_separators_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with thread_server(db) as url:
        for name in ("bob", "mallory", "alice", "greedy"):
            join(url, name)
        for alike, member in (
            ("bob.", "bob"),
            ("m.allory", "mallory"),
            ("a_l_i_c_e", "alice"),
            ("greedy.", "greedy"),
            ("Ma-llory", "mallory"),
        ):
            refused = request(f"{url}/api/league/people", "POST", {"name": alike})
            assert refused.status == 409, (alike, refused)
            assert f"too much like the member '{member}'" in refused.body["detail"], refused
        reserved = request(f"{url}/api/league/people", "POST", {"name": "Admin."})
        assert reserved.status in (400, 409), reserved
        assert "looks like 'admin', which is reserved" in reserved.body["detail"], reserved
    with LeagueStore(db, create=False) as store:
        assert sorted(m.name for m in store.members.members()) == [
            "alice",
            "bob",
            "greedy",
            "mallory",
        ]


def test_the_skeleton_drops_every_separator() -> None:
    assert skeleton("a_l_i_c_e") == skeleton("alice") == skeleton("a.l-i_c.e")
    assert skeleton("bot-7") == skeleton("bot7") != skeleton("bot")
