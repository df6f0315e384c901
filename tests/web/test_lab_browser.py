"""The Lab page in Chromium: from a game to the lab, the tree expanded and stepped, the
climb and the genetic charts; screenshots for the docs at laptop and phone sizes."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from adjacency import Position
from adjacency.lab import SearchTree, search_tree
from adjacency.lab.limits import NODE_CAP
from browser_helpers import goto

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-lab-browser")]

TIMEOUT = 60_000
MAX_VISIBLE = 2500
"""The most tree nodes Expand to depth draws (tree.js ``MAX_VISIBLE``)."""
MAX_PRUNED = 6
"""The most greyed (cut) moves drawn under one node (tree.js ``MAX_PRUNED``)."""

MIDGAME = Position.start(8, 8, rounds=28)
for _square in ("c3", "f6", "d3", "e6", "c4", "f5"):
    MIDGAME = MIDGAME.play(_square)


def new_page(browser: Any, width: int, height: int) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    return context, page, errors


def shoot(page: Any, shots: Path, name: str) -> None:
    path = shots / name
    page.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000


def expanded_to_depth(tree: SearchTree) -> tuple[list[int], list[int]]:
    """The nodes Expand to depth opens and the nodes it draws, by the page's documented
    rule: breadth first from the root, a node opens with all of its children until
    opening the next one would draw more than :data:`MAX_VISIBLE` nodes; there it stops
    (a textbook tree to depth 3 on 8x8 is larger than that)."""
    opened: list[int] = []
    drawn = [0]
    for node_id in drawn:  # grows while it is read: breadth first
        node = tree.nodes[node_id]
        if node.ply >= tree.depth or not node.children:
            continue
        if len(drawn) + len(node.children) > MAX_VISIBLE:
            break
        opened.append(node_id)
        drawn.extend(node.children)
    return opened, drawn


def principal_line_nodes(tree: SearchTree) -> set[int]:
    """The nodes of the tree's line (each node's best child from the root), the root in."""
    line = {0}
    node = tree.root
    while node.best is not None:
        following = [c for c in node.children if tree.nodes[c].move == node.best]
        if not following:
            break
        node = tree.nodes[following[0]]
        line.add(node.id)
    return line


def test_the_lab_opens_on_the_shown_position_of_a_game(server: str, browser: Any) -> None:
    body = {
        "x": {"kind": "human", "name": "Ann"},
        "o": {"kind": "human", "name": "Bob"},
        "rows": 6,
        "cols": 6,
        "rounds": 14,
    }
    request = urllib.request.Request(
        server + "/api/games",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        game = json.loads(response.read())
    context, page, errors = new_page(browser, 1280, 860)
    goto(page, f"{server}/?game={game['id']}")
    page.wait_for_selector("#board .sq")
    with context.expect_page() as opened:
        page.locator("#btn-lab").click()
    lab = opened.value
    lab.wait_for_selector("#lab-board svg")
    assert lab.locator("#lab-fen").input_value() == Position.start(6, 6, rounds=14).fen()
    context.close()
    assert errors == []


def test_tree_steps_climb_and_genetic_charts(server: str, browser: Any, shots: Path) -> None:
    context, page, errors = new_page(browser, 1366, 768)
    goto(page, f"{server}/lab?fen={quote(MIDGAME.fen())}")
    page.wait_for_selector("#lab-board svg")
    assert page.locator("#lab-fen").input_value() == MIDGAME.fen()
    form = page.locator("#tree-form")
    form.locator("select[name=depth]").select_option("3")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#tree-view g.node[data-ply='1']")
    expected = search_tree(MIDGAME, 3, "alphabeta")
    # the first level: the root's moves, collapsed
    assert page.locator("#tree-view g.node[data-ply='1']").count() == len(expected.root.children)
    middle = expected.nodes[expected.root.children[len(expected.root.children) // 2]]
    page.locator(f"#tree-view g.node[data-node-id='{middle.id}']").hover()  # in the first view
    assert page.locator("#lab-board-caption").inner_text() == f"after {middle.move}"
    page.locator("#tree-expand").click()
    # the textbook tree (every horizon position a node) is larger than the page draws:
    # plies 1 and 2 open whole, ply 3 up to the drawing limit
    opened, drawn = expanded_to_depth(expected)
    assert len(expected.nodes) > MAX_VISIBLE >= len(drawn)
    assert page.locator("#tree-step-text").inner_text() == (
        f"{len(drawn):,} nodes shown; expand single nodes to see more"
    )
    for ply in (1, 2, 3):
        count = page.locator(f"#tree-view g.node[data-ply='{ply}']").count()
        assert count == sum(expected.nodes[node_id].ply == ply for node_id in drawn)
        if ply < 3:
            assert count == sum(node.ply == ply for node in expected.nodes)
    drawn_line = principal_line_nodes(expected) & set(drawn)
    assert page.locator("#tree-view g.node.pv").count() == len(drawn_line) >= expected.depth
    pruned = sum(min(len(expected.nodes[node_id].pruned), MAX_PRUNED) for node_id in opened)
    assert pruned > 0 and page.locator("#tree-view g.node.pruned").count() == pruned
    page.mouse.wheel(0, -200)  # zoom in, then back to the whole tree
    page.locator("#tree-fit").click()
    # the picture for the docs (the whole depth 3 is too wide to read): the root's moves,
    # three in the middle opened, each with the reply it searched and the moves it cut
    page.locator("#tree-collapse").click()
    assert page.locator("#tree-step-text").inner_text() == ""  # no stale count
    third = len(expected.root.children) // 3
    opened_here = expected.root.children[third : third + 3]
    for node_id in opened_here:
        page.locator(f"#tree-view g.node[data-node-id='{node_id}']").dispatch_event("click")
    page.locator("#tree-fit").click()
    shown = len(expected.root.children) + sum(len(expected.nodes[i].children) for i in opened_here)
    assert page.locator("#tree-view g.node:not(.pruned)").count() == 1 + shown
    shoot(page, shots, "lab-tree.png")

    page.locator("#tree-step-reset").click()
    for _ in range(10):
        page.locator("#tree-step").click()
    text = page.locator("#tree-step-text").inner_text()
    assert text.startswith(f"step 10 of {len(expected.events):,}:")  # a grouped count
    entered = [node_id for kind, node_id in expected.events[:10] if kind == 0]
    assert page.locator("#tree-view g.node").count() == len(entered)

    page.locator(".lab-tabs button[data-tab=climb]").click()
    climb = page.locator("#climb-form")
    climb.locator("select[name=spec]").select_option("anneal")
    climb.locator("button[type=submit]").click()
    page.wait_for_selector("#climb-view svg polyline")
    assert "anneal, seed 1: plays" in page.locator("#climb-view").inner_text()
    assert page.locator("#lab-board rect[data-square] title").filter(has_text=":").count() > 1

    page.locator(".lab-tabs button[data-tab=ga]").click()
    page.locator("#ga-form button[type=submit]").click()
    page.wait_for_selector("#ga-view svg polyline")
    assert "Seed 1" in page.locator("#ga-view").inner_text()
    context.close()
    assert errors == []


def test_expanding_a_tree_cut_by_the_node_cap_draws_at_most_the_pages_limit(
    server: str, browser: Any
) -> None:
    """Expand on a tree the node cap cut (minimax, depth 3, the 8x8 start) opens level by
    level and stops before the page's drawing limit (tree.js MAX_VISIBLE, 2,500 nodes
    plus at most 6 greyed moves per cut): every root move the tree holds, all of the
    second level, never a half-opened deeper node whose children were not counted.

    The textbook tree counts every horizon position, so a root move's subtree is
    1 + 55 + 55 * 54 = 3,026 nodes and the 20,000-node cap stops the search inside the
    seventh of the 56 root moves: the tree (and the page) holds 7 of them."""
    context, page, errors = new_page(browser, 1366, 768)
    start = Position.start(8, 8, rounds=28)
    expected = search_tree(start, 3, "minimax")
    moves = len(start.legal_moves())
    subtree = 1 + (moves - 1) + (moves - 1) * (moves - 2)
    assert not expected.complete and len(expected.nodes) == NODE_CAP
    assert len(expected.root.children) == -(-(NODE_CAP - 1) // subtree) < moves
    opened, drawn = expanded_to_depth(expected)
    goto(page, f"{server}/lab?fen={quote(start.fen())}")
    page.wait_for_selector("#lab-board svg")
    form = page.locator("#tree-form")
    form.locator("select[name=algorithm]").select_option("minimax")
    form.locator("select[name=depth]").select_option("3")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#tree-view g.node[data-ply='1']")
    page.locator("#tree-expand").click()
    assert page.locator("#tree-step-text").inner_text() == (
        f"{len(drawn):,} nodes shown; expand single nodes to see more"
    )
    assert page.locator("#tree-view g.node:not(.pruned)").count() == len(drawn) <= MAX_VISIBLE
    assert page.locator("#tree-view g.node[data-ply='1']").count() == len(expected.root.children)
    second = sum(node.ply == 2 for node in expected.nodes)
    assert page.locator("#tree-view g.node[data-ply='2']").count() == second > 0
    third = sum(expected.nodes[node_id].ply == 3 for node_id in drawn)
    assert page.locator("#tree-view g.node[data-ply='3']").count() == third > 0
    # no half-opened node: the third level drawn is whole families of 54 replies
    assert third % (moves - 2) == 0 and len(opened) > 1 + len(expected.root.children)
    context.close()
    assert errors == []


def test_the_lab_at_phone_width(server: str, browser: Any, shots: Path) -> None:
    context, page, errors = new_page(browser, 390, 844)
    goto(page, f"{server}/lab?fen={quote(MIDGAME.fen())}")
    page.wait_for_selector("#lab-board svg")  # the page's script runs: its forms are wired
    page.locator("#tree-form button[type=submit]").click()
    page.wait_for_selector("#tree-view g.node[data-ply='1']")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing forces sideways scrolling
    shoot(page, shots, "lab-phone.png")
    context.close()
    assert errors == []


SMALLEST_TEXT = """(selector) => Math.min(...[...document.querySelectorAll(selector)].map((t) =>
  parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a))"""
"""The smallest drawn size (px) of the text of the matching SVG elements, as scaled."""


def test_the_climb_and_genetic_charts_draw_readable_text_on_a_phone(
    server: str, browser: Any
) -> None:
    context, page, errors = new_page(browser, 390, 844)
    goto(page, f"{server}/lab?fen={quote(MIDGAME.fen())}")
    page.wait_for_selector("#lab-board svg")
    page.locator(".lab-tabs button[data-tab=climb]").click()
    page.locator("#climb-form select[name=spec]").select_option("anneal")
    page.locator("#climb-form button[type=submit]").click()
    page.wait_for_selector("#climb-view svg polyline", state="attached")
    page.locator(".lab-tabs button[data-tab=ga]").click()
    page.locator("#ga-form button[type=submit]").click()
    page.wait_for_selector("#ga-view svg polyline", state="attached")
    for view in ("#climb-view", "#ga-view"):
        page.locator(f".lab-tabs button[data-tab={'climb' if 'climb' in view else 'ga'}]").click()
        smallest = page.evaluate(SMALLEST_TEXT, f"{view} svg text")
        assert smallest >= 9, (view, smallest)  # it was 6 px: a 640-unit chart shrunk
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
    assert errors == []


def test_counts_depth_and_engine_panels(server: str, browser: Any) -> None:
    context, page, errors = new_page(browser, 1366, 768)
    small = Position.start(5, 5, rounds=6).play("c1")
    goto(page, f"{server}/lab?fen={quote(small.fen())}")
    page.wait_for_selector("#lab-board svg")  # the page's script runs: its forms are wired
    page.locator(".lab-tabs button[data-tab=counts]").click()
    page.locator("#counts-form select[name=depth]").select_option("4")
    page.locator("#counts-form button[type=submit]").click()
    page.wait_for_selector("#counts-view table")
    cells = page.locator("#counts-view tbody tr td:first-child").all_inner_texts()
    assert cells == [
        "minimax",
        "alpha-beta, reading order",
        "alpha-beta, most conversions first",
        "+ best move first",
        "+ transposition table",
        "+ bulk leaves (how the bot plays)",
    ]

    page.locator(".lab-tabs button[data-tab=depth]").click()
    page.locator("#depth-form input[name=seconds]").fill("0.5")
    page.locator("#depth-form button[type=submit]").click()
    page.wait_for_selector("#depth-view svg polyline")
    headings = page.locator("#depth-view h3").all_inner_texts()
    assert [h.split(":")[0] for h in headings] == ["alphabeta", "engine"]
    assert all(h.endswith("within 0.5 s") for h in headings), headings  # the budget given
    seconds = page.locator("#depth-view tbody tr td:nth-child(4)").first.inner_text()
    assert re.fullmatch(r"\d+\.\d{3}", seconds), seconds  # English decimals

    page.locator(".lab-tabs button[data-tab=engine]").click()
    page.locator("#engine-form input[name=seconds]").fill("0.5")
    page.locator("#engine-form button[type=submit]").click()
    page.wait_for_selector("#engine-view table")
    shown = page.locator("#engine-view").inner_text()
    assert "Engine plays" in shown and "Transposition table hit rate:" in shown
    assert "share of the nodes the exact solver took:" in shown
    heads = page.locator("#engine-view table").first.locator("th").all_inner_texts()
    assert heads[-2:] == ["table hits", "solver nodes"]
    context.close()
    assert errors == []
