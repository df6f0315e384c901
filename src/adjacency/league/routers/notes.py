"""The teacher's note on a team (:mod:`adjacency.league.store.note_rows`): read and
written with the league's admin token only (401 without it, 403 with a member's, so no
team reads what the teacher wrote about it); an unknown member is 404, a note over
:data:`~adjacency.league.store.note_rows.MAX_NOTE` characters 422. Writing one is
logged as the teacher's action, naming the team, never the note's words.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from ...serving.logs import say
from ..http.auth import require_admin
from ..http.deps import member_named, store_of
from ..models import ERRORS
from ..store.note_rows import MAX_NOTE
from . import PREFIX

log = logging.getLogger("adjacency.league.teacher")
"""The teacher's own actions (kind ``teacher``, as :mod:`.teacher` logs them)."""

router = APIRouter(prefix=PREFIX, tags=["teacher"], responses=ERRORS)
ADMIN = [Depends(require_admin)]


class NoteBody(BaseModel):
    """A team's note as the teacher writes it (empty: no note)."""

    note: str = Field(max_length=MAX_NOTE)


class Note(BaseModel):
    """A team's note and when it was written (Unix seconds; null: no note)."""

    name: str
    note: str
    updated: float | None


@router.get("/admin/members/{name}/note", response_model=Note, dependencies=ADMIN)
async def read_note(request: Request, name: str) -> dict[str, Any]:
    """The teacher's note on a member (``""`` when there is none)."""
    member = member_named(request, name)
    text, updated = store_of(request).notes.note(member.id)
    return {"name": member.name, "note": text, "updated": updated}


@router.put("/admin/members/{name}/note", response_model=Note, dependencies=ADMIN)
async def write_note(request: Request, name: str, body: NoteBody) -> dict[str, Any]:
    """Write the teacher's note on a member (replacing the one before; empty: none)."""
    member = member_named(request, name)
    notes = store_of(request).notes
    updated = notes.write(member.id, body.note)
    code = "teacher-wrote-note" if updated else "teacher-cleared-note"
    say(log, logging.INFO, code, team=member.name)
    text, _ = notes.note(member.id)
    return {"name": member.name, "note": text, "updated": updated}
