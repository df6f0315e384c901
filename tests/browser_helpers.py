"""Debian's Chromium for the end-to-end browser tests (web, league, documentation site).

One launcher, so every browser test starts Chromium the same way: the Debian build at
:data:`CHROMIUM` (Playwright downloads no browser here), headless, with the flags that
keep it off the network it cannot reach. A missing Chromium fails the test under CI
(``make test`` provisions it: tools/provision-chromium) and skips it elsewhere, which
the suite's skip guard then names in the run's last lines.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MISSING = "Debian's chromium is missing at /usr/bin/chromium (apt-get install chromium)"
UNDER_TEST = {"bypass_csp": True}
"""Options of the contexts of tests that wait with ``page.wait_for_function``, whose string
predicates Playwright evaluates as code, which the pages' Content-Security-Policy (no
``unsafe-eval``) forbids; the policy itself is enforced in
``tests/web/test_browser.py::test_the_pages_work_under_their_content_security_policy``."""


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Debian Chromium (a Playwright ``Browser``), closed on exit."""
    sync_api = pytest.importorskip("playwright.sync_api")
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
