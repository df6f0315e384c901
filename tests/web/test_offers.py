"""Offers between devices: a rematch or a takeback offered by one player and accepted,
declined or withdrawn by the other, through the HTTP API of a real app; and the rule for
an offer made while one of another kind waits, which no game reaches through the API (a
rematch waits only in a finished game, a takeback only in one being played), on the
function that decides it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjacency.core import COLORS
from adjacency.web.app import create_app
from adjacency.web.models import Offer, OfferKind
from adjacency.web.offers import made
from adjacency.web.seats import SEAT_HEADER
from web_helpers import SMALL

INVITE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}


@pytest.fixture
def players(app: Any) -> Iterator[dict[str, TestClient]]:
    """Three browsers on one server: X (the creator), O and a watcher."""
    with TestClient(app) as x, TestClient(app) as o, TestClient(app) as watcher:
        yield {"x": x, "o": o, "watcher": watcher}


def between_devices(players: dict[str, TestClient], rounds: int) -> str:
    """A game between X's and O's browsers, both seats claimed; its id."""
    made = players["x"].post("/api/invites", json={**INVITE, **SMALL, "rounds": rounds}).json()
    game_id, tokens = made["game"]["id"], made["tokens"]
    for color in ("x", "o"):
        claimed = players[color].post(
            f"/api/games/{game_id}/seats", headers={SEAT_HEADER: tokens[color]}
        )
        assert claimed.json()["seats"] == [color]
    return str(game_id)


def finished(players: dict[str, TestClient]) -> str:
    game_id = between_devices(players, rounds=1)
    players["x"].post(f"/api/games/{game_id}/moves", json={"square": "a3"})
    over = players["o"].post(f"/api/games/{game_id}/moves", json={"square": "d2"}).json()
    assert over["status"] == "over"
    return game_id


def test_an_accepted_rematch_offer_makes_one_game_both_players_follow(
    players: dict[str, TestClient],
) -> None:
    x, o = players["x"], players["o"]
    game_id = finished(players)
    offered = x.post(f"/api/games/{game_id}/offers", json={"kind": "rematch"})
    assert offered.status_code == 200, offered.text
    assert offered.json()["offer"] == {"kind": "rematch", "by": "x"}
    assert offered.json()["rematch"] is None
    seen = o.get(f"/api/games/{game_id}").json()  # the friend's page sees the offer
    assert seen["offer"] == {"kind": "rematch", "by": "x"}
    # Only the other player accepts; watchers do nothing.
    own = x.post(f"/api/games/{game_id}/offers/answer", json={"accept": True})
    assert own.status_code == 409 and "other player" in own.json()["detail"]
    watcher = players["watcher"].post(f"/api/games/{game_id}/offers/answer", json={"accept": True})
    assert watcher.status_code == 403
    accepted = o.post(f"/api/games/{game_id}/offers/answer", json={"accept": True})
    assert accepted.status_code == 200, accepted.text
    new = accepted.json()
    assert new["id"] != game_id and new["status"] == "playing" and new["moves"] == []
    assert (new["x"]["name"], new["o"]["name"]) == ("Bob", "Ann")  # colours swapped
    old = x.get(f"/api/games/{game_id}").json()
    assert old["rematch"] == new["id"] and old["offer"] is None  # X's page follows it
    assert x.get(f"/api/games/{new['id']}/me").json() == {
        "seats": ["o"],
        "owner": False,
        "invite": True,
    }
    assert o.get(f"/api/games/{new['id']}/me").json()["seats"] == ["x"]
    assert o.post(f"/api/games/{new['id']}/moves", json={"square": "a3"}).status_code == 200
    # Asking again gives the same rematch, never a second game.
    again = x.post(f"/api/games/{game_id}/rematch")
    assert again.json()["id"] == new["id"]
    late = x.post(f"/api/games/{game_id}/offers", json={"kind": "rematch"})
    assert late.status_code == 409 and late.json()["code"] == "rematch_made"


def test_the_same_offer_from_both_players_is_an_agreement(
    players: dict[str, TestClient],
) -> None:
    game_id = finished(players)
    players["o"].post(f"/api/games/{game_id}/offers", json={"kind": "rematch"})
    both = players["x"].post(f"/api/games/{game_id}/offers", json={"kind": "rematch"}).json()
    assert both["id"] != game_id
    assert players["o"].get(f"/api/games/{game_id}").json()["rematch"] == both["id"]


def test_a_declined_or_withdrawn_offer_changes_nothing_else(
    players: dict[str, TestClient],
) -> None:
    x, o = players["x"], players["o"]
    game_id = finished(players)
    x.post(f"/api/games/{game_id}/offers", json={"kind": "rematch"})
    declined = o.post(f"/api/games/{game_id}/offers/answer", json={"accept": False}).json()
    assert declined["offer"] is None and declined["rematch"] is None and declined["id"] == game_id
    nothing = o.post(f"/api/games/{game_id}/offers/answer", json={"accept": True})
    assert nothing.status_code == 409 and "no offer" in nothing.json()["detail"]
    o.post(f"/api/games/{game_id}/offers", json={"kind": "rematch"})
    withdrawn = o.post(f"/api/games/{game_id}/offers/answer", json={"accept": False}).json()
    assert withdrawn["offer"] is None
    assert [g["id"] for g in x.get("/api/games").json()] == [game_id]  # no game was made


def test_a_takeback_offer_takes_back_the_offerers_move_once_accepted(
    players: dict[str, TestClient],
) -> None:
    x, o = players["x"], players["o"]
    game_id = between_devices(players, rounds=3)
    early = x.post(f"/api/games/{game_id}/offers", json={"kind": "takeback"})
    assert early.status_code == 409 and early.json()["code"] == "nothing_to_undo"
    x.post(f"/api/games/{game_id}/moves", json={"square": "a3"})
    o.post(f"/api/games/{game_id}/moves", json={"square": "d2"})
    x.post(f"/api/games/{game_id}/moves", json={"square": "b3"})
    assert x.post(f"/api/games/{game_id}/offers", json={"kind": "takeback"}).status_code == 200
    assert o.get(f"/api/games/{game_id}").json()["offer"] == {"kind": "takeback", "by": "x"}
    back = o.post(f"/api/games/{game_id}/offers/answer", json={"accept": True}).json()
    assert [m["square"] for m in back["moves"]] == ["a3", "d2"]
    assert back["turn"] == "x" and back["offer"] is None
    # O offers to take back d2 (and X's reply after it); X's next move lets the offer lapse.
    x.post(f"/api/games/{game_id}/moves", json={"square": "c3"})
    o.post(f"/api/games/{game_id}/offers", json={"kind": "takeback"})
    o.post(f"/api/games/{game_id}/moves", json={"square": "a1"})  # refused: X to move
    assert x.get(f"/api/games/{game_id}").json()["offer"] == {"kind": "takeback", "by": "o"}
    two = x.post(f"/api/games/{game_id}/offers/answer", json={"accept": True}).json()
    assert [m["square"] for m in two["moves"]] == ["a3"] and two["turn"] == "o"


def test_offers_are_for_games_between_devices_and_their_players(
    players: dict[str, TestClient],
) -> None:
    x = players["x"]
    alone = x.post(
        "/api/games", json={**INVITE, **SMALL, "rounds": 1}
    ).json()  # two people on one device
    refused = x.post(f"/api/games/{alone['id']}/offers", json={"kind": "rematch"})
    assert refused.status_code == 409 and refused.json()["code"] == "no_offers"
    game_id = between_devices(players, rounds=1)
    playing = x.post(f"/api/games/{game_id}/offers", json={"kind": "rematch"})
    assert playing.status_code == 409 and "finished game" in playing.json()["detail"]
    watcher = players["watcher"].post(f"/api/games/{game_id}/offers", json={"kind": "takeback"})
    assert watcher.status_code == 403
    bad = x.post(f"/api/games/{game_id}/offers", json={"kind": "draw"})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "kind"
    state = x.get(f"/api/games/{game_id}").json()
    assert state["offer"] is None and state["moves"] == []


def test_a_takeback_offer_lapses_when_the_game_ends(players: dict[str, TestClient]) -> None:
    x, o = players["x"], players["o"]
    game_id = between_devices(players, rounds=3)
    x.post(f"/api/games/{game_id}/moves", json={"square": "a3"})
    x.post(f"/api/games/{game_id}/offers", json={"kind": "takeback"})
    resigned = o.post(f"/api/games/{game_id}/resign").json()
    assert resigned["status"] == "over" and resigned["offer"] is None
    late = o.post(f"/api/games/{game_id}/offers/answer", json={"accept": True})
    assert late.status_code == 409
    assert len(x.get(f"/api/games/{game_id}").json()["moves"]) == 1


def test_an_offer_and_a_rematch_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    app = create_app(db)
    with TestClient(app) as x, TestClient(app) as o:
        players = {"x": x, "o": o}
        game_id = finished(players)
        x.post(f"/api/games/{game_id}/offers", json={"kind": "rematch"})
        cookies = {"x": dict(x.cookies), "o": dict(o.cookies)}
    with TestClient(create_app(db), cookies=cookies["o"]) as o:  # the server restarted
        assert o.get(f"/api/games/{game_id}").json()["offer"] == {"kind": "rematch", "by": "x"}
        new_id = o.post(f"/api/games/{game_id}/offers/answer", json={"accept": True}).json()["id"]
    with TestClient(create_app(db), cookies=cookies["x"]) as x:
        assert x.get(f"/api/games/{game_id}").json()["rematch"] == new_id


def test_an_offer_while_one_of_another_kind_waits_replaces_it_and_agrees_to_nothing() -> None:
    """Whoever made the waiting offer, an offer of the other kind is no agreement to it
    (only the same offer from both players is) and is what the table holds next."""
    kinds: tuple[OfferKind, OfferKind] = ("rematch", "takeback")
    for waiting, offered in (kinds, kinds[::-1]):
        for maker in COLORS:
            for color in COLORS:
                pending = Offer(kind=waiting, by=maker)
                matching, recorded = made(pending, offered, color)
                case = (waiting, maker, offered, color)
                assert matching is None, case
                assert recorded == Offer(kind=offered, by=color), case
