"""``adjacency play`` behind a real reverse proxy (Debian's Caddy): with
``--forwarded-allow-ips`` naming the proxy, each visitor's own address (the proxy's
``X-Forwarded-For``) is the one limited; without it every visitor arrives as the proxy's
loopback address, which is never throttled. Caddy here stands for a school's client at a
documentation address (203.0.113.7, TEST-NET-3): it writes that address into the header it
forwards, so nothing leaves this machine."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from league_helpers import wait_until
from net_helpers import announced_port, reserved_port

pytestmark = pytest.mark.slow

CADDY = shutil.which("caddy") or "/usr/bin/caddy"
VISITOR = "203.0.113.7"
CREATES = 24
"""Games created through the proxy: more than the web's burst (20) at its default rate."""


@contextlib.contextmanager
def play_server(tmp: Path, *options: str) -> Iterator[int]:
    process = subprocess.Popen(
        [sys.executable, "-m", "adjacency", "play", "--no-browser", "--port", "0",
         "--db", str(tmp / "games.sqlite3"), *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "ready at" in line, line + (process.stderr.read() if process.stderr else "")
        yield announced_port(line)
    finally:
        process.terminate()
        process.wait(30)


@contextlib.contextmanager
def caddy(tmp: Path, upstream: int) -> Iterator[str]:
    """Caddy on a port the test holds (:func:`net_helpers.reserved_port`) proxying to
    ``upstream``, forwarding :data:`VISITOR`."""
    with reserved_port() as port:
        yield from _caddy_on(tmp, upstream, port)


def _caddy_on(tmp: Path, upstream: int, port: int) -> Iterator[str]:
    config = tmp / "Caddyfile"
    config.write_text(
        "{\n\tadmin off\n\tauto_https off\n}\n\n"
        f"http://127.0.0.1:{port} {{\n\treverse_proxy 127.0.0.1:{upstream} {{\n"
        f"\t\theader_up X-Forwarded-For {VISITOR}\n\t}}\n}}\n"
    )
    home = tmp / "caddy-home"
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_DATA_HOME": str(home)}
    log = tmp / "caddy.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
            stdout=out, stderr=subprocess.STDOUT, env=environment,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        assert process.poll() is None, log.read_text()
        try:
            with urllib.request.urlopen(url + "/api/config", timeout=5) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    try:
        wait_until(answers, 45, "Caddy to proxy the play server")
        yield url
    finally:
        process.terminate()
        process.wait(20)


def create_games(url: str) -> list[int]:
    """The statuses of :data:`CREATES` new two-person games asked for through ``url``."""
    body = json.dumps({"x": {"kind": "human"}, "o": {"kind": "human"}}).encode()
    statuses = []
    for _ in range(CREATES):
        request = urllib.request.Request(
            url + "/api/games", data=body, method="POST",
            headers={"Content-Type": "application/json"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                statuses.append(answer.status)
        except urllib.error.HTTPError as refused:
            assert refused.code == 429, refused.read()
            assert b"too many new games from your address" in refused.read()
            statuses.append(429)
    return statuses


def test_behind_a_proxy_each_visitor_is_limited_only_with_forwarded_allow_ips(
    tmp_path: Path,
) -> None:
    if not Path(CADDY).is_file():
        pytest.fail(f"{CADDY} is missing: install Debian's caddy (tools/provision-deploy)")
    trusting, plain = tmp_path / "trusting", tmp_path / "plain"
    trusting.mkdir()
    plain.mkdir()
    with (
        play_server(trusting, "--forwarded-allow-ips", "127.0.0.1") as port,
        caddy(trusting, port) as url,
    ):
        limited = create_games(url)
    with (
        play_server(
            plain,
        ) as port,
        caddy(plain, port) as url,
    ):
        unlimited = create_games(url)
    assert 429 in limited and limited.count(201) >= 20, limited  # the visitor's own budget
    assert unlimited == [201] * CREATES  # every visitor looked like this machine's user
