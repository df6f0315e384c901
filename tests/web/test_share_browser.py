"""Sharing a seat from a phone, in Chromium at 390 px, each journey in one language
(sharing and joining in Indonesian, copying in English): the
share dialog shows each seat link's QR code (drawn by the server; the pixels read back
hold the link) and its short code; the
other device types the code in Join and plays the seat; Copy works where the Clipboard
API is missing (plain http on a LAN address) and, when nothing could be copied on a
touch screen, says to touch and hold (not a key to press); the system share sheet is
offered where the browser has one. No sideways scrolling, axe-core clean."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, axe_violations, goto
from qr_helpers import DRAWN_MODULES, decode
from test_i18n_catalogues import catalogue
from web_helpers import SMALL, api, new_tab, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-share-browser")]

PHONE = {"width": 390, "height": 844}
LANGUAGES = {"en-GB": "en", "id-ID": "id"}
INVITE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
NO_CLIPBOARD = """
  Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
  window.copied = [];
  document.addEventListener('copy', () => {
    const field = document.activeElement;
    window.copied.push(field.value.slice(field.selectionStart, field.selectionEnd));
  });
"""
"""The page as on http://192.168.x.y (not a secure context): no Clipboard API; what the
browser's copy command copies is recorded."""


def fill(text: str, **params: Any) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), text)


def invitation(server: str, tab: Any) -> dict[str, Any]:
    """A game between devices made by the API's client, its tokens remembered by ``tab``'s
    page as the new-game dialog remembers them, the page showing the game."""
    made = api(server, "POST", "/api/invites", {**INVITE, **SMALL})
    game_id = made["game"]["id"]
    goto(tab, f"{server}/?game={game_id}")
    tab.evaluate(
        "([id, tokens]) => localStorage.setItem(`adjacency.invite.${id}`, tokens)",
        [game_id, json.dumps(made["tokens"])],
    )
    tab.reload()
    expect(tab.locator("#status")).not_to_be_empty()  # the game is loaded
    return made  # type: ignore[no-any-return]


def wide(tab: Any) -> int:
    return int(tab.evaluate("() => document.documentElement.scrollWidth"))


@pytest.mark.parametrize("locale", ["id-ID"])
def test_a_seat_shared_by_code_and_qr_is_played_on_another_phone(
    browser: Any, server: str, locale: str
) -> None:
    words = catalogue(LANGUAGES[locale])
    creator = new_tab(browser, server, viewport=PHONE, locale=locale)
    creator.context.add_init_script("navigator.share = async (data) => { window.shared = data; };")
    made = invitation(server, creator)
    game_id, tokens = made["game"]["id"], made["tokens"]
    creator.click("#btn-share")
    dialog = creator.locator("#dlg-invite")
    expect(dialog).to_be_visible()
    seat_o = dialog.locator('[data-link="seat-o"]')
    link = f"{server}/?game={game_id}#seat={tokens['o']}"
    expect(seat_o.locator("input")).to_have_value(link)
    # the QR code holds the link; the short code is the server's
    expect(seat_o.locator("svg.qr")).to_have_attribute("data-text", link)
    painted = seat_o.locator("svg.qr").evaluate(DRAWN_MODULES)
    assert decode(painted) == link  # what a camera sees holds the seat's link
    expect(dialog.locator("svg.qr")).to_have_count(3)  # both seats and the watch link
    code = seat_o.locator("[data-code]").get_attribute("data-code", timeout=30_000)
    assert code is not None and re.fullmatch(r"[A-HJKMNP-Z2-9]{6}", code)
    expect(seat_o.locator(".seat-code")).to_contain_text(str(words["share.code"]))
    # the share sheet gets the seat link
    seat_o.get_by_role("button", name=str(words["share.send"])).click()
    assert creator.evaluate("() => window.shared.url") == link
    assert wide(creator) <= PHONE["width"] + 1
    assert axe_violations(creator, EVERY_IMPACT) == []

    # another phone (its own cookie) types the code in Join and holds the O seat
    friend = new_tab(browser, server, client=None, viewport=PHONE, locale=locale,
                     has_touch=True, is_mobile=True)  # fmt: skip
    goto(friend, server + "/")
    expect(friend.locator("#dlg-new")).to_be_visible()  # a first visit offers a new game
    friend.click("#new-join")
    expect(friend.locator("#dlg-join")).to_be_visible()
    assert axe_violations(friend, EVERY_IMPACT) == []
    assert wide(friend) <= PHONE["width"] + 1
    friend.fill("#join-code", "ABCDE0")
    friend.click("#join-submit")
    refusal = friend.locator("#join-error")
    if LANGUAGES[locale] == "en":  # the server's own words, which quote the input
        expect(refusal).to_contain_text("a seat code is 6 letters and digits")
    else:
        expect(refusal).to_have_text(str(words["error.bad_code"]))
    friend.fill("#join-code", f"{code[:3].lower()} {code[3:]}")
    friend.click("#join-submit")
    friend.wait_for_url(re.compile(rf"\?game={game_id}$"))

    def seats() -> Any:  # the page claims the seat once it has loaded the game
        me = friend.evaluate(f"() => fetch('/api/games/{game_id}/me').then((r) => r.json())")
        return me if me["seats"] else None

    assert wait_until(seats, 30, "the friend's page to claim its seat")["seats"] == ["o"]
    creator.context.close()
    friend.context.close()
    refused = [e for e in friend.console_errors if "status of 400" in e]  # the bad code
    assert len(refused) == 1, friend.console_errors
    assert creator.console_errors == [] and len(friend.console_errors) == 1


@pytest.mark.parametrize("locale", ["en-GB"])
def test_copy_without_the_clipboard_api(browser: Any, server: str, locale: str) -> None:
    """Copy on a page without the Clipboard API (an http LAN address) copies the selected
    field with the browser's copy command; where even that fails on a touch screen, the
    message says to touch and hold, naming no key."""
    words = catalogue(LANGUAGES[locale])
    tab = new_tab(browser, server, viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
    tab.context.add_init_script(NO_CLIPBOARD)
    made = invitation(server, tab)
    assert tab.evaluate("() => navigator.clipboard") is None
    tab.click("#btn-share")
    seat_x = tab.locator('[data-link="seat-x"]')
    copy = seat_x.locator("button.copy")
    copy.click()
    expect(copy).to_have_text(str(words["share.copied"]))
    link = seat_x.locator("input").input_value()
    assert link.endswith(f"#seat={made['tokens']['x']}")
    assert tab.evaluate("() => window.copied") == [link]
    # the copy command refused too: the field stays selected and the hint is the touch one
    tab.evaluate("() => { document.execCommand = () => false; }")
    watch = tab.locator('[data-link="watch"]')
    watch.locator("button.copy").click()
    hint = watch.locator(".copy-status")
    expect(hint).to_have_text(str(words["share.press-copy.touch"]))
    assert "Ctrl" not in hint.inner_text()
    selected = tab.evaluate(
        "() => { const f = document.activeElement; "
        "return f.value.slice(f.selectionStart, f.selectionEnd); }"
    )
    assert selected == watch.locator("input").input_value()
    # no share sheet where the browser has none
    assert tab.evaluate("() => typeof navigator.share") == "undefined"
    expect(tab.get_by_role("button", name=str(words["share.send"]))).to_have_count(0)
    tab.context.close()
    assert tab.console_errors == [], tab.console_errors


def test_a_keyboard_device_is_told_the_keys(browser: Any, server: str) -> None:
    tab = new_tab(browser, server)
    tab.context.add_init_script(NO_CLIPBOARD)
    invitation(server, tab)
    tab.evaluate("() => { document.execCommand = () => false; }")
    tab.click("#btn-share")
    watch = tab.locator('[data-link="watch"]')
    watch.locator("button.copy").click()
    expect(watch.locator(".copy-status")).to_contain_text("Ctrl+C")
    tab.context.close()
