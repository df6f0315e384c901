"""What a newcomer and a hostile client hit on the web page, each reproduced."""

from __future__ import annotations

import json
import math
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from adjacency.bots import Bot, BotError
from adjacency.bots.gate import check_shared as check_option_caps
from adjacency.bots.lookup import entries, entry
from adjacency.bots.registry import Option, register
from adjacency.web import hints as hints_module
from adjacency.web import turns as turns_module
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from adjacency.web.routers import analysis as analysis_router
from adjacency.web.seats import MAX_HOLDERS, SEAT_HEADER
from adjacency.web.timers import SCHEDULER
from web_helpers import HUMAN, SMALL, PatientBot, events, live_server, wait_until

# ------------------------------------------------ every memory option capped


def capped_options() -> list[tuple[str, Option]]:
    """Every numeric option of every bot the page can start, with its shared cap."""
    return [(e.name, o) for e in entries() if not e.raw for o in e.options if o.numeric]


@pytest.mark.parametrize("spec", ["mcts:tree=4096", "engine:tt=4096", "genetic:population=10000"])
def test_memory_sizing_options_are_refused_above_their_cap(client: TestClient, spec: str) -> None:
    body = {"x": HUMAN, "o": {"kind": "bot", "spec": spec}, **SMALL}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert spec.split(":")[1] in response.json()["detail"]
    assert "limit" in response.json()["detail"]
    assert client.get("/api/games").json() == []


def test_every_capped_option_of_every_bot_is_refused_just_above_its_cap() -> None:
    checked = 0
    for bot, option in capped_options():
        cap = option.shared_cap
        assert cap is not None and math.isfinite(cap)
        above = int(cap) + 1 if isinstance(option.default, int) else cap * 1.5 + 1
        with pytest.raises(BotError, match="limit"):
            check_option_caps(bot, {option.name: above})
        check_option_caps(bot, {option.name: type(option.default)(cap)})  # the cap itself passes
        checked += 1
    assert checked >= 5
    assert entry("mcts").option("tree").shared_cap == 256
    assert entry("engine").option("tt").shared_cap == 256


def never_built(**options: Any) -> Bot:
    raise AssertionError("a refused registration builds nothing")


def test_a_bot_cannot_register_an_unbounded_numeric_option() -> None:
    with pytest.raises(RuntimeError, match="needs a maximum or a cap"):
        register("unbounded-test", "x", "test", options=(Option("size", 1, "MB"),))(never_built)
    over = (Option("n", 5, "n", 0, 10, cap=11),)
    with pytest.raises(RuntimeError, match="cap"):
        register("overcap-test", "x", "test", options=over)(never_built)
    names = {e.name for e in entries()}
    assert "unbounded-test" not in names and "overcap-test" not in names


def test_the_config_shows_each_options_cap(client: TestClient) -> None:
    bots = {b["name"]: b for b in client.get("/api/config").json()["bots"]}
    tree = next(o for o in bots["mcts"]["options"] if o["name"] == "tree")
    assert tree["cap"] == 256 and tree["maximum"] == 4096


@pytest.mark.parametrize(
    "spec", ["engine:book=/etc", "engine:patterns=/etc/passwd", "engine:patterns=weights.json"]
)
def test_options_naming_files_of_the_server_are_refused_from_the_web(
    client: TestClient, spec: str
) -> None:
    body = {"x": HUMAN, "o": {"kind": "bot", "spec": spec}, **SMALL}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert "names a file of this server" in response.json()["detail"]
    assert client.get("/api/games").json() == []


def test_every_text_option_limited_on_shared_servers_is_a_choice_in_the_config(
    client: TestClient,
) -> None:
    limited = {
        (e.name, o.name): o.shared
        for e in entries()
        if not e.raw
        for o in e.options
        if o.shared is not None
    }
    assert limited == {("engine", "book"): ("shipped", "off"), ("engine", "patterns"): ("shipped",)}
    bots = {b["name"]: b for b in client.get("/api/config").json()["bots"]}
    for (bot, name), values in limited.items():
        shown = next(o for o in bots[bot]["options"] if o["name"] == name)
        assert shown["kind"] == "choice" and shown["choices"] == list(values)
        with pytest.raises(BotError, match="names a file"):
            check_option_caps(bot, {name: "/tmp"})
    body = {"x": HUMAN, "o": {"kind": "bot", "spec": "engine:book=off,patterns=shipped"}, **SMALL}
    assert client.post("/api/games", json=body).status_code == 201


# ------------------------------------------------------------------ clocks


def over(client: TestClient | httpx.Client, game_id: str) -> Callable[[], dict[str, Any] | None]:
    def check() -> dict[str, Any] | None:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        return state if state["status"] == "over" else None

    return check


def test_the_viewing_delay_is_not_charged_to_the_bots_clocks(client: TestClient) -> None:
    """A 1.5 s pause between instant bots' moves on a 1 s clock."""
    bots = {"x": {"kind": "bot", "spec": "greedy"}, "o": {"kind": "bot", "spec": "greedy"}}
    body = {**bots, "rows": 4, "cols": 4, "rounds": 1, "clock": {"base": 1, "increment": 0}}
    game_id = client.post("/api/games", json=body).json()["id"]
    client.post(f"/api/games/{game_id}/control", json={"delay": 1.5})
    state = wait_until(over(client, game_id), what="the bot game to end")
    assert state["termination"] == "normal", state["termination_detail"]
    assert state["clock"]["o"] > 0.5  # O's move took moments, not the 1.5 s delay


def test_a_step_in_a_paused_bot_game_is_timed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Minor item: the bot stepping one move thinks on its clock."""
    PatientBot.instances.clear()
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: PatientBot())
    bots = {"x": {"kind": "bot", "spec": "greedy"}, "o": {"kind": "bot", "spec": "greedy"}}
    body = {**bots, **SMALL, "clock": {"base": 60, "increment": 0}}
    game_id = client.post("/api/games", json=body).json()["id"]
    wait_until(lambda: PatientBot.instances and PatientBot.instances[0].started.is_set())
    client.post(f"/api/games/{game_id}/move-now")  # X's first move (untimed)
    wait_until(lambda: client.get(f"/api/games/{game_id}").json()["moves"], what="X's move")
    client.post(f"/api/games/{game_id}/control", json={"action": "pause"})
    wait_until(lambda: client.get(f"/api/games/{game_id}").json()["thinking"] is None)
    assert client.get(f"/api/games/{game_id}").json()["clock"]["running"] is None
    client.post(f"/api/games/{game_id}/control", json={"action": "step"})
    wait_until(lambda: any(b.started.is_set() for b in PatientBot.instances), what="O to think")
    assert client.get(f"/api/games/{game_id}").json()["clock"]["running"] == "o"
    client.post(f"/api/games/{game_id}/move-now")
    state = wait_until(
        lambda: (s := client.get(f"/api/games/{game_id}").json())["moves"][1:] and s,
        what="O's step",
    )
    assert state["paused"] and state["clock"]["o"] < 60.0  # the step was charged


def test_a_bot_stopped_with_its_page_stops_its_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Person vs bot on a clock, the page leaves after the person's first move."""
    PatientBot.instances.clear()
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: PatientBot())
    with (
        live_server(tmp_path / "g.sqlite3", grace=0.2) as url,
        httpx.Client(base_url=url, timeout=30) as api,
    ):
        body = {"x": HUMAN, "o": {"kind": "bot", "level": 1}, **SMALL}
        game = api.post("/api/games", json={**body, "clock": {"base": 1, "increment": 0}}).json()
        with api.stream("GET", f"/api/games/{game['id']}/events") as response:
            api.post(f"/api/games/{game['id']}/moves", json={"square": "a3"})
            for name, data in events(response):
                if name == "state" and data["thinking"]:
                    break
        bot = PatientBot.instances[0]
        wait_until(lambda: bot.stops >= 1, what="the abandoned game's bot to be stopped")
        stored = wait_until(
            lambda: (
                (m := read_meta(tmp_path / "g.sqlite3", game["id"]))["clock"]["running"] is None
                and m
            ),
            what="the stopped clock to be stored",
        )
        assert stored["clock"]["o"] > 0
        # A witness game on the same clock, started now and attended, whose bot never
        # answers: its flag falls once a whole clock (more than O has left) has passed on
        # the server's timer, which would have flagged the first game's O too, had it run.
        witness = api.post("/api/games", json={**body, "clock": {"base": 1, "increment": 0}})
        witness_id = witness.json()["id"]
        with api.stream("GET", f"/api/games/{witness_id}/events") as response:
            api.post(f"/api/games/{witness_id}/moves", json={"square": "a3"})
            for name, data in events(response):
                if name == "state" and data["status"] == "over":
                    assert data["termination"] == "time forfeit", data
                    break
        record = sqlite_record(tmp_path / "g.sqlite3", game["id"])
        assert record["termination"] == "unterminated", record


def read_meta(db: Path, game_id: str) -> dict[str, Any]:
    with sqlite3.connect(db) as connection:
        row = connection.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()
    meta: dict[str, Any] = json.loads(row[0])
    return meta


def sqlite_record(db: Path, game_id: str) -> dict[str, Any]:
    with sqlite3.connect(db) as connection:
        row = connection.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
    record: dict[str, Any] = json.loads(row[0])
    return record


def test_clocks_share_one_timer_thread(client: TestClient) -> None:
    """A running clock holds no thread of its own."""
    body = {"x": HUMAN, "o": HUMAN, **SMALL, "clock": {"base": 3600, "increment": 0}}

    def clocked_game() -> None:
        game_id = client.post("/api/games", json=body).json()["id"]
        state = client.post(f"/api/games/{game_id}/moves", json={"square": "a3"}).json()
        assert state["clock"]["running"] == "o"

    clocked_game()  # starts the shared timer thread
    before = threading.active_count()
    for _ in range(40):
        clocked_game()
    assert threading.active_count() <= before + 1


def test_undo_after_a_loss_on_time_is_refused(client: TestClient) -> None:
    """Two people on one screen; O's flag falls; the game stays over."""
    body = {"x": HUMAN, "o": HUMAN, **SMALL, "clock": {"base": 1, "increment": 0}}
    game_id = client.post("/api/games", json=body).json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"square": "a3"})
    state = wait_until(over(client, game_id), what="O's flag to fall")
    assert state["termination"] == "time forfeit" and not state["can_undo"]
    undo = client.post(f"/api/games/{game_id}/undo")
    assert undo.status_code == 409 and "lost on time" in undo.json()["detail"]
    after = client.get(f"/api/games/{game_id}").json()
    assert after["status"] == "over" and after["moves"] == state["moves"]


def test_a_restart_charges_the_time_since_the_turn_began(tmp_path: Path) -> None:
    """The stored clock keeps its start; a restart charges the time since."""
    db = tmp_path / "g.sqlite3"
    body = {"x": HUMAN, "o": HUMAN, **SMALL, "clock": {"base": 60, "increment": 0}}
    with TestClient(create_app(db)) as first:
        game_id = first.post("/api/games", json=body).json()["id"]
        first.post(f"/api/games/{game_id}/moves", json={"square": "a3"})
    # O's turn began 20 s earlier than stored (as if the server died 20 s into it)
    meta = read_meta(db, game_id)
    assert meta["clock"]["running"] == "o"
    meta["clock"]["started"] -= 20.0
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET meta = ? WHERE id = ?", (json.dumps(meta), game_id))
    with TestClient(create_app(db)) as second:
        clock = second.get(f"/api/games/{game_id}").json()["clock"]
    assert clock["running"] == "o" and clock["o"] <= 40.0


# ------------------------------------------------------- the bot cap


GRACE = 0.2
"""Seconds an unattended game keeps its bot (the cap's test)."""


def thinking_bots() -> int:
    return sum(b.started.is_set() for b in PatientBot.instances)


def test_the_bot_game_cap_holds_for_reopened_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots stopped with their pages, new games, then the old ones reopened."""
    PatientBot.instances.clear()
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: PatientBot())
    bots = {"x": {"kind": "bot", "level": 1}, "o": {"kind": "bot", "level": 1}, **SMALL}
    with (
        live_server(tmp_path / "g.sqlite3", grace=GRACE, limits=Limits(bot_games=2)) as url,
        httpx.Client(base_url=url, timeout=30) as api,
    ):
        first = [api.post("/api/games", json=bots).json()["id"] for _ in range(2)]
        for game_id in first:  # a page opens each game, then leaves: its bot stops
            with api.stream("GET", f"/api/games/{game_id}/events") as response:
                for name, data in events(response):
                    if name == "state" and data["thinking"]:
                        break
        wait_until(lambda: thinking_bots() == 0, what="the abandoned games' bots to stop")
        later = [api.post("/api/games", json=bots) for _ in range(2)]
        assert [r.status_code for r in later] == [201, 201]
        wait_until(lambda: thinking_bots() == 2, what="the new games' bots to think")
        assert api.post("/api/games", json=bots).status_code == 429
        for game_id in first:  # reopened: they wait for a slot
            assert api.get(f"/api/games/{game_id}").status_code == 200
        for game_id in first:
            state = api.get(f"/api/games/{game_id}").json()
            assert state["thinking"] is None and "waiting for a free bot" in state["message"]
        # The grace passes and every abandonment check due by then has run (the shared
        # scheduler runs its timers in the order of their due times, so this witness
        # comes after them however loaded the machine): no page attends the reopened
        # games now, and still no third bot thinks.
        looked = threading.Event()
        SCHEDULER.call_later(GRACE + 0.1, looked.set)
        assert looked.wait(30), "the shared scheduler did not run"
        assert thinking_bots() == 2
        api.delete(f"/api/games/{later[0].json()['id']}")
        wait_until(lambda: thinking_bots() == 1, what="the deleted game's bot to return")
        api.get(f"/api/games/{first[0]}")  # reopened with a slot free: it plays
        wait_until(
            lambda: api.get(f"/api/games/{first[0]}").json()["thinking"] is not None,
            what="the reopened game's bot to think",
        )
        assert thinking_bots() == 2
        for bot in PatientBot.instances:
            bot.stop()


# ------------------------------------------------------------- seats (6-9)


BROWSERS = ("creator", "friend", "stranger")
"""The browsers of this module's tests (tests/web/conftest.py)."""


def invite(client: TestClient, **settings: Any) -> tuple[str, dict[str, str]]:
    body = {"x": HUMAN, "o": {"kind": "human", "name": "Bob"}, **SMALL, **settings}
    made = client.post("/api/invites", json=body).json()
    return made["game"]["id"], made["tokens"]


def test_a_seat_keeps_a_bounded_number_of_holders(tmp_path: Path) -> None:
    """Many cookieless claims with a valid token."""
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db)) as client:
        game_id, tokens = invite(client)
        size = len(json.dumps(read_meta(db, game_id)))
        for _ in range(3 * MAX_HOLDERS):
            client.cookies.clear()  # a new browser each time
            claim = client.post(f"/api/games/{game_id}/seats", headers={SEAT_HEADER: tokens["o"]})
            assert claim.json()["seats"] == ["o"]
        holders = read_meta(db, game_id)["seats"]["holders"]["o"]
        assert len(holders) == MAX_HOLDERS
        assert client.get(f"/api/games/{game_id}/me").json()["seats"] == ["o"]  # the latest
        assert len(json.dumps(read_meta(db, game_id))) < size + (MAX_HOLDERS + 1) * 70


def test_a_refused_move_claims_no_seat(browsers: dict[str, TestClient], tmp_path: Path) -> None:
    """A move to an occupied square with the seat token."""
    game_id, tokens = invite(browsers["creator"])
    friend = browsers["friend"]
    assert friend.get(f"/api/games/{game_id}/me").json()["seats"] == []  # has its cookie now
    before = read_meta(tmp_path / "games.sqlite3", game_id)["seats"]
    occupied = friend.post(
        f"/api/games/{game_id}/moves", json={"square": "a1"}, headers={SEAT_HEADER: tokens["x"]}
    )
    assert occupied.status_code == 400
    assert friend.get(f"/api/games/{game_id}/me").json()["seats"] == []  # not held
    assert read_meta(tmp_path / "games.sqlite3", game_id)["seats"] == before
    played = friend.post(
        f"/api/games/{game_id}/moves", json={"square": "a3"}, headers={SEAT_HEADER: tokens["x"]}
    )
    assert played.status_code == 200  # an accepted move claims the seat (and saves it)
    assert friend.get(f"/api/games/{game_id}/me").json()["seats"] == ["x"]
    assert read_meta(tmp_path / "games.sqlite3", game_id)["seats"]["holders"]["x"]


def test_a_made_up_token_is_refused_even_to_a_seat_holder(browsers: dict[str, TestClient]) -> None:
    """The creator holds X and presents 22 random characters."""
    creator = browsers["creator"]
    game_id, tokens = invite(creator)
    path = f"/api/games/{game_id}/seats"
    assert creator.post(path, headers={SEAT_HEADER: tokens["x"]}).status_code == 200
    made_up = creator.post(path, headers={SEAT_HEADER: "Qk3vZ8aP0sLm2Xw9RtYu1c"})
    assert made_up.status_code == 403 and "not valid" in made_up.json()["detail"]
    assert creator.post(path).status_code == 403  # no token at all
    assert creator.get(f"/api/games/{game_id}/me").json()["seats"] == ["x"]


def test_rematch_rules(browsers: dict[str, TestClient]) -> None:
    """Not before the friend has joined, not while the game is on, and between devices
    only with the friend's consent: one player's POST /rematch alone makes no game."""
    creator, friend = browsers["creator"], browsers["friend"]
    game_id, tokens = invite(creator, rounds=1)
    creator.post(f"/api/games/{game_id}/seats", headers={SEAT_HEADER: tokens["x"]})
    creator.post(f"/api/games/{game_id}/moves", json={"square": "a3"})
    early = creator.post(f"/api/games/{game_id}/rematch")
    assert early.status_code == 409 and "finished" in early.json()["detail"]
    friend.post(
        f"/api/games/{game_id}/moves", json={"square": "d2"}, headers={SEAT_HEADER: tokens["o"]}
    )
    assert creator.get(f"/api/games/{game_id}").json()["status"] == "over"
    alone = creator.post(f"/api/games/{game_id}/rematch")
    assert alone.status_code == 409 and alone.json()["code"] == "no_direct_rematch", alone.text
    assert "offer the other player answers" in alone.json()["detail"]
    assert creator.get(f"/api/games/{game_id}").json()["rematch"] is None
    assert len(creator.get("/api/games").json()) == 1  # the refusal made no game
    offered = creator.post(f"/api/games/{game_id}/offers", json={"kind": "rematch"})
    assert offered.status_code == 200 and offered.json()["rematch"] is None
    rematch = friend.post(f"/api/games/{game_id}/offers/answer", json={"accept": True})
    assert rematch.status_code == 200  # both seats held (the friend's move claimed O)
    new_id = rematch.json()["id"]
    assert creator.post(f"/api/games/{game_id}/rematch").json()["id"] == new_id  # made
    assert creator.get(f"/api/games/{new_id}/me").json()["seats"] == ["o"]
    assert friend.get(f"/api/games/{new_id}/me").json()["seats"] == ["x"]
    # The friend never came and lost on time: no rematch (nobody could play the new X)
    lone_id, lone_tokens = invite(creator, rounds=1, clock={"base": 1, "increment": 0})
    creator.post(f"/api/games/{lone_id}/seats", headers={SEAT_HEADER: lone_tokens["x"]})
    creator.post(f"/api/games/{lone_id}/moves", json={"square": "a3"})
    wait_until(over(creator, lone_id), what="the absent friend's flag to fall")
    lone = creator.post(f"/api/games/{lone_id}/rematch")
    assert lone.status_code == 409 and "joined" in lone.json()["detail"]
    assert len(creator.get("/api/games").json()) == 3  # the refusal made no game


# ---------------------------------------------------- damaged games


@pytest.mark.parametrize("damage", ["record", "meta"])
def test_a_damaged_game_is_listed_and_deleted_only_by_its_creator(
    tmp_path: Path, damage: str
) -> None:
    db = tmp_path / "games.sqlite3"
    app = create_app(db)
    with TestClient(app) as owner, TestClient(app) as stranger:
        game_id = owner.post("/api/games", json={"x": HUMAN, "o": HUMAN, **SMALL}).json()["id"]
        stranger.get("/api/games")  # the stranger's browser has its cookie
        with sqlite3.connect(db) as connection:
            if damage == "record":
                connection.execute("UPDATE games SET record = '{broken' WHERE id = ?", (game_id,))
            else:  # the web data cut short: not JSON any more
                connection.execute(
                    "UPDATE games SET meta = substr(meta, 1, length(meta) - 1) WHERE id = ?",
                    (game_id,),
                )
        app.state.manager._sessions.clear()  # as after a restart: read from the store
        assert stranger.get("/api/games").json() == []
        refused = stranger.delete(f"/api/games/{game_id}")
        assert refused.status_code == 403
        assert [g["status"] for g in owner.get("/api/games").json()] == ["damaged"]
        assert owner.delete(f"/api/games/{game_id}").status_code == 204
        assert owner.get("/api/games").json() == []


# ------------------------------------------- other sites start no engine

CROSS_SITE = [
    {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Origin": "http://evil.example"},
]


@pytest.mark.parametrize("headers", CROSS_SITE, ids=["both", "fetch-site", "origin"])
def test_other_sites_cannot_start_engine_work(
    client: TestClient, headers: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[str] = []
    monkeypatch.setattr(analysis_router, "analyse", lambda *a: started.append("analyse"))
    monkeypatch.setattr(analysis_router, "review", lambda *a: started.append("review"))
    game = client.post("/api/games", json={"x": HUMAN, "o": HUMAN, **SMALL, "rounds": 1}).json()
    fen = game_fen(game)
    for path in (
        f"/api/analysis/live?fen={fen}",
        f"/api/games/{game['id']}/review",
        f"/api/games/{game['id']}/events",
        f"/api/games/{game['id']}",
    ):
        response = client.get(path, headers=headers)
        assert response.status_code == 403, (path, response.text)
        assert "engine work" in response.json()["detail"]
    assert started == [] and client.app.state.analyses.running == 0  # type: ignore[attr-defined]
    same = {"Sec-Fetch-Site": "same-origin", "Origin": str(client.base_url)}
    assert client.get(f"/api/games/{game['id']}", headers=same).status_code == 200
    assert client.get("/api/config", headers=headers).status_code == 200  # no engine: answered


def game_fen(state: dict[str, Any]) -> str:
    from adjacency.core import Position

    start = Position.start(state["rows"], state["cols"], state["rounds"], state["first"])
    return start.fen().replace(" ", "%20")


# ------------------------------------------- minor: deleting ends the streams


def test_deleting_a_game_ends_its_event_streams_with_a_last_event(tmp_path: Path) -> None:
    with (
        live_server(tmp_path / "g.sqlite3") as url,
        httpx.Client(base_url=url, timeout=20) as api,
    ):
        game = api.post("/api/games", json={"x": HUMAN, "o": HUMAN, **SMALL}).json()
        seen: list[tuple[str, Any]] = []
        ended = threading.Event()

        def listen() -> None:  # in a thread: before the fix the stream never ended
            path = f"/api/games/{game['id']}/events"
            with (
                httpx.Client(base_url=url, timeout=60) as watcher,
                watcher.stream("GET", path) as response,
            ):
                seen.extend(events(response))
            ended.set()

        threading.Thread(target=listen, daemon=True).start()
        wait_until(lambda: seen, what="the first state event")
        assert api.delete(f"/api/games/{game['id']}").status_code == 204
        wait_until(ended.is_set, what="the stream to end")
        assert [name for name, _ in seen] == ["state", "closed"]
        assert seen[-1][1] == {"reason": "This game was deleted.", "code": "game_deleted"}


# ------------------------------------------------ minor: no hint waits for a bot


@pytest.mark.parametrize("hints", [2, 3])
def test_every_admitted_hint_gets_a_bot_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hints: int
) -> None:
    PatientBot.instances.clear()
    monkeypatch.setattr(hints_module, "build_bot", lambda spec, seed=None: PatientBot())
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(hints=hints))
    with TestClient(app) as client:
        body = {"x": HUMAN, "o": HUMAN, **SMALL, "time": 30}
        games = [client.post("/api/games", json=body).json()["id"] for _ in range(hints + 1)]
        answers: list[int] = []
        threads = [
            threading.Thread(
                target=lambda g=g: answers.append(client.post(f"/api/games/{g}/hint").status_code)
            )
            for g in games[:hints]
        ]
        for thread in threads:
            thread.start()
        # every admitted hint thinks at once: none waits for another to finish
        wait_until(
            lambda: sum(b.started.is_set() for b in PatientBot.instances) == hints,
            what="every hint's bot to think",
        )
        extra = client.post(f"/api/games/{games[-1]}/hint")
        assert extra.status_code == 429  # beyond the limit: refused at once, not queued
        for bot in PatientBot.instances:
            bot.stop()
        for thread in threads:
            thread.join(30)
        assert answers == [200] * hints


@pytest.mark.parametrize("value", ["-0.5", "-1", "1.5"])
def test_an_engine_setting_out_of_its_range_is_a_400_before_any_game(
    client: TestClient, value: str
) -> None:
    # next_iteration takes 0 (the profile's) to 1: the option's range is the engine's, so
    # the page's request is refused up front, before a game exists whose bot cannot start.
    spec = f"engine:next_iteration={value}"
    body = {"x": HUMAN, "o": {"kind": "bot", "spec": spec}, **SMALL}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert f"option next_iteration='{value}' is out of range" in response.json()["detail"]
    assert client.get("/api/games").json() == []
