"""Checks that a page shown in Indonesian has no English left (the i18n browser tests).

:func:`english_left` collects what a person meets on the page (the visible text, the
aria-label, title and placeholder of the visible elements, the choices of the visible
lists, and the labels and tooltips of the visible parts of drawings: SVG ``<text>`` and
``<title>``) and looks in it for the
English catalogue's messages, each cut at its parameters into fixed fragments; a
fragment that is also Indonesian (one the Indonesian catalogue has too, such as "Bot"
or "Main" of "Main lagi") does not count, nor do the names in :data:`ALLOWED` or those
a test adds (players' and members' names).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

CATALOGUES = (
    Path(__file__).resolve().parents[1] / "src" / "adjacency" / "serving" / "static" / "i18n"
)
ALLOWED = ["Adjacency", "Elo", "Bahasa Indonesia", "English"]
"""Names that stay as they are in every language (the game, the rating, the languages)."""

COLLECT = """() => {
  const seen = [document.body.innerText];
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!node.getClientRects().length) continue;  // hidden
    for (const name of ["aria-label", "title", "placeholder"]) {
      if (node.hasAttribute(name)) seen.push(node.getAttribute(name));
    }
  }
  // A visible list's choices, each met on opening it (innerText has the chosen one alone).
  for (const select of document.querySelectorAll("select")) {
    if (select.getClientRects().length) seen.push(...[...select.options].map((o) => o.text));
  }
  // A drawing's labels (<text>) and tooltips (<title>, shown on hovering their parent).
  for (const node of document.querySelectorAll("svg text, svg title")) {
    const shown = node.tagName === "title" ? node.parentElement : node;
    if (shown.getClientRects().length) seen.push(node.textContent);
  }
  seen.push(document.title);
  return seen.join("\\n");
}"""


def _messages(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def message(lang: str, key: str, **params: str) -> str:
    """The catalogue's message ``key`` in ``lang`` ("en", "id"), its ``{name}`` filled."""
    text = str(_messages(lang)[key])
    for name, value in params.items():
        text = text.replace("{" + name + "}", value)
    return text


def _fragments(value: Any) -> list[str]:
    forms = value.values() if isinstance(value, dict) else [value]
    pieces = []
    for text in forms:
        text = re.sub(r"<[^>]+>", " ", text)  # inline markup (data-i18n-html) is not text
        for piece in re.split(r"\{\w+\}|\s{2,}", text):
            piece = piece.strip(" .,:;·()“”!?…-–—")
            if len(re.findall(r"[A-Za-z]", piece)) >= 4:  # a word, not a symbol or a letter
                pieces.append(piece)
    return pieces


def english_left(page: Any, allowed: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """The English messages' fragments found in what ``page`` shows now."""
    seen = page.evaluate(COLLECT)
    for name in sorted([*ALLOWED, *allowed], key=len, reverse=True):
        seen = seen.replace(name, " ")
    return [
        f"{key}: {piece!r}"
        for key, piece, words in _english_only()
        if piece in seen and words.search(seen)  # the plain search first: most are absent
    ]


@functools.cache
def _english_only() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """Each English message's fragments that are not Indonesian too, in the catalogue's
    order: its key, the fragment and the pattern of it as whole words. The catalogues
    are read and the patterns compiled once a test process (about 1,900 fragments, far
    more than the ``re`` module's cache of compiled patterns holds, and each searched
    for in the whole Indonesian catalogue: seconds of CPU at every call otherwise). A
    pattern is tried only where its fragment is a substring: the plain search is many
    times quicker, and a fragment that is not a substring matches nowhere as whole words."""
    english, indonesian = _messages("en"), _messages("id")
    theirs = "\n".join(piece for value in indonesian.values() for piece in _fragments(value))
    found = []
    for key, value in english.items():
        for piece in _fragments(value):
            words = re.compile(rf"(?<![A-Za-z]){re.escape(piece)}(?![A-Za-z])")
            if piece not in theirs or not words.search(theirs):
                found.append((key, piece, words))
    return tuple(found)
