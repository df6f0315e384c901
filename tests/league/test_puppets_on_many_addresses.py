"""Puppets on several addresses cannot occupy a bot nor fill a person's challenge slots
(docs/league.md, "Challenges"): people whose games are not rated yet hold at most two
open challenges to one member, whatever their addresses, while an established person's
challenge still gets through. Through the real league server behind a trusted proxy
(uvicorn believes ``X-Forwarded-For`` from 127.0.0.1), so each puppet names its own
address."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from adjacency.league.http.app import create_app
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from league_helpers import add_member, make_league, me
from web_helpers import uvicorn_thread


def post(url: str, path: str, body: Any, address: str, secret: str | None = None) -> Any:
    """POST ``body`` as a client at ``address``; ``(status, JSON answer)``."""
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    req = urllib.request.Request(
        url + path, json.dumps(body).encode(), method="POST", headers=headers
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_puppets_on_four_addresses_hold_two_challenges_to_a_bot_or_a_person(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    add_member(db, "house-greedy", "house", "greedy")
    app = create_app(db, limits=LeagueLimits(), builds=False)
    with uvicorn_thread(
        app, "the league server", proxy_headers=True, forwarded_allow_ips="127.0.0.1"
    ) as url:
        addresses = [f"10.0.{n}.1" for n in range(4)]
        puppets = []
        for n in range(8):  # two puppets on each of four addresses
            status, body = post(
                url, "/api/league/people", {"name": f"puppet{n}"}, addresses[n // 2]
            )
            assert status == 201, body
            puppets.append(body["secret"])

        def challenge(n: int, opponent: str) -> Any:
            return post(
                url, "/api/league/challenge", {"opponent": opponent}, addresses[n // 2], puppets[n]
            )

        assert challenge(0, "house-greedy")[0] == 201  # playing it
        assert [challenge(n, "house-greedy")[0] for n in (2, 4)] == [202, 202]  # queued
        status, refused = challenge(6, "house-greedy")  # a fourth address: still refused
        assert status == 409 and refused["code"] == "opponent_newcomers", refused

        status, body = post(url, "/api/league/people", {"name": "target"}, "10.0.9.1")
        target = body["secret"]
        me(url, target)  # present: challenges wait for the answer
        assert [challenge(n, "target")[0] for n in (1, 3)] == [202, 202]
        status, full = challenge(5, "target")
        assert status == 409 and full["code"] == "opponent_newcomers", full
        assert len(me(url, target)["challenges"]) == 2  # six slots left

        status, body = post(url, "/api/league/people", {"name": "ann"}, "10.0.8.1")
        ann = body["secret"]
        with LeagueStore(db) as store:  # a teacher approves her (`league approve`)
            store.members.approve("ann")
        status, made = post(url, "/api/league/challenge", {"opponent": "target"}, "10.0.8.1", ann)
        assert status == 202, made
