"""How the league's pages write what they show, in Chromium against a real server whose
four house bots have played a round robin: the leaderboard counts the house bots among
the bots there, every Elo interval is written one way on the leaderboard and the event
page, the crosstable writes a pair's points for and against (no "1/2" that reads as a
half) with a legend, the tie-break column has one format, and on a phone a long name
ends in an ellipsis (its whole self in its title) instead of breaking mid-word."""

from __future__ import annotations

import re
from typing import Any

import pytest

from adjacency.cli import main
from browser_helpers import UNDER_TEST, goto
from league_helpers import add_member, get, make_league, thread_server, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 30_000
LONG = "report-b-genetic-population-40"
MEMBERS = ("r1", "r2", "r3", LONG)
ELO = r"[+−]\d+ \[(?:[+−]\d+|\?), (?:[+−]\d+|\?)\]"
"""An Elo and its interval as every page writes it: signed, whole, a true minus."""


def points(value: float) -> str:
    """Points as the event page writes them: whole, with a half as "½" ("1½", "½")."""
    whole = int(value)
    half = "½" if value - whole >= 0.5 else ""
    return f"{whole}{half}" if whole or not half else half


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The league's URL once its round robin of four house bots has finished."""
    db = tmp_path_factory.mktemp("league") / "league.db"
    make_league(db, base=30.0, increment=0.0)
    for name in MEMBERS:
        add_member(db, name, "house", "random")
    members = ",".join(MEMBERS)
    create = ["event", "create", "--db", str(db), "--format", "round-robin"]
    assert main(["league", *create, "--members", members, "friday"]) == 0
    with thread_server(db, house_games=False) as url:
        assert main(["league", "event", "start", "--db", str(db), "friday"]) == 0
        wait_until(
            lambda: get(f"{url}/api/league/events/friday")["event"]["status"] == "finished",
            60,
            "the event to finish",
        )
        yield url


def open_page(browser: Any, url: str, **options: Any) -> Any:
    context = browser.new_context(**{**UNDER_TEST, **options})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: page.errors.append(f"uncaught: {exc}"))
    goto(page, url)
    return page


def close(page: Any) -> None:
    errors = page.errors
    page.context.close()
    assert errors == [], errors


def test_the_leaderboard_counts_the_house_bots_and_writes_elo_one_way(
    browser: Any, league: str
) -> None:
    assert get(f"{league}/api/league")["connected"] == 0  # no bot connects: all are house bots
    page = open_page(browser, league + "/")
    expect(page.locator("#settings")).to_contain_text("4 bots connected")
    expect(page.locator("#standings tr[data-name=r1]")).to_be_visible()
    elos = [text for text in page.locator("#standings td:nth-child(6)").all_inner_texts()]
    rated = [" ".join(text.split()) for text in elos if text[:1] in "+−"]
    assert rated and all(re.fullmatch(ELO, text) for text in rated), elos
    close(page)


def test_the_crosstable_writes_points_for_and_against_with_a_legend(
    browser: Any, league: str
) -> None:
    page = open_page(browser, league + "/event/friday")
    expect(page.locator("#crosstable td.filled")).to_have_count(len(MEMBERS) * 3)
    table = get(f"{league}/api/league/events/friday")
    for i, row in enumerate(table["crosstable"]["cells"]):
        for j, cell in enumerate(row):
            if i != j:
                shown = page.locator(f'#crosstable td[data-cell="{i}-{j}"]').inner_text()
                assert shown == f"{points(cell[0])}–{points(cell[1] - cell[0])}", (shown, cell)
    assert "/" not in page.locator("#crosstable").inner_text()
    expect(page.locator("#crosstable-legend")).to_contain_text("a draw ½")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(len(MEMBERS))
    for k in range(len(MEMBERS)):
        cells = rows.nth(k).locator("td")
        tie_break = cells.nth(6).inner_text()  # after the byes and unplayed columns
        assert re.fullmatch(r"\d+(\.\d+)?", tie_break), tie_break  # decimals, never "½"
        elo = cells.nth(8).inner_text()
        assert elo == "" or re.fullmatch(ELO, elo), elo
    close(page)


@pytest.mark.parametrize("where", ["/", "/event/friday"])
def test_on_a_phone_a_long_name_ends_in_an_ellipsis_not_broken_mid_word(
    browser: Any, league: str, where: str
) -> None:
    page = open_page(browser, league + where, viewport={"width": 390, "height": 844})
    link = page.locator(f'#standings a[href="/bot/{LONG}"]')
    expect(link).to_be_visible()
    lines = link.evaluate("el => el.getClientRects().length")
    assert lines == 1  # one line: no break inside the name
    assert link.get_attribute("title") == LONG
    assert link.inner_text() == LONG  # the whole name is there (for a screen reader too)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 391
    close(page)
