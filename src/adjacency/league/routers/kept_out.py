"""A member kept out of the ladder and the events (a template or sparring account,
:meth:`~adjacency.league.store.members.MembersRepo.keep_out`), or brought back, by the
teacher: ``POST /api/league/admin/members/{name}/keep-out`` with ``{"kept_out": bool}``.

The admin token only (401 without, 403 with a member's); an unknown member is 404, a
person or a member entered in an event that has not finished 400 with the reason
(nothing changes). Logged as the teacher's action, naming the member.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from ...serving.logs import say
from ..http.auth import require_admin
from ..http.deps import hall_of, member_named
from ..models import ERRORS
from . import PREFIX

log = logging.getLogger("adjacency.league.teacher")
"""The teacher's own actions (kind ``teacher``, as :mod:`.teacher` logs them)."""

router = APIRouter(prefix=PREFIX, tags=["teacher"], responses=ERRORS)


class KeepOut(BaseModel):
    """Whether the member is kept out from now on."""

    kept_out: bool = Field(description="true: kept out; false: back in the ladder")


class KeptOut(BaseModel):
    """A member kept out or brought back."""

    name: str
    kept_out: bool


@router.post(
    "/admin/members/{name}/keep-out",
    response_model=KeptOut,
    dependencies=[Depends(require_admin)],
)
async def keep_out(request: Request, name: str, body: KeepOut) -> dict[str, Any]:
    """Keep a bot or house bot out of the ladder and the events, or bring it back."""
    hall = hall_of(request)
    member = hall.store.members.keep_out(member_named(request, name).name, body.kept_out)
    hall.games.changed += 1  # the standings list it no more, or again
    code = "teacher-kept-out" if body.kept_out else "teacher-brought-back"
    say(log, logging.INFO, code, team=member.name)
    return {"name": member.name, "kept_out": body.kept_out}
