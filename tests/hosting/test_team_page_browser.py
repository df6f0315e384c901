"""A team's page in a real browser (Playwright driving Debian's Chromium) against a real
league server with its builder: the team signs in with its token, sends its course
project's zip as it has it, and sees the version built, checked and accepted; a broken
project shows javac's words; both languages, a laptop and a phone, axe at every impact,
no sideways scrolling, no console error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, SIZES, UNDER_TEST, axe_violations, goto
from hosted_helpers import course_zip
from i18n_helpers import english_left
from league_helpers import add_member

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
expect.set_options(timeout=50_000)  # a build in the sandbox on a loaded machine

pytestmark = [pytest.mark.browser, pytest.mark.jvm, pytest.mark.xdist_group("team-browser")]

TIMEOUT = 50_000


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("locale", ["en-GB", "id-ID"])
def test_a_team_sends_its_project_from_its_page_and_sees_the_verdict(
    browser: Any, built_league: tuple[str, Path], tmp_path: Path, size: str, locale: str
) -> None:
    url, db = built_league
    token = add_member(db, "garuda")
    errors: list[str] = []
    context = browser.new_context(viewport=SIZES[size], locale=locale, **UNDER_TEST)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    if locale == "id-ID":
        page.add_init_script("localStorage.setItem('adjacency.lang', 'id')")
    goto(page, f"{url}/team")
    page.wait_for_selector("#token-form[data-ready]")  # the page's script handles the form
    page.locator("#token").fill(token)
    page.locator("#token").press("Enter")
    expect(page.locator("#team")).to_be_visible()
    expect(page.locator("#team-name")).to_contain_text("garuda")
    page.locator("#zip").set_input_files(str(course_zip(tmp_path)))
    page.locator("#upload-form button[type=submit]").click()
    accepted = "diterima" if locale == "id-ID" else "accepted"
    row = page.locator("#versions tbody tr").first
    expect(row).to_contain_text(accepted)
    expect(page.locator("#versions .team-detail").first).to_contain_text(
        "4 positions answered legally"
    )
    page.locator("#zip").set_input_files(str(course_zip(tmp_path, broken=True)))
    page.locator("#upload-form button[type=submit]").click()
    refused = "ditolak" if locale == "id-ID" else "refused"
    expect(page.locator("#versions tbody tr").first).to_contain_text(refused)
    expect(page.locator("#versions .team-detail").first).to_contain_text("';' expected")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    assert axe_violations(page, EVERY_IMPACT) == []
    if locale == "id-ID":  # the server's accounts are its own words (javac's), not the page's
        accounts = page.locator("#versions .team-detail").all_text_contents()
        assert english_left(page, ["garuda", "tubes-main.zip", "broken.zip", *accounts]) == []
    assert errors == []
    context.close()


def test_a_wrong_token_is_refused_and_nothing_is_kept(
    browser: Any, built_league: tuple[str, Path]
) -> None:
    url, _ = built_league
    context = browser.new_context(**UNDER_TEST)
    page = context.new_page()
    goto(page, f"{url}/team")
    page.wait_for_selector("#token-form[data-ready]")
    page.locator("#token").fill("adjl_not-a-token")
    page.locator("#token").press("Enter")
    expect(page.locator("#status")).to_contain_text("unknown or revoked token")
    expect(page.locator("#token-form")).to_be_visible()
    assert page.evaluate("sessionStorage.getItem('adjacency.team-token')") is None
    context.close()
