"""Bytes per team, bounded (the real league server, its builder, the sandbox): a team at
its quota of versions or of MiB is refused naming the quota, and its upload grows
neither the league file nor the builds folder; a refused build's folder is deleted."""

from __future__ import annotations

import os
from pathlib import Path

from adjacency.league.builder import build_folder, version_folder
from adjacency.league.http.quota import folder_bytes
from adjacency.league.league_file import LeagueStore
from adjacency.league.rules import LeagueRules
from hosted_helpers import decided, files_zip, first_empty_sleeper
from league_helpers import add_member, make_league, thread_server, upload, wait_until

ENGINE = first_empty_sleeper("quota", 0)
"""A program that answers the first empty square at once (its checks are quick)."""

BLOB = 1 << 20


def _zip(tag: str, blob: bool = False) -> bytes:
    files = {"engine.py": ENGINE + f"# {tag}\n"}
    if blob:  # a source of the program's (kept, and copied into its build): 0.5 MiB
        files["table.py"] = f"TABLE = {os.urandom(BLOB // 4).hex()!r}\n"
    return files_zip(files)


def _league_bytes(db: Path) -> int:
    files = [db, db.with_name(db.name + "-wal")]
    return sum(f.stat().st_size for f in files if f.exists()) + folder_bytes(build_folder(db))


def _digested(db: Path, names: tuple[str, ...]) -> bool:
    """Whether every accepted version of the members ``names`` has its digest: the
    builder makes it after the verdict (its code view and fingerprints), so the league
    file grows until then, whatever a later upload does."""
    with LeagueStore(db, create=False) as store:
        members = [store.members.member_named(name) for name in names]
        versions = [
            version
            for member in members
            if member is not None
            for version in store.submissions.versions(member.id)
            if version.status == "accepted"
        ]
        return all(store.digests.code(version.id) is not None for version in versions)


def _member_id(db: Path, name: str) -> int:
    with LeagueStore(db, create=False) as store:
        member = store.members.member_named(name)
        assert member is not None
        return member.id


def test_a_team_at_its_quota_is_refused_and_stores_nothing(folder: Path) -> None:
    db = folder / "league.db"
    make_league(db, LeagueRules(min_game=0.0, team_versions=2, team_mib=0.5), base=60.0)
    many, big, broken = add_member(db, "many"), add_member(db, "big"), add_member(db, "broken")
    with thread_server(db, house_games=False, builds=True, hosted_games=False) as url:
        for tag in ("one", "two"):
            assert upload(url, _zip(tag), many).status == 201
            decided(url, many)
        assert upload(url, _zip("first", blob=True), big).status == 201
        decided(url, big)
        wait_until(lambda: _digested(db, ("many", "big")), 30, "the accepted versions' digests")
        before = _league_bytes(db)
        refused = upload(url, _zip("three", blob=True), many)
        assert refused.status == 400, refused
        assert "quota 'versions per team' is full: 2 versions stored, at most 2" in str(
            refused.body
        )
        again = upload(url, _zip("second", blob=True), big)
        assert again.status == 400, again
        assert "quota 'MiB per team' is full" in str(again.body)
        grown = _league_bytes(db) - before
        assert grown < BLOB // 4, f"the league grew {grown} bytes on two refused uploads"

        assert (
            upload(url, files_zip({"engine.py": "def broken(:\n    aep\n"}), broken).status == 201
        )
        verdict = decided(url, broken)
        assert verdict["status"] == "refused", verdict
        assert not version_folder(db, _member_id(db, "broken"), 1).exists()
