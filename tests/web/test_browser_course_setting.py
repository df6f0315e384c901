"""The new-game dialog's course setting in a real browser (Playwright driving Debian's
Chromium): one control sets the course's board (8x8), its seconds a bot's move (5, no
clock) and one of its round counts, the game starts with them, and a setting changed by
hand afterwards leaves the course's setting."""

from __future__ import annotations

from typing import Any

import pytest

from adjacency.core.course import COURSE_MOVE_SECONDS, COURSE_ROUNDS, COURSE_SIZE
from browser_helpers import goto

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser")]

PAGE = {"viewport": {"width": 1280, "height": 860}}
"""The options of this module's page (tests/web/conftest.py): a desk's window."""


def test_the_course_setting_sets_board_time_and_rounds(server: str, page: Any) -> None:
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    dialog = page.locator("#dlg-new")
    course = dialog.locator("select[name=course]")
    labels = course.locator("option").all_inner_texts()
    assert len(labels) == 1 + len(COURSE_ROUNDS)  # "none" and one per round count
    assert all("8×8" in label and "5 s" in label for label in labels[1:])
    dialog.locator("input[name=mode][value=bot-bot]").check()
    dialog.locator("select[name=rows]").select_option("5")  # something else first
    dialog.locator("select[name=clock]").select_option("60+1")
    course.select_option(str(COURSE_ROUNDS[1]))
    assert dialog.locator("select[name=rows]").input_value() == str(COURSE_SIZE[0])
    assert dialog.locator("select[name=cols]").input_value() == str(COURSE_SIZE[1])
    assert dialog.locator("input[name=rounds]").input_value() == str(COURSE_ROUNDS[1])
    assert float(dialog.locator("input[name=time]").input_value()) == COURSE_MOVE_SECONDS
    assert dialog.locator("select[name=clock]").input_value() == ""
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as sent:
        page.click("#new-start")
    body = sent.value.post_data_json
    assert (body["rows"], body["cols"], body["rounds"]) == (*COURSE_SIZE, COURSE_ROUNDS[1])
    assert body["time"] == COURSE_MOVE_SECONDS and body["clock"] is None
    page.wait_for_selector("#dlg-new", state="hidden")
    assert page.locator("#board .coord.file").count() == COURSE_SIZE[1]

    page.click("#btn-new")  # the dialog again: the course's setting is remembered
    page.wait_for_selector("#dlg-new[open]")
    assert course.input_value() == str(COURSE_ROUNDS[1])
    dialog.locator("select[name=cols]").select_option("6")  # by hand: not the course's
    assert course.input_value() == ""
