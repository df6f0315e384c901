"""The page's reader of shape comments (``readShapes`` in shapes.js, run in a real
browser, Playwright driving Debian's Chromium), against this test's own model of
lichess's notation, on records of random lines with a variation: every position whose
comments hold ``[%csl ...]`` circles and ``[%cal ...]`` arrows (any of lichess's
colours, in one comment or two) gets exactly the union of the marks that name squares
of the board, the marks off the board, malformed or an arrow to its own square are left
out, and positions without such comments get nothing; the core's record reader reads
the same text past those comments, its moves unchanged.

Oracles: the rules core (the positions a line reaches), the model in this file.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import game_to_text, main_line, record_from_text
from browser_helpers import goto
from web_helpers import new_tab

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-shapes")]

FILES = "abcdefgh"
Shape = tuple[str, str, str | None]
READ = """([text, start]) => import('/static/js/shapes.js').then((m) =>
  [...m.readShapes(text, start)].map(([key, shapes]) =>
    [key, [...shapes.values()].map((s) => [s.kind, s.from, s.to || null])]))"""


def cells(position: Position) -> str:
    return "".join(
        "x" if position.x >> i & 1 else "o" if position.o >> i & 1 else "."
        for i in range(position.rows * position.cols)
    )


def key(position: Position) -> str:
    return f"{position.rows}x{position.cols}:{cells(position)}"


@st.composite
def marked(draw: st.DrawFn, position: Position) -> tuple[str, set[Shape]]:
    """A comment of circles and arrows on ``position``'s board (with marks that name
    no square of it, malformed ones and arrows to their own square among them), or ""
    with none; and the shapes it draws."""
    rows, cols = position.rows, position.cols
    squares = [f"{FILES[f]}{r + 1}" for r in range(rows) for f in range(cols)]
    colour = st.sampled_from("GRYB")
    circles = draw(st.lists(st.tuples(colour, st.sampled_from(squares)), max_size=4))
    arrows = draw(
        st.lists(st.tuples(colour, st.sampled_from(squares), st.sampled_from(squares)), max_size=3)
    )
    off = [f"{FILES[cols - 1 + d]}1" for d in range(1, 9 - cols)] + [f"a{rows + 1}", "a0", "i1"]
    junk = st.sampled_from(["Xa1", "G", "Ga", "g" + squares[0], *("G" + s for s in off)])
    bad_circles = draw(st.lists(junk, max_size=2))
    bad_arrows = draw(st.lists(junk.map(lambda j: j + "a1"), max_size=2))
    shapes: set[Shape] = {("circle", s, None) for _, s in circles}
    shapes |= {("arrow", a, b) for _, a, b in arrows if a != b}
    csl = [f"{c}{s}" for c, s in circles] + bad_circles
    cal = [f"{c}{a}{b}" for c, a, b in arrows] + bad_arrows
    parts = [f"[%csl {','.join(draw(st.permutations(csl)))}]" if csl else ""]
    parts.append(f"[%cal {','.join(draw(st.permutations(cal)))}]" if cal else "")
    if not any(parts):
        return "", shapes
    if draw(st.booleans()):  # two comments
        return " ".join(f"{{{p}}}" for p in parts if p), shapes
    return "{" + "".join(parts) + "}", shapes


@st.composite
def records(draw: st.DrawFn) -> tuple[str, dict[str, Any], dict[str, set[Shape]], list[str]]:
    """A record (text format) of a random line with one variation and shape comments;
    its start for the page, the shapes each position should get, its main line."""
    rows, cols = draw(st.integers(4, 8)), draw(st.integers(4, 8))
    start = Position.start(rows, cols, draw(st.integers(2, 4)))
    line: list[str] = []
    position = start
    for _ in range(draw(st.integers(1, 6))):
        if position.is_over:
            break
        move = draw(st.sampled_from(position.legal_moves()))
        line.append(move)
        position = position.play(move)
    expected: dict[str, set[Shape]] = {}

    def comment(at: Position) -> str:
        text, shapes = draw(marked(at))
        if shapes:
            expected.setdefault(key(at), set()).update(shapes)
        return text

    def number(ply: int) -> str:
        return f"{ply // 2 + 1}." + ("" if ply % 2 == 0 else "..")

    branch = draw(st.integers(0, len(line) - 1))
    tokens = [comment(start)]
    position = start
    for ply, move in enumerate(line):
        before, position = position, position.play(move)
        tokens += [number(ply), move, comment(position)]
        others = [m for m in before.legal_moves() if m != move]
        if ply == branch and others:
            other = draw(st.sampled_from(others))
            tokens += ["(", number(ply), other, comment(before.play(other)), ")"]
            tokens.append(number(ply + 1) if ply + 1 < len(line) else "")
    game = Game(start, "Ann", "Bob")
    for move in line:
        game.play(move)
    head = game_to_text(game).split("\n\n", 1)[0]
    body = " ".join([*(t for t in tokens if t), game.result_token])
    page_start = {"rows": rows, "cols": cols, "cells": list(cells(start)), "turn": start.turn}
    return f"{head}\n\n{body}\n", page_start, expected, line


def test_the_page_reads_the_shapes_of_every_position_and_the_core_reads_past_them(
    server: str, browser: Any
) -> None:
    tab = new_tab(browser, server)
    goto(tab, server)

    @settings(max_examples=60, deadline=None)
    @given(records())
    def check(drawn: tuple[str, dict[str, Any], dict[str, set[Shape]], list[str]]) -> None:
        text, start, expected, line = drawn
        read = {k: {tuple(s) for s in shapes} for k, shapes in tab.evaluate(READ, [text, start])}
        assert read == expected, text
        _game, tree = record_from_text(text)
        assert [n.square for n in main_line(tree)] == line

    try:
        check()
    finally:
        errors = tab.console_errors
        tab.context.close()
    assert errors == [], errors
