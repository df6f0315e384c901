"""``adjacency play --bot NAME=SPEC``: the person who starts the server offers bots of
their own (a course project's ``cmd:`` program) to its page as ``local:NAME``; a request
names them and nothing more: the gate admits the offered names only, never a spec."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from adjacency.bots import BotError, Limit
from adjacency.bots.gate import admit, build, local_bot_names, offer_local_bots
from adjacency.core import Position
from league_helpers import MINIMAL_ENGINE
from web_helpers import wait_until

ENGINE = f"cmd:{sys.executable} {MINIMAL_ENGINE}"
"""A program speaking the engine protocol, as a student's bot is."""


@pytest.fixture
def offered() -> Iterator[None]:
    offer_local_bots({"mine": ENGINE, "greedy-one": "greedy"})
    yield
    offer_local_bots({})


def test_the_gate_admits_the_offered_names_and_builds_the_operators_spec(offered: None) -> None:
    assert local_bot_names() == ["mine", "greedy-one"]
    spec = admit("local:greedy-one")
    assert (spec.name, spec.text) == ("local", "local:greedy-one")
    bot = build(spec, seed=1)
    start = Position.start(6, 6, rounds=2)
    assert bot.choose_move(start, Limit(time=1.0)) in start.legal_moves()
    assert pickle.loads(pickle.dumps(spec)) == spec  # re-admitted by name
    for text in ("local:other", "local:mine,depth=3", f"local:{ENGINE}", "local:", "local"):
        with pytest.raises(BotError, match="no local bot"):
            admit(text)
    with pytest.raises(BotError, match="runs a program"):
        admit(ENGINE)  # a request's own program stays refused
    offer_local_bots({})
    with pytest.raises(BotError, match=r"offered: none"):
        admit("local:mine")


@pytest.mark.parametrize("name", ["", "two words", "x" * 33, "../mine", "mine;rm"])
def test_an_offer_with_a_bad_name_is_refused_and_offers_nothing(name: str) -> None:
    with pytest.raises(BotError, match="local bot name"):
        offer_local_bots({"fine": "greedy", name: "greedy"})
    assert local_bot_names() == []


def _run_play(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "adjacency", "play", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def test_a_page_plays_the_operators_program_by_name_through_the_real_server(
    tmp_path: Path,
) -> None:
    process = _run_play(
        "--port", "0", "--db", str(tmp_path / "g.sqlite3"), "--bot", f"mine={ENGINE}"
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "ready at http://127.0.0.1:" in line, line
        url = line.split("ready at ")[1].split()[0]
        with httpx.Client(base_url=url, timeout=30) as api:
            bots = [bot["name"] for bot in api.get("/api/config").json()["bots"]]
            assert bots[0] == "local:mine" and ENGINE not in api.get("/api/config").text
            refused = api.post(
                "/api/games",
                json={"x": {"kind": "bot", "spec": ENGINE}, "o": {"kind": "bot", "level": 1}},
            )
            assert refused.status_code == 400 and "runs a program" in refused.text
            created = api.post(
                "/api/games",
                json={
                    "x": {"kind": "bot", "spec": "local:mine"},
                    "o": {"kind": "bot", "spec": "greedy"},
                    "rows": 6,
                    "cols": 6,
                    "rounds": 3,
                    "time": 1.0,
                },
            )
            assert created.status_code == 201, created.text
            game = created.json()["id"]
            state = wait_until(
                lambda: (s := api.get(f"/api/games/{game}").json())["result"] and s,
                60,
                "the game against the local bot to end",
            )
            assert len(state["moves"]) == 6 and state["termination"] == "normal", state
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0


def test_a_bad_offer_stops_the_command_before_it_serves(tmp_path: Path) -> None:
    for bad, why in (("mine", "expected NAME=SPEC"), ("a b=greedy", "local bot name")):
        process = _run_play("--port", "0", "--db", str(tmp_path / "g.sqlite3"), "--bot", bad)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 2 and why in err and "Traceback" not in err, err
        assert "ready at" not in out
