"""The puzzle dashboard (src/adjacency/web/puzzle_dashboard.py and its route): first tries
counted per theme (a puzzle once for each theme), the most tried first, with the theme's
performance; the chart draws a bar a theme with the share solved filled and its
performance, its names as catalogue keys, everything escaped;
the route answers a browser with the chart of its own tries only, per theme, phase or
length, and its rating after each of its rated attempts."""

from __future__ import annotations

import re
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from adjacency.web.app import create_app
from adjacency.web.puzzle_dashboard import (
    BAR,
    ThemeSuccess,
    rating_chart,
    success_per_theme,
    theme_chart,
)
from web_puzzle_helpers import browser, oracle_puzzles

HOME = ("203.0.113.7", 50000)
"""A player's address (documentation range): not this machine, so every limit applies."""
AWAY = ("198.51.100.9", 50000)
DAY = 86400


def test_first_tries_are_counted_per_theme_most_tried_first() -> None:
    tries = [
        (("corner", "endgame"), True, 1600.0),
        (("corner",), False, 1400.0),
        (("edge", "edge"), True, 1800.0),
    ]
    rows = success_per_theme(tries)
    assert rows == [
        ThemeSuccess("corner", 2, 1, 3000.0),
        ThemeSuccess("edge", 1, 1, 1800.0),
        ThemeSuccess("endgame", 1, 1, 1600.0),
    ]
    # the mean rating, -500 for none solved, +500 for all, between by the share solved
    assert [row.performance for row in rows] == [1500, 2300, 2100]
    assert ThemeSuccess("x", 4, 0, 4 * 1700.0).performance == 1200


def test_lengths_are_listed_in_their_numbers_order() -> None:
    tries = [(("3",), True, 1500.0), (("1",), False, 1500.0), (("3",), False, 1500.0)]
    tries += [(("2",), True, 1500.0), (("10",), True, 1500.0)]
    assert [row.theme for row in success_per_theme(tries)] == ["3", "1", "10", "2"]
    assert [row.theme for row in success_per_theme(tries, numbers=True)] == ["1", "2", "3", "10"]


def test_each_chart_is_named_by_its_own_heading(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3", puzzles=oracle_puzzles)
    with TestClient(app) as mine:
        names = {
            by: re.findall(
                r'aria-labelledby="([^"]+)"',
                mine.get("/api/puzzles/dashboard.svg", params={"by": by}).text,
            )
            for by in ("theme", "phase", "length")
        }
        page = mine.get("/puzzles").text
    assert names == {by: [f"dashboard-title dashboard-{by}"] for by in names}
    for by in names:
        assert f'<h3 id="dashboard-{by}"' in page


def test_the_chart_fills_the_share_solved_and_escapes_its_names() -> None:
    chart = theme_chart(
        [ThemeSuccess("corner", 4, 1, 4 * 1500.0), ThemeSuccess('<b "x">', 1, 0, 1900.0)]
    )
    assert chart.count('class="theme-row"') == 2
    assert 'data-i18n="puzzle.performance">performance</text>' in chart  # the column's title
    assert 'data-performance="1250"' in chart and ">1250</text>" in chart
    assert 'data-performance="1400"' in chart and ">1400</text>" in chart
    assert "puzzle.performance" not in theme_chart([])  # no rows, no title
    widths = re.findall(r'class="bar-won" x="0" y="\d+" width="([\d.]+)"', chart)
    assert [float(w) for w in widths] == [BAR / 4, 0.0]
    assert 'data-i18n="puzzle.theme.corner">corner</text>' in chart
    assert "<b " not in chart and "&lt;b &quot;x&quot;&gt;" in chart
    assert ">1/4</text>" in chart


def test_the_route_counts_the_first_tries_of_the_period_asked(tmp_path: Path) -> None:
    """First tries 0, 3, 10 and 40 days old: the last day counts the first, 7 days two,
    30 days three, all four; a period it does not know is refused."""
    puzzles = oracle_puzzles(4)
    db = tmp_path / "games.sqlite3"
    app = create_app(db, puzzles=lambda: puzzles)
    with TestClient(app) as mine:
        for puzzle in puzzles:
            mine.post(f"/api/puzzles/{puzzle.id}/solution")  # a first try, missed
        with sqlite3.connect(db) as aged:
            for puzzle, days in zip(puzzles, (0, 3, 10, 40), strict=True):
                aged.execute(
                    "UPDATE puzzle_attempts SET first = first - ? WHERE puzzle = ?",
                    (days * DAY, puzzle.id),
                )

        def tried(period: str) -> int:
            chart = mine.get("/api/puzzles/dashboard.svg", params={"by": "phase", "period": period})
            assert chart.status_code == 200, chart.text
            return sum(int(n) for n in re.findall(r'data-tried="(\d+)"', chart.text))

        assert [tried(p) for p in ("day", "week", "month", "all")] == [1, 2, 3, 4]
        assert tried("all") == tried_all(mine)
        refused = mine.get("/api/puzzles/dashboard.svg", params={"period": "year"})
        assert refused.status_code == 422


def tried_all(client: TestClient) -> int:
    """The first tries counted without a period (the route's default: every one)."""
    chart = client.get("/api/puzzles/dashboard.svg", params={"by": "phase"}).text
    return sum(int(n) for n in re.findall(r'data-tried="(\d+)"', chart))


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
        # solved at the first try: the puzzle's rating now (the try moved it) + 500
        now = mine.get(f"/api/puzzles/{puzzle.id}").json()["rating"]["rating"]
        assert now != puzzle.rating
        assert f'data-performance="{round(now + 500)}"' in chart.text
        assert "theme-row" not in other.get("/api/puzzles/dashboard.svg").text
        phase = mine.get("/api/puzzles/dashboard.svg", params={"by": "phase"}).text
        assert f'data-theme="{puzzle.phase}" data-tried="1" data-won="1"' in phase
        assert f'data-i18n="puzzle.phase.{puzzle.phase}"' in phase
        length = mine.get("/api/puzzles/dashboard.svg", params={"by": "length"}).text
        moves = (len(puzzle.solution) + 1) // 2
        assert f'data-theme="{moves}" data-tried="1" data-won="1"' in length
        # a length is a number: the column's title is the one text to word
        assert re.findall(r'data-i18n="([^"]+)"', length) == ["puzzle.performance"]
        assert mine.get("/api/puzzles/dashboard.svg", params={"by": "x"}).status_code == 422


def test_the_rating_chart_draws_one_step_an_attempt_between_the_extremes() -> None:
    empty = rating_chart([])
    assert 'data-points="0"' in empty and "polyline" not in empty
    chart = rating_chart([1500.0, 1620.4, 1580.0])
    assert 'data-points="3" data-last="1580" data-low="1500" data-high="1620"' in chart
    points = re.search(r'class="rating-line" fill="none" points="([^"]+)"', chart)
    assert points is not None
    xy = [tuple(float(v) for v in pair.split(",")) for pair in points.group(1).split()]
    assert len(xy) == 3 and xy[0][0] < xy[1][0] < xy[2][0]  # oldest to latest
    assert xy[1][1] < xy[2][1] < xy[0][1]  # the highest drawn highest, the lowest lowest
    assert 'data-i18n="puzzle.rating-axis"' in chart


def dates(chart: str) -> list[tuple[str, str, str, str]]:
    """The chart's date marks: (x, anchor, Unix time, text)."""
    return re.findall(
        r'<text class="rating-date" x="([^"]+)" y="[^"]+" text-anchor="(\w+)" '
        r'data-at="(\d+)">([^<]*)</text>',
        chart,
    )


def test_the_rating_chart_dates_its_first_and_last_attempts() -> None:
    """Under the line: the first attempt's day at its point, the last one's at its own
    when it is another day (ISO days in UTC; the page words them); none without times."""
    first = datetime(2026, 3, 9, 23, 30, tzinfo=UTC).timestamp()
    later = datetime(2026, 3, 10, 0, 30, tzinfo=UTC).timestamp()  # the next day in UTC
    chart = rating_chart([1500.0, 1520.0, 1490.0], [first, first + 60, later])
    points = re.search(r'class="rating-line" fill="none" points="([^"]+)"', chart)
    assert points is not None
    xs = [pair.split(",")[0] for pair in points.group(1).split()]
    assert dates(chart) == [
        (xs[0], "start", str(round(first)), "2026-03-09"),
        (xs[-1], "end", str(round(later)), "2026-03-10"),
    ]
    same_day = rating_chart([1500.0, 1520.0], [first - 3600, first])
    assert dates(same_day) == [(xs[0], "start", str(round(first - 3600)), "2026-03-09")]
    assert dates(rating_chart([1500.0])) == []
    assert dates(rating_chart([], [])) == []
    with pytest.raises(ValueError, match="1 times for 2 ratings"):
        rating_chart([1500.0, 1510.0], [first])


def test_the_route_draws_this_browsers_rating_after_each_rated_attempt(tmp_path: Path) -> None:
    """A long-lived browser's rated first tries each add a point (a later try of the same
    puzzle rates nothing and adds none); a new browser's tries are not rated, so its
    chart stays empty, as does another browser's."""
    puzzles = oracle_puzzles()
    app = create_app(tmp_path / "games.sqlite3", puzzles=lambda: puzzles)
    with TestClient(app), browser(app, HOME, age=2 * DAY) as mine, browser(app, AWAY) as new:
        assert 'data-points="0"' in mine.get("/api/puzzles/rating.svg").text
        began = time.time()
        ratings = []
        for puzzle in puzzles[:3]:
            answer = mine.post(
                f"/api/puzzles/{puzzle.id}/attempt", json={"moves": list(puzzle.solution)}
            ).json()
            assert answer["ratings"]["rated"] is True, answer
            ratings.append(round(answer["ratings"]["player_after"]["rating"]))
        again = mine.post(
            f"/api/puzzles/{puzzles[0].id}/attempt", json={"moves": list(puzzles[0].solution)}
        ).json()
        assert again["ratings"]["rated"] is False
        chart = mine.get("/api/puzzles/rating.svg")
        assert chart.headers["content-type"].startswith("image/svg+xml")
        assert f'data-points="3" data-last="{ratings[-1]}"' in chart.text
        assert f'data-low="{min(ratings)}" data-high="{max(ratings)}"' in chart.text
        marks = dates(chart.text)  # the first attempt's day (and the last's past midnight)
        assert 1 <= len(marks) <= 2 and began - 1 <= int(marks[0][2]) <= time.time() + 1, marks
        new.post(f"/api/puzzles/{puzzles[0].id}/attempt", json={"moves": list(puzzles[0].solution)})
        assert 'data-points="0"' in new.get("/api/puzzles/rating.svg").text


def test_a_player_rated_before_the_history_keeps_its_rating_as_its_one_point(
    tmp_path: Path,
) -> None:
    """A store from before the rating history (step 5) with a rated player: opening it
    gives that player its rating then, at its last rated attempt's time."""
    import sqlite3

    from adjacency.web.store import GameStore

    puzzles = oracle_puzzles()
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        store.puzzles.record("k1", puzzles[0], True)
        (rating, _), [point] = store.puzzles.player("k1"), store.puzzles.rating_history("k1")
        assert point.rating == rating.rating
    with sqlite3.connect(db) as raw:  # back to the version before the history's step
        raw.executescript("DROP TABLE puzzle_rating_history; PRAGMA user_version = 5")
        updated = raw.execute("SELECT updated FROM puzzle_players").fetchone()[0]
    with GameStore(db) as store:
        [kept] = store.puzzles.rating_history("k1")
        assert (kept.at, kept.rating, kept.rd) == (updated, rating.rating, rating.rd)
        assert store.puzzles.rating_history("k2") == []
