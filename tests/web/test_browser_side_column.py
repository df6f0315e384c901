"""The play page's side column says when more of it lies below, in Debian's Chromium
against a real server, in English at 1366x768 and in Indonesian at 1280x720 and on a
390x844 phone.

On a laptop the column scrolls on its own with the game's actions pinned to its bottom;
a takeback offer in a 20-ply game between devices pushes the evaluation graph under that
row. While it is cut, a sign ("More below") shows on the actions' top edge, the element
drawn at its centre; pressing it scrolls the column to its end, where the whole graph is
seen above the actions and the sign goes; scrolled back up, it shows again. On the phone
the page scrolls instead and the sign never shows. Each state passes axe at every
impact, has nothing wider than the window, no English left in Indonesian and no console
error.
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from adjacency.web.seats import CLIENT_COOKIE
from browser_helpers import EVERY_IMPACT, WINDOWS, axe_violations, each_once, goto, sideways
from i18n_helpers import english_left
from web_helpers import api, new_tab, shown_plies

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-side-column")]

TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
PLIES = 20
SEAT = "X-Seat-Token"

SEEN = """() => {
  const side = document.querySelector('.side');
  const box = (q) => document.querySelector(q).getBoundingClientRect();
  const sign = document.querySelector('#side-more-button').getBoundingClientRect();
  const top = document.elementFromPoint(sign.left + sign.width / 2, sign.top + sign.height / 2);
  return {
    below: side.scrollHeight - side.scrollTop - side.clientHeight,
    graph: [box('#graph').top, box('#graph').bottom],
    side: box('.side').top, actions: box('#game-actions').top,
    signOnTop: Boolean(top && document.querySelector('#side-more-button').contains(top)),
  };
}"""


def audited(tab: Any, locale: str) -> None:
    """axe at every impact, nothing wider than the window, no English left in Indonesian."""
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert sideways(tab) == 0
    if locale.startswith("id"):
        assert english_left(tab, ["Ann", "Bob"]) == []


def offered(server: str) -> tuple[str, str]:
    """A game between devices (this run's client X, another device O) of ``PLIES`` plies,
    O asking to take its last move back: the game's id and X's seat token."""
    made = api(server, "POST", "/api/invites", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 28})
    game_id, tokens = made["game"]["id"], made["tokens"]
    other = {"Cookie": f"{CLIENT_COOKIE}={secrets.token_urlsafe(16)}", SEAT: tokens["o"]}
    api(server, "POST", f"/api/games/{game_id}/seats", **{SEAT: tokens["x"]})
    api(server, "POST", f"/api/games/{game_id}/seats", **other)
    for ply in range(PLIES):
        square = sorted(api(server, "GET", f"/api/games/{game_id}")["preview"])[0]
        mover = {SEAT: tokens["x"]} if ply % 2 == 0 else other
        api(server, "POST", f"/api/games/{game_id}/moves", {"square": square}, **mover)
    api(server, "POST", f"/api/games/{game_id}/offers", {"kind": "takeback"}, **other)
    return str(game_id), str(tokens["x"])


@pytest.mark.parametrize(("locale", "window"), each_once(("en-GB", "id-ID"), WINDOWS))
def test_the_side_column_says_when_more_lies_below(
    server: str, browser: Any, locale: str, window: str
) -> None:
    game_id, token = offered(server)
    tab = new_tab(browser, server, viewport=WINDOWS[window], locale=locale)
    goto(tab, f"{server}/?game={game_id}#seat={token}")
    shown_plies(tab, PLIES)
    expect(tab.locator("#offer")).to_be_visible()  # Bob's takeback offer, above the moves
    sign = tab.locator("#side-more-button")
    if window == "390x844":  # one column: the page scrolls, the column never does
        expect(sign).to_be_hidden()
        audited(tab, locale)
    else:
        seen = tab.evaluate(SEEN)
        assert seen["below"] > 1, seen  # the offer pushed the graph down ...
        assert seen["graph"][1] > seen["actions"], seen  # ... under the pinned actions
        expect(sign).to_be_visible()  # and the column says so, drawn over what it covers
        assert tab.evaluate(SEEN)["signOnTop"]
        audited(tab, locale)
        sign.click()
        expect(sign).to_be_hidden()
        seen = tab.evaluate(SEEN)
        assert seen["below"] <= 1, seen  # the column's end ...
        assert seen["side"] <= seen["graph"][0] and seen["graph"][1] <= seen["actions"], seen
        tab.eval_on_selector(".side", "side => { side.scrollTop = 0; }")  # back up: shown
        expect(sign).to_be_visible()
        audited(tab, locale)
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors
