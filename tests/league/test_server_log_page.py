"""The teacher reads the server's log on the teacher's page: a real ``adjacency league
serve`` (INFO by default), real ``adjacency connect`` clients that play an event, one
client refused for its token; then

* ``GET /api/league/admin/log`` gives the same lines standard error got (connections,
  the refusal, each game's start and end, the event's steps), oldest first, filtered by
  text and level, to the admin token only (401 without it, 403 with a team's);
* no line holds a token (the teams', the refused one, the admin's);
* asked in Indonesian (``lang=id``), each line is told in Indonesian too (a game's end
  with its termination and detail, the plies' count), and the text filter reads either
  language;
* the page's Log section shows them newest first and its filter box narrows them, in
  English on a laptop and in Indonesian on a 390 px phone (the lines in the reader's
  language), axe clean, no console error.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import (
    EVERY_IMPACT,
    SIZES,
    axe_violations,
    each_once,
    teacher_page,
)
from i18n_helpers import english_left
from league_helpers import (
    ADMIN,
    Process,
    add_member,
    make_league,
    request,
    start_client,
    start_server,
    wait_until,
)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.xdist_group("server-log")]

WAIT = 50.0
TIMEOUT = 50_000
BAD_TOKEN = "adjl_" + "Q" * 22


@dataclass
class Served:
    url: str
    stderr: Path
    tokens: dict[str, str]

    def secrets(self) -> list[str]:
        return [*self.tokens.values(), BAD_TOKEN, ADMIN]


def log_lines(url: str, token: str | None = ADMIN, query: str = "") -> Any:
    return request(f"{url}/api/league/admin/log{query}", token=token)


def messages(url: str, query: str = "") -> list[str]:
    answer = log_lines(url, query=query)
    assert answer.status == 200, answer
    return [line["message"] for line in answer.body["lines"]]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A league whose event between red and blue has been played through a real server,
    with a refused connection on the way; the server still running."""
    folder = tmp_path_factory.mktemp("server-log")
    db = folder / "league.db"
    make_league(db, base=30.0)
    tokens = {name: add_member(db, name) for name in ("red", "blue")}
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, ["red", "blue"])
        store.events.start("friday")
    stderr = folder / "server.log"
    server = start_server(db, 0, stderr)  # no --log-level: INFO
    url = server.url
    clients: list[Process] = []
    try:
        for name, token in tokens.items():
            clients.append(start_client(url, token, "greedy", folder / f"{name}.log"))
        refused = start_client(url, BAD_TOKEN, "random", folder / "refused.log")
        assert refused.popen.wait(WAIT) == 2, refused.text()
        wait_until(
            lambda: any("event friday finished" in m for m in messages(url)),
            WAIT,
            "the event to finish, as the log says",
        )
        for client in clients:
            client.stop()
        wait_until(
            lambda: len([m for m in messages(url) if " disconnected from " in m]) == 2,
            WAIT,
            "both bots' leaving in the log",
        )
        yield Served(url, stderr, tokens)
    finally:
        for client in clients:
            client.stop()
        server.stop()


def test_the_log_route_gives_the_servers_lines_filtered_to_the_admin_only(
    served: Served,
) -> None:
    url = served.url
    answer = log_lines(url)
    assert answer.status == 200 and answer.body["kept"] == 500
    lines = answer.body["lines"]
    numbers = [line["number"] for line in lines]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)  # oldest first
    said = [line["message"] for line in lines]
    assert sorted(m for m in said if m.startswith("bot ") and " connected from " in m) == [
        "bot blue connected from 127.0.0.1",
        "bot red connected from 127.0.0.1",
    ]
    assert "refused a bot connection from 127.0.0.1: 401 unknown or revoked token" in said
    started = {m.split()[1] for m in said if m.startswith("game ") and " started: " in m}
    ended = {m.split()[1] for m in said if m.startswith("game ") and " ended: " in m}
    assert len(ended) >= 2 and ended <= started  # the event's two games, and ladder games
    assert any(m.startswith("event friday: round 1 of 1 paired") for m in said)
    stderr = served.stderr.read_text()
    for line in lines:  # the same lines standard error got, at the same level
        assert f" {line['level']} {line['logger']}: {line['message']}" in stderr, line
        assert line["level"] in ("INFO", "WARNING", "ERROR", "CRITICAL")

    # Text (any case) and level filters.
    assert messages(url, "?text=REFUSED+a+BOT") == [
        "refused a bot connection from 127.0.0.1: 401 unknown or revoked token"
    ]
    assert all("blue" in m for m in messages(url, "?text=blue")) and messages(url, "?text=blue")
    assert all(
        line["level"] != "INFO" for line in log_lines(url, query="?level=warning").body["lines"]
    )
    assert messages(url, "?text=no+such+words") == []
    assert log_lines(url, query="?level=chatty").status == 422
    assert log_lines(url, query="?text=" + "x" * 201).status == 422

    # The admin token only, and no token in any line.
    assert log_lines(url, token=None).status == 401
    assert log_lines(url, token="adjl_not-a-token").status == 401
    assert log_lines(url, token=served.tokens["red"]).status == 403
    text = "\n".join(said) + stderr
    for secret in served.secrets():
        assert secret not in text

    # Told in Indonesian: every coded line, the English words kept beside it.
    told = log_lines(url, query="?lang=id").body["lines"]
    assert [line["message"] for line in told] == said
    assert all(line["text"] == line["message"] for line in lines)  # English asked: the same
    by_words = {line["message"]: line["text"] for line in told}
    assert by_words["bot red connected from 127.0.0.1"] == "bot red tersambung dari 127.0.0.1"
    assert by_words["refused a bot connection from 127.0.0.1: 401 unknown or revoked token"] == (
        "sambungan bot dari 127.0.0.1 ditolak: 401 unknown or revoked token"
    )
    assert by_words["event friday finished"] == "acara friday selesai"
    ends = [line for line in told if line["code"] and line["code"].startswith("game-")]
    assert ends and all(line["text"].startswith("permainan ") for line in ends)
    finished = [line for line in ends if " selesai: " in line["text"]]
    assert finished and all(" setelah " in line["text"] for line in finished)
    assert all("plies" not in line["text"] for line in finished)
    assert all(line["code"] is not None for line in told if line["level"] == "INFO")
    found = log_lines(url, query="?lang=id&text=DITOLAK").body["lines"]  # either language
    assert [line["code"] for line in found] == ["refused-connection"]
    assert log_lines(url, query="?lang=fr").status == 422


@pytest.mark.parametrize(("locale", "size"), each_once(("en-GB", "id-ID"), SIZES))
def test_the_teacher_page_shows_the_log_newest_first_and_filters_it(
    browser: Any, served: Served, size: str, locale: str
) -> None:
    errors: list[str] = []
    chosen = "id" if locale == "id-ID" else None  # the page's language, before it loads
    context, page = teacher_page(
        browser, served.url, ADMIN, errors, TIMEOUT, chosen, viewport=SIZES[size], locale=locale
    )
    lines = page.locator("#log-lines li")
    expect(lines.filter(has_text="401 unknown or revoked token")).to_have_count(1)
    shown = [int(n) for n in lines.evaluate_all("(items) => items.map((i) => i.dataset.number)")]
    assert shown == sorted(shown, reverse=True)  # newest first
    indonesian = locale == "id-ID"
    connected = "bot red tersambung dari" if indonesian else "bot red connected from"
    expect(lines.filter(has_text=f"{connected} 127.0.0.1")).to_have_count(1)
    finished = "acara friday selesai" if indonesian else "event friday finished"
    expect(lines.filter(has_text=finished)).to_have_count(1)
    page.locator("#log-text").fill("ditolak" if indonesian else "refused a bot")
    expect(lines).to_have_count(1)
    refused = "sambungan bot dari 127.0.0.1 ditolak" if indonesian else "refused a bot connection"
    expect(lines.first).to_contain_text(refused)
    expect(lines.first.locator(".level")).to_have_text("INFO")
    page.select_option("#log-level", "warning")  # the refusal is an INFO line
    nothing = "Tidak ada baris." if locale == "id-ID" else "No line."
    expect(lines).to_have_text([nothing])
    page.select_option("#log-level", "debug")
    page.locator("#log-text").fill("")
    blue = "bot blue tersambung" if indonesian else "bot blue connected"
    expect(lines.filter(has_text=blue)).to_have_count(1)
    page_text = page.locator("body").inner_text()
    for secret in served.secrets():
        assert secret not in page_text
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    assert axe_violations(page, EVERY_IMPACT) == []
    if indonesian:  # the lines too, but for the names and the refusal's own words
        assert english_left(page, ["red", "blue", "friday", "unknown or revoked token"]) == []
    assert errors == []
    context.close()
