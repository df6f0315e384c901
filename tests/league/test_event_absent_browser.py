"""The event page's crosstable in a real browser (Playwright driving Debian's Chromium)
marks the games a team's absence decided: two teams that were both absent both lost,
"0–0 abs ff" on both sides of their cell (not a 1–1 split; a double forfeit, never
played), the marks explained in the legend and on the cell; the teacher's page names
both as paused for their absence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser_helpers import goto, teacher_page, watched_page
from league_helpers import ADMIN, paused_after_double_absence, thread_server

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000


def test_the_crosstable_marks_a_double_absence(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    paused_after_double_absence(db)  # ghost and shade, held after round 1
    errors: list[str] = []
    with thread_server(db) as url:
        context, page = watched_page(browser, errors, TIMEOUT)
        goto(page, f"{url}/event/cup")
        marked = page.locator("#crosstable td.filled")
        sync_api.expect(marked).to_have_count(2)
        sync_api.expect(marked).to_have_text(["0–0 abs ff", "0–0 abs ff"])
        title = marked.first.get_attribute("title") or ""
        assert "absence" in title and "never played" in title
        legend = page.locator("#crosstable-legend")
        sync_api.expect(legend).to_contain_text("abs: a team's bot was not there")
        sync_api.expect(legend).to_contain_text("withdrawn after the round was paired or absent")
        context.close()
        # the teacher's page names the teams paused for their absence
        context, page = teacher_page(browser, url, ADMIN, errors, TIMEOUT)
        paused = page.locator("#absent-cup")
        sync_api.expect(paused).to_contain_text("Paused for their absence", timeout=TIMEOUT)
        assert {"ghost", "shade"} <= set(paused.inner_text().split(": ")[-1].split(", "))
        assert "red" not in paused.inner_text().split(": ")[-1]
        context.close()
    assert errors == []
