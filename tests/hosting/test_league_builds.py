"""The league builds what teams upload: through a real league server (HTTP, its builder
thread, bubblewrap, javac, the JVM), the course project as a team has it goes from
``adjacency league submit`` to an accepted version; a broken one is refused with
javac's words for the team and the teacher only; and a server where no sandbox can start
refuses uploads with the fix, building nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjacency.cli import main
from hosted_helpers import decided
from league_helpers import ADMIN, add_member, make_league, request, thread_server
from sandbox_helpers import reachable_folder

pytestmark = pytest.mark.jvm

REPO = Path(__file__).resolve().parents[2]
COURSE_PROJECT = REPO / "examples" / "engines" / "java" / "course-project"


@pytest.fixture
def served(sandbox_box: Path) -> Iterator[tuple[str, Path]]:
    """A league on a 6x6 board whose file (and so its builds) the sandbox's users can
    reach, served with its builder."""
    with reachable_folder("adjacency-league-builds-") as folder:
        db = folder / "league.db"
        make_league(db, rows=6, cols=6, rounds=6, base=60.0, increment=0.0)
        with thread_server(db, house_games=False, builds=True) as url:
            yield url, db


def versions(url: str, token: str) -> list[dict[str, Any]]:
    answer = request(url + "/api/league/submissions", token=token)
    assert answer.status == 200, answer
    listed: list[dict[str, Any]] = answer.body["submissions"]
    return listed


def test_a_course_project_goes_from_submit_to_an_accepted_version(
    served: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, db = served
    token = add_member(db, "team1")
    token_file = tmp_path / "team1.token"
    token_file.write_text(token)
    project = tmp_path / "tubes"
    (project / "src").mkdir(parents=True)
    for source in (COURSE_PROJECT / "src").glob("*.java"):
        (project / "src" / source.name).write_text(source.read_text(encoding="utf-8"))
    (project / "lib").mkdir()
    (project / "lib" / "javafx.controls.jar").write_bytes(b"PK never read")
    assert main(["league", "submit", url, str(project), "--token-file", str(token_file)]) == 0
    assert "version 1 (a new version)" in capsys.readouterr().out
    accepted = decided(url, token, 1)
    assert accepted["status"] == "accepted", accepted["detail"]
    assert accepted["detail"].startswith("bot Bot: 4 positions answered legally")
    # The teacher sees the same verdict; the public API shows no submission at all.
    teacher = request(url + "/api/league/admin/members/team1/submissions", token=ADMIN)
    assert teacher.body["submissions"][0]["status"] == "accepted"
    public = request(url + "/api/league/members/team1", raw=True)
    assert public.status == 200 and "positions answered" not in public.body


def test_a_broken_project_is_refused_with_javacs_words_for_the_team(
    served: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, db = served
    token = add_member(db, "team2")
    token_file = tmp_path / "team2.token"
    token_file.write_text(token)
    project = tmp_path / "broken"
    (project / "src").mkdir(parents=True)
    (project / "src" / "Bot.java").write_text(
        "public class Bot { public int[] move() { return null } }\n"
    )
    assert main(["league", "submit", url, str(project), "--token-file", str(token_file)]) == 0
    refused = decided(url, token, 1)
    assert refused["status"] == "refused"
    assert refused["detail"].startswith("javac failed:") and "';' expected" in refused["detail"]
    assert str(tmp_path) not in refused["detail"]  # the team's machine's paths never reach it


def test_where_no_sandbox_starts_uploads_are_refused_with_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import adjacency.sandbox.available as available

    real = available.check
    monkeypatch.setattr(
        "adjacency.league.builder.sandbox_check", lambda: real(bwrap=str(tmp_path / "none"))
    )
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "team1")
    with thread_server(db, house_games=False, builds=True) as url:
        answer = request(url + "/api/league/submissions", "POST", {"x": 1}, token=token)
    assert answer.status == 503 and "apt-get install bubblewrap" in answer.body["detail"]
    assert not (tmp_path / "league.db.builds").exists()
