"""The teacher sends a team's course project from the teacher's page, in a real browser
against a real league server with its builder (bubblewrap, javac, the JVM): the version
goes from received to accepted on the page, and the server's account of the check opens
under it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser_helpers import axe_violations, teacher_page
from hosted_helpers import course_zip
from league_helpers import ADMIN, add_member

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.jvm, pytest.mark.xdist_group("team-browser")]

TIMEOUT = 50_000  # a build in the sandbox on a loaded machine


def test_a_project_the_teacher_sends_for_a_team_is_built_and_accepted(
    browser: Any, built_league: tuple[str, Path], tmp_path: Path
) -> None:
    url, db = built_league
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
