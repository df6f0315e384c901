"""Every store checks a file before it writes anything to it: another store's file (of
either generation: written before numbered versions, or by this version), another
program's SQLite file, a newer version's file or a file that is not SQLite is refused
with :class:`WrongDatabaseError` (bad input), one line naming what the file is, and the
file left byte for byte as it was, with no ``-wal`` or ``-shm`` file beside it. Through
the real command line, ``adjacency report`` and ``adjacency match --db`` given a league
file, and ``adjacency league`` given a results file, exit with status 2."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from adjacency.core.errors import AdjacencyError
from adjacency.league.league_file import LeagueStore
from adjacency.league.settings import LeagueSettings
from adjacency.storage import WrongDatabaseError
from cli_helpers import run_process
from store_helpers import DATA, OPENERS, beside

NAMES = sorted(OPENERS)
GENERATIONS = ("cb03095", "current")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each store's file of each generation, by ``"GENERATION/NAME"``: the committed ones
    written before numbered versions, and ones this version made (one row each)."""
    folder = tmp_path_factory.mktemp("stores")
    made = {f"cb03095/{name}": DATA / "cb03095" / name for name in NAMES}
    for name in NAMES:
        path = folder / name
        OPENERS[name](path).close()
        made[f"current/{name}"] = path
    with LeagueStore(made["current/league.db"]) as league:
        league.meta.create(LeagueSettings(rows=6, cols=6, rounds=4), "adjl_admin-secret")
    return made


def _foreign(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT)")
        db.execute("INSERT INTO accounts (owner) VALUES ('someone')")
        db.commit()


def _foreign_games(path: Path) -> None:
    """Another program's table named as one of ours (``games``), with other columns."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
        db.execute("PRAGMA journal_mode=WAL")
        db.commit()


def _marked(path: Path) -> None:
    """Another program's file: its own application id, no tables."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA application_id = 1234")


def _text(path: Path) -> None:
    path.write_text("name,score\nada,3\n" * 200, encoding="utf-8")


OTHERS: dict[str, tuple[Callable[[Path], None], str]] = {
    "another program's tables": (_foreign, r"holds tables that no \w+ database has \(accounts\)"),
    "another program's games table": (
        _foreign_games,
        r"(table 'games' lacks the columns|holds tables that no \w+ database has \(games\))",
    ),
    "another program's application id": (_marked, r"another program's database \(application id"),
    "a text file": (_text, "it is not a SQLite database"),
}


def _refused(opener: Callable[[Path], object], path: Path, match: str) -> str:
    before, files_before = sha(path), beside(path)
    with pytest.raises(WrongDatabaseError, match=match) as caught:
        opener(path)
    assert isinstance(caught.value, AdjacencyError)  # bad input: exit status 2
    assert "\n" not in str(caught.value)
    assert sha(path) == before and beside(path) == files_before
    return str(caught.value)


@pytest.mark.parametrize("generation", GENERATIONS)
@pytest.mark.parametrize(("given", "store"), list(itertools.permutations(NAMES, 2)))
def test_every_store_refuses_every_other_stores_file_untouched(
    files: dict[str, Path], tmp_path: Path, generation: str, given: str, store: str
) -> None:
    path = tmp_path / given
    shutil.copyfile(files[f"{generation}/{given}"], path)
    message = _refused(OPENERS[store], path, r"cannot use .* as a \w+ database: ")
    if generation == "current":  # the file says whose it is
        kind = {"arena.db": "results", "tuning.db": "tuning", "league.db": "league",
                "solutions.db": "solutions", "web.sqlite3": "games"}[given]  # fmt: skip
        assert message.endswith(f"it is an adjacency {kind} database")
    else:
        assert "another store's or another program's database?" in message


@pytest.mark.parametrize("other", sorted(OTHERS))
@pytest.mark.parametrize("store", NAMES)
def test_every_store_refuses_another_programs_file_untouched(
    tmp_path: Path, store: str, other: str
) -> None:
    make, match = OTHERS[other]
    path = tmp_path / "other.db"
    make(path)
    _refused(OPENERS[store], path, match)


@pytest.mark.parametrize("store", NAMES)
def test_every_store_refuses_a_newer_version_untouched(
    files: dict[str, Path], tmp_path: Path, store: str
) -> None:
    path = tmp_path / store
    shutil.copyfile(files[f"current/{store}"], path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA user_version = 99")
    _refused(OPENERS[store], path, r"written by a newer version of adjacency \(schema version 99")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_process(*args)


@pytest.mark.parametrize(
    ("given", "args", "kind"),
    [
        ("league.db", ["report", "{path}"], "results"),
        ("league.db", ["match", "random", "greedy", "--games", "2", "--db", "{path}"], "results"),
        ("arena.db", ["league", "standings", "--db", "{path}"], "league"),
    ],
    ids=["report a league file", "match --db a league file", "league given a results file"],
)
def test_the_command_line_refuses_another_stores_file_with_one_line(
    files: dict[str, Path], tmp_path: Path, given: str, args: list[str], kind: str
) -> None:
    path = tmp_path / given
    shutil.copyfile(files[f"current/{given}"], path)
    before = sha(path)
    done = _cli(*(arg.format(path=path) for arg in args))
    assert done.returncode == 2, done.stderr
    what = {"league.db": "league", "arena.db": "results"}[given]
    assert done.stderr == (
        f"adjacency {args[0]}: error: cannot use {str(path)!r} as a {kind} database: "
        f"it is an adjacency {what} database\n"
    )
    assert sha(path) == before and beside(path) == [given]
