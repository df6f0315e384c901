"""Arrows and circles drawn by touch in a real browser (Playwright, Debian's Chromium),
on a phone (390x844) in Indonesian (the shapes' words in both languages:
tests/web/js/shapes.test.mjs): real touch events sent through the
DevTools protocol (Playwright's touch screen has taps only), the page's clock advanced by
the page's own long-press time. A long press outlines its square (the sign that it was
recognised); lifting the finger there draws a circle, sliding to another square first
draws an arrow; neither plays a move, both are said in words; axe-core finds nothing at
any impact, the page never scrolls sideways and logs no console error.

Oracles: the board's own squares' places on the screen, the rules core (the game).
"""

from __future__ import annotations

from typing import Any

import pytest

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import game_to_text
from browser_helpers import (
    LOCALES,
    SIZES,
    checked_and_closed,
    goto,
)
from web_helpers import api, drawn_shapes, new_tab

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-shapes")]


def centre(tab: Any, square: str) -> dict[str, float]:
    box = tab.locator(f"#board [data-square={square}]").bounding_box()
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


def touch(cdp: Any, kind: str, *points: dict[str, float]) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": list(points)})


def long_press(tab: Any, cdp: Any, square: str, wait: int) -> None:
    """Put a finger on ``square`` and hold it there for the page's long-press time (its
    clock advanced by ``wait`` ms), until the page outlines the square."""
    touch(cdp, "touchStart", centre(tab, square))
    tab.clock.run_for(wait)
    expect(tab.locator(f"#board [data-square={square}].shape-start")).to_have_count(1)


@pytest.mark.parametrize("locale", LOCALES[1:])
def test_a_long_press_draws_a_circle_and_a_slide_an_arrow_on_a_phone(
    server: str, browser: Any, locale: str
) -> None:
    game = Game(Position.start(4, 4, 1), "Ann", "Bob")  # over: a tap would play a variation
    for square in ("c2", "b3"):
        game.play(square)
    state = api(server, "POST", "/api/games/import", {"record": game_to_text(game)})
    tab = new_tab(
        browser, server, viewport=SIZES["phone"], locale=locale, has_touch=True, is_mobile=True
    )
    tab.clock.install()  # time runs as usual until the test advances it
    goto(tab, f"{server}/?game={state['id']}")
    tab.wait_for_function("document.querySelectorAll('#moves button').length === 2")
    tab.click("#nav-first")
    tab.locator("#board").scroll_into_view_if_needed()
    wait = int(tab.evaluate("import('/static/js/shapes.js').then((m) => m.LONG_PRESS)"))
    cdp = tab.context.new_cdp_session(tab)

    long_press(tab, cdp, "b4", wait)  # a press without a slide: a circle
    touch(cdp, "touchEnd")
    expect(tab.locator(".shapes .shape")).to_have_count(1)
    assert drawn_shapes(tab) == [("circle", "b4", None)]
    expect(tab.locator("#board .shape-start")).to_have_count(0)

    long_press(tab, cdp, "a3", wait)  # a press, then a slide to c3: an arrow
    touch(cdp, "touchMove", centre(tab, "b3"))
    touch(cdp, "touchMove", centre(tab, "c3"))
    touch(cdp, "touchEnd")
    expect(tab.locator(".shapes .shape")).to_have_count(2)
    assert drawn_shapes(tab) == [("arrow", "a3", "c3"), ("circle", "b4", None)]
    words = tab.locator("#shapes-words")
    expect(words).to_contain_text("b4")
    expect(words).to_contain_text("a3")
    expect(words).to_contain_text("c3")
    assert tab.locator("#moves button.variation-move").count() == 0  # no move was played
    checked_and_closed(tab, locale)
