"""People play people: a person whose play page is open (present: it asks ``/me``) can
be challenged by another person, and the game starts when they accept, over the real
HTTP API; a game between new people is
stored but unrated (docs/league.md, "What is rated")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.core import Position
from adjacency.league.play import presence as presence_module
from league_helpers import challenge, join, me, request


def test_two_people_play_a_game(league: tuple[str, Path]) -> None:
    url, _ = league
    ada, bob = join(url, "ada"), join(url, "bob")
    assert challenge(url, ada, "bob").status == 409  # bob's page has not asked: not present
    assert me(url, bob)["games"] == []  # bob's page is open now
    rows = {r["name"]: r for r in request(f"{url}/api/league/standings").body}
    assert rows["bob"]["online"] and rows["ada"]["online"]  # ada challenged from her page
    assert challenge(url, ada, "ada").status == 409  # nobody plays themselves
    waiting = challenge(url, ada, "bob")
    assert waiting.status == 202 and waiting.body["status"] == "waiting"
    number = waiting.body["challenge"]
    started = request(f"{url}/api/league/challenges/{number}/accept", "POST", {}, token=bob)
    assert started.status == 200 and started.body["color"] == "o"  # bob consented
    game = started.body["game"]
    assert me(url, bob)["games"] == [game]  # bob's page finds the game
    assert challenge(url, join(url, "cy"), "bob").status == 409  # bob is busy
    secrets = {"x": ada, "o": bob}

    def state() -> dict[str, Any]:
        answer: dict[str, Any] = request(f"{url}/api/league/games/{game}").body
        return answer

    while (now := state())["status"] == "playing":
        side = now["turn"]
        other = "o" if side == "x" else "x"
        move = Position.from_fen(now["fen"]).legal_moves()[0]
        played = f"{url}/api/league/games/{game}/move"
        assert request(played, "POST", {"move": move}, token=secrets[other]).status == 409
        assert request(played, "POST", {"move": move}, token=secrets[side]).status == 200
    assert now["termination"] == "normal"
    listed = request(f"{url}/api/league/games/{game}").body
    assert listed["status"] == "finished"
    rows = {r["name"]: r for r in request(f"{url}/api/league/standings").body}
    for name in ("ada", "bob"):  # two new people: stored, but unrated (docs/league.md)
        assert rows[name]["kind"] == "person" and rows[name]["games"] == 0
        assert (rows[name]["rating"], rows[name]["rd"]) == (1500.0, 350.0)
    assert request(f"{url}/api/league/games?member=ada").body[0]["rated"] is False


def test_a_person_stops_being_present_when_the_page_stops_asking(
    league: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _ = league
    ada, bob = join(url, "ada"), join(url, "bob")
    me(url, bob)
    monkeypatch.setattr(presence_module, "PRESENCE", 0.0)  # as if bob's last ask were long ago
    assert challenge(url, ada, "bob").status == 409
    monkeypatch.setattr(presence_module, "PRESENCE", 10.0)
    me(url, bob)
    assert challenge(url, ada, "bob").status == 202  # waits for bob's answer
