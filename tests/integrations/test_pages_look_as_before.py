"""Visual regression: every page state, as Chromium draws it at a laptop's 1366x768 and a
phone's 390x844, in English and in Indonesian, looks as its committed picture does
(tests/visual/baselines/, one PNG per state, window and language).

The pictures are made the same way every time: fresh servers, games played by fixed
moves through the API (no bot's timing shows), the league's round robin between house
bots whose moves are a seeded function of the position, animations and transitions off
(reduced motion, and Playwright's own), no caret, the page's clock frozen at one instant,
the project's own fonts (served with the pages: a machine's fonts change nothing), and
what only time decides (a game's clocks) masked.
Two pictures are the same when at most :data:`MOST_CHANGED` of their pixels differ by
more than :data:`PIXEL_THRESHOLD` in a colour channel: fonts' antialiasing between runs
on one machine stays under both; a moved panel, a new line or a changed colour does not.

``make screenshots`` (``ADJACENCY_SCREENSHOTS=1``) writes the pictures anew instead of
comparing, and puts the phone's Indonesian ones in docs/screenshots/ (``phone-id-*.png``,
shown in docs/web.md and docs/league.md). A failing comparison leaves the picture taken
and the difference (changed pixels in red) beside the test's temporary files.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from adjacency.puzzles import load_shipped
from browser_helpers import goto
from league_helpers import add_member, get, join, make_league, thread_server, wait_until
from web_helpers import CLIENT, api, live_server, new_tab, shown_plies

sync_api = pytest.importorskip("playwright.sync_api")
Image = pytest.importorskip("PIL.Image")
np = pytest.importorskip("numpy")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("visual")]

ROOT = Path(__file__).resolve().parents[2]
BASELINES = ROOT / "tests" / "visual" / "baselines"
DOCS = ROOT / "docs" / "screenshots"
UPDATE = "ADJACENCY_SCREENSHOTS"
"""Set to 1: write the baselines (and the docs' phone pictures) instead of comparing."""
WINDOWS = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LANGUAGES = {"en": "en-GB", "id": "id-ID"}
PIXEL_THRESHOLD = 64
"""A pixel has changed when a colour channel differs by more than this (of 255)."""
MOST_CHANGED = 0.004
"""The largest share of changed pixels two pictures of one state may differ by."""
FROZEN = datetime.datetime(2026, 11, 24, 12, 0, tzinfo=datetime.UTC)
"""The instant the pages' clocks show."""
QUIET = """*, *::before, *::after { animation: none !important; transition: none !important;
  caret-color: transparent !important; }"""
TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
HOUSE = ("ada", "grace", "linus", "report-b-genetic")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("web") / "games.sqlite3") as url:
        yield url


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A league whose four house bots (random, each move seeded with 1: a function of the
    position) have finished a round robin: its URL and the page of one of its games; and
    a second league of the same bots, no game played, where the person Ann has joined
    (``play_url``, her ``secret``): her play page, kept apart so that she shows in none
    of the first league's tables."""
    from adjacency.cli import main

    db = tmp_path_factory.mktemp("league") / "league.db"
    make_league(db, base=60.0, increment=0.0)
    for name in HOUSE:  # each move seeded alike: a game is the same whatever its id
        add_member(db, name, "house", "random:seed=1")
    create = ["league", "event", "create", "--db", str(db), "--format", "round-robin"]
    assert main([*create, "--members", ",".join(HOUSE), "friday"]) == 0
    people_db = tmp_path_factory.mktemp("people") / "league.db"
    make_league(people_db, base=60.0, increment=0.0)
    for name in HOUSE:
        add_member(people_db, name, "house", "random:seed=1")
    with (
        thread_server(db, house_games=False) as url,
        thread_server(people_db, house_games=False) as play_url,
    ):
        assert main(["league", "event", "start", "--db", str(db), "friday"]) == 0
        wait_until(
            lambda: get(f"{url}/api/league/events/friday")["event"]["status"] == "finished",
            60,
            "the event to finish",
        )
        first = min(get(f"{url}/api/league/events/friday")["crosstable"]["games"][0][1])
        secret = join(play_url, "Ann")
        yield {"url": url, "watch": f"/watch/{first}", "play_url": play_url, "secret": secret}


def played(web: str, moves: int, **settings: Any) -> dict[str, Any]:
    """A game between two people (this test run's client holds both seats) after ``moves``
    plies, each the first legal square in name order."""
    game = api(web, "POST", "/api/games", {**TWO_PEOPLE, **settings})
    for _ in range(moves):
        state = api(web, "GET", f"/api/games/{game['id']}")
        api(web, "POST", f"/api/games/{game['id']}/moves", {"square": sorted(state["preview"])[0]})
    return dict(api(web, "GET", f"/api/games/{game['id']}"))


# Each state: (how to reach it on a tab, what time alone decides: masked).
def play_empty(tab: Any, web: str, league: dict[str, str]) -> None:
    goto(tab, web)
    tab.wait_for_selector("#dlg-new[open]")
    tab.click("#new-cancel")
    tab.wait_for_selector("#dlg-new", state="hidden")


def new_game_dialog(tab: Any, web: str, league: dict[str, str]) -> None:
    goto(tab, web)
    tab.wait_for_selector("#dlg-new[open]")


def game_in_progress(tab: Any, web: str, league: dict[str, str]) -> None:
    game = played(web, 10, rows=8, cols=8, rounds=28)
    goto(tab, f"{web}/?game={game['id']}")
    shown_plies(tab, 10)


def finished_game(tab: Any, web: str, league: dict[str, str]) -> None:
    game = played(web, 7, rows=4, cols=4, rounds=4)
    goto(tab, f"{web}/?game={game['id']}")
    shown_plies(tab, 7)
    square = sorted(game["preview"])[0]
    tab.click(f'[data-square="{square}"]')  # the last move, seen ending the game
    tab.wait_for_selector("#dlg-result[open]")


def lab(tab: Any, web: str, league: dict[str, str]) -> None:
    goto(tab, f"{web}/lab")
    tab.wait_for_selector("#lab-board svg")


def rules(tab: Any, web: str, league: dict[str, str]) -> None:
    goto(tab, f"{web}/rules")
    tab.wait_for_selector("main h1")


def puzzle(tab: Any, web: str, league: dict[str, str]) -> None:
    goto(tab, f"{web}/puzzles/{load_shipped()[0].id}")  # the shipped set's first, untried
    tab.wait_for_selector("#board .sq")
    tab.wait_for_function("document.querySelector('#prompt').textContent.trim() !== ''")


def league_home(tab: Any, web: str, league: dict[str, str]) -> None:
    goto(tab, league["url"] + "/")
    tab.wait_for_selector("#events a")
    tab.wait_for_function(  # every game of the round robin counted
        "[...document.querySelectorAll('#standings td.games')].map((td) => td.textContent)"
        f".join() === '{','.join(['6'] * len(HOUSE))}'"
    )


def event_page(tab: Any, web: str, league: dict[str, str]) -> None:
    goto(tab, league["url"] + "/event/friday")
    tab.wait_for_function(  # every game of the round robin counted
        f"document.querySelectorAll('#crosstable td.filled').length === {len(HOUSE) * 3}"
        " && [...document.querySelectorAll('#standings tbody tr')]"
        f".map((tr) => tr.children[3].textContent).join() === '{','.join(['6'] * len(HOUSE))}'"
    )


def people_page(tab: Any, web: str, league: dict[str, str]) -> None:
    goto(tab, league["url"] + "/play")
    tab.wait_for_selector("#join:not([hidden])")


def play_signed_in(tab: Any, web: str, league: dict[str, str]) -> None:
    """The play page of a person signed in (Ann, in this browser): the bots she may
    challenge, none playing."""
    goto(tab, league["play_url"] + "/play")
    tab.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        ["adjacency-league-person", f'{{"name": "Ann", "secret": "{league["secret"]}"}}'],
    )
    goto(tab, league["play_url"] + "/play")
    tab.wait_for_selector("#opponents-panel:not([hidden])")
    tab.wait_for_function(f"document.querySelectorAll('#opponents li').length === {len(HOUSE)}")


def watch_page(tab: Any, web: str, league: dict[str, str]) -> None:
    goto(tab, league["url"] + league["watch"])
    tab.wait_for_function("document.querySelector('#status').dataset.status === 'finished'")
    tab.wait_for_selector("#board svg.piece")


STATES: dict[str, tuple[Callable[[Any, str, dict[str, str]], None], tuple[str, ...]]] = {
    "play-empty": (play_empty, ()),
    "play-new-game": (new_game_dialog, ()),
    "play-game": (game_in_progress, ()),
    "play-finished": (finished_game, ()),
    "lab": (lab, ()),
    "rules": (rules, ()),
    "puzzle": (puzzle, ()),
    "league-home": (league_home, ()),
    "league-event": (event_page, ()),
    "league-people": (people_page, ()),
    "league-play": (play_signed_in, ()),
    "league-watch": (watch_page, ("#clock-x", "#clock-o")),
}


def difference(taken: Any, baseline: Any) -> tuple[float, Any]:
    """The share of changed pixels (:data:`PIXEL_THRESHOLD`) and a mask of them."""
    a = np.asarray(taken.convert("RGB"), dtype=np.int16)
    b = np.asarray(baseline.convert("RGB"), dtype=np.int16)
    changed = np.abs(a - b).max(axis=2) > PIXEL_THRESHOLD
    return float(changed.mean()), changed


def shot_name(state: str, window: str, language: str) -> str:
    return f"{state}-{window}-{language}.png"


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("window", list(WINDOWS))
@pytest.mark.parametrize("state", list(STATES))
def test_the_page_looks_as_its_baseline(
    browser: Any,
    web: str,
    league: dict[str, str],
    tmp_path: Path,
    state: str,
    window: str,
    language: str,
) -> None:
    reach, masked = STATES[state]
    tab = new_tab(
        browser,
        web,
        client=CLIENT,
        viewport=WINDOWS[window],
        locale=LANGUAGES[language],
        color_scheme="light",
        reduced_motion="reduce",
        timezone_id="UTC",
    )
    tab.clock.set_fixed_time(FROZEN)
    try:
        reach(tab, web, league)
        tab.add_style_tag(content=QUIET)
        tab.evaluate("() => document.fonts.ready.then(() => true)")
        picture = wait_until_still(tab)
        if masked:  # else the still page's last picture is the one to compare
            picture = tab.screenshot(
                animations="disabled",
                caret="hide",
                scale="css",
                mask=[tab.locator(selector) for selector in masked],
            )
    finally:
        errors = tab.console_errors
        tab.context.close()
    assert errors == [], errors
    taken = tmp_path / shot_name(state, window, language)
    taken.write_bytes(picture)
    baseline = BASELINES / taken.name
    if os.environ.get(UPDATE) == "1":
        BASELINES.mkdir(parents=True, exist_ok=True)
        baseline.write_bytes(picture)
        if window == "phone" and language == "id":
            DOCS.mkdir(parents=True, exist_ok=True)
            (DOCS / f"phone-id-{state}.png").write_bytes(picture)
        return
    assert baseline.exists(), f"no baseline {baseline}: make screenshots"
    with Image.open(taken) as now, Image.open(baseline) as before:
        assert now.size == before.size, (now.size, before.size)
        share, changed = difference(now, before)
        if share > MOST_CHANGED:
            marked = np.asarray(now.convert("RGB")).copy()
            marked[changed] = (255, 0, 0)
            Image.fromarray(marked).save(tmp_path / f"diff-{taken.name}")
    assert share <= MOST_CHANGED, (
        f"{taken.name}: {share:.2%} of its pixels changed (at most {MOST_CHANGED:.2%});"
        f" taken and difference in {tmp_path}"
    )


def wait_until_still(tab: Any) -> bytes:
    """Wait until two pictures of the page taken apart are the same (a page that polls
    has drawn its last answer); the last picture (taken as the comparison's, nothing
    masked)."""
    previous: list[bytes] = [b""]

    def still() -> bool:
        now = tab.screenshot(animations="disabled", caret="hide", scale="css")
        same = bool(now == previous[0])
        previous[0] = now
        return same

    wait_until(still, 30, "the page to stand still")
    return previous[0]
