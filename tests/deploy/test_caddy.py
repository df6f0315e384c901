"""Real Caddy (Debian's package) in front of a real league, as docs/deploy.md sets them up.

The league runs the systemd unit's own command line (deploy/adjacency-league.service:
127.0.0.1, ``--forwarded-allow-ips 127.0.0.1``, an admin token file), with only its
paths and port replaced; Caddy runs deploy/Caddyfile.internal (``tls internal``: its own
certificate authority), with the site's name and the league's port replaced and the
test's ports in a global block. A bot plays a rated game through Caddy over ``wss://``
with ``adjacency connect --cafile`` Caddy's root certificate, as a school's team would;
a page is fetched over HTTPS the same way. tools/provision-deploy installs Caddy for
``make test`` (never skipped).
"""

from __future__ import annotations

import contextlib
import shutil
import ssl
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore, StoredGame
from deploy_helpers import DEPLOY, LEAGUE_PORT, league_command, replaced
from league_helpers import ADMIN, Process, add_member, make_league, spawn, start_client, wait_until
from net_helpers import reserved_port

pytestmark = pytest.mark.slow

CADDY = shutil.which("caddy") or "/usr/bin/caddy"


@pytest.fixture(autouse=True)
def provisioned() -> None:
    """Caddy is there: ``make test`` installs it (tools/provision-deploy); a run without
    it fails saying so, never skips."""
    if not Path(CADDY).is_file():
        pytest.fail(f"{CADDY} is missing: install Debian's caddy (tools/provision-deploy)")


def caddyfile(https_port: int, http_port: int, league_port: int) -> str:
    """deploy/Caddyfile.internal for this test: the site is ``localhost``, the upstream
    the test's league, and a global block puts Caddy on the given ports with no admin API and
    nothing installed into this machine's trust store."""
    site = replaced(
        (DEPLOY / "Caddyfile.internal").read_text(),
        {
            "league.school.lan, 192.168.1.20 {": "localhost {",
            f"reverse_proxy 127.0.0.1:{LEAGUE_PORT}": f"reverse_proxy 127.0.0.1:{league_port}",
        },
    )
    assert "\ttls internal\n" in site
    options = (
        "{\n\tadmin off\n\tskip_install_trust\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n}}\n\n"
    )
    return options + site


@contextlib.contextmanager
def caddy(tmp: Path, league_port: int) -> Iterator[tuple[str, Path]]:
    """Caddy in front of the league on ``league_port``, on two ports the test holds
    (:func:`net_helpers.reserved_port`): yields its HTTPS address and the root
    certificate of its internal authority (in its data folder under ``tmp``)."""
    with reserved_port() as https_port, reserved_port() as http_port:
        yield from _caddy_on(tmp, league_port, https_port, http_port)


def _caddy_on(
    tmp: Path, league_port: int, https_port: int, http_port: int
) -> Iterator[tuple[str, Path]]:
    config = tmp / "Caddyfile"
    config.write_text(caddyfile(https_port, http_port, league_port))
    home = tmp / "caddy-home"
    environment = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    log = tmp / "caddy.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=environment,
        )
    root = home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    url = f"https://localhost:{https_port}"

    def answers() -> bool:
        assert process.poll() is None, log.read_text()
        if not root.exists():
            return False
        try:
            # Caddy writes the root certificate while this reads it: an empty
            # or half-written file is "not yet", like a refused connection.
            context = ssl.create_default_context(cafile=str(root))
            with urllib.request.urlopen(url + "/", timeout=5, context=context) as response:
                return bool(response.status == 200)
        except (OSError, ssl.SSLError):
            return False

    try:
        wait_until(answers, 45, "Caddy to serve the league over HTTPS")
        yield url, root
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def finished(db: Path) -> list[StoredGame]:
    """The finished games of the bot ``team-blue``."""
    with LeagueStore(db, create=False) as store:
        return store.games.games(store.members.member_named("team-blue").id, status="finished")


def test_a_bot_plays_through_caddy_over_wss_with_its_internal_ca(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, rounds=4, base=3.0, increment=0.1)
    add_member(db, "sparring", "house", "greedy")
    token = add_member(db, "team-blue")
    token_file = tmp_path / "admin-token"
    token_file.write_text(ADMIN + "\n")
    league = spawn(league_command(db, 0, token_file), tmp_path / "league.log")
    client: Process | None = None
    try:
        wait_until(lambda: "ready at" in league.text(), 60, "the league to start")
        assert league.popen.poll() is None, league.text()
        with caddy(tmp_path, league.port) as (url, root):
            context = ssl.create_default_context(cafile=str(root))
            with urllib.request.urlopen(url + "/", timeout=10, context=context) as page:
                assert "<html" in page.read().decode().lower()
            with pytest.raises(urllib.error.URLError, match="CERTIFICATE_VERIFY_FAILED"):
                urllib.request.urlopen(url + "/", timeout=10)  # not without Caddy's root
            client = start_client(
                url, token, "greedy", tmp_path / "client.log", "--cafile", str(root)
            )
            games = wait_until(lambda: finished(db), 60, "a game of the bot's through Caddy")
            assert client.popen.poll() is None, client.text()
        assert games[0].termination == "normal", (games[0], client.text())
        assert "error" not in client.text(), client.text()
    finally:
        if client is not None:
            client.stop()
        league.stop()
