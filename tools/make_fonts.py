"""Write the pages' fonts (src/adjacency/serving/static/fonts/) from Debian's DejaVu.

The pages of both servers draw with the fonts the project serves, not with whatever
fonts a machine has (the visual baselines then hold on any machine): DejaVu Sans and
DejaVu Sans Mono, regular and bold, from Debian's ``fonts-dejavu-core`` package (its
licence is copied beside them), cut to the characters the pages use (:data:`RANGES`:
Latin with its accents, punctuation, arrows and the few signs the catalogues write) and
compressed as WOFF2. A character outside them falls back to the next font of the page's
stack (``style.css``'s ``--font``), character by character (each face's
``unicode-range``).

Run once after changing :data:`RANGES` or the package, with Debian's fontTools and
Brotli (``apt-get install fonts-dejavu-core python3-fonttools python3-brotli``):
``/usr/bin/python3 tools/make_fonts.py``. It prints each file's size and the ``unicode-range``
that ``style.css`` declares.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from fontTools import subset

SOURCE = Path("/usr/share/fonts/truetype/dejavu")
LICENCE = Path("/usr/share/doc/fonts-dejavu-core/copyright")
OUT = Path(__file__).resolve().parents[1] / "src" / "adjacency" / "serving" / "static" / "fonts"
FACES = {
    "dejavu-sans.woff2": "DejaVuSans.ttf",
    "dejavu-sans-bold.woff2": "DejaVuSans-Bold.ttf",
    "dejavu-sans-mono.woff2": "DejaVuSansMono.ttf",
    "dejavu-sans-mono-bold.woff2": "DejaVuSansMono-Bold.ttf",
}
RANGES = (
    "U+0020-007E,U+00A0-017F,U+0391-03C9,U+2000-206F,U+20AC,U+2190-2193,U+2212,U+221E,"
    "U+2264-2265,U+2318,U+25B2-25C0,U+2605,U+2713"
)
"""The characters kept: Basic Latin, Latin-1 and Latin Extended-A (names with accents),
Greek letters (alpha, beta), general punctuation, the euro, arrows, minus, infinity,
at most and at least, the command key, the small triangles, a star and a tick."""


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, source in FACES.items():
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = ["kern", "liga", "calt"]
        options.name_IDs = ["*"]  # the fonts' own copyright and licence names stay in them
        options.notdef_outline = True
        font = subset.load_font(str(SOURCE / source), options)
        cut = subset.Subsetter(options)
        cut.populate(unicodes=subset.parse_unicodes(RANGES))
        cut.subset(font)
        subset.save_font(font, str(OUT / name), options)
        print(f"{name}: {(OUT / name).stat().st_size} bytes")
    shutil.copyfile(LICENCE, OUT / "LICENSE-DejaVu.txt")
    print(f"unicode-range: {RANGES.replace(',', ', ')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
