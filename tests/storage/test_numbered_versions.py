"""Files written before numbered schema versions open and are upgraded: each store opens the
database that main at cb03095 wrote (``tests/data/stores/cb03095``, made through each
store's API by its ``make_fixtures.py``), reads it back through its API, keeps every row,
and leaves the file at this version (``PRAGMA user_version``) and marked as its own
(``PRAGMA application_id``). A file already at this version is not written to at all."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from adjacency.arena.store import STORE_SCHEMA as ARENA
from adjacency.arena.store import Store
from adjacency.league.league_file import LeagueStore
from adjacency.league.settings import LeagueSettings
from adjacency.league.store.schema import STORE_SCHEMA as LEAGUE
from adjacency.solving.entries import Entry, RootMove
from adjacency.solving.store import STORE_SCHEMA as SOLUTIONS
from adjacency.solving.store import SolutionsStore
from adjacency.storage import APPLICATION_IDS, Schema, WrongDatabaseError
from adjacency.tuning.store import STORE_SCHEMA as TUNING
from adjacency.tuning.store import TuneStore
from adjacency.web.store import STORE_SCHEMA as WEB
from adjacency.web.store import GameStore
from store_helpers import DATA, OPENERS, beside, dump, header

CB03095 = DATA / "cb03095"
BEFORE: dict[str, dict[str, list[list[Any]]]] = json.loads(
    (CB03095 / "contents.json").read_text(encoding="utf-8")
)
SCHEMAS: dict[str, tuple[str, Schema]] = {
    "arena.db": ("results", ARENA),
    "tuning.db": ("tuning", TUNING),
    "league.db": ("league", LEAGUE),
    "solutions.db": ("solutions", SOLUTIONS),
    "web.sqlite3": ("games", WEB),
}
ADDED: dict[str, dict[str, list[list[Any]]]] = {
    "league.db": {
        "proofs": [],
        "submissions": [],
        "log_lines": [],
        "pictures": [],
        "digests": [],
        "corpus": [],
        "team_notes": [],
        "similarity_records": [],
        "similarity_marks": [],
        "outputs": [],
        "move_times": [],
        "report_cards": [],
    },
    "web.sqlite3": {
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
    },
}
"""The tables a step after the first adds (the league's ``proofs``: no person played; its
``submissions``: no team uploaded code; the web's puzzle ratings and their history: no
one tried a puzzle;
its secrets: made at the first request; the opening explorer's: the fixture's games
have no result, and no league is read; the league's notes on teams, saved similarity
reports and refused programs' outputs: none were written then)."""
NEW_COLUMNS: dict[str, dict[str, list[Any]]] = {
    "league.db": {"events": [None] * 4 + [0], "games": [None] * 4, "members": [None, 0]},
    "arena.db": {"runs": [""]},
    "solutions.db": {"entries": [""]},
}
"""The columns a step after the first adds at the end of a table, with their values in the
rows from before (the league's events: their own clock, pace and upload deadline, none,
and closed to people, 0;
its games: their detail's code and params, none for the fixture's games, which ended with
no detail, and the submitted version each side played, none; its members: the key of a
person's address, kept since, and kept out of the league's games, 0; the arena's runs
and the solved entries: their provenance, not recorded then, '')."""


def after_upgrade(kind: str, tables: dict[str, list[list[Any]]]) -> dict[str, list[list[Any]]]:
    """``tables`` (a fixture's rows) as the upgrade of a ``kind`` file leaves them."""
    added = NEW_COLUMNS.get(kind, {})
    return {
        table: [row + added.get(table, []) for row in rows] for table, rows in tables.items()
    } | ADDED.get(kind, {})


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def copy(tmp_path: Path) -> Any:
    def make(name: str) -> Path:
        target = tmp_path / name
        shutil.copyfile(CB03095 / name, target)
        assert header(target) == (0, 0)  # written before numbered versions
        assert dump(target) == BEFORE[name]  # the fixture is what was written then
        return target

    return make


def test_the_fixtures_hold_rows_of_every_store() -> None:
    assert sorted(OPENERS) == sorted(SCHEMAS)
    assert sorted(BEFORE) == sorted([*OPENERS, "league-reported.db"])
    for tables in BEFORE.values():
        assert sum(len(rows) for rows in tables.values()) >= 2


@pytest.mark.parametrize("name", sorted(OPENERS))
def test_a_file_of_before_is_upgraded_with_its_rows_kept(copy: Any, name: str) -> None:
    path = copy(name)
    OPENERS[name](path).close()
    kind, schema = SCHEMAS[name]
    assert header(path) == (APPLICATION_IDS[kind], schema.version)
    assert dump(path) == after_upgrade(name, BEFORE[name])
    assert beside(path) == [name]  # the log folded in when the store closed
    upgraded = sha(path)
    OPENERS[name](path).close()  # at this version: nothing to do, nothing written
    assert sha(path) == upgraded and beside(path) == [name]


def test_a_league_file_that_report_wrote_to_opens_again(copy: Any, tmp_path: Path) -> None:
    """``adjacency report`` of that code refused a league file only after creating the
    results tables ``runs`` and ``plan`` in it; opening the file drops them (they are
    empty) and upgrades it: the league is back, every row as it was."""
    path = copy("league-reported.db")
    assert {"runs", "plan"} <= set(BEFORE["league-reported.db"])
    done = subprocess.run(
        [sys.executable, "-m", "adjacency", "league", "standings", "--db", str(path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "alpha" in done.stdout and "beta" in done.stdout
    assert header(path) == (APPLICATION_IDS["league"], LEAGUE.version)
    reported = {k: v for k, v in BEFORE["league-reported.db"].items() if k not in ("runs", "plan")}
    assert dump(path) == after_upgrade("league.db", reported)


def test_a_stray_results_table_with_rows_is_refused_untouched(copy: Any) -> None:
    path = copy("league-reported.db")
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(
            "INSERT INTO runs (created, mode, players, settings, planned) "
            "VALUES ('2026', 'match', '[]', '{}', 0)"
        )
        db.commit()
    before = sha(path)
    with pytest.raises(
        WrongDatabaseError, match=r"holds tables that no league database has \(runs\)"
    ):
        LeagueStore(path, create=False)
    assert sha(path) == before and beside(path) == ["league-reported.db"]


def test_arena(copy: Any) -> None:
    path = copy("arena.db")
    rows = BEFORE["arena.db"]
    with Store(path) as store:
        (run,) = store.runs()
        assert (run.id, run.mode, run.players, run.status, run.planned) == (
            1, "match", ["random", "greedy"], "stopped", 4,
        )  # fmt: skip
        games = store.games(run.id)
        assert [(g.idx, g.x_score, g.o_score, g.record, g.host, g.pid) for g in games] == [
            (r[1], r[13], r[14], r[17], r[22], r[23]) for r in rows["games"]
        ]
        assert [t.index for t in store.pending(run.id)] == [3]
        assert store.resumable().id == run.id


def test_tuning(copy: Any) -> None:
    with TuneStore(copy("tuning.db")) as store:
        run = store.run()
        assert (run.id, run.bot, run.status, run.batch_pairs) == (1, "greedy", "running", 2)
        assert [b.theta for b in run.batches] == [(5.25,)]
        assert run.out == Path("/tmp/out.json") and run.plot is None


def test_league(copy: Any) -> None:
    with LeagueStore(copy("league.db"), create=False) as store:
        assert store.meta.settings() == LeagueSettings(rows=6, cols=6, rounds=4)
        assert store.meta.is_admin("adjl_admin-secret")
        assert [(m.name, m.kind) for m in store.members.members()] == [
            ("alpha", "bot"),
            ("beta", "house"),
        ]
        assert len(store.games.rated_games()) == 2
        assert store.ratings.ratings() == store.ratings.recompute_ratings()
        assert store.ratings.totals() == store.ratings.recompute_totals()
        assert store.members.proofs() == {}  # step 2: replayed (bots prove no one)
        (event,) = store.events.events()
        assert (event.name, event.format, event.status) == ("spring", "round-robin", "scheduled")


def test_solutions(copy: Any) -> None:
    with SolutionsStore(copy("solutions.db"), create=False) as store:
        (result,) = store.results()
        assert (result.entry, result.status) == (Entry(4, 4, 1), "solved")
        assert store.moves(Entry(4, 4, 3)) == {"b2": RootMove("b2", 2, "c3", 17, 0.25)}


def test_web(copy: Any) -> None:
    with GameStore(copy("web.sqlite3")) as store:
        first = store.load("g1")
        assert first is not None and first.owned_by("k1")
        assert [g.id for g in store.all()] == ["g2", "g1"]
