"""A team picks its bot in its own program's form, on its page, without code (Playwright
driving Debian's Chromium against a real league server with its builder, bubblewrap,
``javac`` against OpenJFX and Xvfb): the team sends its course project's Download ZIP
asking for its program to be played through its window; the version is accepted with the
form's default; the page shows the window as the server's dry run drew it and its choice
as a select; another option there is the team's next version, built, checked and
accepted with that choice. The API refuses an option the form does not have, in the
form's words, and has no window for a version of another kind. English on a laptop (the
whole way) and Indonesian on a 390 px phone (to the window and its choice), axe at every
impact, no sideways scrolling, no console error.

One league server and its builder serve the whole module, and a version the tests
read is built once for all of them (:func:`sent_program`, sent from the page;
:func:`refused_program`): a JavaFX build and its dry run under Xvfb are the module's
cost. The one test that writes adds the sent team's version 2, which no other test's
assertion depends on (each reads version 1 by its number, whichever ran first)."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from adjacency.core import Position
from adjacency.hosting.fx_recipe import MOVES_FIRST, NO_FIRST
from adjacency.league.league_file import LeagueStore
from browser_helpers import (
    EVERY_IMPACT,
    SIZES,
    UNDER_TEST,
    axe_violations,
    goto,
    teacher_page,
)
from fx_course_projects import HOSTILE, SHAPES, download_zip
from hosted_helpers import course_zip
from i18n_helpers import english_left
from league_helpers import ADMIN, add_member, make_league, thread_server, wait_until
from sandbox_helpers import own_sandboxes, reachable_folder

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.jvm, pytest.mark.xdist_group("team-browser")]

SHAPE = SHAPES[1]
"""One bot-type box, "Bot": Minimax (the default, its first option) or Local Search."""


@pytest.fixture(scope="module")
def program_league(fx_tools: None) -> Iterator[tuple[str, Path]]:
    """An 8x8 league of 2 rounds whose games start from the start (a program's window
    plays only from there), served with its builder in a folder the sandbox's users can
    reach, for the whole module: its URL and its file."""
    from adjacency.sandbox import check

    check()
    with reachable_folder("adjacency-program-choice-") as folder:
        db = folder / "league.db"
        start = Position.start(8, 8, 2).fen()
        make_league(db, rows=8, cols=8, rounds=2, base=30.0, increment=0.0, openings=(start,))
        with thread_server(db, house_games=False, builds=True) as url:
            yield url, db
        wait_until(lambda: not own_sandboxes(), 20, "every build's sandbox to end")


def sent(url: str, token: str, project: Path, program: str | None) -> dict[str, Any]:
    """``project`` sent through the API as the team page sends it (played through its
    window with ``program`` ``javafx``, else as the league decides): the version once the
    builder has decided it."""
    headers = {"Content-Type": "application/zip", "X-Filename": project.name}  # as the page
    if program is not None:
        headers["X-Program"] = program
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=f"{url}/api/league", headers=auth, timeout=30) as api:
        answer = api.post("/submissions", content=project.read_bytes(), headers=headers)
        assert answer.status_code == 201, answer.text
        return decided(api)


@pytest.fixture(scope="module")
def sent_program(
    browser: Any, program_league: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> str:
    """Team ``arjuna``, whose version 1 is :data:`SHAPE` sent from its page in English on
    a laptop (GitHub's Download ZIP as the student has it: the SDK, a report and a
    screenshot in) asking for its program to be played through its window, and accepted
    with its form's default; version 1 is never changed: its token."""
    url, db = program_league
    token = add_member(db, "arjuna")
    context, page, errors = signed_in(browser, url, token, "en-GB", "laptop")
    project = download_zip(SHAPE, tmp_path_factory.mktemp("arjuna") / "tubes-main.zip", 8 << 20)
    page.locator("#zip").set_input_files(str(project))
    page.locator("#as-program").check()
    page.locator("#upload-form button[type=submit]").click()
    expect(page.locator("#versions tbody tr").first).to_contain_text("accepted")
    assert errors == []
    context.close()
    return token


@pytest.fixture(scope="module")
def refused_program(
    program_league: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> str:
    """Team ``garuda``, whose version 1 is a program whose bot marks an occupied square at
    its second move, sent without asking (a league of windows plays it through its
    window) and refused at its check; read, never changed: its token."""
    url, db = program_league
    token = add_member(db, "garuda")
    where = tmp_path_factory.mktemp("garuda") / "occupied-main.zip"
    first = sent(url, token, download_zip(HOSTILE[2], where, sdk_bytes=1 << 20), None)
    assert first["status"] == "refused", first["detail"]
    return token


def manifest_of(db: Path, name: str, version: int) -> dict[str, Any]:
    """The manifest in the stored packed files of ``name``'s ``version``."""
    with LeagueStore(db, create=False) as store:
        member = store.members.member_named(name)
        submission = store.submissions.version(member.id, version)
        assert submission is not None
        data = store.submissions.data(submission.id)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        loaded: dict[str, Any] = json.loads(archive.read("adjacency-bot.json"))
    return loaded


def accounts(page: Any) -> list[str]:
    """The server's own words on the page: its accounts, the windows' controls and
    choices (each version's)."""
    texts: list[str] = page.locator("#versions .team-detail").all_text_contents()
    texts += page.locator(".team-program label, .team-program option").all_text_contents()
    choices = page.locator(".team-program summary").all_text_contents()
    return [*texts, *(choice.split(": ", 1)[-1] for choice in choices)]


def decided(api: httpx.Client) -> dict[str, Any]:
    """The team's newest version once the builder has decided it."""

    def newest() -> dict[str, Any] | None:
        version: dict[str, Any] = api.get("/submissions").json()["submissions"][0]
        return version if version["status"] in ("accepted", "refused") else None

    found: dict[str, Any] = wait_until(newest, 110, "the newest version decided")
    return found


def signed_in(
    browser: Any, url: str, token: str, locale: str, size: str
) -> tuple[Any, Any, list[str]]:
    """A new browser of ``size`` in ``locale`` on the team page, signed in with ``token``:
    its context, its page and the console errors it meets."""
    context = browser.new_context(viewport=SIZES[size], locale=locale, **UNDER_TEST)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    if locale == "id-ID":
        page.add_init_script("localStorage.setItem('adjacency.lang', 'id')")
    goto(page, f"{url}/team")
    page.wait_for_selector("#token-form[data-ready]")
    page.locator("#token").fill(token)
    page.locator("#token").press("Enter")
    expect(page.locator("#team")).to_be_visible()
    return context, page, errors


def program_form_shown(page: Any, size: str) -> Any:
    """The accepted version 1's verdict, its window as the dry run drew it and its one
    choice as a select set to the default, on a page that fits ``size`` and passes axe:
    the select. (Version 1's account is the last: the newest version is listed first.)"""
    # Its bot box shows no option: the first is played, and the verdict says what else.
    expect(page.locator("#versions .team-detail").last).to_contain_text(
        "plays Minimax as O; your form also offers Local Search: choose on your page: "
        "played 2 rounds with each colour against greedy"
    )
    panel = page.locator(".team-program[data-version='1']")
    panel.locator("summary").click()
    expect(panel.locator("summary")).to_contain_text("plays Minimax as O")
    picture = panel.locator("img")
    expect(picture).to_have_attribute("src", re.compile(r"^data:image/png;base64,iVBORw0KGgo"))
    assert picture.evaluate("i => i.naturalWidth") > 200
    select = panel.get_by_label("Bot", exact=True)
    assert select.evaluate("s => [...s.options].map(o => o.value)") == ["Minimax", "Local Search"]
    expect(select).to_have_value("Minimax")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    assert axe_violations(page, EVERY_IMPACT) == []
    return select


def test_a_programs_form_on_its_page_in_indonesian_on_a_phone(
    browser: Any, program_league: tuple[str, Path], sent_program: str
) -> None:
    """The accepted version, its window and its choice on a 390 px phone: the page's own
    words in Indonesian; the choice is the program's."""
    url, _ = program_league
    context, page, errors = signed_in(browser, url, sent_program, "id-ID", "phone")
    expect(page.locator("#versions tbody tr").first).to_contain_text("diterima")
    program_form_shown(page, "phone")
    assert english_left(page, ["arjuna", "tubes-main.zip", *accounts(page)]) == []
    assert errors == []
    context.close()


def test_a_choice_the_form_lacks_is_refused_in_its_words_and_keeps_nothing(
    program_league: tuple[str, Path], sent_program: str, tmp_path: Path
) -> None:
    url, db = program_league
    auth = {"Authorization": f"Bearer {sent_program}"}
    project = download_zip(SHAPE, tmp_path / "bot-type-main.zip", sdk_bytes=1 << 20)
    with httpx.Client(base_url=f"{url}/api/league", headers=auth, timeout=30) as api:
        kept = [v["version"] for v in api.get("/submissions").json()["submissions"]]
        form = api.get("/submissions/1/form").json()
        # its bot box shows no option: the first is played, and the choice says what else
        assert form["choice"] == (
            "plays Minimax as O; your form also offers Local Search: choose on your page"
        )
        assert [(c["name"], c["options"], c["chosen"]) for c in form["controls"]] == [
            ("botType", ["Minimax", "Local Search"], "Minimax"),
            (MOVES_FIRST, [NO_FIRST, "First move"], "First move"),
        ]
        window = api.get("/submissions/1/window.png")
        assert window.headers["content-type"] == "image/png"
        assert window.content[:8] == b"\x89PNG\r\n\x1a\n"
        wrong = api.post("/submissions/1/choice", json={"choose": {"Bot": "Genetic"}})
        assert wrong.status_code == 400
        assert "'Genetic' is not an option of 'Bot' (botType)" in wrong.text
        assert "Minimax, Local Search" in wrong.text
        unknown = api.post("/submissions/1/choice", json={"choose": {"Level": "Hard"}})
        assert unknown.status_code == 400 and "no control named 'Level'" in unknown.text
        per_game = api.post("/submissions/1/choice", json={"choose": {"Number of rounds": "8"}})
        assert per_game.status_code == 400 and "set by the league" in per_game.text
        assert api.get("/submissions/9/form").status_code == 404
        refused = api.post(
            "/submissions",
            content=project.read_bytes(),
            headers={"Content-Type": "application/zip", "X-Program": "swing"},
        )
        assert refused.status_code == 400 and "javafx, not 'swing'" in refused.text
        assert [v["version"] for v in api.get("/submissions").json()["submissions"]] == kept
    # a version of another kind, the engine-protocol route, has no window to show
    kit = course_zip(tmp_path)
    auth = {"Authorization": f"Bearer {add_member(db, 'kresna')}"}
    with httpx.Client(base_url=f"{url}/api/league", headers=auth, timeout=30) as api:
        other = api.post(
            "/submissions", content=kit.read_bytes(), headers={"Content-Type": "application/zip"}
        )
        assert other.status_code == 201, other.text
        assert api.get("/submissions/1/form").status_code == 404
        assert api.get("/submissions/1/window.png").status_code == 404
        decided(api)  # no build left behind


def test_a_team_chooses_its_bot_in_its_programs_form_on_its_page(
    browser: Any, program_league: tuple[str, Path], sent_program: str
) -> None:
    """The whole way in English on a laptop: sent from the page (:func:`sent_program`),
    accepted with the form's default, then another option chosen there is the next
    version, built and accepted."""
    url, db = program_league
    size = "laptop"
    context, page, errors = signed_in(browser, url, sent_program, "en-GB", size)
    select = program_form_shown(page, size)
    # Another option is the next version: the same files, the choice in its manifest.
    select.select_option("Local Search")
    page.locator(".team-program[data-version='1'] button[type=submit]").click()
    expect(page.locator("#status")).to_contain_text("Version 2 plays with this choice")
    assert manifest_of(db, "arjuna", 2) == {
        "choose": {"botType": "Local Search"},
        "language": "javafx",
    }
    expect(page.locator("#versions tbody tr").first).to_contain_text("accepted")
    expect(page.locator("#versions .team-detail").first).to_contain_text(
        "plays Local Search as O: played 2 rounds with each colour against greedy"
    )
    second = page.locator(".team-program[data-version='2']")
    second.locator("summary").click()
    expect(second.get_by_label("Bot", exact=True)).to_have_value("Local Search")
    assert axe_violations(page, EVERY_IMPACT) == []
    assert errors == []
    context.close()


@pytest.mark.parametrize(("locale", "size"), [("en-GB", "laptop"), ("id-ID", "phone")])
def test_a_refused_program_shows_its_window_and_its_board_on_its_page(
    browser: Any, program_league: tuple[str, Path], refused_program: str, locale: str, size: str
) -> None:
    """A program whose bot marks an occupied square at its second move is refused at its
    check (:func:`refused_program`); its team's page shows, under the refusal, its window
    as the dry run drew it and its board at that move as its window drew it (its build
    folder is gone, the pictures are the league file's) and, once opened, its last
    output; the teacher's page shows them under the version's account, once opened."""
    url, _ = program_league
    token = refused_program
    context, page, errors = signed_in(browser, url, token, locale, size)
    refused = "ditolak" if locale == "id-ID" else "refused"
    expect(page.locator("#versions tbody tr").first).to_contain_text(refused)
    expect(page.locator("#versions .team-detail").first).to_contain_text("is occupied")
    pictures = page.locator(".team-pictures img")
    expect(pictures).to_have_count(2)
    for image in pictures.all():
        expect(image).to_have_attribute("src", re.compile(r"^data:image/png;base64,iVBORw0KGgo"))
        assert image.evaluate("i => i.naturalWidth") > 200
    board = "Papan versi 1" if locale == "id-ID" else "The board of version 1"
    assert (pictures.nth(1).get_attribute("alt") or "").startswith(board)
    # its last output, read when opened: the mark its window showed on an occupied square
    output = page.locator("#versions .team-output")
    expect(output).to_have_count(1)
    output.locator("summary").click()
    expect(output.locator("pre")).to_contain_text("a square that was not empty")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    assert axe_violations(page, EVERY_IMPACT) == []
    if locale == "id-ID":
        said = page.locator("#versions .team-detail").all_text_contents()  # the server's
        said += page.locator("#versions .team-output pre").all_text_contents()  # the program's
        # the refused version keeps its form: its choice in the server's words, its
        # controls' labels and options in the program's own
        form = httpx.get(
            f"{url}/api/league/submissions/1/form", headers={"Authorization": f"Bearer {token}"}
        ).json()
        said += [form["choice"]]
        said += [c["label"] for c in form["controls"] if c["name"] != MOVES_FIRST]
        said += [o for c in form["controls"] if c["name"] != MOVES_FIRST for o in c["options"]]
        # who moves first is offered by the window's own controls' labels (its words)
        said += [o for c in form["controls"] if c["name"] == MOVES_FIRST for o in c["options"]]
        assert english_left(page, ["garuda", "occupied-main.zip", *said]) == []
    assert errors == []
    context.close()
    if locale == "id-ID":
        return
    context, page = teacher_page(browser, url, ADMIN, errors, 50_000, viewport=SIZES[size])
    page.select_option("#code-team", "garuda")
    item = page.locator("#code-versions li[data-version='1']")
    expect(item).to_contain_text("refused")
    item.locator("details:not(.team-output) > summary").click()
    shown = item.locator(".team-pictures img")
    expect(shown).to_have_count(2)
    kept = item.locator(".team-output")
    kept.locator("summary").click()
    expect(kept.locator("pre")).to_contain_text("a square that was not empty")
    for image in shown.all():
        expect(image).to_have_attribute("src", re.compile(r"^data:image/png;base64,iVBORw0KGgo"))
    assert axe_violations(page, EVERY_IMPACT) == []
    assert errors == []
    context.close()
