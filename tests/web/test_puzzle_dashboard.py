"""The puzzle dashboard (src/adjacency/web/puzzle_dashboard.py and its route): first tries
counted per theme (a puzzle once for each theme), the most tried first; the chart draws a
bar a theme with the share solved filled, its names as catalogue keys, everything escaped;
the route answers a browser with the chart of its own tries only, per theme, phase or
length."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from adjacency.web.app import create_app
from adjacency.web.puzzle_dashboard import BAR, ThemeSuccess, success_per_theme, theme_chart
from web_puzzle_helpers import oracle_puzzles


def test_first_tries_are_counted_per_theme_most_tried_first() -> None:
    tries = [(("corner", "endgame"), True), (("corner",), False), (("edge", "edge"), True)]
    assert success_per_theme(tries) == [
        ThemeSuccess("corner", 2, 1),
        ThemeSuccess("edge", 1, 1),
        ThemeSuccess("endgame", 1, 1),
    ]


def test_the_chart_fills_the_share_solved_and_escapes_its_names() -> None:
    chart = theme_chart([ThemeSuccess("corner", 4, 1), ThemeSuccess('<b "x">', 1, 0)])
    assert chart.count('class="theme-row"') == 2
    widths = re.findall(r'class="bar-won" x="0" y="\d+" width="([\d.]+)"', chart)
    assert [float(w) for w in widths] == [BAR / 4, 0.0]
    assert 'data-i18n="puzzle.theme.corner">corner</text>' in chart
    assert "<b " not in chart and "&lt;b &quot;x&quot;&gt;" in chart
    assert ">1/4</text>" in chart


def test_the_route_draws_this_browsers_first_tries_only(tmp_path: Path) -> None:
    puzzles = oracle_puzzles()
    app = create_app(tmp_path / "games.sqlite3", puzzles=oracle_puzzles)
    puzzle = puzzles[0]
    with TestClient(app) as mine, TestClient(app) as other:
        assert "theme-row" not in mine.get("/api/puzzles/dashboard.svg").text
        answer = mine.post(
            f"/api/puzzles/{puzzle.id}/attempt", json={"moves": list(puzzle.solution)}
        )
        assert answer.status_code == 200, answer.text
        chart = mine.get("/api/puzzles/dashboard.svg")
        assert chart.headers["content-type"].startswith("image/svg+xml")
        rows = re.findall(r'data-theme="([^"]+)" data-tried="(\d+)" data-won="(\d+)"', chart.text)
        assert sorted(rows) == sorted((theme, "1", "1") for theme in set(puzzle.themes))
        assert "theme-row" not in other.get("/api/puzzles/dashboard.svg").text
        phase = mine.get("/api/puzzles/dashboard.svg", params={"by": "phase"}).text
        assert f'data-theme="{puzzle.phase}" data-tried="1" data-won="1"' in phase
        assert f'data-i18n="puzzle.phase.{puzzle.phase}"' in phase
        length = mine.get("/api/puzzles/dashboard.svg", params={"by": "length"}).text
        moves = (len(puzzle.solution) + 1) // 2
        assert f'data-theme="{moves}" data-tried="1" data-won="1"' in length
        assert "data-i18n" not in length  # a length is a number
        assert mine.get("/api/puzzles/dashboard.svg", params={"by": "x"}).status_code == 422
