"""What one team may keep on the server: :func:`check`, before an upload is stored.

Every upload is kept (the league file holds its bytes) and built (its folder under the
league's builds, :func:`.builder.version_folder`). A team's share is bounded by two of
the league's rules (:class:`.rules.LeagueRules`), which the teacher raises with
``adjacency league serve --team-versions N --team-mib M``: the versions stored, and the
MiB its stored uploads and build folders take together. An upload once either is
reached is refused naming the quota, before a byte of it is stored, so a team at its
quota grows neither the league file nor the builds folder. A refused build's folder is
deleted (:class:`.builder.Builder`), so only accepted builds count on disk.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..league_file import LeagueStore
from ..rules import LeagueRules
from ..store.records import LeagueError

MIB = 1 << 20


class QuotaFull(LeagueError):
    """A team's quota is reached: the message names it, its figures, and who raises it."""


def folder_bytes(folder: Path) -> int:
    """The bytes of the regular files under ``folder`` (no link followed; 0 if absent)."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                stat = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            total += stat.st_size if not os.path.islink(os.path.join(root, name)) else 0
    return total


def team_bytes(store: LeagueStore, builds: Path, member_id: int) -> tuple[int, int]:
    """A team's versions stored and the bytes of its uploads plus its build folders."""
    versions = store.submissions.versions(member_id)
    stored = sum(v.size for v in versions)
    built = sum(folder_bytes(builds / f"{member_id}-{v.version}") for v in versions)
    return len(versions), stored + built


def check(store: LeagueStore, builds: Path, member_id: int, rules: LeagueRules) -> None:
    """:class:`QuotaFull` when the team ``member_id`` may store no more (see the module)."""
    versions, used = team_bytes(store, builds, member_id)
    if versions >= rules.team_versions:
        raise QuotaFull(
            f"quota 'versions per team' is full: {versions} versions stored, at most "
            f"{rules.team_versions}; the teacher can raise it (--team-versions)"
        )
    if used >= rules.team_mib * MIB:
        raise QuotaFull(
            f"quota 'MiB per team' is full: your uploads and builds take "
            f"{used / MIB:.1f} MiB, at most {rules.team_mib:g}; the teacher can raise it "
            "(--team-mib)"
        )
