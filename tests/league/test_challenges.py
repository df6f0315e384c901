"""People's challenges through the real server: a challenge to a
person waits for their answer (accepted, declined or expired, and the challenger is
told which); a challenge to a bot that is playing is queued and served as soon as the
bot is free, before the league pairs it again, with the place in the queue shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from adjacency.core import Position
from adjacency.league.play import challenges as challenges_module
from league_helpers import (
    add_member,
    challenge,
    join,
    me,
    receive,
    request,
    wait_until,
    ws_connect,
)


def state(url: str, secret: str, number: int) -> dict[str, Any]:
    answer = request(f"{url}/api/league/challenges/{number}", token=secret)
    assert answer.status == 200, answer
    return dict(answer.body)


def answer(url: str, secret: str, number: int, verdict: str) -> Any:
    return request(f"{url}/api/league/challenges/{number}/{verdict}", "POST", {}, token=secret)


def test_a_challenge_to_a_person_waits_for_their_answer(league: tuple[str, Path]) -> None:
    url, _ = league
    ada, bob, cy = join(url, "ada"), join(url, "bob"), join(url, "cy")
    me(url, bob)  # bob's play page is open
    made = challenge(url, ada, "bob")
    assert made.status == 202, made
    assert made.body["status"] == "waiting" and made.body["game"] is None
    assert 0 < made.body["expires_in"] <= challenges_module.ANSWER_TIME
    number = made.body["challenge"]
    assert request(f"{url}/api/league/live").body == []  # no game without bob's consent
    incoming = me(url, bob)["challenges"]
    assert [(c["challenge"], c["challenger"]) for c in incoming] == [(number, "ada")]
    assert answer(url, cy, number, "accept").status == 404  # not cy's challenge
    assert answer(url, ada, number, "accept").status == 403  # the challenger cannot accept
    assert request(f"{url}/api/league/challenges/{number}", token=cy).status == 404

    declined = answer(url, bob, number, "decline")
    assert declined.status == 200 and declined.body["status"] == "declined"
    told = state(url, ada, number)
    assert (told["status"], told["detail"]) == ("declined", "bob declined")
    assert (told["detail_code"], told["detail_params"]) == ("declined", {"player": "bob"})
    again = answer(url, bob, number, "accept")
    assert again.status == 409 and "declined" in again.body["detail"]
    assert request(f"{url}/api/league/live").body == []

    second = challenge(url, ada, "bob").body["challenge"]
    accepted = answer(url, bob, second, "accept")
    assert accepted.status == 200, accepted
    assert accepted.body["status"] == "started" and accepted.body["color"] == "o"
    game = accepted.body["game"]
    assert state(url, ada, second)["color"] == "x"
    assert me(url, ada)["games"] == [game] and me(url, bob)["games"] == [game]
    (live,) = request(f"{url}/api/league/live").body
    assert (live["id"], live["x"], live["o"]) == (game, "ada", "bob")


def test_an_unanswered_challenge_expires(
    league: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _ = league
    ada, bob = join(url, "ada"), join(url, "bob")
    me(url, bob)
    number = challenge(url, ada, "bob").body["challenge"]
    monkeypatch.setattr(challenges_module, "ANSWER_TIME", 0.0)  # as if a minute had passed
    told = state(url, ada, number)
    assert told["status"] == "expired" and told["detail"] == "bob did not answer in 0 s"
    assert me(url, bob)["challenges"] == []
    late = answer(url, bob, number, "accept")
    assert late.status == 409 and "expired" in late.body["detail"]
    assert request(f"{url}/api/league/live").body == []


def play_out(sockets: dict[str, ClientConnection], game: int) -> None:
    """Both bots answer every ``your_turn`` of ``game`` with the first legal move until
    it ends (each socket sees its own turns)."""
    ended: set[str] = set()
    while len(ended) < 2:
        for name, ws in sockets.items():
            if name in ended:
                continue
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "your_turn" and message["game"] == game:
                move = Position.from_fen(message["fen"]).legal_moves()[0]
                ws.send(json.dumps({"type": "move", "game": game, "move": move}))
            elif message["type"] == "game_end" and message["game"] == game:
                ended.add(name)


def test_a_challenge_to_a_playing_bot_is_queued_and_served_before_the_ladder(
    league: tuple[str, Path],
) -> None:
    url, db = league
    tokens = {name: add_member(db, name) for name in ("alpha", "beta")}
    ada, bob = join(url, "ada"), join(url, "bob")
    with ws_connect(url, tokens["alpha"]) as alpha, ws_connect(url, tokens["beta"]) as beta:
        first = receive(alpha, "game_start")  # the ladder pairs the two bots
        assert receive(beta, "game_start")["game"] == first["game"]
        queued = challenge(url, ada, "alpha")
        assert queued.status == 202, queued
        assert (queued.body["status"], queued.body["position"]) == ("queued", 1)
        behind = challenge(url, bob, "alpha").body
        assert (behind["status"], behind["position"]) == ("queued", 2)

        play_out({"alpha": alpha, "beta": beta}, first["game"])
        # alpha is free: ada's challenge goes first (before the pair's second game).
        served = wait_until(
            lambda: s if (s := state(url, ada, queued.body["challenge"]))["game"] else None,
            30,
            "the queued challenge to start",
        )
        assert served["status"] == "started" and served["color"] == "x"
        start = receive(alpha, "game_start")
        assert (start["game"], start["opponent"]) == (served["game"], "ada")
        live = request(f"{url}/api/league/live").body
        assert [(g["x"], g["o"]) for g in live] == [("ada", "alpha")]  # beta waits
        now_first = state(url, bob, behind["challenge"])
        assert (now_first["status"], now_first["position"]) == ("queued", 1)


def test_challenges_that_cannot_be_played_are_refused(league: tuple[str, Path]) -> None:
    url, db = league
    add_member(db, "offline")
    ada, bob = join(url, "ada"), join(url, "bob")
    refused = challenge(url, ada, "offline")
    assert refused.status == 409 and "not connected" in refused.body["detail"]
    absent = challenge(url, ada, "bob")  # bob's page never asked: not here
    assert absent.status == 409 and "not here" in absent.body["detail"]
    assert challenge(url, ada, "ada").status == 409
    assert challenge(url, ada, "nobody").status == 404
    assert request(f"{url}/api/league/challenges/99", token=ada).status == 404
    me(url, bob)
    first = challenge(url, ada, "bob").body["challenge"]
    second = challenge(url, ada, "bob").body["challenge"]  # replaces the first
    assert state(url, ada, first)["status"] == "cancelled"
    assert [c["challenge"] for c in me(url, bob)["challenges"]] == [second]
