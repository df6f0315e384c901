"""The files both servers share (the serving room's static folder): every ``/static/...``
URL a league page or the web game's page (its templates or its files) loads is served,
by each app, with the same bytes, from the shared folder or the app's own; both serve
the shared API reference page alike."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from adjacency.league.routers.pages import STATIC as LEAGUE_STATIC
from adjacency.league.routers.pages import TEMPLATES as LEAGUE_TEMPLATES
from adjacency.serving.assets import SHARED
from adjacency.serving.frame import SHARED_PAGES, TEMPLATES
from adjacency.web.routers.pages import STATIC as WEB_STATIC
from adjacency.web.routers.pages import TEMPLATES as WEB_TEMPLATES
from serving_helpers import both_apps

URL = re.compile(r"""["'(](/static/[A-Za-z0-9_./-]+)["')]""")


def urls_in(*folders: Path) -> set[str]:
    """Every ``/static/...`` URL the HTML, JS and CSS files under ``folders`` name."""
    found: set[str] = set()
    for folder in folders:
        for path in folder.rglob("*"):
            if path.suffix in (".html", ".js", ".css"):
                found.update(URL.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.fixture
def clients(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    with both_apps(tmp_path) as (web, league):
        yield league, web


def test_every_static_url_of_the_league_pages_is_served_by_the_league(
    clients: tuple[TestClient, TestClient],
) -> None:
    league, _ = clients
    wanted = urls_in(LEAGUE_STATIC, LEAGUE_TEMPLATES, TEMPLATES)
    assert {"/static/style.css", "/static/js/board.js", "/static/favicon.svg"} <= wanted
    for url in sorted(wanted):
        response = league.get(url)
        assert response.status_code == 200, url
        assert response.content == (SHARED / url.removeprefix("/static/")).read_bytes(), url


def test_both_apps_serve_the_shared_files_alike_and_the_web_its_own_too(
    clients: tuple[TestClient, TestClient],
) -> None:
    league, web = clients
    shared = sorted(p.relative_to(SHARED).as_posix() for p in SHARED.rglob("*") if p.is_file())
    assert {"js/board.js", "style.css", "js/docs.js", "favicon.svg"} <= set(shared)
    for name in shared:
        body = (SHARED / name).read_bytes()
        assert league.get(f"/static/{name}").content == body, name
        assert web.get(f"/static/{name}").content == body, name
    own = {p.relative_to(WEB_STATIC).as_posix() for p in WEB_STATIC.rglob("*") if p.is_file()}
    assert not own & set(shared)  # the two folders share no name: nothing is shadowed
    for url in sorted(urls_in(WEB_STATIC, WEB_TEMPLATES, SHARED, TEMPLATES)):
        assert web.get(url).status_code == 200, url
    assert league.get("/static/js/main.js").status_code == 404  # the web game's own file
    for client in (league, web):
        assert client.get("/favicon.ico").content == (SHARED / "favicon.svg").read_bytes()
        assert client.get("/docs").text == SHARED_PAGES.html("docs.html")
