"""Short seat codes over HTTP: made for a seat by whoever presents its token, typed on
another device to get the seat's link, whose token then plays that seat; bad, unknown
and too many codes are refused with specific errors."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from adjacency.web.app import create_app
from adjacency.web.codes import (
    ALPHABET,
    SERVER_TRIES_BURST,
    TRIES_BURST,
    SeatCodes,
    normalize,
)
from adjacency.web.limits import Limits
from adjacency.web.seats import SEAT_HEADER
from web_helpers import SMALL

INVITE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}


def invite(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/invites", json={**INVITE, **SMALL})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def empty_square(state: dict[str, Any]) -> str:
    """The first empty square of a game's position now (a legal move)."""
    index = state["boards"][-1].index(".")
    return f"{'abcdefgh'[index % state['cols']]}{index // state['cols'] + 1}"


def test_a_code_typed_on_another_device_opens_its_seat() -> None:
    app = create_app(":memory:")
    with TestClient(app) as creator, TestClient(app) as friend:
        made = invite(creator)
        game_id, tokens = made["game"]["id"], made["tokens"]
        answer = creator.post(f"/api/games/{game_id}/code", json={"token": tokens["o"]})
        assert answer.status_code == 200, answer.text
        code = answer.json()["code"]
        assert answer.json()["seat"] == "o"
        assert re.fullmatch(f"[{ALPHABET}]{{6}}", code)
        again = creator.post(f"/api/games/{game_id}/code", json={"token": tokens["o"]})
        assert again.json()["code"] == code  # one code per seat while it lasts
        other = creator.post(f"/api/games/{game_id}/code", json={"token": tokens["x"]})
        assert other.json()["code"] != code and other.json()["seat"] == "x"

        # typed as people type it: lower case, a space in the middle
        typed = f"{code[:3].lower()} {code[3:]}"
        found = friend.post("/api/codes", json={"code": typed})
        assert found.status_code == 200, found.text
        assert found.json() == {
            "game": game_id,
            "seat": "o",
            "link": f"/?game={game_id}#seat={tokens['o']}",
        }
        # the link's token plays O: X moves (its own link), then the friend answers
        first = empty_square(made["game"])
        x_move = creator.post(
            f"/api/games/{game_id}/moves", json={"square": first},
            headers={SEAT_HEADER: tokens["x"]},
        )  # fmt: skip
        assert x_move.status_code == 200, x_move.text
        answer = empty_square(x_move.json())
        token = found.json()["link"].split("#seat=")[1]
        refused = friend.post(f"/api/games/{game_id}/moves", json={"square": answer})
        assert refused.status_code == 403  # without the code's token: a watcher
        o_move = friend.post(
            f"/api/games/{game_id}/moves", json={"square": answer}, headers={SEAT_HEADER: token}
        )
        assert o_move.status_code == 200, o_move.text
        assert o_move.json()["moves"][-1]["square"] == answer


def test_codes_are_refused_clearly() -> None:
    app = create_app(":memory:")
    with TestClient(app) as client:
        made = invite(client)
        game_id = made["game"]["id"]
        wrong = client.post(f"/api/games/{game_id}/code", json={"token": "A" * 22})
        assert wrong.status_code == 403 and wrong.json()["code"] == "bad_seat_link"
        for typed, status, code in (
            ("ABC", 400, "bad_code"),
            ("ABCDE0", 400, "bad_code"),  # 0 is never in a code
            ("ABCDEF", 404, "unknown_code"),
        ):
            answer = client.post("/api/codes", json={"code": typed})
            assert answer.status_code == status, answer.text
            assert answer.json()["code"] == code
            assert "Traceback" not in answer.text


def stopped_clock(app: Any) -> Any:
    """``app`` with its rate buckets' clock stopped: no token comes back while a test
    makes its look-ups, however slowly a loaded machine runs them (the server's bucket
    refills one a second)."""
    app.state.rates.clock = lambda: 0.0
    return app


def test_an_address_has_bounded_tries() -> None:
    """Look-ups from one address beyond the burst are 429, the right code included."""
    app = stopped_clock(create_app(":memory:", limits=Limits(limit_loopback=True)))
    with TestClient(app) as client:
        made = invite(client)
        game_id, tokens = made["game"]["id"], made["tokens"]
        code = client.post(f"/api/games/{game_id}/code", json={"token": tokens["x"]})
        statuses = [
            client.post("/api/codes", json={"code": "ABCDEF"}).status_code
            for _ in range(TRIES_BURST)
        ]
        assert set(statuses) == {404}
        answer = client.post("/api/codes", json={"code": code.json()["code"]})
        assert answer.status_code == 429 and answer.json()["code"] == "code_tries"


def test_guesses_from_many_addresses_are_bounded_on_the_whole_server() -> None:
    """Guessers spread over many addresses, each within its own tries, share the
    server's: past :data:`SERVER_TRIES_BURST` look-ups every address is answered 429,
    a fresh one and the right code included; nothing was found by guessing."""
    app = stopped_clock(create_app(":memory:"))
    with TestClient(app) as creator:  # the creator, on this machine (not limited)
        made = invite(creator)
        game_id, tokens = made["game"]["id"], made["tokens"]
        code = creator.post(f"/api/games/{game_id}/code", json={"token": tokens["x"]}).json()
        guesses = [c * 6 for c in ALPHABET if c * 6 != code["code"]]
        statuses = []
        for n in range(SERVER_TRIES_BURST // (TRIES_BURST - 1) + 1):
            guesser = TestClient(app, client=(f"203.0.113.{n + 1}", 40000))
            for guess in guesses[: TRIES_BURST - 1]:
                statuses.append(guesser.post("/api/codes", json={"code": guess}).status_code)
        assert statuses[:SERVER_TRIES_BURST] == [404] * SERVER_TRIES_BURST
        assert set(statuses[SERVER_TRIES_BURST:]) == {429}
        fresh = TestClient(app, client=("198.51.100.77", 40000))
        refused = fresh.post("/api/codes", json={"code": code["code"]})
        assert refused.status_code == 429 and refused.json()["code"] == "code_tries_server"
        own = creator.post("/api/codes", json={"code": code["code"]})  # this machine: spared
        assert own.status_code == 200 and own.json()["game"] == game_id


def test_codes_expire_and_read_any_case() -> None:
    codes = SeatCodes(seconds=60.0)
    code, _ = codes.make("g1", "x", "t" * 22, now=0.0)
    assert codes.find(code, now=59.0) is not None
    assert codes.find(code, now=61.0) is None
    assert normalize(f" {code.lower()[:2]}-{code[2:]} ") == code
    assert not set("0O1IL") & set(ALPHABET) and len(set(ALPHABET)) == len(ALPHABET) == 31
