"""The lab at a phone's width (390x844), in English and in Indonesian, in Chromium: no
panel makes the page scroll sideways (wide tables scroll inside their own box), the
tabs follow the ARIA tab pattern (arrow keys move between them), the tree's text is
readable at its first view, Fit shows the whole tree, and axe-core finds nothing."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from adjacency import Position
from browser_helpers import EVERY_IMPACT, axe_violations, goto
from web_helpers import LAPTOP, new_tab

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-lab-browser")]

PHONE = {"width": 390, "height": 844}
SLACK = 1
"""A pixel of rounding: ``scrollWidth`` may exceed the viewport by a sub-pixel border."""
SMALLEST_TEXT = 11
"""The smallest height in CSS pixels a tree node's text may render at on the screen."""
POSITION = Position.start(6, 6, rounds=14).play("c3").play("d4")
PANELS = ("tree", "counts", "depth", "climb", "ga", "engine")


def phone_page(browser: Any, server: str, locale: str) -> tuple[Any, Any, list[str]]:
    """A phone-sized tab on ``server`` in ``locale``, its context and its console errors."""
    page = new_tab(browser, server, viewport=PHONE, locale=locale)
    return page.context, page, page.console_errors


def page_width(page: Any) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def run_panel(page: Any, name: str) -> None:
    """Fill the panel ``name`` with real content: its form submitted, its result drawn."""
    page.locator(f".lab-tabs [data-tab={name}]").click()
    form = page.locator(f"#{name}-form")
    if name in ("depth", "engine"):
        form.locator("input[name=seconds]").fill("0.3")
    if name == "counts":
        form.locator("select[name=depth]").select_option("3")
    form.locator("button[type=submit]").click()
    drawn = {
        "tree": "#tree-view g.node[data-ply='1']",
        "counts": "#counts-view table",
        "depth": "#depth-view table",
        "climb": "#climb-view svg",
        "ga": "#ga-view svg",
        "engine": "#engine-view table",
    }[name]
    page.wait_for_selector(drawn)


def overlapping_chart_texts(page: Any) -> list[list[str]]:
    """The pairs of texts of the lab's charts that overlap on the screen (a chart's title
    over its axis's title, say)."""
    return list(
        page.evaluate(
            """() => {
              const pairs = [];
              for (const svg of document.querySelectorAll('.lab-panel:not([hidden]) .chart svg')) {
                const texts = [...svg.querySelectorAll('text')]
                  .map((t) => [t.textContent, t.getBoundingClientRect()]);
                texts.forEach(([a, r], i) => texts.slice(i + 1).forEach(([b, s]) => {
                  const apart = r.right <= s.left || s.right <= r.left
                    || r.bottom <= s.top || s.bottom <= r.top;
                  if (!apart) pairs.push([a, b]);
                }));
              }
              return pairs;
            }"""
        )
    )


def smallest_tree_text(page: Any) -> float:
    """The smallest on-screen size (CSS px) of the text of the tree's nodes now drawn:
    each text's font size times the drawing's scale on the screen."""
    return float(
        page.evaluate(
            """() => Math.min(...[...document.querySelectorAll('#tree-view g.node text')]
                 .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))"""
        )
    )


def nodes_outside_the_box(page: Any) -> int:
    """How many of the tree's drawn nodes lie (partly) outside its box on the screen."""
    return int(
        page.evaluate(
            """() => {
              const box = document.querySelector('#tree-view').getBoundingClientRect();
              return [...document.querySelectorAll('#tree-view g.node rect')].filter((r) => {
                const n = r.getBoundingClientRect();
                return n.left < box.left - 1 || n.right > box.right + 1
                  || n.top < box.top - 1 || n.bottom > box.bottom + 1;
              }).length;
            }"""
        )
    )


@pytest.mark.parametrize("locale", ["en-GB", "id-ID"])
def test_every_lab_panel_fits_a_phone(server: str, browser: Any, locale: str) -> None:
    context, page, errors = phone_page(browser, server, locale)
    goto(page, f"{server}/lab?fen={quote(POSITION.fen())}")
    page.wait_for_selector("#lab-board svg")
    widths = {"empty": page_width(page)}
    serious: dict[str, Any] = {}
    for name in PANELS:
        run_panel(page, name)
        widths[name] = page_width(page)
        unboxed = page.evaluate(
            """() => [...document.querySelectorAll('.lab-panel table')].filter((t) =>
                 getComputedStyle(t.parentElement).overflowX !== 'auto').length"""
        )
        assert unboxed == 0, name  # a wide table scrolls inside its own box
        assert overlapping_chart_texts(page) == [], name
        serious[name] = axe_violations(page, EVERY_IMPACT)
    wide = {name: width for name, width in widths.items() if width > PHONE["width"] + SLACK}
    assert wide == {}, widths
    assert all(found == [] for found in serious.values()), serious
    context.close()
    assert errors == [], errors


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP])
def test_the_tree_text_is_readable_at_first_view_and_fit_shows_the_whole_tree(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    """The first view draws the tree's text at its stylesheet size (11 px at least) on a
    phone as on a laptop, also after a node is opened; Fit then draws every node inside
    the box, and Collapse returns to the readable first view."""
    context, page, errors = phone_page(browser, server, "en-GB")
    page.set_viewport_size(viewport)
    goto(page, f"{server}/lab?fen={quote(POSITION.fen())}")
    page.wait_for_selector("#lab-board svg")  # the page's script runs: its forms are wired
    run_panel(page, "tree")
    assert smallest_tree_text(page) >= SMALLEST_TEXT
    page.locator("#tree-view g.node[data-ply='1']").first.dispatch_event("click")
    assert page.locator("#tree-view g.node[data-ply='2']").count() > 0
    assert smallest_tree_text(page) >= SMALLEST_TEXT
    assert nodes_outside_the_box(page) > 0  # wider than the box: pan, or Fit
    page.locator("#tree-fit").click()
    assert nodes_outside_the_box(page) == 0
    page.locator("#tree-collapse").click()
    assert smallest_tree_text(page) >= SMALLEST_TEXT
    context.close()
    assert errors == [], errors


def test_the_lab_tabs_follow_the_tab_pattern(server: str, browser: Any) -> None:
    """role tablist/tab/tabpanel, each tab naming its panel (aria-controls) and the
    panel its tab (aria-labelledby); only the selected tab is in the Tab order; the
    arrow keys, Home and End move the selection and the focus, showing the panel."""
    context, page, errors = phone_page(browser, server, "en-GB")
    goto(page, f"{server}/lab?fen={quote(POSITION.fen())}")
    page.wait_for_selector("#lab-board svg")  # the page's script runs: the tabs are wired
    tabs = page.locator("[role=tablist] [role=tab]")
    assert tabs.count() == len(PANELS)
    for i, name in enumerate(PANELS):
        tab = tabs.nth(i)
        assert tab.get_attribute("id") == f"tab-{name}"
        assert tab.get_attribute("aria-controls") == f"panel-{name}"
        panel = page.locator(f"#panel-{name}")
        assert panel.get_attribute("role") == "tabpanel"
        assert panel.get_attribute("aria-labelledby") == f"tab-{name}"
        assert tab.get_attribute("tabindex") == ("0" if i == 0 else "-1")

    def selected() -> str:
        return str(page.locator("[role=tab][aria-selected=true]").get_attribute("data-tab"))

    tabs.first.focus()
    page.keyboard.press("ArrowRight")
    assert selected() == "counts" and page.locator("#panel-counts").is_visible()
    assert page.evaluate("() => document.activeElement.id") == "tab-counts"
    assert not page.locator("#panel-tree").is_visible()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # wraps round to the last
    assert selected() == "engine" and page.locator("#panel-engine").is_visible()
    page.keyboard.press("Home")
    assert selected() == "tree"
    page.keyboard.press("End")
    assert selected() == "engine"
    assert page.locator("#tab-engine").get_attribute("tabindex") == "0"
    assert page.locator("#tab-tree").get_attribute("tabindex") == "-1"
    context.close()
    assert errors == [], errors
