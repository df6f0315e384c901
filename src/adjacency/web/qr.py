"""The QR codes of the share dialog, drawn as SVG by the server with segno.

Contract: :func:`qr_svg` draws a link of at most :data:`MAX_TEXT` characters (a seat
link is about 70) in byte mode (the text as UTF-8) at error correction level M (about
15% of the code may be damaged), in the smallest version that holds it, under the mask
whose penalty is lowest (ISO/IEC 18004, as segno chooses it), with the standard's
four-module quiet zone: dark modules on a white ground, a ``viewBox`` and no size (the
page's stylesheet sizes it), class ``qr``. What it draws is only ever a link the server
built from its own values (:mod:`adjacency.web.routers.share`); a longer text is refused.
"""

from __future__ import annotations

import functools
import io

import segno

from ..core import AdjacencyError

MAX_TEXT = 200
"""The longest text drawn: an origin of up to 100 characters and a seat link's path."""
QUIET_ZONE = 4
"""Light modules around the code (the standard's quiet zone)."""


class TextTooLong(AdjacencyError):
    """A text longer than :data:`MAX_TEXT`, which no share link is."""


def qr_svg(text: str) -> str:
    """The QR code of ``text`` as an SVG document (``<svg xmlns=...>...</svg>``, no XML
    declaration, so that it may also stand in a page)."""
    if len(text) > MAX_TEXT:
        raise TextTooLong(f"a QR code holds at most {MAX_TEXT} characters here, got {len(text)}")
    code = segno.make(text, error="m", boost_error=False, mode="byte", micro=False)
    drawn = io.BytesIO()
    code.save(
        drawn,
        kind="svg",
        xmldecl=False,
        svgns=True,
        nl=False,
        border=QUIET_ZONE,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr",
        lineclass=None,
    )
    return drawn.getvalue().decode("utf-8")


@functools.lru_cache(maxsize=256)
def public_qr_svg(text: str) -> str:
    """:func:`qr_svg` of a text every visitor may see (a watch link), kept once drawn;
    a seat link, which holds its seat's token, is never kept."""
    return qr_svg(text)
