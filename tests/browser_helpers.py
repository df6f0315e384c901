"""Debian's Chromium for the end-to-end browser tests (web, league, documentation site).

One launcher, so every browser test starts Chromium the same way: Debian's headless
shell at :data:`CHROMIUM` (Playwright downloads no browser here), with the flags that
keep it off the network it cannot reach. The shell is Chromium's own Blink and V8 of the
same version, without the browser's windows: the full browser in headless mode still
draws its own tab strip and toolbar in renderers of their own, and ran the web tests on
about twice the CPU (90.7 against 44-58 CPU-seconds for tests/web/test_browser.py, one
after the other on an idle machine). Left to itself the shell hints text more strongly
than the full browser, and lines wrap elsewhere; hinted as the full browser hints it
(:data:`ARGS`), its pages look as the visual baselines (tests/visual/baselines/) do. A
missing shell fails the test under CI (``make test`` provisions it:
tools/provision-chromium) and skips it elsewhere, which the suite's skip guard then
names in the run's last lines.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium-headless-shell"
ARGS = [
    "--font-render-hinting=slight",  # as the full browser hints text (Debian's fontconfig)
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MISSING = (
    f"Debian's Chromium headless shell is missing at {CHROMIUM}"
    " (apt-get install chromium-headless-shell)"
)
UNDER_TEST = {"bypass_csp": True}
"""Options of the contexts of tests that wait with ``page.wait_for_function``, whose string
predicates Playwright evaluates as code, which the pages' Content-Security-Policy (no
``unsafe-eval``) forbids; the policy itself is enforced in
``tests/web/test_browser.py::test_the_pages_work_under_their_content_security_policy``."""


EXPECT_TIMEOUT = 50_000
"""How long (ms) Playwright's ``expect`` waits for a page to show what a test expects:
a hang's guard, never waited out by a passing test. It is Playwright's one setting for
the whole process, so :func:`chromium` sets it for every browser test: a test run alone
waits as long as it does in the whole suite. Playwright's own 5 s is shorter than an
engine's review or a build in the sandbox takes on a loaded machine."""


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Debian Chromium (a Playwright ``Browser``), closed on exit; ``expect``
    waits :data:`EXPECT_TIMEOUT` from here on."""
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_api.expect.set_options(timeout=EXPECT_TIMEOUT)
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(MISSING + ": CI must provision it (tools/provision-chromium)")
        pytest.skip(MISSING)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


MODULES_EVALUATED = """Promise.all(
  [...document.querySelectorAll("script[type=module][src]")].map((s) => import(s.src))
).then(() => true)"""
"""Resolves once every module script of the page has run to its end: a module's own
``import()`` settles only when its evaluation has, top-level ``await`` included."""


def goto(page: Any, url: str, **options: Any) -> Any:
    """``page.goto(url)`` (its response returned), then wait until the page's module
    scripts have run to their end. The load event does not wait for a module's top-level
    ``await`` (the pages' catalogue, ``i18n.js``, fetches the language's messages), so a
    test that types or clicks right after ``page.goto`` alone may act before the page's
    handlers are attached."""
    response = page.goto(url, **options)
    page.evaluate(MODULES_EVALUATED)
    return response


def watched_page(
    browser: Any, errors: list[str], timeout: float, **options: Any
) -> tuple[Any, Any]:
    """A new context (``options`` plus :data:`UNDER_TEST`) and its page, whose default
    timeout is ``timeout`` ms and whose console errors and uncaught exceptions go into
    ``errors``."""
    context = browser.new_context(**{**UNDER_TEST, **options})
    context.set_default_timeout(timeout)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    return context, page


def sign_in_as_teacher(page: Any, token: str) -> None:
    """Enter ``token`` on the teacher's page by keyboard once its script handles the
    form (it marks the form ``data-ready``); return when the sign-in has finished: the
    admin part shows and the page has moved the focus to "Forget" (its last step: a key
    pressed before then could land on that button and sign the teacher out)."""
    page.wait_for_selector("#token-form[data-ready]")
    page.locator("#token").focus()
    page.keyboard.type(token)
    page.keyboard.press("Enter")
    page.wait_for_selector("#admin", state="visible")
    # A locator's wait, not a string predicate: the page may run under its own
    # Content-Security-Policy, which forbids evaluating a string as code.
    from playwright.sync_api import expect

    expect(page.locator("#forget")).to_be_focused()


def teacher_page(
    browser: Any, url: str, token: str, errors: list[str], timeout: float,
    stored_language: str | None = None, **options: Any,
) -> tuple[Any, Any]:  # fmt: skip
    """The teacher's page of the league at ``url``, signed in with ``token``, in a
    :func:`watched_page` (``options``: its context's); with ``stored_language``, the
    page's language chosen before it loads (as its picker stores it), else the
    browser's ``locale`` decides it."""
    context, page = watched_page(browser, errors, timeout, **options)
    if stored_language is not None:
        page.add_init_script(f"localStorage.setItem('adjacency.lang', '{stored_language}')")
    goto(page, url + "/teacher")
    sign_in_as_teacher(page, token)
    return context, page


AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
"""axe-core (tests/vendor/axe-core/: its version in VERSION, its licence MPL-2.0), vendored:
the browser tests load no script from elsewhere."""
SERIOUS = ("serious", "critical")


def axe_violations(page: Any, impacts: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """Run axe-core (WCAG 2.x A and AA rules and axe's best practices) on ``page`` as it
    is now; return its violations of the given ``impacts``, each reduced to the rule's id,
    impact, help and the first nodes' selectors (what a failing assertion prints).

    The script is injected as a tag, which the pages' Content-Security-Policy allows
    only in contexts made with :data:`UNDER_TEST` (``bypass_csp``)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        {
            "id": rule["id"],
            "impact": rule["impact"],
            "help": rule["help"],
            "nodes": [node["target"] for node in rule["nodes"][:5]],
        }
        for rule in found["violations"]
        if rule["impact"] in impacts
    ]


EVERY_IMPACT = ("minor", "moderate", "serious", "critical")
"""Every impact axe-core gives (:func:`axe_violations`): the audits count the minor ones too."""
SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
"""The audits' windows: a laptop's and a phone's."""
LOCALES = ("en-US", "id-ID")
"""The pages' languages, as the browser asks for them."""
WINDOWS = {
    "1366x768": {"width": 1366, "height": 768},
    "1280x720": {"width": 1280, "height": 720},
    "390x844": {"width": 390, "height": 844},
}
"""The layout tests' windows, widest first: a laptop's two commonest and a phone's."""


def each_once(locales: tuple[str, str], windows: Iterable[str]) -> list[tuple[str, str]]:
    """``(locale, window)`` pairs with each language and each window at least once, as
    :data:`CASES` pairs them: English in the widest window, Indonesian, whose words run
    longest, in every narrower one (``windows`` widest first). Indonesian's longer words
    are the harder test of a narrower window, so the whole product would mostly play each
    scenario again: ``each_once(("en-GB", "id-ID"), WINDOWS)`` is English at 1366x768
    and Indonesian at 1280x720 and on the phone."""
    english, indonesian = locales
    widest, *narrower = windows
    return [(english, widest), *((indonesian, window) for window in narrower)]


CASES = each_once(LOCALES, SIZES)
"""Each language once and each window size once (``pytest.mark.parametrize(("locale",
"size"), CASES)``): English on a laptop, and Indonesian in the phone's narrow window. The
visual baselines picture their page states in every language at every size
(``tests/integrations/test_pages_look_as_before.py``)."""

SHOTS_ENV = "ADJACENCY_SCREENSHOTS"
"""Set to 1, the browser tests write their screenshots into docs/screenshots/ (the
pictures of the docs, ``make screenshots``), otherwise into a temporary folder; and the
tests that picture a page state for the docs (:func:`pictured`) run it in every language
at every window of :data:`WINDOWS`."""


def pictured(cases: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``cases`` (``(locale, window)`` pairs), or with :data:`SHOTS_ENV` set to 1 every
    language of :data:`LOCALES` at every window of :data:`WINDOWS`: the docs picture such
    a state in each, while the suite checks it in :data:`CASES`' few."""
    if os.environ.get(SHOTS_ENV) != "1":
        return cases
    return [(locale, window) for locale in LOCALES for window in WINDOWS]


def window(size: str) -> dict[str, int]:
    """The viewport of a window named in :data:`SIZES` or :data:`WINDOWS`."""
    return SIZES.get(size) or WINDOWS[size]


def sideways(page: Any) -> int:
    """How many pixels the page scrolls sideways (0: nothing overflows the window)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def checked_and_closed(tab: Any, locale: str = "en") -> None:
    """The checks every browser test ends with, then ``tab``'s context closed: no English
    left where ``locale`` is Indonesian, axe-core clean at every impact, nothing scrolling
    sideways, and no console error (read before closing, asserted after, so a failure
    leaves no browser behind)."""
    from i18n_helpers import english_left

    if locale.startswith("id"):
        assert english_left(tab) == []
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert sideways(tab) == 0
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors


def outside_window(page: Any, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the window as the
    page is scrolled now (by id or tag, with their box), for an assertion's message."""
    found: list[str] = page.eval_on_selector_all(
        selector,
        """els => els.filter((e) => { const r = e.getBoundingClientRect();
          return r.top < 0 || r.left < 0 || r.bottom > window.innerHeight + 0.5
            || r.right > window.innerWidth + 0.5 || r.width === 0; })
          .map((e) => { const r = e.getBoundingClientRect();
            return `${e.id || e.tagName} ${Math.round(r.top)}..${Math.round(r.bottom)}`; })""",
    )
    return found


def covered(page: Any, selector: str) -> list[str]:
    """The elements matching ``selector`` whose centre shows something else (another
    element laid over them, or nothing: outside the window), by id or text, with what
    lies there: a click at the centre would not reach them."""
    found: list[str] = page.eval_on_selector_all(
        selector,
        """els => els.filter((e) => { const r = e.getBoundingClientRect();
          const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return !at || !(at === e || e.contains(at)); })
          .map((e) => { const r = e.getBoundingClientRect();
            const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            const there = at ? at.id || at.className : "nothing";
            return `${e.id || e.textContent.trim()} under ${there}`; })""",
    )
    return found


def audited(page: Any, locale: str, size: str) -> None:
    """Assert what every page state of a browser test of :data:`CASES` must hold: axe-core
    finds nothing at any impact, the page is no wider than the window of ``size``, and in
    Indonesian no English is left (:func:`i18n_helpers.english_left`)."""
    from i18n_helpers import english_left

    assert axe_violations(page, EVERY_IMPACT) == []
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= window(size)["width"], wide
    if locale.startswith("id"):
        assert english_left(page) == []
