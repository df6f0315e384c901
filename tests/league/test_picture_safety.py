"""A picture a team's program sent is decoded before it is kept
(:mod:`adjacency.hosting.picture`) and served as a picture alone: a small file of
15000 x 15000 pixels, or one that decodes past 16 MiB, is refused from its header
without being decoded; a picture within the bounds is kept as Pillow draws it again (the
same pixels, none of the sender's other bytes); the league's picture routes answer with
``nosniff`` and a content policy of their own."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from adjacency.hosting.picture import MAX_DECODED, MAX_SIDE, PictureRefused, clean_png
from adjacency.league.league_file import LeagueStore
from league_helpers import add_member, make_league, thread_server


def chunk(kind: bytes, body: bytes) -> bytes:
    """One PNG chunk, its CRC right."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def bomb(width: int, height: int, depth: int = 1, colour: int = 0) -> bytes:
    """A PNG of ``width`` x ``height`` pixels of one colour, written by hand (no library
    would hold its pixels): rows of zeros, compressed as they come, so the file is small
    whatever it decodes to."""
    row = b"\x00" * (1 + (width * depth * {0: 1, 2: 3, 6: 4}[colour] + 7) // 8)
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    with Image.open(io.BytesIO(png)) as image:
        rgba = image.convert("RGBA")
        return rgba.size, rgba.tobytes()


def test_a_15000_pixel_square_png_of_a_small_file_is_refused_undecoded() -> None:
    picture = bomb(15000, 15000)
    assert len(picture) < 256 << 10  # it passes the size in bytes
    with pytest.raises(PictureRefused, match="15000 x 15000 pixels, over 2048 x 2048"):
        clean_png(picture)


def test_a_picture_decoding_past_16_mib_within_the_sides_is_refused() -> None:
    # 2048 x 2048 RGBA of 16 bits a sample: 32 MiB decoded, its sides within the bound.
    with pytest.raises(PictureRefused, match="decodes to 33554432 bytes"):
        clean_png(bomb(MAX_SIDE, MAX_SIDE, depth=16, colour=6))
    assert len(clean_png(bomb(MAX_SIDE, MAX_SIDE, depth=8, colour=6))) > 0  # 16 MiB: kept
    assert MAX_SIDE * MAX_SIDE * 4 == MAX_DECODED


@pytest.mark.parametrize(
    "data",
    [
        b"GIF89a not a png",
        b"\x89PNG\r\n\x1a\n",
        b"\x89PNG\r\n\x1a\n" + chunk(b"tEXt", b"a" * 13) + b"\x00" * 20,
        bomb(8, 8)[:-30],  # cut inside its pixels
        bomb(8, 8)[:29] + b"\x00\x00\x00\x00" + bomb(8, 8)[33:],  # its header's CRC wrong
    ],
)
def test_what_is_no_whole_png_is_refused(data: bytes) -> None:
    with pytest.raises(PictureRefused):
        clean_png(data)


@settings(max_examples=25, deadline=None)
@given(
    width=st.integers(1, 64),
    height=st.integers(1, 64),
    mode=st.sampled_from(["RGB", "RGBA", "L", "P", "1"]),
    seed=st.binary(min_size=1, max_size=64),
    trailer=st.binary(max_size=256),
)
def test_a_picture_within_the_bounds_keeps_its_pixels_and_nothing_else(
    width: int, height: int, mode: str, seed: bytes, trailer: bytes
) -> None:
    raw = (seed * (width * height * 4 // len(seed) + 1))[: width * height * 4]
    image = Image.frombytes("RGBA", (width, height), raw).convert(mode)
    sent = io.BytesIO()
    image.save(sent, format="PNG", pnginfo=None)
    # the sender's own chunk and bytes after the end: not kept
    note = chunk(b"tEXt", b"Comment\x00<script>alert(1)</script>")
    data = sent.getvalue()
    data = data[:33] + note + data[33:] + trailer
    kept = clean_png(data)
    assert pixels(kept) == pixels(sent.getvalue())  # Pillow's own reading of what was sent
    assert b"<script>" not in kept and (not trailer or not kept.endswith(trailer))


def test_the_league_keeps_no_bomb_and_serves_a_picture_as_a_picture(tmp_path: Path) -> None:
    """Through the store and the real server: the bomb is not kept; a kept picture comes
    back drawn again, with ``nosniff`` and its own content policy, to its team."""
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "team1")
    sent = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 10, 10)).save(sent, format="PNG")
    with LeagueStore(db, create=False) as store:
        member = store.members.member_named("team1").id
        version, _ = store.submissions.add(member, b"PK zip", "p.zip")
        assert not store.pictures.keep(member, version.id, "check", bomb(15000, 15000))
        assert store.pictures.picture(version.id, "check") is None
        assert store.pictures.keep(member, version.id, "check", sent.getvalue() + b"<html>")
    with (
        thread_server(db) as url,
        httpx.Client(
            base_url=f"{url}/api/league", headers={"Authorization": f"Bearer {token}"}
        ) as api,
    ):
        answer = api.get("/submissions/1/board.png")
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"] == "image/png"
        assert answer.headers["x-content-type-options"] == "nosniff"
        policy = answer.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "sandbox" in policy
        assert b"<html>" not in answer.content
        assert pixels(answer.content) == pixels(sent.getvalue())
