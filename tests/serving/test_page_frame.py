"""The pages of both servers in their one frame (src/adjacency/serving/frame.py): every
page template is served at its URL, rendered once, in the frame's head and language
picker; a browser's revalidation is answered with 304; templates escape what they show
and refuse an undefined name; the picker offers the languages the pages' script knows."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from jinja2 import UndefinedError

from adjacency.league.routers.events import NOSCRIPT
from adjacency.league.routers.pages import PAGES as LEAGUE
from adjacency.serving.assets import SHARED
from adjacency.serving.frame import LANGUAGES, SHARED_PAGES, Pages
from adjacency.web.routers.pages import PAGES as WEB
from serving_helpers import both_apps

WEB_URLS = {"index.html": "/", "rules.html": "/rules", "lab.html": "/lab",
            "puzzles.html": "/puzzles", "docs.html": "/docs"}  # fmt: skip
LEAGUE_URLS = {"index.html": "/", "team.html": "/team", "bot.html": "/bot/ada",
               "watch.html": "/watch/1", "play.html": "/play", "teacher.html": "/teacher",
               "event.html": "/event/none", "docs.html": "/docs",
               "code.html": "/teacher/code"}  # fmt: skip
LANGUAGE_SELECT = (
    '<select id="lang"><option value="en" lang="en">English</option>'
    '<option value="id" lang="id">Bahasa Indonesia</option></select>'
)


@pytest.fixture(scope="module")
def clients(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, TestClient]]:
    with both_apps(tmp_path_factory.mktemp("frame")) as clients:
        yield clients


def test_every_page_of_both_servers_is_served_in_the_frame(
    clients: tuple[TestClient, TestClient],
) -> None:
    web, league = clients
    assert set(WEB_URLS) == {*WEB.names(), *SHARED_PAGES.names()}
    assert set(LEAGUE_URLS) == {*LEAGUE.names(), *SHARED_PAGES.names()}
    for client, pages, urls in ((web, WEB, WEB_URLS), (league, LEAGUE, LEAGUE_URLS)):
        for name, url in urls.items():
            response = client.get(url)
            assert response.status_code == 200, url
            assert response.headers["content-type"].startswith("text/html"), url
            assert response.headers["cache-control"] == "no-cache", url
            page = response.text
            assert page.startswith('<!doctype html>\n<html lang="en">\n<head>\n'), url
            assert page.count("<head>") == 1 and page.endswith("</body>\n</html>\n"), url
            assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
            assert "{{" not in page and "{%" not in page, url
            if name == "event.html":  # the event's table is added in <noscript>
                before, after = pages.html(name).split(NOSCRIPT)
                assert page.startswith(before + "<noscript><p>No event named "), url
                assert page.endswith("</noscript>" + after), url
                continue
            owner = SHARED_PAGES if name == "docs.html" else pages
            assert page == owner.html(name), url
            if name != "docs.html":  # the API reference is the one page in English only
                assert page.count(LANGUAGE_SELECT) == 1, url
                assert '<script type="module" src="/static/js/i18n.js"></script>' in page


def test_a_page_the_browser_holds_is_answered_with_304(
    clients: tuple[TestClient, TestClient],
) -> None:
    web, league = clients
    for client, url in ((web, "/rules"), (web, "/"), (league, "/play"), (league, "/docs")):
        first = client.get(url)
        tag = first.headers["etag"]
        again = client.get(url, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"", url
        assert again.headers["etag"] == tag
        assert client.get(url, headers={"If-None-Match": '"other"'}).text == first.text


def test_the_top_bar_and_the_theme_picker_are_the_frames(
    clients: tuple[TestClient, TestClient],
) -> None:
    web, _ = clients
    for url in ("/", "/puzzles", "/rules", "/docs"):
        page = web.get(url).text
        assert page.count('<header class="topbar">') == 1, url
        assert page.count('<svg class="brand-mark" viewBox="0 0 40 40"') == 1, url
    assert web.get("/").text.count('<select id="theme">') == 1
    assert '<h1 class="brand-heading"><a class="brand" href="/"' in web.get("/").text


def test_templates_escape_and_refuse_undefined_names(tmp_path: Path) -> None:
    (tmp_path / "shown.html").write_text(
        '{% extends "_base.html" %}{% set title = "<b>A & B</b>" %}{% set styles = [] %}'
        '{% set scripts = ["/x.js?a=1&b=\\"2\\""] %}'
        "{% block body %}<p>{{ title }}</p>{% endblock %}"
    )
    (tmp_path / "broken.html").write_text('{% extends "_base.html" %}')
    pages = Pages(tmp_path)
    page = pages.html("shown.html")
    assert "<title>&lt;b&gt;A &amp; B&lt;/b&gt;</title>" in page
    assert "<p>&lt;b&gt;A &amp; B&lt;/b&gt;</p>" in page
    assert 'src="/x.js?a=1&amp;b=&#34;2&#34;"' in page
    assert pages.html("shown.html") is page  # rendered once
    with pytest.raises(UndefinedError, match="title"):
        pages.html("broken.html")
    assert pages.names() == ["broken.html", "shown.html"]


def test_the_language_picker_offers_the_languages_of_the_pages_script() -> None:
    script = (SHARED / "js" / "i18n.js").read_text(encoding="utf-8")
    found = re.search(r"export const LANGUAGES = \{([^}]*)\}", script)
    assert found is not None
    named = re.findall(r'(\w+): "([^"]+)"', found.group(1))
    assert tuple(named) == LANGUAGES


FONTS = ("dejavu-sans", "dejavu-sans-bold", "dejavu-sans-mono", "dejavu-sans-mono-bold")


def test_every_page_of_both_servers_draws_with_the_fonts_served_with_it(
    clients: tuple[TestClient, TestClient],
) -> None:
    """The frame loads the project's fonts first (no page depends on a machine's fonts),
    from the server itself, and every stylesheet names its text's font by the stacks
    that start with them (no family written by hand)."""
    for client, urls in zip(clients, (WEB_URLS, LEAGUE_URLS), strict=True):
        for url in urls.values():
            page = client.get(url).text
            head = page[: page.index("</head>")]
            sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', head)
            assert sheets[0] == "/static/fonts.css", (url, sheets)
            assert "//" not in "".join(sheets), sheets  # no other origin
        faces = client.get("/static/fonts.css").text
        for name in FONTS:
            assert f'url("fonts/{name}.woff2")' in faces
            font = client.get(f"/static/fonts/{name}.woff2")
            assert font.status_code == 200 and font.content[:4] == b"wOF2", name
        assert client.get("/static/fonts/LICENSE-DejaVu.txt").status_code == 200
    assert re.search(r'--font: "Adjacency Sans",', faces)
    assert re.search(r'--mono: "Adjacency Mono",', faces)
    static = [*SHARED.parent.parent.glob("*/static/**/*.css")]
    assert len(static) > 5
    for sheet in static:
        if sheet.name == "fonts.css":
            continue
        css = sheet.read_text(encoding="utf-8")
        named = re.findall(r"font(?:-family)?:[^;}]*?(monospace|sans-serif|system-ui)", css)
        assert named == [], (sheet.name, named)
