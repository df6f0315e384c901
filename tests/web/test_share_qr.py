"""The share dialog's QR codes over HTTP (web/qr.py, web/routers/share.py): the server
draws the game's watch link for anyone and a seat's link for whoever presents its
token, as an SVG that an independent decoder (tests/qr_helpers.py) reads back as that
link; a wrong token, an unknown game, a long or unexpected body, a host longer than
the bound and a text longer than a share link are refused; a Host header that is no
host never starts a link, and nothing else the client sends is drawn."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest
from fastapi import Request
from fastapi.testclient import TestClient

from adjacency.serving.errors import WebError
from adjacency.web.app import create_app
from adjacency.web.qr import MAX_TEXT, TextTooLong, qr_svg
from adjacency.web.routers.share import site
from qr_helpers import decode, svg_modules
from web_helpers import SMALL

INVITE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}


@pytest.fixture
def client() -> Any:
    with TestClient(create_app(":memory:")) as client:
        yield client


def invite(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/invites", json={**INVITE, **SMALL})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def qr(client: TestClient, game_id: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(f"/api/games/{game_id}/qr", json=body, headers=headers)


def test_the_watch_link_and_each_seat_link_are_drawn_and_read_back(client: TestClient) -> None:
    made = invite(client)
    game_id, tokens = made["game"]["id"], made["tokens"]
    watch = qr(client, game_id, {})
    assert watch.status_code == 200, watch.text
    assert watch.headers["content-type"] == "image/svg+xml"
    assert watch.headers["cache-control"] == "no-store"
    assert watch.text.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ')
    assert 'class="qr"' in watch.text
    assert decode(svg_modules(watch.text)) == f"http://testserver/?game={game_id}"
    for color in ("x", "o"):
        seat = qr(client, game_id, {"token": tokens[color]})
        assert seat.status_code == 200, seat.text
        link = f"http://testserver/?game={game_id}#seat={tokens[color]}"
        assert decode(svg_modules(seat.text)) == link
    # the address the request reached starts the link (a LAN address and its port)
    lan = qr(client, game_id, {}, host="192.168.1.20:8000")
    assert decode(svg_modules(lan.text)) == f"http://192.168.1.20:8000/?game={game_id}"


def test_what_is_not_a_seat_of_the_game_is_refused(client: TestClient) -> None:
    made = invite(client)
    game_id, tokens = made["game"]["id"], made["tokens"]
    other = invite(client)["game"]["id"]
    wrong = qr(client, other, {"token": tokens["o"]})  # a seat of another game
    assert wrong.status_code == 403 and wrong.json()["code"] == "bad_seat_link"
    made_up = qr(client, game_id, {"token": "A" * 43})
    assert made_up.status_code == 403 and made_up.json()["code"] == "bad_seat_link"
    assert qr(client, "nosuchgame", {}).status_code == 404
    assert qr(client, game_id, {"token": "A" * 65}).status_code == 422  # longer than a token
    assert qr(client, game_id, {"text": "http://evil.example/"}).status_code == 422
    assert qr(client, game_id, {"token": 5}).status_code == 422


def reached(host: str, scheme: str = "http") -> Request:
    """A request that reached this server as ``host`` (what its Host header said)."""
    headers = [(b"host", host.encode())]
    return Request({"type": "http", "scheme": scheme, "server": ("testserver", 80),
                    "path": "/", "query_string": b"", "headers": headers})  # fmt: skip


@pytest.mark.parametrize("host", ['evil"host', "a b", "host/path", "a<b>", "h#x"])
def test_a_host_header_that_is_no_host_never_starts_a_link(host: str) -> None:
    assert site(reached(host)) == "http://testserver"  # the server's own name instead


def test_a_host_longer_than_the_bound_starts_no_link() -> None:
    with pytest.raises(WebError, match="cannot start a share link") as refused:
        site(reached("x" * 120))
    assert refused.value.status == 400


def test_a_plain_host_starts_the_link() -> None:
    assert site(reached("192.168.1.20:8000")) == "http://192.168.1.20:8000"
    assert site(reached("[::1]:8000")) == "http://[::1]:8000"
    assert site(reached("league.example.org", "https")) == "https://league.example.org"


def test_any_text_up_to_the_bound_is_drawn_and_longer_is_refused() -> None:
    rng = random.Random(20261125)
    link = string.ascii_letters + string.digits + "-_"
    texts = [
        "http://192.168.1.20:8000/?game="
        + "".join(rng.choice(link) for _ in range(8))
        + "#seat="
        + "".join(rng.choice(link) for _ in range(43))
        for _ in range(4)
    ]
    texts += ["".join(rng.choice(string.printable) for _ in range(rng.randint(1, MAX_TEXT)))]
    texts += ["Permainan antar perangkat — kursi O · é ü 日本", "x" * MAX_TEXT, "a"]
    for text in texts:
        assert decode(svg_modules(qr_svg(text))) == text
    with pytest.raises(TextTooLong, match=str(MAX_TEXT)):
        qr_svg("x" * (MAX_TEXT + 1))
