"""The page attack on memory: eight bot-vs-bot games of ``engine:time=60,threads=2,tt=256``
(4 GB of tables before the budget) against ``adjacency play`` with its default settings.
The server charges each game its bots' tables against its budget (512 MB on a machine of
4 GB or more), so one such game plays, the seven others are refused (429) at once, and the
server's memory stays under 1 GB: its peak resident memory (``VmHWM`` from ``/proc``),
read once the playing bot has written through its table, plus the other bot's table
still to come."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from net_helpers import announced_url
from web_helpers import wait_until

ATTACK = {
    "x": {"kind": "bot", "spec": "engine:time=60,threads=2,tt=256"},
    "o": {"kind": "bot", "spec": "engine:time=60,threads=2,tt=256"},
}
CEILING_KB = 1024 * 1024
"""1 GB: the most ``adjacency play`` may hold with default settings."""
TABLE_MB = 256
"""Each bot's table in the attack."""
WRITTEN_THROUGH = 300_000
"""Nodes after which a bot's table is resident: each node's store lands at a random
entry, so 300,000 of them touch nearly all of a 256 MB table's 65,536 pages."""


OPENER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
"""One page: the server's cookie kept, so it may delete its games."""


def call(url: str, method: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        url, data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with OPENER.open(req, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def searched(url: str, game: str) -> int:
    """The nodes the game's thinking bot reported so far (0 before its first report)."""
    thinking = call(f"{url}/api/games/{game}", "GET")[1]["thinking"]
    return int((thinking or {}).get("nodes") or 0)


def peak_kb(pid: int) -> int:
    """The process's peak resident memory (``VmHWM``) in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_eight_big_table_games_from_one_page_keep_the_server_under_one_gigabyte(
    tmp_path: Path,
) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "adjacency", "play", "--no-browser", "--port", "0",
         "--db", str(tmp_path / "games.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = announced_url(line)
        answers = [call(f"{url}/api/games", "POST", ATTACK) for _ in range(8)]
        played = [body["id"] for status, body in answers if status == 201]
        refused = [body["detail"] for status, body in answers if status == 429]
        assert len(played) == 1 and len(refused) == 7, answers
        assert all("search tables" in detail for detail in refused)
        wait_until(
            lambda: searched(url, played[0]) >= WRITTEN_THROUGH,
            60,
            what="the admitted game's bot to write through its table",
        )
        # X's table is resident now; O's (as large) is not yet: the ceiling holds with it
        assert peak_kb(server.pid) + TABLE_MB * 1024 < CEILING_KB
        assert call(f"{url}/api/games/{played[0]}", "DELETE")[0] < 300
        status, body = call(f"{url}/api/games", "POST", ATTACK)  # its tables were returned
        assert status == 201, body
        call(f"{url}/api/games/{body['id']}", "DELETE")
    finally:
        server.terminate()
        server.wait(30)
