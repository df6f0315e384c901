"""The pictures a league keeps of its teams' programs (:mod:`adjacency.league.store.
picture_rows`): only PNGs within the size are kept, one per version, what and game (a
new one replaces it), and a team keeps its newest :data:`KEPT`, whatever it sends or
loses, so a team's pictures are bounded in the league file; another team's stay."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from adjacency.league.league_file import LeagueStore
from adjacency.league.store.picture_rows import KEPT, MAX_BYTES, PNG
from league_helpers import add_member, make_league


def png(mark: int, size: int = 64) -> bytes:
    """A picture of ``size`` pixels a side, marked ``mark`` (its colour), as Pillow
    writes it (a kept picture is one Pillow draws again: the same bytes)."""
    out = io.BytesIO()
    Image.new("RGB", (size, size), (mark % 256, mark // 256 % 256, 7)).save(out, format="PNG")
    return out.getvalue()


def noise(size: int) -> bytes:
    """A PNG of ``size`` pixels a side that does not compress: over :data:`MAX_BYTES`
    from 300 pixels a side."""
    out = io.BytesIO()
    Image.frombytes("RGB", (size, size), os.urandom(size * size * 3)).save(out, format="PNG")
    return out.getvalue()


def league(tmp_path: Path) -> tuple[Path, list[int]]:
    """A league with two teams, a version each: the file and the versions' ids."""
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "red")
    add_member(db, "blue")
    with LeagueStore(db, create=False) as store:
        ids = []
        for name in ("red", "blue"):
            member = store.members.member_named(name)
            submission, _ = store.submissions.add(member.id, b"PK zip " + name.encode(), "p.zip")
            ids.append(submission.id)
    return db, ids


def test_only_a_png_within_the_size_is_kept_and_a_new_one_replaces_it(tmp_path: Path) -> None:
    db, (red, _) = league(tmp_path)
    with LeagueStore(db, create=False) as store:
        member = store.members.member_named("red").id
        assert not store.pictures.keep(member, red, "check", b"GIF89a not a png")
        over = noise(300)
        assert len(over) > MAX_BYTES
        assert not store.pictures.keep(member, red, "check", over)  # over
        assert not store.pictures.keep(member, red, "check", PNG + bytes(64))  # no picture
        assert store.pictures.picture(red, "check") is None
        assert store.pictures.keep(member, red, "check", png(1))
        assert store.pictures.keep(member, red, "check", png(2))
        assert store.pictures.keep(member, red, "game", png(3), game_id=7)
        assert store.pictures.picture(red, "check") == png(2)
        assert store.pictures.picture(red, "game", 7) == png(3)
        assert store.pictures.picture(red, "game", 8) is None
        assert store.pictures.kept([red]) == {(red, "check", 0), (red, "game", 7)}


@settings(max_examples=10, deadline=None)
@given(count=st.integers(min_value=1, max_value=KEPT + 12))
def test_a_team_keeps_its_newest_pictures_and_no_more(
    tmp_path_factory: pytest.TempPathFactory, count: int
) -> None:
    db, (red, blue) = league(tmp_path_factory.mktemp("pictures"))
    with LeagueStore(db, create=False) as store:
        team, other = store.members.member_named("red").id, store.members.member_named("blue").id
        assert store.pictures.keep(other, blue, "check", png(0))
        for game in range(1, count + 1):
            assert store.pictures.keep(team, red, "game", png(game), game_id=game)
        kept = store.pictures.kept([red])
        first = max(1, count - KEPT + 1)
        assert kept == {(red, "game", game) for game in range(first, count + 1)}
        assert store.pictures.picture(red, "game", count) == png(count)
        assert store.pictures.kept([blue]) == {(blue, "check", 0)}  # another team's stay
