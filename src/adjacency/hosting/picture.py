"""A picture a team's program sent, made safe to keep and to show: :func:`clean_png`.

A driven program's pictures (its dry run's window, its board at a failed move) come
through a channel its own code can write to, so a picture is whatever the program sends:
a small file may decode to gigabytes (a 219 KB PNG of 15000 x 15000 pixels, one colour,
compressed), and the bytes after a PNG signature may be anything a browser would sniff as
something else. So before a picture is kept, its PNG header is read and a picture larger
than :data:`MAX_SIDE` pixels a side or :data:`MAX_DECODED` bytes decoded is refused
without decoding it; what is left is decoded by Pillow and written again as a plain PNG
(its first frame, no text or other chunks of the sender's), so what the league keeps and
serves is a picture Pillow drew, never the sender's bytes.
"""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image, UnidentifiedImageError

from ..core.errors import AdjacencyError

PNG = b"\x89PNG\r\n\x1a\n"
"""How every PNG file begins."""

MAX_SIDE = 2048
"""Most pixels a side of a kept picture (a game window is some 600 to 1,200)."""

MAX_DECODED = 16 << 20
"""Most bytes a kept picture decodes to (2,048 x 2,048 pixels of 4 bytes)."""

_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
"""Samples a pixel of each PNG colour type holds (grey, RGB, palette, grey and alpha,
RGBA)."""

_BIT_DEPTHS = {1, 2, 4, 8, 16}


class PictureRefused(AdjacencyError):
    """A picture that is not kept: the reason, in words for the team."""


def png_size(data: bytes) -> tuple[int, int, int]:
    """The width, height and decoded bytes of the PNG ``data``, read from its header
    (the signature, then the ``IHDR`` chunk) alone. Raises :class:`PictureRefused` for
    data that does not begin so."""
    if not data.startswith(PNG) or len(data) < 33:
        raise PictureRefused("the picture is no PNG")
    length, kind = struct.unpack(">I4s", data[8:16])
    if length != 13 or kind != b"IHDR":
        raise PictureRefused("the picture is no PNG (its header is not first)")
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    if zlib.crc32(data[12:29]) != struct.unpack(">I", data[29:33])[0]:
        raise PictureRefused("the picture's PNG header is damaged")
    if colour not in _CHANNELS or depth not in _BIT_DEPTHS or width == 0 or height == 0:
        raise PictureRefused("the picture's PNG header is not a picture's")
    # Pillow decodes sub-byte and palette pictures to a byte a pixel at least.
    sample = max(depth // 8, 1)
    return width, height, width * height * max(_CHANNELS[colour] * sample, 1)


def clean_png(data: bytes) -> bytes:
    """``data`` (a PNG a program sent) decoded and written again as a plain PNG by
    Pillow. Raises :class:`PictureRefused`, before decoding anything, for a picture
    wider or taller than :data:`MAX_SIDE` pixels or decoding to more than
    :data:`MAX_DECODED` bytes, and for one Pillow cannot read whole."""
    width, height, decoded = png_size(data)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise PictureRefused(
            f"the picture is {width} x {height} pixels, over {MAX_SIDE} x {MAX_SIDE}"
        )
    if decoded > MAX_DECODED:
        raise PictureRefused(
            f"the picture decodes to {decoded} bytes, over {MAX_DECODED >> 20} MiB"
        )
    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
            if image.size != (width, height):
                raise PictureRefused("the picture's size is not its header's")
            image.load()
            frame = image.copy()
    except PictureRefused:
        raise
    except (
        OSError,
        ValueError,
        SyntaxError,
        UnidentifiedImageError,
        Image.DecompressionBombError,
    ) as exc:
        raise PictureRefused(f"the picture cannot be read as a PNG ({exc})") from None
    out = io.BytesIO()
    frame.save(out, format="PNG", optimize=False)
    return out.getvalue()


def kept_png(data: bytes) -> bytes | None:
    """:func:`clean_png` of ``data``, or ``None`` for a picture it refuses (the callers
    that only keep a picture or drop it)."""
    try:
        return clean_png(data)
    except PictureRefused:
        return None
