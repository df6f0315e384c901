"""The similarity report's corpus filled from earlier years: :func:`from_zips` (a folder
of the projects handed in then, one zip each) and :func:`from_league` (an earlier
league file: each team's last accepted version).

Each project is packed as the league packs an upload (:func:`adjacency.hosting.packing.pack`:
the intake's limits, the kept files only) and kept with its fingerprints
(:mod:`.version_digest`), named ``LABEL/NAME`` (``2025/team3``). Every name is checked
before any is kept: a name the corpus has already, or a project the intake refuses, is
a :class:`~.store.records.LeagueError` and nothing is kept.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import tempfile
from pathlib import Path

from ...core.errors import AdjacencyError
from ...hosting.packing import pack
from ..league_file import LeagueStore
from ..store.records import LeagueError
from .version_digest import corpus_prints

LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")
"""A label: what the projects' names start with (a year, a class)."""

MOST = 500
"""The most projects one import keeps."""


def _checked(store: LeagueStore, label: str, names: list[str]) -> None:
    if not LABEL.match(label):
        raise LeagueError(f"label {label[:40]!r}: letters, digits, '.', '_' or '-', at most 32")
    if not names:
        raise LeagueError("no project to import")
    if len(names) > MOST:
        raise LeagueError(f"{len(names)} projects: at most {MOST} are imported at once")
    kept = set(store.digests.entries("earlier"))
    clash = sorted(f"{label}/{name}" for name in names if f"{label}/{name}" in kept)
    if clash:
        raise LeagueError(f"the corpus has {clash[0]} already: import under another label")


def _keep(store: LeagueStore, label: str, packed: dict[str, bytes]) -> list[str]:
    prints = {name: corpus_prints(data, f"{label}/{name}") for name, data in packed.items()}
    for name, data in packed.items():
        store.digests.add(f"{label}/{name}", "earlier", data, prints[name])
    return [f"{label}/{name}" for name in packed]


def from_zips(store: LeagueStore, folder: Path, label: str) -> list[str]:
    """Keep every ``*.zip`` of ``folder`` (its name less ``.zip`` names the project);
    the names kept."""
    zips = sorted(folder.glob("*.zip")) if folder.is_dir() else []
    if not folder.is_dir():
        raise LeagueError(f"{folder} is not a folder of zips")
    _checked(store, label, [path.stem for path in zips])
    packed = {}
    for path in zips:
        try:
            packed[path.stem] = pack(path).data
        except AdjacencyError as exc:
            raise LeagueError(f"{path.name}: {exc}") from None
    return _keep(store, label, packed)


def from_league(store: LeagueStore, earlier: Path, label: str) -> list[str]:
    """Keep each team's last accepted version of the league file ``earlier`` (opened
    read as it is: a file of an earlier version is upgraded in a copy, never in place);
    the names kept."""
    if earlier.resolve() == store.path.resolve():
        raise LeagueError("the corpus comes from an earlier league, not this one")
    if not earlier.is_file():
        raise LeagueError(f"{earlier} is not a league file")
    with tempfile.TemporaryDirectory(prefix="adjacency-corpus-") as folder:
        copy = Path(folder) / "earlier.db"
        try:  # SQLite's own copy, with what its write-ahead log holds; the file untouched
            address = earlier.resolve().as_uri() + "?mode=ro"
            with (
                contextlib.closing(sqlite3.connect(address, uri=True)) as src,
                contextlib.closing(sqlite3.connect(copy)) as dst,
            ):
                src.backup(dst)
        except sqlite3.Error as exc:
            raise LeagueError(f"{earlier} cannot be read as a league file: {exc}") from None
        with LeagueStore(copy, create=False) as old:
            latest = old.submissions.latest_accepted()
            names = {old.members.member(m).name: s for m, s in latest.items()}
            _checked(store, label, sorted(names))
            packed = {name: old.submissions.data(s.id) for name, s in sorted(names.items())}
    return _keep(store, label, packed)
