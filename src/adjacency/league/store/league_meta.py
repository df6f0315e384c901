"""The league's own rows of ``meta``: its settings, rules and admin token
(:class:`MetaRepo`, on a :class:`~.database.LeagueDb`)."""

from __future__ import annotations

import json
import secrets
from dataclasses import replace

from ..rules import LeagueRules
from ..settings import LeagueSettings
from .database import LeagueDb
from .records import LeagueError, token_hash
from .schema import SCHEMA_VERSION


class MetaRepo:
    """The settings (fixed at creation; the openings until the first game), the rules and
    the admin token's hash."""

    PROBE_BYTES = 16384
    """The size of :meth:`probe_write`'s row: more than a long game's record."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def probe_write(self) -> None:
        """Write (and delete, in the same transaction) a row the size of a game's record:
        :class:`~adjacency.core.errors.StoreError` while the file cannot grow by that much
        (a full disk), so a server that waits for writes to work again does not resume on
        a tiny write that happened to fit."""
        with self.db.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('probe', ?)", ("." * self.PROBE_BYTES,))
            db.execute("DELETE FROM meta WHERE key = 'probe'")

    @property
    def created(self) -> bool:
        """Whether the file holds a league already (its settings are stored)."""
        return bool(self.db.query("SELECT 1 FROM meta WHERE key='settings'"))

    def create(self, settings: LeagueSettings, admin_token: str) -> None:
        """Store the settings and the admin token's hash (a new league only)."""
        with self.db.transaction() as db:
            if db.execute("SELECT 1 FROM meta WHERE key='settings'").fetchone():
                raise LeagueError(f"{str(self.db.path)!r} already holds a league")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            db.execute("INSERT INTO meta VALUES ('settings', ?)", (json.dumps(settings.to_dict()),))
            db.execute("INSERT INTO meta VALUES ('admin', ?)", (token_hash(admin_token),))

    def settings(self) -> LeagueSettings:
        """The league's settings, fixed at creation; :class:`LeagueError` if the file holds
        no league yet."""
        rows = self.db.query("SELECT value FROM meta WHERE key='settings'")
        if not rows:
            raise LeagueError(
                f"{str(self.db.path)!r} holds no league yet: create it with "
                "`adjacency league create --db FILE` (or `adjacency league serve`)"
            )
        return LeagueSettings.from_dict(json.loads(rows[0][0]))

    def set_openings(self, openings: tuple[str, ...]) -> LeagueSettings:
        """Give a league that has played no game yet other ``openings`` (its other settings
        stay) and return its new settings; :class:`LeagueError` naming its games once it has
        played one (a game's opening is part of what its rating compares, so a league's
        openings change only before the first) and :class:`InvalidSettingsError` for
        openings its settings cannot play, nothing changed either way. A running server
        reads them when it starts."""
        with self.db.transaction() as db:
            rows = db.execute("SELECT value FROM meta WHERE key='settings'").fetchone()
            if rows is None:
                raise LeagueError(f"{str(self.db.path)!r} holds no league yet")
            played = int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
            if played:
                raise LeagueError(
                    f"the league has {played} game{'s' if played != 1 else ''} already: its "
                    "openings change only before its first game (create a new league)"
                )
            settings = replace(LeagueSettings.from_dict(json.loads(rows[0])), openings=openings)
            db.execute(
                "UPDATE meta SET value = ? WHERE key = 'settings'",
                (json.dumps(settings.to_dict()),),
            )
            return settings

    def rules(self) -> LeagueRules:
        """The league's rules for people and pace (:mod:`.rules`; the defaults until
        :meth:`set_rules` stores others)."""
        rows = self.db.query("SELECT value FROM meta WHERE key='rules'")
        return LeagueRules.from_dict(json.loads(rows[0][0])) if rows else LeagueRules()

    def set_rules(self, rules: LeagueRules) -> None:
        """Store the league's rules (a running server reads them when it starts)."""
        with self.db.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('rules', ?)", (json.dumps(rules.to_dict()),)
            )

    def set_admin_token(self, token: str) -> None:
        """Make ``token`` the admin token (only its hash is stored; the old one stops
        working)."""
        with self.db.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('admin', ?)", (token_hash(token),))

    def is_admin(self, token: str) -> bool:
        """Whether ``token`` is the admin token (compared in constant time, by hash)."""
        rows = self.db.query("SELECT value FROM meta WHERE key='admin'")
        return bool(rows) and secrets.compare_digest(rows[0][0], token_hash(token))
