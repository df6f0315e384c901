"""The real server: the event stream, abandoned games stopping their bots, and `adjacency play`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from adjacency.web import server as server_module
from adjacency.web import turns as turns_module
from adjacency.web.server import DEFAULT_PORT
from web_helpers import PatientBot, events, live_server, wait_until


def test_events_push_every_change(tmp_path: Path) -> None:
    with live_server(tmp_path / "g.sqlite3") as url, httpx.Client(base_url=url, timeout=30) as api:
        game = api.post(
            "/api/games",
            json={
                "x": {"kind": "human"},
                "o": {"kind": "bot", "level": 2},
                "rows": 4,
                "cols": 4,
                "rounds": 2,
            },
        ).json()
        with api.stream("GET", f"/api/games/{game['id']}/events") as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            stream = events(response)
            name, first = next(stream)
            assert name == "state" and first["id"] == game["id"] and first["moves"] == []
            assert (
                api.post(f"/api/games/{game['id']}/moves", json={"square": "c1"}).status_code == 200
            )
            seen = []
            for name, data in stream:
                if name == "state":
                    seen.append(len(data["moves"]))
                    if data["moves"] and len(data["moves"]) == 2 and data["human_to_move"]:
                        break
            assert seen[0] == 1 and seen[-1] == 2


def test_a_game_abandoned_by_its_page_stops_its_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    PatientBot.instances.clear()
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: PatientBot())
    with (
        live_server(tmp_path / "g.sqlite3", grace=0.5) as url,
        httpx.Client(base_url=url, timeout=30) as api,
    ):
        game = api.post(
            "/api/games",
            json={"x": {"kind": "bot", "level": 1}, "o": {"kind": "human"}, "time": 60},
        ).json()
        with api.stream("GET", f"/api/games/{game['id']}/events") as response:
            for name, data in events(response):
                if name == "state" and data["thinking"]:
                    break
        bot = PatientBot.instances[0]
        assert bot.started.is_set() or bot.stops == 0
        wait_until(lambda: bot.stops >= 1, what="the abandoned game's bot to be stopped")
        wait_until(lambda: not bot.started.is_set(), what="the bot to return")
        assert api.get(f"/api/games/{game['id']}").json()["moves"] == []  # its answer dropped


def _run_play(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "adjacency", "play", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_play_command_serves_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    process = _run_play("--port", "0", "--db", str(tmp_path / "games.sqlite3"))
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "Adjacency is ready at http://127.0.0.1:" in line, line
        url = line.split("ready at ")[1].split()[0]
        with httpx.Client(base_url=url, timeout=30) as api:
            assert "<title>Adjacency</title>" in api.get("/").text
            assert api.get("/", headers={"Host": "evil.example"}).status_code == 400
            created = api.post(
                "/api/games",
                json={"x": {"kind": "bot", "level": 1}, "o": {"kind": "bot", "level": 1}},
            )
            assert created.status_code == 201, created.text
            game = created.json()
            with api.stream("GET", f"/api/games/{game['id']}/events") as response:
                stream = events(response)
                name, _ = next(stream)  # a page is watching when Ctrl-C comes
                assert name == "state"
                process.send_signal(signal.SIGINT)
                for _ in stream:  # the server ends the stream itself
                    pass
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "stopped" in out
    assert "Traceback" not in err and "ERROR" not in err, err
    assert (tmp_path / "games.sqlite3").exists()


def test_stopping_waits_for_the_engine_warm_up_in_flight() -> None:
    # exiting while the warm-up is inside LLVM's compiler aborts the process, so the
    # stop waits for it, and says why it waits
    import threading

    release = threading.Event()
    done: list[str] = []

    def warm() -> None:
        release.wait(10)
        done.append("warm")

    warming = threading.Thread(target=warm, daemon=True)
    warming.start()
    said: list[str] = []
    threading.Timer(0.2, release.set).start()
    server_module.finish_warming(warming, said.append)
    assert done == ["warm"]
    assert said == ["Finishing the engine's warm-up before stopping (Ctrl-C again skips it)..."]
    server_module.finish_warming(warming, said.append)  # a finished warm-up: no wait, no line
    assert len(said) == 1


def test_play_command_reports_a_busy_port(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        process = _run_play("--port", str(port), "--db", str(tmp_path / "g.sqlite3"))
        _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in err and "--port" in err
    assert "Traceback" not in err


def test_play_command_without_port_finds_one(tmp_path: Path) -> None:
    with socket.socket() as busy:
        try:  # hold the default port, so the fallback is exercised whatever else runs here
            busy.bind(("127.0.0.1", DEFAULT_PORT))
            busy.listen(1)
        except OSError:
            pass  # someone else holds it: the fallback is exercised anyway
        process = _run_play("--db", str(tmp_path / "g.sqlite3"))
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert "Adjacency is ready at http://127.0.0.1:" in line, line
            assert f":{DEFAULT_PORT}/" not in line
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 0


def test_play_command_rejects_a_bad_port() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "adjacency", "play", "--no-browser", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--port must be 0 to 65535, got 70000" in result.stderr


@pytest.mark.parametrize(
    ("platform", "env", "expected"),
    [
        ("linux", {}, False),
        ("linux", {"DISPLAY": ":0"}, True),
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, True),
        ("darwin", {}, True),
        ("win32", {}, True),
    ],
)
def test_browser_opens_only_with_a_display(
    platform: str, env: dict[str, str], expected: bool
) -> None:
    assert server_module.graphical_browser_likely(platform, env) is expected
