"""What the tests of hosted bots share: a league served with its builder and hosted
players (:func:`served`), a small league (:func:`new_league`), a course project as a team
has it, a one-file course bot (:data:`FAILING`, :func:`zipped`), the starter kits and
other files zipped (:func:`kit_zip`, :func:`files_zip`), and waiting for a verdict,
for finished games and for a game's side's sandbox to end (:func:`side_ended`)."""

from __future__ import annotations

import contextlib
import io
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from adjacency.league.league_file import LeagueStore, StoredGame
from adjacency.sandbox import Outcome
from hostile_code import tree_digest
from league_helpers import add_member, make_league, request, upload, wait_until
from web_helpers import uvicorn_thread

REPO = Path(__file__).resolve().parents[1]
ENGINES = REPO / "examples" / "engines"
COURSE_PROJECT = ENGINES / "java" / "course-project"

FAILING = """import javafx.scene.control.Button;

public class Bot {
    public int[] move(Button[][] b, int roundsLeft, boolean isX) throws Exception {
        // The check asks O only at the start (4 rounds left): O later on is a game.
        if (!isX && roundsLeft < 4) { FAIL }
        for (int i = 0; i < b.length; i++)
            for (int j = 0; j < b[i].length; j++)
                if (b[i][j].getText().isEmpty()) return new int[] {i, j};
        return null;
    }
}
"""
"""A course bot that passes the check and fails as O in a game (``FAIL`` filled in)."""


@contextlib.contextmanager
def served(db: Path, **options: Any) -> Iterator[tuple[str, Any]]:
    """The league app with its builder and hosted bots under uvicorn in a thread: its URL
    and the app (its hosted players' counters)."""
    from adjacency.league.http.app import create_app
    from adjacency.league.http.limits import LeagueLimits

    limits = LeagueLimits(limit_loopback=False)
    app = create_app(db, limits=limits, builds=True, house_games=False, **options)
    with uvicorn_thread(
        app, "the league server", ws="websockets-sansio", ws_max_size=limits.max_frame + 1024
    ) as url:
        yield url, app


def new_league(folder: Path, base: float = 5.0) -> Path:
    """A 6x6, 4-round league in ``folder`` (``base`` seconds a game for each side, no
    increment) with the house bot ``greedy``; its file."""
    db = folder / "league.db"
    make_league(db, rows=6, cols=6, rounds=4, base=base, increment=0.0)
    add_member(db, "greedy", "house", "greedy")
    return db


def course_project(folder: Path) -> Path:
    """The course project as a team has it (its sources, a JavaFX jar never read)."""
    (folder / "src").mkdir(parents=True)
    for source in (COURSE_PROJECT / "src").glob("*.java"):
        (folder / "src" / source.name).write_text(source.read_text(encoding="utf-8"))
    (folder / "lib").mkdir()
    (folder / "lib" / "javafx.controls.jar").write_bytes(b"PK never read")
    return folder


def zipped(bot: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("src/Bot.java", bot)
    return buffer.getvalue()


def files_zip(files: dict[str, str]) -> bytes:
    """A zip of ``files`` (its paths and texts), as a team would upload it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def kit_zip(language: str, target: Path) -> Path:
    """The starter kit ``examples/engines/LANGUAGE`` zipped as a team would: every file
    under its folder's name, its README included."""
    kit = ENGINES / language
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(kit.rglob("*")):
            if path.is_file():
                archive.write(path, f"{language}-kit/{path.relative_to(kit).as_posix()}")
    return target


def decided(
    url: str, token: str, version: int | None = None, guard: float = 55.0
) -> dict[str, Any]:
    """The team's version ``version`` (its newest if ``None``), as its page's data lists
    it, once the builder has given its verdict (accepted or refused); ``guard`` seconds
    against a hang (longer where several builds share the machine)."""

    def verdict() -> dict[str, Any] | None:
        listed = request(url + "/api/league/submissions", token=token).body["submissions"]
        found = [v for v in listed if version is None or v["version"] == version][:1]
        return found[0] if found and found[0]["status"] in ("accepted", "refused") else None

    what = "the builder's verdict" if version is None else f"version {version}'s verdict"
    result: dict[str, Any] = wait_until(verdict, guard, what)
    return result


def accepted(url: str, token: str) -> dict[str, Any]:
    """The team's newest version once the builder accepted it (fails on a refusal)."""
    version = decided(url, token)
    assert version["status"] == "accepted", version["detail"]
    return version


def guarded_league(folder: Path) -> tuple[Path, Path, Callable[[], dict[str, str]]]:
    """A league in ``folder`` (:func:`new_league`, 3 s a game for each side) beside a host
    file that anyone on the host may write, so that only the sandbox stops a write; and
    the digest of every file under ``folder`` but the league's own
    (:func:`hostile_code.tree_digest`), which a contained attack leaves as it was."""
    league = new_league(folder, base=3.0)
    host_file = folder / "untouchable.txt"
    host_file.write_text("the host's own file\n")
    host_file.chmod(0o666)
    skip = (league.name, league.name + "-wal", league.name + "-shm", league.name + ".builds")
    return league, host_file, lambda: tree_digest(folder, skip)


def verdict_on(folder: Path, files: dict[str, str]) -> dict[str, Any]:
    """The builder's verdict (its version as the team's page lists it) on ``files``,
    zipped and uploaded by the one team of a new league in ``folder``
    (:func:`new_league`), whose server is stopped before this returns."""
    league = new_league(folder)
    token = add_member(league, "team1")
    with served(league) as (url, _):
        assert upload(url, files_zip(files), token).status == 201
        return decided(url, token)


def finished_games(db: Path, name: str, count: int) -> list[StoredGame]:
    """Wait until ``name`` has ``count`` finished games; they, oldest first."""

    def games() -> list[StoredGame] | None:
        with LeagueStore(db, create=False) as store:
            member = store.members.member_named(name)
            done = store.games.games(member_id=member.id, status="finished")
        return sorted(done, key=lambda g: g.id) if len(done) >= count else None

    found: list[StoredGame] = wait_until(games, 55, f"{count} finished games of {name}")
    return found


def side_ended(app: Any, game_id: int, attack: str) -> tuple[int | None, Outcome | None]:
    """Wait until the server has ended O's sandbox in game ``game_id`` (its hosted
    players' record of ended seats); its bubblewrap pid and its outcome."""

    def ended() -> tuple[int | None, Outcome | None] | None:
        seats = app.state.hosted.ended
        return next(((e[2], e[3]) for e in seats if e[:2] == (game_id, "o")), None)

    found: tuple[int | None, Outcome | None] = wait_until(ended, 20, f"{attack}'s sandbox to end")
    return found


def course_zip(folder: Path, broken: bool = False) -> Path:
    """The example course project zipped under a top folder, as GitHub gives it, with a
    JavaFX jar never read (``broken``: its bot missing a semicolon, javac's to refuse)."""
    target = folder / ("broken.zip" if broken else "tubes-main.zip")
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for source in sorted((COURSE_PROJECT / "src").glob("*.java")):
            text = source.read_text(encoding="utf-8")
            if broken and source.name == "Bot.java":
                text = text.replace("int empty = 0;", "int empty = 0")
            archive.writestr(f"tubes-main/src/{source.name}", text)
        archive.writestr("tubes-main/lib/javafx.controls.jar", b"PK never read")
    return target


FIRST_EMPTY_PROGRAM = """\
import os, sys, time

{think}

def first_empty(board):
    ranks = board.split("/")
    for i, rank in enumerate(ranks):
        column = 0
        for c in rank:
            if c.isdigit():
                return "abcdefgh"[column] + str(len(ranks) - i)
            column += 1
    return "(none)"

fen = None
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "aep":
        print("id name {name}\\nid author tests\\naepok", flush=True)
    elif words and words[0] == "isready":
        print("readyok", flush=True)
    elif words and words[0] == "position":
        fen = words[2]
    elif words and words[0] == "go":
        think()
        print("bestmove", first_empty(fen), flush=True)
    elif words and words[0] == "quit":
        break
"""
"""An engine-protocol program (Python, standard library) that answers the first empty
square of each position after ``think()``, which ``think`` (Python source at the
module's top) defines: :func:`first_empty_program`."""


def first_empty_program(name: str, think: str) -> str:
    """:data:`FIRST_EMPTY_PROGRAM` named ``name`` with ``think`` (source defining ``think()``)."""
    return FIRST_EMPTY_PROGRAM.replace("{think}", think).replace("{name}", name)


def first_empty_sleeper(name: str, pause: float) -> str:
    """The first-empty program that sleeps ``pause`` seconds a move: its checks take what
    its pauses take, and it computes nothing."""
    return first_empty_program(name, f"def think():\n    time.sleep({pause!r})\n")
