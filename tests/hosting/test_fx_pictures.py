"""The pictures a driven program's driver sends on the protocol, put together
(:class:`adjacency.hosting.fx_run.Pictures`): a PNG cut into ``board-png K/N`` parts of any
size comes back whole; parts out of order, a picture over the size and anything that is
no PNG are dropped; every other ``info string`` is left to the search's progress."""

from __future__ import annotations

import base64

from hypothesis import given
from hypothesis import strategies as st

from adjacency.hosting.fx_run import BOARD_PNG, MAX_PICTURE, PNG, Pictures


def lines(data: bytes, part: int) -> list[str]:
    """``data`` as the driver sends it: base64 in parts of ``part`` characters."""
    text = base64.b64encode(data).decode()
    chunks = [text[i : i + part] for i in range(0, len(text), part)] or [""]
    return [f"{BOARD_PNG} {k}/{len(chunks)} {c}" for k, c in enumerate(chunks, 1)]


@given(body=st.binary(max_size=4096), part=st.integers(min_value=4, max_value=5000))
def test_a_picture_in_parts_comes_back_whole(body: bytes, part: int) -> None:
    pictures = Pictures()
    assert all(pictures.heard(line) for line in lines(PNG + body, part))
    assert pictures.last == PNG + body


@given(body=st.binary(min_size=64, max_size=2048), part=st.integers(min_value=8, max_value=64))
def test_parts_out_of_order_are_dropped_and_the_next_picture_is_taken(
    body: bytes, part: int
) -> None:
    pictures = Pictures()
    sent = lines(PNG + body, part)
    for line in [*sent[1:], sent[0]]:  # the first part last: no whole picture
        pictures.heard(line)
    assert pictures.last is None
    for line in sent:
        pictures.heard(line)
    assert pictures.last == PNG + body


def test_a_picture_over_the_size_or_no_png_is_dropped() -> None:
    pictures = Pictures()
    for line in lines(PNG + bytes(MAX_PICTURE), 32 * 1024):
        assert pictures.heard(line)
    assert pictures.last is None
    for line in lines(b"GIF89a not a png", 8):
        pictures.heard(line)
    assert pictures.last is None
    assert pictures.heard(f"{BOARD_PNG} 1/1 not*base64") and pictures.last is None
    # numbers that are none (a program may write such lines itself): taken, and dropped
    for numbers in ("1/x", "1/", "x/1", "\u00b2/\u00b2", "1/\u00b2", "-1/1", "0/0"):
        assert pictures.heard(f"{BOARD_PNG} {numbers} AAAA")
    assert pictures.last is None


def test_other_info_strings_are_left_to_the_search() -> None:
    pictures = Pictures()
    for text in ("driver cpu 412 us", "stand-in: why", f"{BOARD_PNG}", "board-png-x 1/1 AA"):
        assert not pictures.heard(text)
