"""Reading the share dialog's QR codes back: a small decoder written from the standard
(ISO/IEC 18004, as Project Nayuki's reference encoder lays it out), independent of the
encoder the server uses (segno).

:func:`decode` reads a module matrix (from the server's SVG, :func:`svg_modules`, or
from the pixels a browser drew, :data:`DRAWN_MODULES`): its format information (error
correction level M and the mask, checked against the 32 valid BCH codes), the data
modules in their zigzag order around the function patterns, unmasked, the blocks
de-interleaved, and the one byte-mode segment a share link is. Anything else (another
level, a damaged format, another mode) is a failed read, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

QUIET_ZONE = 4
"""The light modules around a code (the standard's quiet zone), which the SVG draws."""
LEVEL_M = 0
"""The format bits of error correction level M."""
ECC_PER_BLOCK = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26]
"""Level M's error correction codewords per block, by version (1 to 10)."""
BLOCKS = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5]
"""Level M's blocks, by version."""
MASKS: list[Callable[[int, int], bool]] = [
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
]
"""The eight data masks: whether the module at column ``x``, row ``y`` is flipped."""


class Unreadable(Exception):
    """A matrix that is not a level-M QR code of one byte-mode segment."""


def format_bits(mask: int) -> int:
    """The 15 format bits of level M and ``mask`` (BCH code, XOR 0x5412)."""
    data = LEVEL_M << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return (data << 10 | rem) ^ 0x5412


def alignment_positions(version: int) -> list[int]:
    if version == 1:
        return []
    count = version // 7 + 2
    step = -(-(version * 4 + 4) // (count * 2 - 2)) * 2
    size = version * 4 + 17
    found = [6]
    position = size - 7
    while len(found) < count:
        found.insert(1, position)
        position -= step
    return found


def function_modules(version: int) -> list[list[bool]]:
    """Which modules are function patterns (finders with their separators and format
    areas, timing, alignment, version information, the dark module)."""
    size = version * 4 + 17
    taken = [[False] * size for _ in range(size)]

    def box(x0: int, y0: int, width: int, height: int) -> None:
        for y in range(max(0, y0), min(size, y0 + height)):
            for x in range(max(0, x0), min(size, x0 + width)):
                taken[y][x] = True

    box(0, 0, 9, 9)
    box(size - 8, 0, 8, 9)
    box(0, size - 8, 9, 8)
    box(6, 0, 1, size)
    box(0, 6, size, 1)
    spots = alignment_positions(version)
    for i, ay in enumerate(spots):
        for j, ax in enumerate(spots):
            corner = (i, j) in ((0, 0), (0, len(spots) - 1), (len(spots) - 1, 0))
            if not corner:
                box(ax - 2, ay - 2, 5, 5)
    if version >= 7:
        box(size - 11, 0, 3, 6)
        box(0, size - 11, 6, 3)
    return taken


def decode(rows: list[str]) -> str:
    """The text of the level-M, byte-mode QR code ``rows`` (quiet zone removed)."""
    size = len(rows)
    if size < 21 or (size - 17) % 4 or any(len(row) != size for row in rows):
        raise Unreadable(f"no QR code is {size} modules a side")
    version = (size - 17) // 4
    if version > 10:
        raise Unreadable(f"version {version}: more than a share link needs")
    dark = [[c == "1" for c in row] for row in rows]
    read = 0
    for i in range(15):  # the first copy, around the top-left finder
        x, y = (8, i) if i < 6 else (8, 7) if i == 6 else (8, 8) if i == 7 else (7, 8)
        if i >= 9:
            x, y = 14 - i, 8
        read |= dark[y][x] << i
    masks = [m for m in range(8) if format_bits(m) == read]
    if not masks:
        raise Unreadable(f"format bits {read:015b} are no level-M format")
    flipped = MASKS[masks[0]]
    taken = function_modules(version)
    bits: list[int] = []
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        for vert in range(size):
            for j in range(2):
                x = right - j
                y = size - 1 - vert if ((right + 1) & 2) == 0 else vert
                if not taken[y][x]:
                    bits.append(int(dark[y][x] != flipped(x, y)))
        right -= 2
    raw = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits) - 7, 8)]
    blocks, ecc = BLOCKS[version], ECC_PER_BLOCK[version]
    short = blocks - len(raw) % blocks
    short_length = len(raw) // blocks
    data: list[list[int]] = [[] for _ in range(blocks)]
    position = 0
    for i in range(short_length + 1 - ecc):  # the data codewords, interleaved
        for b in range(blocks):
            if i == short_length - ecc and b < short:
                continue  # a short block has one data codeword fewer
            data[b].append(raw[position])
            position += 1
    stream = "".join(f"{byte:08b}" for block in data for byte in block)
    if stream[:4] != "0100":
        raise Unreadable(f"mode {stream[:4]}: not the byte mode")
    width = 8 if version < 10 else 16
    count = int(stream[4 : 4 + width], 2)
    body = stream[4 + width : 4 + width + 8 * count]
    if len(body) < 8 * count:
        raise Unreadable(f"{count} bytes said, fewer held")
    return bytes(int(body[i : i + 8], 2) for i in range(0, len(body), 8)).decode("utf-8")


def svg_modules(svg: str) -> list[str]:
    """The module matrix of a QR code drawn by segno as SVG (its ``viewBox`` the code
    and its quiet zone, one module a unit; the dark modules one stroked path of
    horizontal runs along each row's middle), quiet zone removed."""
    side = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert side is not None and side.group(1) == side.group(2), svg[:200]
    whole = int(side.group(1))
    paths = re.findall(r'<path[^>]* stroke="#000"[^>]* d="([^"]+)"', svg)
    assert len(paths) == 1, svg[:200]
    dark = [[False] * whole for _ in range(whole)]
    x = y = 0.0
    for command, numbers in re.findall(r"([MmHhVv])([-0-9. ]+)", paths[0]):
        values = [float(n) for n in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        elif command == "h":
            for column in range(round(x), round(x + values[0])):
                dark[int(y)][column] = True
            x += values[0]
        else:
            raise AssertionError(f"a path command segno's runs do not use: {command}")
    inner = range(QUIET_ZONE, whole - QUIET_ZONE)
    assert not any(
        dark[r][c] for r in range(whole) for c in range(whole) if r not in inner or c not in inner
    )
    return ["".join("1" if dark[r][c] else "0" for c in inner) for r in inner]


DRAWN_MODULES = """async (svg) => {
  const side = svg.viewBox.baseVal.width, scale = 8, quiet = QUIET_ZONE;
  const image = new Image();
  image.src = "data:image/svg+xml;charset=utf-8,"
    + encodeURIComponent(new XMLSerializer().serializeToString(svg));
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = side * scale;
  const g = canvas.getContext("2d");
  g.drawImage(image, 0, 0, side * scale, side * scale);
  const pixels = g.getImageData(0, 0, side * scale, side * scale).data;
  const rows = [];
  for (let r = quiet; r < side - quiet; r++) {
    let row = "";
    for (let c = quiet; c < side - quiet; c++) {
      const at = (((r + 0.5) * scale | 0) * side * scale + ((c + 0.5) * scale | 0)) * 4;
      row += pixels[at] < 128 ? "1" : "0";
    }
    rows.push(row);
  }
  return rows;
}""".replace("QUIET_ZONE", str(QUIET_ZONE))
"""Run on a drawn ``svg.qr`` (Playwright's ``evaluate``): the module matrix the browser
paints, read at each module's centre, quiet zone removed."""
