"""Each version of a team's code lists the games it played and its points in them, on
the team's page and on the teacher's, in a real browser against a real league server:
the example course project (version 1) is built, accepted and plays rated games against
the house bot; then, with hosted games off so that the figures stand still, a second
version is accepted (no game yet). Both pages show each version's figures as the API
gives them, in English on a laptop and Indonesian on a phone, with axe at every
impact, no sideways scrolling and no console error; a game whose program's last output
is kept shows it, fetched when opened."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import (
    EVERY_IMPACT,
    SIZES,
    axe_violations,
    each_once,
    goto,
    teacher_page,
    watched_page,
)
from hosted_helpers import (
    FAILING,
    accepted,
    course_zip,
    finished_games,
    new_league,
    served,
    zipped,
)
from league_helpers import ADMIN, add_member, request, upload
from sandbox_helpers import reachable_folder

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.jvm, pytest.mark.xdist_group("team-browser")]

TIMEOUT = 30_000
PRINTED = 'Exception in thread "JavaFX Application Thread" <the team\'s trace>\n'
"""The output kept for version 1's newest game, as a failed move would have kept it."""


def shown(points: float, locale: str) -> str:
    """``points`` as the pages write them: at most one decimal, the language's comma."""
    text = f"{points:.1f}".removesuffix(".0")
    return text.replace(".", ",") if locale == "id-ID" else text


@dataclass(frozen=True)
class Played:
    """The served league (hosted games off) and its team's versions as the API lists them."""

    url: str
    token: str
    versions: list[dict[str, Any]]
    games: list[dict[str, Any]]
    """Version 1's games as the team's route lists them."""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    from adjacency.sandbox import check

    check()
    with reachable_folder("adjacency-version-results-") as folder:
        league = new_league(folder)
        token = add_member(league, "garuda")
        with served(league) as (url, _):
            zip_path = course_zip(tmp_path_factory.mktemp("project"))
            assert upload(url, zip_path.read_bytes(), token).status == 201
            accepted(url, token)
            finished_games(league, "garuda", 2)
        with LeagueStore(league, create=False) as store:  # a lost game's output, as kept
            team = store.members.member_named("garuda")
            first = store.submissions.version(team.id, 1)
            assert first is not None
            newest = store.submissions.games_of(team.id, first.id)[0]
            store.outputs.keep(team.id, first.id, PRINTED, newest)
        with served(league, hosted_games=False) as (url, _):  # the figures stand still now
            assert upload(url, zipped(FAILING.replace("FAIL", "")), token).status == 201
            accepted(url, token)
            answer = request(url + "/api/league/submissions", token=token)
            versions = answer.body["submissions"]
            assert [v["version"] for v in versions] == [2, 1]
            assert versions[0]["games"] == 0 and versions[1]["games"] >= 2
            games = request(url + "/api/league/submissions/1/games", token=token).body
            assert len(games) >= versions[1]["games"]
            yield Played(url, token, versions, games)


@pytest.mark.parametrize(("locale", "size"), each_once(("en-GB", "id-ID"), SIZES))
def test_each_version_lists_its_games_and_points_on_the_team_and_teacher_pages(
    browser: Any, played: Played, locale: str, size: str
) -> None:
    check_team_page(browser, played, locale, SIZES[size])
    check_teacher_page(browser, played.url, played.versions, locale, SIZES[size])


def check_team_page(browser: Any, played: Played, locale: str, size: dict[str, int]) -> None:
    """The team's page lists each version's games and points in its row, and under a
    version that played, its games one by one, each linked to its board."""
    url, token, versions = played.url, played.token, played.versions
    errors: list[str] = []
    context, page = watched_page(browser, errors, TIMEOUT, viewport=size, locale=locale)
    goto(page, f"{url}/team")
    page.wait_for_selector("#token-form[data-ready]")
    page.locator("#token").fill(token)
    page.locator("#token").press("Enter")
    for version in versions:
        number = str(version["version"])
        cells = page.locator(f"#versions tbody tr:has(td.num:text-is('{number}')) td")
        expect(cells.nth(4)).to_have_text(str(version["games"]))
        expect(cells.nth(5)).to_have_text(shown(version["points"], locale))
    heading = "permainan" if locale == "id-ID" else "games"
    expect(page.locator("#versions thead th").nth(4)).to_have_text(heading)
    listed = page.locator("details.team-games[data-version='1']")
    listed.locator("summary").click()
    rows = listed.locator("tbody tr")
    expect(rows).to_have_count(len(played.games))
    first = played.games[0]
    expect(rows.first.locator("a")).to_have_attribute("href", f"/watch/{first['id']}")
    opponent = first["o"] if first["x"] == "garuda" else first["x"]
    expect(rows.first.locator("td").nth(2)).to_have_text(opponent)
    # its program's last output in that game, fetched with the team's token when opened
    assert first["output"] is True and not any(g["output"] for g in played.games[1:])
    output = rows.first.locator(".team-output")
    expect(listed.locator(".team-output")).to_have_count(1)
    output.locator("summary").click()
    expect(output.locator("pre")).to_have_text(PRINTED.strip())
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert axe_violations(page, EVERY_IMPACT) == []
    assert errors == []
    context.close()


def check_teacher_page(
    browser: Any, url: str, versions: list[dict[str, Any]], locale: str, size: dict[str, int]
) -> None:
    """The teacher's page lists each version of the chosen team with its games and points."""
    errors: list[str] = []
    context, page = teacher_page(browser, url, ADMIN, errors, TIMEOUT, viewport=size, locale=locale)
    page.select_option("#code-team", "garuda")
    for version in versions:
        results = page.locator(f"#code-versions li[data-version='{version['version']}'] .results")
        games, points = version["games"], shown(version["points"], locale)
        if locale == "id-ID":
            words = f"{games} permainan dimainkan, {points} poin"
        else:
            words = f"{games} game{'' if games == 1 else 's'} played, {points} points"
        expect(results).to_have_text(words)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert axe_violations(page, EVERY_IMPACT) == []
    assert errors == []
    context.close()
