"""The league pages in a real browser (Playwright driving Debian's Chromium): a person
joins with a name and plays a rated game by clicks while the leaderboard, open in
another tab, updates by itself; the game can then be watched and downloaded."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from adjacency.core import Position
from adjacency.league.league_file import LeagueStore
from browser_helpers import UNDER_TEST, axe_violations, goto
from league_helpers import (
    ADMIN,
    add_member,
    get,
    make_league,
    request,
    thread_server,
    wait_until,
)

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 30_000


def new_tab(context: Any, errors: list[str]) -> Any:
    tab = context.new_page()
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    return tab


def test_a_person_plays_by_clicks_and_the_leaderboard_follows(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=120.0, increment=0.0)
    add_member(db, "house-random", "house", "random")
    with thread_server(db, house_games=False) as url:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        context.set_default_timeout(TIMEOUT)
        errors: list[str] = []
        board = new_tab(context, errors)
        goto(board, url + "/")
        row = board.locator('#standings tr[data-name="house-random"]')
        sync_api.expect(row.locator(".games")).to_have_text("0")

        player = new_tab(context, errors)
        goto(player, url + "/play")
        player.fill("#join-name", "ada")
        player.click("#join button[type=submit]")
        sync_api.expect(player.locator("#who")).to_contain_text("unrated until")
        approve = f"{url}/api/league/admin/members/ada/approve"
        assert request(approve, "POST", {}, token=ADMIN).status == 200  # ada's games count
        player.click('button[data-opponent="house-random"]')
        game = wait_until(lambda: get(f"{url}/api/league/live"), 60, "the game to start")[0]
        assert (game["x"], game["o"]) == ("ada", "house-random")
        sync_api.expect(board.locator("#settings")).to_contain_text("1 game in play")
        while True:
            state = get(f"{url}/api/league/games/{game['id']}")
            if state["status"] != "playing":
                break
            if state["turn"] != "x":
                time.sleep(0.1)
                continue
            # The page has caught up with the server: the reply is drawn as the last move
            # and the board is open (a click on a page still drawing the position before
            # the person's own last move would be ignored: not its turn there).
            last = f' [data-square="{state["moves"][-1]}"].last' if state["moves"] else ""
            player.locator(f"#board:not(.locked){last}").wait_for()
            square = Position.from_fen(state["fen"]).legal_moves()[-1]
            player.click(f'#board [data-square="{square}"]')
            played = len(state["moves"])

            def answered(played: int = played) -> bool:
                return len(get(f"{url}/api/league/games/{game['id']}")["moves"]) > played

            wait_until(answered, 60, "the click to play")
        sync_api.expect(player.locator("#message")).to_contain_text("Game over")
        plies = Position.from_fen(state["start"]).plies_left  # the opening's plies to play
        assert state["termination"] == "normal" and len(state["moves"]) == plies

        # The leaderboard tab was never reloaded: it shows the rated game by itself.
        sync_api.expect(row.locator(".games")).to_have_text("1")
        ada = board.locator('#standings tr[data-name="ada"]')
        sync_api.expect(ada).to_contain_text("person")
        sync_api.expect(ada.locator(".games")).to_have_text("1")
        # one game each: both provisional, listed under their own heading
        sync_api.expect(board.locator("tr.provisional-head")).to_contain_text("Provisional")

        watch = new_tab(context, errors)
        goto(watch, f"{url}/watch/{game['id']}")
        rounds = (plies + 1) // 2  # the move list numbers rounds, as records do
        sync_api.expect(watch.locator("#moves li")).to_have_count(rounds)
        sync_api.expect(watch.locator("#moves li").first).to_have_text(" ".join(state["moves"][:2]))
        sync_api.expect(watch.locator("#board svg.piece").first).to_be_visible()
        with watch.expect_download() as download:
            watch.click("#record")
        assert "ada" in Path(download.value.path()).read_text()
        context.close()
        assert errors == [], errors


def joined_tab(browser: Any, url: str, name: str, errors: list[str]) -> Any:
    """A play page in a browser of its own, joined as the person ``name``."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(TIMEOUT)
    tab = new_tab(context, errors)
    goto(tab, url + "/play")
    tab.fill("#join-name", name)
    tab.click("#join button[type=submit]")
    sync_api.expect(tab.locator("#who")).to_contain_text(f"You play as {name}")
    return tab


def test_a_person_accepts_a_challenge_on_the_play_page(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=120.0, increment=0.0)
    with thread_server(db, house_games=False) as url:
        errors: list[str] = []
        tabs = [joined_tab(browser, url, name, errors) for name in ("ada", "bob")]
        ada, bob = tabs
        ada.click('button[data-opponent="bob"]')
        sync_api.expect(ada.locator("#message")).to_contain_text("Waiting for bob to accept")
        assert get(f"{url}/api/league/live") == []  # nothing starts without bob
        bob.click('button[data-accept="ada"]')
        sync_api.expect(bob.locator("#game-panel")).to_be_visible()
        sync_api.expect(ada.locator("#game-panel")).to_be_visible()
        (game,) = get(f"{url}/api/league/live")
        assert (game["x"], game["o"]) == ("ada", "bob")
        sync_api.expect(ada.locator("#board:not(.locked)")).to_be_visible()  # ada moves first

        assert errors == [], errors
        for tab in tabs:
            tab.context.close()


def test_people_abort_and_resign_on_the_play_page(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=120.0, increment=0.0)
    with thread_server(db, house_games=False) as url:
        errors: list[str] = []
        ada, bob = (joined_tab(browser, url, name, errors) for name in ("ada", "bob"))
        ada.click('button[data-opponent="bob"]')
        bob.click('button[data-accept="ada"]')
        sync_api.expect(ada.locator("#board:not(.locked)")).to_be_visible()  # ada moves first
        for tab in (ada, bob):  # before their first moves, both may abort or resign
            sync_api.expect(tab.locator("#btn-abort")).to_be_visible()
            sync_api.expect(tab.locator("#btn-resign")).to_be_visible()
        ada.click('#board [data-square="c3"]')
        sync_api.expect(ada.locator("#btn-abort")).to_be_hidden()  # ada has moved
        sync_api.expect(bob.locator("#btn-abort")).to_be_visible()  # bob has not
        (game,) = get(f"{url}/api/league/live")

        bob.click("#btn-resign")  # asked first; cancelling changes nothing
        sync_api.expect(bob.locator("#dlg-confirm")).to_be_visible()
        sync_api.expect(bob.locator("#confirm-title")).to_have_text("Resign?")
        bob.click("#confirm-no")
        sync_api.expect(bob.locator("#dlg-confirm")).to_be_hidden()
        assert get(f"{url}/api/league/games/{game['id']}")["status"] == "playing"

        bob.click("#btn-resign")
        bob.click("#confirm-yes")
        sync_api.expect(bob.locator("#message")).to_contain_text("Game over: you lost")
        sync_api.expect(ada.locator("#message")).to_contain_text("Game over: you won")
        stored = get(f"{url}/api/league/games/{game['id']}")
        assert (stored["result"], stored["termination"]) == ("x", "resignation")
        sync_api.expect(bob.locator("#btn-resign")).to_be_hidden()
        assert errors == [], errors
        for tab in (ada, bob):
            tab.context.close()


PHONE = {"width": 390, "height": 844}


def stored_games(db: Path, count: int) -> None:
    """``count`` finished, rated games between the league's members, all results (no
    records: the pages read the stored rows)."""
    with LeagueStore(db) as store:
        ids = [member.id for member in store.members.members()]
        for i in range(count):
            x, o = ids[i % len(ids)], ids[(i + 1) % len(ids)]
            game = store.games.start_game(x, o, "6/6/6/6/6/6 x 4")
            result = ("x", "o", None)[i % 3]
            store.games.finish_game(game, result, "normal", "", "", (5, 3), 8, (1.0, 1.0))


def lines_of(tab: Any, selector: str) -> int:
    """How many lines the text of the first element ``selector`` takes."""
    return int(
        tab.eval_on_selector(
            selector,
            "el => { const r = document.createRange(); r.selectNodeContents(el);"
            " return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }",
        )
    )


def test_the_league_pages_fit_a_phone_and_axe_finds_nothing_serious(
    browser: Any, tmp_path: Path
) -> None:
    """On a phone, axe-clean: at 390x844 the leaderboard and a
    member's page do not scroll sideways (they were 457-470 and 468 px: the status cut,
    W-D-L wrapped), and axe-core finds no serious or critical violation on either (the
    'online' green was 3.97:1)."""
    db = tmp_path / "league.db"
    make_league(db, base=120.0, increment=0.0)
    add_member(db, "house-random", "house", "random")
    for name in ("alphabeta-depth-four-long-name", "ada"):
        add_member(db, name)
    stored_games(db, 45)
    with thread_server(db, house_games=False) as url:
        context = browser.new_context(viewport=PHONE, **UNDER_TEST)
        context.set_default_timeout(TIMEOUT)
        errors: list[str] = []
        tab = new_tab(context, errors)
        goto(tab, url + "/")
        tab.locator('#standings tr[data-name="ada"]').wait_for()
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert lines_of(tab, '#standings tr[data-name="ada"] td.wdl') == 1
        status = tab.locator('#standings tr[data-name="house-random"] td').last
        sync_api.expect(status).to_have_text("online")
        assert status.bounding_box()["x"] + status.bounding_box()["width"] <= PHONE["width"]
        assert axe_violations(tab) == []

        goto(tab, url + "/bot/ada")
        sync_api.expect(tab.locator("#recent tbody tr")).to_have_count(20)
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert axe_violations(tab) == []
        context.close()
        assert errors == [], errors


def test_a_members_page_labels_its_interval_draws_axes_and_pages_its_games(
    browser: Any, tmp_path: Path
) -> None:
    """The interval is named (rd, as the standings print it, and the 95%
    interval it gives, not a bare '± 122'); the rating chart has values and dates; the
    games page by 20 (they stopped at 20), in the API and on the page."""
    db = tmp_path / "league.db"
    make_league(db, base=120.0, increment=0.0)
    for name in ("ada", "bob"):
        add_member(db, name)
    stored_games(db, 45)
    with thread_server(db, house_games=False) as url:
        api = get(f"{url}/api/league/members/ada?offset=40&limit=20")
        assert (api["recent_offset"], api["recent_total"], len(api["recent"])) == (40, 45, 5)
        first = get(f"{url}/api/league/members/ada")
        assert [g["id"] for g in first["recent"]] == list(range(45, 25, -1))  # newest first
        last = first["history"][-1]

        context = browser.new_context(viewport={"width": 1200, "height": 900})
        context.set_default_timeout(TIMEOUT)
        errors: list[str] = []
        tab = new_tab(context, errors)
        goto(tab, url + "/bot/ada")
        rating, rd = round(last["rating"]), round(last["rd"])
        low, high = round(last["rating"] - 2 * last["rd"]), round(last["rating"] + 2 * last["rd"])
        expected = f"rating {rating}, rd {rd} (95% interval {low}–{high})"
        sync_api.expect(tab.locator("#summary")).to_contain_text(expected)
        labels = tab.locator("#history text").all_text_contents()
        day = time.strftime("%Y-%m-%d", time.gmtime(last["at"]))
        assert day in labels and any(label.isdigit() for label in labels), labels

        range_text = tab.locator("#recent-range")
        sync_api.expect(range_text).to_have_text("games 1–20 of 45")
        sync_api.expect(tab.locator("#newer")).to_be_disabled()
        tab.click("#older")
        sync_api.expect(range_text).to_have_text("games 21–40 of 45")
        sync_api.expect(tab.locator("#recent tbody tr").first).to_contain_text("25")
        tab.click("#older")
        sync_api.expect(range_text).to_have_text("games 41–45 of 45")
        sync_api.expect(tab.locator("#recent tbody tr")).to_have_count(5)
        sync_api.expect(tab.locator("#older")).to_be_disabled()
        tab.click("#newer")
        sync_api.expect(range_text).to_have_text("games 21–40 of 45")
        context.close()
        assert errors == [], errors
