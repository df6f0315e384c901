"""The league's ``proofs`` rows recomputed from its finished games: a replay of who
established whom, under the rules of establishment (:mod:`..rules`).

A function of a connection alone (no repository, no store), so both the schema's
upgrade (:mod:`.schema`, which replays the proofs when the rule changed) and the tests
call it, and neither the schema nor the members' repository (:mod:`.members`, which
keeps the rows up to date game by game) imports the other for it.
"""

from __future__ import annotations

import sqlite3

from ..rules import LeagueRules, proves


def replay_proofs(db: sqlite3.Connection, rules: LeagueRules) -> dict[tuple[int, int], int]:
    """The ``proofs`` rows recomputed from the finished games in the order they ended,
    under ``rules`` and today's approvals and addresses (the stored games do not say
    who was approved when): a game proves a person when it was played
    (:func:`.rules.proves`) and their opponent was, as it ended, an established person
    (the rule of :mod:`.rules`). A file of a step before addresses were kept
    (``origin``, :mod:`.schema`) is read as if no person had one."""
    columns = {str(r[1]) for r in db.execute("PRAGMA table_info(members)")}
    origin = "origin" if "origin" in columns else "NULL"
    people: dict[int, tuple[bool, str | None]] = {
        int(i): (bool(a), o)
        for i, k, a, o in db.execute(f"SELECT id, kind, approved, {origin} FROM members")
        if k == "person"
    }
    proofs: dict[tuple[int, int], int] = {}
    vouchers: dict[int, set[str]] = {}

    def voucher(member: int) -> str:
        approved, where = people[member]
        if approved:
            return f"approved:{member}"
        return f"member:{member}" if where is None else f"origin:{where}"

    def established(member: int) -> bool:
        if member not in people:
            return False
        return rules.established(people[member][0], len(vouchers.get(member, ())))

    rows = db.execute(
        "SELECT x_id, o_id, termination, plies FROM games WHERE status = 'finished' "
        "ORDER BY ended, id"
    )
    for x_id, o_id, termination, plies in rows.fetchall():
        if not proves(str(termination or ""), int(plies)):
            continue
        sides = ((int(x_id), int(o_id)), (int(o_id), int(x_id)))
        proven = [(me, them) for me, them in sides if me in people and established(them)]
        for me, them in proven:
            proofs[me, them] = proofs.get((me, them), 0) + 1
            approved, where = people[them]
            if approved or where is None or where != people[me][1]:
                vouchers.setdefault(me, set()).add(voucher(them))
    return proofs
