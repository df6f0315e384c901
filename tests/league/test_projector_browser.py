"""The event page's projector view in a real browser (Playwright driving Debian's
Chromium) against a real league server with games live: ``/event/NAME?view=projector``
(the link on the page) puts the crosstable first, wholly in view without scrolling at
1366x768 and 1920x1080 while the live boards play under it; in English and Indonesian,
with axe-core finding nothing serious and no console error.

The tests only read the event's page: one league server with the event started
(:func:`served`) serves the whole module, its games live (at :data:`PACE`) through
every test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import UNDER_TEST, axe_violations, goto
from i18n_helpers import english_left
from league_helpers import add_member, make_league, thread_server

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 30_000
TEAMS = tuple(f"team-{k:02d}" for k in range(1, 13))
"""Twelve members: the class the page is sized for."""
PACE = 5.0
"""Seconds a move of the event's games takes: its games stay live through the test."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The module's league: :data:`TEAMS`' round robin ``friday`` started, its games at
    :data:`PACE`, served in a thread; its URL. The tests read it and change nothing."""
    db = tmp_path_factory.mktemp("projector") / "league.db"
    make_league(db, base=600.0, increment=0.0)
    for name in TEAMS:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(TEAMS), pace=PACE)
        store.events.start("friday")
    with thread_server(db, house_games=False) as url:
        yield url


def open_page(browser: Any, address: str, errors: list[str], **options: Any) -> Any:
    context = browser.new_context(**UNDER_TEST, **options)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    goto(page, address)
    return page


def in_view(page: Any, selector: str) -> bool:
    """Whether the element is wholly inside the viewport, the page not scrolled."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and page.evaluate("window.scrollY") == 0
    return bool(
        box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] + box["width"] <= size["width"]
    )


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1366, "height": 768}, {"width": 1920, "height": 1080}],
    ids=["1366x768", "1920x1080"],
)
def test_the_projector_view_shows_the_crosstable_first_and_whole_while_games_are_live(
    browser: Any, served: str, viewport: dict[str, int]
) -> None:
    url = served
    errors: list[str] = []
    page = open_page(browser, url + "/event/friday", errors, viewport=viewport)
    expect(page.locator("#crosstable tbody tr")).to_have_count(len(TEAMS))
    page.get_by_role("link", name="The projector view: the crosstable first").click()
    page.wait_for_url(f"{url}/event/friday?view=projector")
    expect(page.locator("#live-boards figure").first).to_be_visible()  # games live
    expect(page.locator("#crosstable tbody tr")).to_have_count(len(TEAMS))
    expect(page.locator("#crosstable-title")).to_have_text("friday: crosstable")
    first = page.evaluate("document.querySelector('main > section').id")
    assert first == "crosstable-section"
    assert in_view(page, "#crosstable-section"), page.locator("#crosstable").bounding_box()
    boards = page.locator("#boards-section").bounding_box()
    table = page.locator("#crosstable-section").bounding_box()
    assert boards is not None and table is not None and boards["y"] > table["y"]
    assert axe_violations(page) == []
    page.get_by_role("link", name="The ordinary view").click()
    page.wait_for_url(f"{url}/event/friday")
    expect(page.locator("#crosstable-title")).to_have_text("Crosstable")
    page.context.close()
    assert errors == [], errors


def test_the_projector_view_in_indonesian(browser: Any, served: str) -> None:
    url = served
    errors: list[str] = []
    page = open_page(browser, url + "/event/friday?view=projector", errors,
                     viewport={"width": 1366, "height": 768}, locale="id-ID")  # fmt: skip
    expect(page.locator("#crosstable-title")).to_have_text("friday: tabel silang")
    expect(page.locator("#live-boards figure").first).to_be_visible()
    assert in_view(page, "#crosstable-section")
    left = english_left(page, [*TEAMS, "friday", "Elo", "S-B"])
    assert not left, left
    page.context.close()
    assert errors == [], errors
