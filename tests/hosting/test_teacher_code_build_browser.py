"""The teacher sends a team's course project from the teacher's page, in a real browser
against a real league server with its builder (bubblewrap, javac, the JVM): the version
goes from received to accepted on the page, and the server's account of the check opens
under it."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import axe_violations, teacher_page
from league_helpers import ADMIN, add_member, make_league, thread_server
from sandbox_helpers import reachable_folder

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.jvm, pytest.mark.xdist_group("team-browser")]

TIMEOUT = 50_000  # a build in the sandbox on a loaded machine
COURSE = Path(__file__).resolve().parents[2] / "examples" / "engines" / "java" / "course-project"


def course_zip(folder: Path) -> Path:
    """The example course project as a team has it, zipped under its top folder."""
    target = folder / "tubes-main.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for source in sorted((COURSE / "src").glob("*.java")):
            archive.writestr(f"tubes-main/src/{source.name}", source.read_text(encoding="utf-8"))
    return target


@pytest.fixture
def served(sandbox_box: Path) -> Iterator[tuple[str, Path]]:
    with reachable_folder("adjacency-teacher-code-") as folder:
        db = folder / "league.db"
        make_league(db, rows=6, cols=6, rounds=4, base=30.0, increment=0.0)
        with thread_server(db, house_games=False, builds=True) as url:
            yield url, db


def test_a_project_the_teacher_sends_for_a_team_is_built_and_accepted(
    browser: Any, served: tuple[str, Path], tmp_path: Path
) -> None:
    url, db = served
    add_member(db, "garuda")
    errors: list[str] = []
    context, page = teacher_page(browser, url, ADMIN, errors, TIMEOUT)
    page.select_option("#code-team", "garuda")
    page.locator("#code-zip").set_input_files(str(course_zip(tmp_path)))
    page.locator("#code-form button[type=submit]").click()
    expect(page.locator("#status")).to_contain_text("Version 1 of garuda received")
    item = page.locator("#code-versions li[data-version='1']")
    expect(item).to_contain_text("accepted", timeout=TIMEOUT)  # refreshed while it builds
    item.locator("summary").click()
    expect(item.locator("pre")).to_contain_text("bot Bot: 4 positions answered legally")
    assert axe_violations(page, ("minor", "moderate", "serious", "critical")) == []
    assert errors == []
    context.close()
