"""The member list of the teacher's overview, read once per change of the league file.

Why: the teacher's page polls the overview every few seconds, and reading every
member with whether each person is established (a few rows each) cost 0.9 s for
25,000 members on every poll. :class:`MemberRows` reads them only when the league
file has changed since (:meth:`~.store.database.LeagueDb.version`: a write of the server or
of a ``league`` command beside it), keeps each member's JSON text, and answers a poll
by joining those texts with each member's online flag: no query, no object per member.
A poll asks for one page of them (:data:`PAGE` by default, :data:`MOST` at most), so a
league of 25,000 members answers a poll with a page, not a 1.6 MB list.
"""

from __future__ import annotations

import json

from .league_file import LeagueStore

PAGE = 200
"""Members (and events) an overview lists by default: a class and its teams fit."""
MOST = 1000
"""The most members (or events) one page of the overview may list."""

COMPACT = (",", ":")
"""JSON without spaces (1.5 MB for 25,000 members rather than 1.8)."""


class MemberRows:
    """The overview's members (not revoked nor removed) as JSON text, kept between polls.

    Contract: :meth:`json` is what ``_overview`` listed, in the same order and fields
    (``name``, ``kind``, ``online``, ``waiting``, ``code``: a team with an accepted version
    of its code, ``building``: one with a version waiting to be built or being built,
    ``kept_out``: kept out of the ladder and the events), as of the file's
    latest version;
    :meth:`names` names every member (removed and revoked ones too, for the events'
    lists). Not thread-safe: one per app, used from the event loop.
    """

    def __init__(self) -> None:
        self._version: tuple[int, int] | None = None
        self._rows: list[tuple[int, str, str]] = []
        """Each listed member: its id, its JSON offline, its JSON online."""
        self._names: dict[int, str] = {}

    def _read(self, store: LeagueStore) -> None:
        """Read the members again if the file changed since the last read."""
        version = store.database.version()  # before reading: a write meanwhile rereads
        if version == self._version:
            return
        rules = store.meta.rules()
        accepted = store.submissions.latest_accepted()
        building = store.submissions.being_built()
        kept = store.members.kept_out()
        rows, names = [], {}
        for member in store.members.members():
            names[member.id] = member.name
            if member.revoked or member.removed:
                continue
            waiting = member.kind == "person" and not store.members.established(member.id, rules)[0]
            entry = {
                "name": member.name,
                "kind": member.kind,
                "online": False,
                "code": member.id in accepted,
                "building": member.id in building,
                "kept_out": member.id in kept,
            }
            offline = json.dumps({**entry, "waiting": waiting}, separators=COMPACT)
            online = json.dumps({**entry, "online": True, "waiting": waiting}, separators=COMPACT)
            rows.append((member.id, offline, online))
        self._version, self._rows, self._names = version, rows, names

    def json(
        self, store: LeagueStore, online: set[int], offset: int = 0, limit: int | None = None
    ) -> str:
        """The members' JSON array from the ``offset``-th, at most ``limit`` of them (all
        without), ``online`` (member ids) marked so."""
        self._read(store)
        end = None if limit is None else offset + limit
        rows = self._rows[offset:end]
        return "[" + ",".join(on if i in online else off for i, off, on in rows) + "]"

    def total(self, store: LeagueStore) -> int:
        """How many members the overview lists over all its pages."""
        self._read(store)
        return len(self._rows)

    def names(self, store: LeagueStore) -> dict[int, str]:
        """Every member's name by id."""
        self._read(store)
        return self._names
