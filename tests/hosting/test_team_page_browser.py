"""A team's page in a real browser (Playwright driving Debian's Chromium) against a real
league server with its builder: the team signs in with its token, sends its course
project's zip as it has it, and sees the version built, checked and accepted; a broken
project shows javac's words; the Python and JavaScript starter kits' zips go the same way
to accepted; both languages, a laptop and a phone, axe at every impact,
no sideways scrolling, no console error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, SIZES, UNDER_TEST, axe_violations, each_once, goto
from hosted_helpers import course_zip, kit_zip
from i18n_helpers import english_left
from league_helpers import add_member

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.jvm, pytest.mark.xdist_group("team-browser")]

TIMEOUT = 50_000


def signed_in(
    browser: Any, url: str, token: str, size: str, locale: str, errors: list[str]
) -> tuple[Any, Any]:
    """A browser context (``size``, ``locale``) on the team's page, signed in with
    ``token``: the context and its page, whose console errors go to ``errors``."""
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
    return context, page


@pytest.mark.parametrize(("locale", "size"), each_once(("en-GB", "id-ID"), SIZES))
def test_a_team_sends_its_project_from_its_page_and_sees_the_verdict(
    browser: Any, built_league: tuple[str, Path], tmp_path: Path, size: str, locale: str
) -> None:
    """The whole way in English on a laptop; in Indonesian on a phone, the broken project
    only (an accepted version's row in Indonesian is the JavaScript kit's test's, so the
    project's build and check are paid once)."""
    url, db = built_league
    token = add_member(db, "garuda")
    errors: list[str] = []
    context, page = signed_in(browser, url, token, size, locale, errors)
    expect(page.locator("#team-name")).to_contain_text("garuda")
    if locale != "id-ID":
        page.locator("#zip").set_input_files(str(course_zip(tmp_path)))
        page.locator("#upload-form button[type=submit]").click()
        row = page.locator("#versions tbody tr").first
        expect(row).to_contain_text("accepted")
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


@pytest.mark.node
@pytest.mark.parametrize(
    ("language", "entry", "locale", "size"),
    [
        ("python", "engine.py", "en-GB", "laptop"),
        ("javascript", "engine.js", "id-ID", "phone"),
    ],
)
def test_a_team_sends_a_starter_kit_from_its_page_and_sees_it_accepted(
    browser: Any,
    built_league: tuple[str, Path],
    tmp_path: Path,
    language: str,
    entry: str,
    locale: str,
    size: str,
) -> None:
    """The Python and JavaScript kits, unedited and zipped as a team would, go through
    the same page as a Java project, to accepted with the check's account."""
    url, db = built_league
    token = add_member(db, "garuda")
    errors: list[str] = []
    context, page = signed_in(browser, url, token, size, locale, errors)
    kit = kit_zip(language, tmp_path / f"{language}-kit.zip")
    page.locator("#zip").set_input_files(str(kit))
    page.locator("#upload-form button[type=submit]").click()
    row = page.locator("#versions tbody tr").first
    expect(row).to_contain_text(f"{language}-kit.zip")
    expect(row).to_contain_text("diterima" if locale == "id-ID" else "accepted")
    # The page sends the zip as it is: the program is named under the zip's top folder.
    expect(page.locator("#versions .team-detail").first).to_contain_text(
        f"{language} {entry}: 4 positions answered legally"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    assert axe_violations(page, EVERY_IMPACT) == []
    if locale == "id-ID":  # the check's account is the server's own words, not the page's
        accounts = page.locator("#versions .team-detail").all_text_contents()
        assert english_left(page, ["garuda", f"{language}-kit.zip", *accounts]) == []
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
