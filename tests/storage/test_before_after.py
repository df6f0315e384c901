"""A database written before opens after: each store opens the small database that the
code before the shared SQLite helper wrote (``tests/data/stores``, made by its
``make_fixtures.py`` through each store's API), reads it back through its API, and leaves
every row as it was (``contents.json``: the rows dumped when the files were written)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from adjacency.arena.store import Store
from adjacency.league.league_file import LeagueStore
from adjacency.league.settings import LeagueSettings
from adjacency.solving.entries import Entry, RootMove
from adjacency.solving.store import SolutionsStore
from adjacency.tuning.store import TuneStore
from adjacency.web.store import GameStore
from store_helpers import DATA, dump

BEFORE: dict[str, dict[str, list[list[Any]]]] = json.loads(
    (DATA / "contents.json").read_text(encoding="utf-8")
)


@pytest.fixture
def copy(tmp_path: Path) -> Any:
    def make(name: str) -> Path:
        target = tmp_path / name
        shutil.copyfile(DATA / name, target)
        assert dump(target) == BEFORE[name]  # the fixture is what was written then
        return target

    return make


def test_the_fixtures_hold_rows_of_every_store() -> None:
    assert sorted(BEFORE) == ["arena.db", "league.db", "solutions.db", "tuning.db", "web.sqlite3"]
    for tables in BEFORE.values():
        assert sum(len(rows) for rows in tables.values()) >= 2


def test_arena(copy: Any) -> None:
    path = copy("arena.db")
    rows = BEFORE["arena.db"]
    with Store(path) as store:
        (run,) = store.runs()
        assert (run.id, run.mode, run.players, run.status, run.planned, run.label) == (
            1, "match", ["random", "greedy"], "stopped", 4, "",
        )  # fmt: skip
        stored = json.loads(rows["runs"][0][4])
        assert "sprt_stat" not in stored  # written before the margin SPRT existed
        assert run.settings.to_dict() == {**stored, "sprt_stat": "elo"}  # reads as an Elo test
        games = store.games(run.id)
        assert [(g.idx, g.x_score, g.o_score, g.record, g.host, g.pid) for g in games] == [
            (r[1], r[13], r[14], r[17], r[22], r[23]) for r in rows["games"]
        ]
        assert [t.index for t in store.pending(run.id)] == [3]
        assert store.resumable().id == run.id
        assert run.provenance is None  # stored before runs kept their provenance
    # opening added the runs' provenance column (step 2), empty for the run from before
    expected = {**BEFORE["arena.db"], "runs": [[*row, ""] for row in rows["runs"]]}
    assert dump(path) == expected


def test_tuning(copy: Any) -> None:
    path = copy("tuning.db")
    with TuneStore(path) as store:
        run = store.run()
        assert (run.id, run.bot, run.status, run.batch_pairs) == (1, "greedy", "running", 2)
        assert [b.theta for b in run.batches] == [(5.25,), (5.5,)]
        assert run.out == Path("/tmp/out.json") and run.plot is None
        assert run.pairs_done == 4 and store.resumable().id == 1
    assert dump(path) == BEFORE["tuning.db"]


def test_league(copy: Any) -> None:
    path = copy("league.db")
    with LeagueStore(path, create=False) as store:
        assert store.meta.created
        assert store.meta.settings() == LeagueSettings(rows=6, cols=6, rounds=4)
        assert store.meta.is_admin("adjl_admin-secret")
        assert [(m.name, m.kind, m.spec) for m in store.members.members()] == [
            ("alpha", "bot", None),
            ("beta", "house", "random"),
        ]
        assert {g.id: (g.status, g.result) for g in store.games.games()} == {
            row[0]: (row[6], row[7]) for row in BEFORE["league.db"]["games"]
        }
        assert len(store.games.rated_games()) == 2
        assert store.ratings.ratings() == store.ratings.recompute_ratings()
        ratings = {
            member: (rating, rd)
            for _, member, _, rating, rd, _, _ in BEFORE["league.db"]["ratings"]
        }
        assert {m: (g.rating, g.rd) for m, g in store.ratings.ratings().items()} == ratings
        # Opening built the aggregate tables from the stored games and ratings.
        totals = store.ratings.totals()
        assert totals == store.ratings.recompute_totals()
        assert len(totals["results"]) == 2 and len(totals["current_ratings"]) == 2
    # Opening added the later columns (members.approved, games.limited) with their
    # defaults (0: not approved; rated before the limit against provisional opponents),
    # the games' detail codes (NULL: these games ended with no detail), the members'
    # address keys (NULL: none was kept), the version of submitted code each side of a
    # game played (NULL: no hosted bot then), whether a member is kept out (0: none
    # was), and marked the aggregates built (meta's "totals").
    later: dict[str, list[Any]] = {
        "members": [0, None, 0],
        "games": [0, None, None, None, None],
    }
    expected = {
        table: [[*row, *later.get(table, [])] for row in rows]
        for table, rows in BEFORE["league.db"].items()
    }
    expected["meta"] = [*expected["meta"], ["totals", "1"]]
    expected |= {"events": [], "event_members": [], "event_boards": []}  # step 1 makes them
    expected |= {"submissions": [], "log_lines": [], "pictures": []}  # later steps make them
    expected |= {"digests": [], "corpus": []}  # the similarity prints' step makes them
    expected |= {"team_notes": []}  # the teacher's notes' step makes it
    expected |= {"similarity_records": [], "similarity_marks": []}  # the records' step
    expected |= {"outputs": []}  # the refused programs' outputs' step makes it
    expected |= {"move_times": []}  # the hosted moves' seconds' step makes it
    expected |= {"report_cards": []}  # the report cards' step makes it
    after = dump(path)
    for table in ("results", "failures", "current_ratings", "proofs"):
        after.pop(table)
    assert after == expected


def test_solutions(copy: Any) -> None:
    path = copy("solutions.db")
    rows = BEFORE["solutions.db"]
    with SolutionsStore(path, create=False) as store:
        results = store.results()
        assert [(r.entry, r.status, r.value, r.nodes) for r in results] == [
            (Entry(r[0], r[1], r[2], r[3]), r[5], r[6], r[10]) for r in rows["entries"]
        ]
        assert [json.loads(r[9]) for r in rows["entries"]] == [x.move_values for x in results]
        assert store.moves(Entry(4, 4, 3)) == {"b2": RootMove("b2", 2, "c3", 17, 0.25)}
        assert list(store.in_progress()) == [Entry(4, 4, 3)]
        assert all(r.provenance is None for r in results)  # stored before it was kept
    # opening added the entries' provenance column (step 2), empty for the rows from before
    entries = [[*row, ""] for row in rows["entries"]]
    assert dump(path) == {**BEFORE["solutions.db"], "entries": entries}


def test_web(copy: Any) -> None:
    path = copy("web.sqlite3")
    with GameStore(path) as store:
        first = store.load("g1")
        assert first is not None and first.damaged is None
        assert first.record == {"rows": 6, "moves": ["c3"]} and first.owned_by("k1")
        assert [g.id for g in store.all()] == [r[0] for r in BEFORE["web.sqlite3"]["games"]][::-1]
    # opening added the puzzle page's tables (step 2), empty: no one tried a puzzle, and
    # the secrets' (step 4), empty until a request asks for the cookies' key, the
    # opening explorer's (step 5), empty: neither stored game is finished, and the puzzle
    # rating history (step 6), empty: no player was rated
    puzzles: dict[str, list[list[Any]]] = {
        "explorer": [],
        "explorer_feed": [],
        "explorer_pending": [],
        "explorer_seen": [],
        "puzzle_attempts": [],
        "puzzle_players": [],
        "puzzle_rating_history": [],
        "puzzle_ratings": [],
        "puzzle_reveals": [],
        "secrets": [],
    }
    assert dump(path) == BEFORE["web.sqlite3"] | puzzles
