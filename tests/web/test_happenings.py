"""A game's event stream tells what each change did: the round's happenings (a move, the
end, moves taken back) come as events before the ``state`` event of the same change,
over a real server's server-sent events."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from web_helpers import events, live_server

PEOPLE = {"x": {"kind": "human"}, "o": {"kind": "human"}, "rows": 4, "cols": 4, "rounds": 2}


def until_state(stream: Iterator[tuple[str, Any]], version: int) -> list[tuple[str, Any]]:
    """The events up to and including the ``state`` event of ``version``."""
    seen: list[tuple[str, Any]] = []
    for name, data in stream:
        seen.append((name, data))
        if name == "state" and data["version"] == version:
            return seen
    raise AssertionError(f"the stream ended before state {version}: {seen}")


def test_each_change_sends_what_happened_before_its_state(tmp_path: Path) -> None:
    with live_server(tmp_path / "g.sqlite3") as url, httpx.Client(base_url=url, timeout=30) as api:
        game = api.post("/api/games", json=PEOPLE).json()
        path = f"/api/games/{game['id']}"
        with api.stream("GET", f"{path}/events") as response:
            stream = events(response)
            assert next(stream)[0] == "state"

            def post(action: str, body: dict[str, str] | None = None) -> list[tuple[str, Any]]:
                answer = api.post(f"{path}/{action}", json=body)
                assert answer.status_code == 200, answer.text
                return until_state(stream, answer.json()["version"])

            moved = post("moves", {"square": "c1"})
            assert [n for n, _ in moved] == ["moved", "state"]
            play, state = moved[0][1], moved[1][1]
            assert play["side"] == "x" and play["square"] == "c1" and play["ply"] == 1
            assert play["version"] == state["version"] and play["seconds"] >= 0
            assert [n for n, _ in post("moves", {"square": "b3"})] == ["moved", "state"]

            back = post("undo")
            assert [n for n, _ in back] == ["took_back", "state"]
            assert back[0][1] == {"plies": 1, "moves": 1, "version": back[-1][1]["version"]}
            assert back[-1][1]["moves"][0]["square"] == "c1"

            for square in ("b3", "d1"):
                assert [n for n, _ in post("moves", {"square": square})] == ["moved", "state"]
            last = post("moves", {"square": "a3"})  # the 4th ply of 2 rounds: the end
            assert [n for n, _ in last] == ["moved", "ended", "state"]
            end, state = last[1][1], last[-1][1]
            assert end["termination"] == "normal" == state["termination"]
            assert end["result"] == state["result"] and state["status"] == "over"
            assert end["version"] == state["version"] and last[0][1]["ply"] == 4


def test_a_resignation_sends_its_end_with_the_words_of_the_state(tmp_path: Path) -> None:
    with live_server(tmp_path / "g.sqlite3") as url, httpx.Client(base_url=url, timeout=30) as api:
        game = api.post("/api/games", json=PEOPLE).json()
        path = f"/api/games/{game['id']}"
        assert api.post(f"{path}/moves", json={"square": "c1"}).status_code == 200
        with api.stream("GET", f"{path}/events") as response:
            stream = events(response)
            assert next(stream)[0] == "state"
            resigned = api.post(f"{path}/resign", json={"side": "o"})
            assert resigned.status_code == 200, resigned.text
            seen = until_state(stream, resigned.json()["version"])
        assert [n for n, _ in seen] == ["ended", "state"]
        end, state = seen[0][1], seen[1][1]
        assert end["result"] == "x" and end["termination"] == "resignation"
        for field in (
            "result",
            "termination",
            "termination_detail",
            "detail_code",
            "detail_params",
        ):
            assert end[field] == state[field]
