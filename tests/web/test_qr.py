"""The web page's QR encoder (src/adjacency/web/static/js/qr.js), run in Chromium, against
python-qrcode's matrices for the same text, version and mask (byte mode, level M): every
module equal, for seat links and random text up to version 10's 213 bytes, UTF-8
included; the version it picks is the smallest that holds the text, as qrcode's."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest
import qrcode

from browser_helpers import goto

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-share-browser")]

ENCODE = """async (cases) => {
  const { qrMatrix } = await import('/static/js/qr.js');
  return cases.map(([text, version, mask]) => {
    const q = qrMatrix(text, { version, mask });
    return [q.version, q.mask, q.modules.map((r) => r.map((d) => (d ? '1' : '0')).join(''))];
  });
}"""


def reference(text: str, version: int | None, mask: int | None) -> tuple[int, list[str]]:
    """python-qrcode's matrix of ``text`` (UTF-8 bytes, byte mode, level M)."""
    code = qrcode.QRCode(
        version=version,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        mask_pattern=mask,
        border=0,
    )
    code.add_data(qrcode.util.QRData(text.encode("utf-8"), mode=qrcode.util.MODE_8BIT_BYTE))
    code.make(fit=version is None)
    return code.version, ["".join("1" if dark else "0" for dark in row) for row in code.modules]


def texts() -> list[str]:
    rng = random.Random(20261124)
    link = string.ascii_letters + string.digits + "-_"
    found = [
        "http://192.168.1.20:8000/?game="
        + "".join(rng.choice(link) for _ in range(8))
        + "#seat="
        + "".join(rng.choice(link) for _ in range(22))
        for _ in range(6)
    ]
    found += [
        "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 213))) for _ in range(8)
    ]
    found += ["Permainan antar perangkat — kursi O · é ü 日本", "x" * 213, "a"]
    return found


def test_the_page_encoder_draws_qrcodes_matrices(page: Any, server: str) -> None:
    goto(page, server + "/")
    cases: list[tuple[str, int | None, int | None]] = []
    for text in texts():
        smallest, _ = reference(text, None, 0)
        cases.append((text, None, None))
        for size in sorted({smallest, min(10, smallest + 1), 10}):
            cases += [(text, size, mask) for mask in range(8)]
    drawn = page.evaluate(ENCODE, cases)
    assert len(drawn) == len(cases)
    for (text, version, mask), (got_version, got_mask, rows) in zip(cases, drawn, strict=True):
        if version is None:  # chosen by the page: the smallest version; its own mask's matrix
            assert got_version == reference(text, None, 0)[0], text
            assert rows == reference(text, got_version, got_mask)[1], (text, got_mask)
        else:
            assert rows == reference(text, version, mask)[1], (text, version, mask)


def test_a_text_too_long_is_refused(page: Any, server: str) -> None:
    goto(page, server + "/")
    message = page.evaluate(
        """async () => {
          const { qrMatrix } = await import('/static/js/qr.js');
          try { qrMatrix('x'.repeat(214)); return 'drawn'; } catch (e) { return e.name; }
        }"""
    )
    assert message == "RangeError"
