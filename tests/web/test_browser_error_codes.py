"""Every error the web server sends a page is read in the page's language, by its code, in
Debian's Chromium against a real server: the Indonesian page sends each error code's
request through its own API client (api.js, stream.js) and reads the message it would
show, which is the Indonesian catalogue's message of that code and holds no English; the
join dialog and a finished game's Analyse show theirs on the page. Default seat names
are rendered in the reader's language, on the seat they hold now (after a rematch too),
the reader's own seat as "You", and the holder of one seat of a friend game reads "You
won" or "You lost"."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, axe_violations, goto
from i18n_helpers import english_left
from web_helpers import CLIENT, api, new_tab, shown_plies

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-error-codes")]

CATALOGUES = Path(__file__).resolve().parents[2] / "src/adjacency/serving/static/i18n"
BLANK = {"x": {"kind": "human", "name": ""}, "o": {"kind": "human", "name": ""}}
SMALL = {"rows": 4, "cols": 4, "rounds": 1}
FINISHED_FEN = "oooo/xxoo/xxxo/xxxx x 0"

# Each request (a call of the page's own client, with the ids the test made) and the code
# the server answers it with.
REQUESTS = {
    "game_not_found": "api.load('nosuchgame')",
    "game_over": "api.play(ids.over, 'a1')",
    "nothing_to_undo": "api.undo(ids.fresh)",
    "no_offers": "api.offer(ids.fresh, 'takeback')",
    "bad_seat_link": "api.claim(ids.invite, 'not-a-token')",
    "no_takebacks": "api.undo(ids.invite)",
    "no_hints": "api.hint(ids.invite)",
    "not_your_turn": "api.play(ids.invite, ids.square)",
    "bad_code": "api.findCode('!!')",
    "unknown_code": "api.findCode('ABCDEF')",
    "puzzle_not_found": "request('GET', '/api/puzzles/nosuchpuzzle')",
    "invalid": "api.importRecord('not a record')",
    "malformed": "api.create({rows: 'many'})",
    "no_plies_left": f"live('{FINISHED_FEN}')",
    "odd_plies": "live('6oo/6oo/8/8/8/8/xx6/xx6 x 55')",
    "too_few_pieces": "live('8/8/8/8/8/8/8/xx6 x 54')",
}
SEND_ALL = """async ({ids, calls}) => {
  const { api, request } = await import("/static/js/api.js");
  const { streamEvents } = await import("/static/js/stream.js");
  const live = (fen) => streamEvents(`/api/analysis/live?fen=${encodeURIComponent(fen)}`, () => {});
  const answers = {};
  for (const [name, call] of Object.entries(calls)) {
    try {
      const send = new Function("api", "request", "live", "ids", `return ${call};`);
      await send(api, request, live, ids);
      answers[name] = null;
    } catch (err) {
      answers[name] = { code: err.code, message: err.message };
    }
  }
  return answers;
}"""


def catalogue(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def fragments(message: str) -> list[str]:
    """The fixed parts of a catalogue message (cut at its parameters)."""
    return [p.strip() for p in re.split(r"\{\w+\}", message) if len(p.strip()) >= 4]


def test_each_error_code_is_read_in_indonesian(server: str, browser: Any) -> None:
    ids: dict[str, str] = {}
    over = api(server, "POST", "/api/games", {**BLANK, **SMALL})
    for _ in range(2):
        state = api(server, "GET", f"/api/games/{over['id']}")
        api(
            server,
            "POST",
            f"/api/games/{over['id']}/moves",
            {"square": sorted(state["preview"])[0]},
        )
    ids["over"] = over["id"]
    ids["fresh"] = api(server, "POST", "/api/games", {**BLANK, **SMALL})["id"]
    invite = api(server, "POST", "/api/invites", {**BLANK, **SMALL})
    ids["invite"] = invite["game"]["id"]
    api(
        server,
        "POST",
        f"/api/games/{ids['invite']}/seats",
        None,
        **{"X-Seat-Token": invite["tokens"]["x"]},
    )
    first = sorted(invite["game"]["preview"])[0]
    moved = api(server, "POST", f"/api/games/{ids['invite']}/moves", {"square": first})
    ids["square"] = sorted(moved["preview"])[0]  # O's turn now: not this client's

    tab = new_tab(browser, server, locale="id-ID")
    goto(tab, f"{server}/rules")
    answers = tab.evaluate(SEND_ALL, {"ids": ids, "calls": REQUESTS})
    indonesian, english = catalogue("id"), catalogue("en")
    for code in REQUESTS:
        answer = answers[code]
        assert answer is not None and answer["code"] == code, (code, answer)
        message = answer["message"]
        for part in fragments(indonesian[f"error.{code}"]):
            assert part in message, (code, part, message)
        for part in fragments(english[f"error.{code}"]):
            assert part not in message, (code, part, message)

    goto(tab, server)  # the join dialog reads a bad code's message on the page
    tab.wait_for_selector("#dlg-new[open]")
    tab.click("#new-join")
    tab.fill("#join-code", "ABCDEF")
    tab.click("#join-submit")
    expect(tab.locator("#join-error")).to_contain_text(
        fragments(indonesian["error.unknown_code"])[0]
    )
    assert english_left(tab) == []
    assert axe_violations(tab, EVERY_IMPACT) == []
    tab.context.close()
    # Chromium logs each refused request as a failed resource load: those were asked for.
    assert [e for e in tab.console_errors if not e.startswith("Failed to load resource")] == []


def test_default_names_are_the_readers_on_their_seat_and_one_seat_reads_you_won(
    server: str, browser: Any
) -> None:
    game = api(server, "POST", "/api/games", {**BLANK, **SMALL})
    square = sorted(game["preview"])[0]
    api(server, "POST", f"/api/games/{game['id']}/moves", {"square": square})
    api(server, "POST", f"/api/games/{game['id']}/resign", {"side": "o"})
    tab = new_tab(browser, server, locale="id-ID")
    goto(tab, f"{server}/?game={game['id']}")
    shown_plies(tab, 1)
    expect(tab.locator("#status")).to_contain_text("O (Pemain O) menyerah")
    expect(tab.locator("#bar-top, #bar-bottom").first).to_contain_text("Pemain")
    assert "Player" not in tab.inner_text("#main")
    rematch = api(server, "POST", f"/api/games/{game['id']}/rematch")
    assert rematch["x"]["name"] == "Player O"  # the people changed colours, their names too
    goto(tab, f"{server}/?game={rematch['id']}")
    tab.wait_for_selector("#board .sq")
    for bar in ("#bar-top", "#bar-bottom"):
        side = "X" if "side-x" in (tab.get_attribute(bar, "class") or "") else "O"
        expect(tab.locator(f"{bar} .name")).to_have_text(f"Pemain {side}")
    expect(tab.locator("#status")).to_contain_text("X (Pemain X)")
    assert english_left(tab) == []
    tab.context.close()
    assert tab.console_errors == []

    invite = api(server, "POST", "/api/invites", {**BLANK, **SMALL})
    game_id = invite["game"]["id"]
    api(
        server,
        "POST",
        f"/api/games/{game_id}/seats",
        None,
        **{"X-Seat-Token": invite["tokens"]["x"]},
    )
    friend = new_tab(browser, server, client="friend-" + CLIENT, locale="id-ID")
    goto(friend, f"{server}/?game={game_id}#seat={invite['tokens']['o']}")
    mine = new_tab(browser, server, locale="en-GB")
    goto(mine, f"{server}/?game={game_id}")
    friend.wait_for_selector("#board .sq")
    mine.wait_for_selector("#board .sq")
    # each reads its own seat (at the bottom) as You, the other's by its side
    expect(mine.locator("#bar-bottom .name")).to_have_text("You")
    expect(mine.locator("#bar-top .name")).to_have_text("Player O")
    expect(friend.locator("#bar-bottom .name")).to_have_text("Anda")
    expect(friend.locator("#bar-top .name")).to_have_text("Pemain X")
    square = sorted(invite["game"]["preview"])[0]
    api(server, "POST", f"/api/games/{game_id}/moves", {"square": square})
    api(server, "POST", f"/api/games/{game_id}/resign", {"side": "x"})
    mine.wait_for_selector("#dlg-result[open]")
    expect(mine.locator("#result-title")).to_have_text("You lost")
    friend.wait_for_selector("#dlg-result[open]")
    expect(friend.locator("#result-title")).to_have_text("Anda menang!")
    assert english_left(friend) == []
    for page in (mine, friend):
        page.context.close()
        assert page.console_errors == []
