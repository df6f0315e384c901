"""The details of a class event that a teacher meets, through the real command line and
a real ``adjacency league serve``: an event of every connected bot counts the house bots,
says why it waits (in ``event show``, logged once) and is started by ``event start``; an
odd round robin's byes are a column, so every row of the table and of the crosstable adds
up to the member's points, on the event's page too, which shows its table without
JavaScript; ``games.txt`` names the event and the round of each game; and ``event export
--help`` names the files it writes."""

from __future__ import annotations

import csv
import json
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from adjacency.core.record import games_from_text
from adjacency.league.events.event_standings import BYE_POINTS
from adjacency.league.league_file import LeagueStore
from cli_helpers import run, run_process
from league_helpers import (
    add_member,
    env,
    make_league,
    play_round_robin,
    request,
    start_client,
    start_server,
    thread_server,
    wait_until,
)

FIVE = ("ada", "bob", "cy", "dee", "eve")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_process(*args, env=env(), timeout=60)


@pytest.fixture
def five(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, Path]:
    """A league whose round robin ``rr`` of five members is played to its end, and its
    export in ``out``."""
    db = tmp_path / "league.db"
    make_league(db)
    for name in FIVE:
        add_member(db, name)
    status, out, err = run(capsys, "league", "event", "create", "--db", str(db), "rr",
                           "--format", "round-robin", "--members", ",".join(FIVE))  # fmt: skip
    assert status == 0 and "5 rounds" in out, err
    assert run(capsys, "league", "event", "start", "--db", str(db), "rr")[0] == 0
    play_round_robin(str(db))
    out_dir = tmp_path / "out"
    status, _, err = run(capsys, "league", "event", "export", "--db", str(db), "rr",
                         "--out", str(out_dir))  # fmt: skip
    assert status == 0, err
    return str(db), out_dir


def test_every_row_of_an_odd_round_robin_adds_up_with_its_byes(
    five: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, out_dir = five
    table = json.loads((out_dir / "table.json").read_text())
    rows = table["standings"]
    assert all(row["byes"] == 1 for row in rows)  # five rounds: each member sits out once
    for row in rows:
        assert row["points"] == row["wins"] + row["draws"] / 2 + row["byes"] * BYE_POINTS
        assert row["games"] == row["wins"] + row["draws"] + row["losses"] == 8
    cross = list(csv.reader((out_dir / "crosstable.csv").open()))
    assert cross[0][-2:] == ["byes", "versions"]  # no submitted code played: empty
    points = {row["name"]: row["points"] for row in rows}
    for csv_row in cross[1:]:
        assert csv_row[-1] == ""
        cells = [float(c) for c in csv_row[1:-1] if c]
        assert float(csv_row[-2]) == BYE_POINTS
        assert sum(cells) == points[csv_row[0]]  # the games' cells and the byes
    status, out, _ = run(capsys, "league", "event", "show", "--db", db, "rr")
    assert status == 0
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if "pts" in line)
    byes_column = lines[head].split().index("byes")
    for line in lines[head + 1 : head + 1 + len(FIVE)]:
        assert line.split()[byes_column] == "1", line
    crosstable = out[out.index("Crosstable") :].splitlines()
    assert crosstable[1].split()[-1] == "byes"
    for line in crosstable[2:]:
        assert float(line.split()[-1]) == BYE_POINTS


def test_games_txt_tags_each_game_with_the_event_and_its_round(five: tuple[str, Path]) -> None:
    db, out_dir = five
    text = (out_dir / "games.txt").read_text()
    assert "Adjacency league game" not in text
    games = games_from_text(text)
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("rr")
        rounds = [r for _, r in events.game_rounds(event.id)]
    assert len(games) == len(rounds) == 20  # ten pairs, two games each
    for game, round_no in zip(games, rounds, strict=True):
        assert game.event == "rr"
        assert game.tags["Round"] == str(round_no + 1)
    # five rounds of two boards (and a bye): four games a round
    assert Counter(game.tags["Round"] for game in games) == {str(r): 4 for r in range(1, 6)}
    assert text.count('[Event "rr"]') == 20 and text.count("[Round ") == 20
    replay = cli("replay", str(out_dir / "games.txt"), "--game", "20")
    assert replay.returncode == 0, replay.stderr


def test_event_export_help_names_every_file_it_writes_and_where() -> None:
    done = cli("league", "event", "export", "--help")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    for name in ("table.csv", "table.json", "crosstable.csv", "games.txt", "games.db"):
        assert name in text
    assert "--out" in text and "read from the league file --db" in text
    listing = cli("league", "event", "--help")
    assert "games.db" in " ".join(listing.stdout.split())


def test_an_event_of_every_connected_bot_waits_says_why_and_counts_house_bots(
    tmp_path: Path,
) -> None:
    """Created without a start time, ``event start`` is accepted (no command it would
    refuse is printed); with one bot connected and no house bot the server waits, logs
    why once and ``event show`` says it; a house bot added then makes two and it starts."""
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "solo")
    created = cli("league", "event", "create", "--db", str(db), "open",
                  "--format", "round-robin", "--all-connected")  # fmt: skip
    assert created.returncode == 0, created.stderr
    assert "?" not in created.stdout and "house bots" in created.stdout
    log = tmp_path / "server.log"
    server = start_server(db, 0, log)
    url = server.url
    client = start_client(url, token, "greedy", tmp_path / "solo.log")
    try:
        shown = cli("league", "event", "show", "--db", str(db), "open")
        assert shown.returncode == 0 and "? rounds" not in shown.stdout
        assert "waiting: for `adjacency league event start`" in shown.stdout
        started = cli("league", "event", "start", "--db", str(db), "open")
        assert started.returncode == 0, started.stderr
        reason = "1 member connected, at least 2 needed"
        wait_until(lambda: reason in log.read_text(), 50, "the server to say why it waits")
        shown = cli("league", "event", "show", "--db", str(db), "open")
        assert f"scheduled (waiting: {reason})" in shown.stdout, shown.stdout
        # A witness event that waits too: once the server logs why it waits, a pass that
        # planned every event ran after the first line, and the same reason for "open" was
        # not logged again.
        witness = cli("league", "event", "create", "--db", str(db), "witness",
                      "--format", "round-robin", "--all-connected")  # fmt: skip
        assert witness.returncode == 0, witness.stderr
        assert cli("league", "event", "start", "--db", str(db), "witness").returncode == 0
        wait_until(lambda: "event witness waits" in log.read_text(), 50, "the witness to wait")
        # once for this reason (an earlier line may say none was connected yet: the
        # client can connect after the start under load)
        assert log.read_text().count(f"event open waits to start: {reason}") == 1
        add_member(db, "house-greedy", kind="house", spec="greedy")

        def started_yet() -> bool:  # its one round can end between two looks
            shown = cli("league", "event", "show", "--db", str(db), "open").stdout
            return "running" in shown or "finished" in shown

        wait_until(started_yet, 50, "the event to start")
    finally:
        client.stop()
        server.stop()
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("open")
        members = {store.members.member(m).name for m in events.members(event.id)}
        assert event.rounds == 1 and events.waiting(event.id) is None
    assert members == {"solo", "house-greedy"}


class NoScriptTables(HTMLParser):
    """The rows of the tables inside ``<noscript>`` of a page, as lists of cell texts by
    table id."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.table = ""
        self.tables: dict[str, list[list[str]]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "noscript":
            self.inside = True
        elif self.inside and tag == "table":
            self.table = dict(attrs).get("id") or ""
            self.tables[self.table] = []
        elif self.inside and tag == "tr":
            self.tables[self.table].append([])
        elif self.inside and tag in ("td", "th"):
            self.tables[self.table][-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "noscript":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside and self.table and self.tables[self.table] and data.strip():
            row = self.tables[self.table][-1]
            if row:
                row[-1] += data


def test_the_event_page_shows_the_table_without_javascript(five: tuple[str, Path]) -> None:
    db, out_dir = five
    table = json.loads((out_dir / "table.json").read_text())
    with thread_server(Path(db)) as url:
        page = request(f"{url}/event/rr", raw=True)
        missing = request(f"{url}/event/nothing", raw=True)
    assert page.status == 200 and "text/html" in page.headers["content-type"]
    parser = NoScriptTables()
    parser.feed(page.body)
    standings = parser.tables["standings-static"]
    head = standings[0]
    assert head[:8] == ["#", "name", "points", "games", "wins", "draws", "losses", "byes"]
    assert [row[1] for row in standings[1:]] == [row["name"] for row in table["standings"]]
    for row in standings[1:]:
        points, wins, draws, byes = float(row[2]), int(row[4]), int(row[5]), int(row[7])
        assert points == wins + draws / 2 + byes * BYE_POINTS
    cross = parser.tables["crosstable-static"]
    assert cross[0][-1] == "byes" and len(cross) == 1 + len(FIVE)

    def half_points(text: str) -> float:  # "1½" -> 1.5, "½" -> 0.5
        return float(text.replace("½", "") or 0) + (0.5 if "½" in text else 0.0)

    for row, expected in zip(cross[1:], table["standings"], strict=True):
        cells = [cell.split("–") for cell in row[2:-1] if cell not in ("", "×")]
        assert all(len(cell) == 2 and "/" not in "".join(cell) for cell in cells), row
        mine_total = sum(half_points(mine) for mine, _ in cells)
        assert mine_total + float(row[-1]) == expected["points"]
        # a pair's two sides add up to its games: two of each round robin pair
        assert all(half_points(mine) + half_points(theirs) == 2 for mine, theirs in cells)
    assert '<script type="module" src="/league-static/event.js">' in page.body  # and live
    assert missing.status == 200 and "No event named &#x27;nothing&#x27;" in missing.body


def test_a_pairs_cell_is_written_as_the_page_writes_it() -> None:
    """The page without JavaScript writes a pair's cell as event.js does: halves as "½",
    the row's points first, never "1/2"."""
    from adjacency.league.event_results.event_views import pair_text, points_text

    assert [points_text(v) for v in (0, 0.5, 1, 1.5, 2, 10.5)] == ["0", "½", "1", "1½", "2", "10½"]
    assert pair_text([1.5, 2]) == "1½–½"
    assert pair_text([0, 2]) == "0–2"
    assert pair_text([1, 2]) == "1–1"
    assert pair_text(None) == ""
