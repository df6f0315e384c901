"""The teacher's roster import (``POST /api/league/admin/roster``): every team of a CSV
list of names added as a bot at once, answered with the printable sheet of their new
tokens, as ``adjacency league roster`` does (:mod:`adjacency.league.class_roster`: the same
checks, the same sheet).

The admin token only (:func:`~adjacency.league.http.auth.require_admin`). Every name is
checked before any is added (400 with the reason, nothing added); teams that are bots of
the league already keep their tokens. The new tokens are in the sheet alone, answered
once: the league keeps only their hashes. The sheet's commands read the token from a
file, never from the command line; its ``url`` and ``cafile`` are what the page says
(the address the teacher sees, and a certificate file's name), checked to be a plain
address and a plain file name, since the teams paste those commands into a shell.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from ..class_roster import plan_roster, read_roster, token_sheet
from ..http.auth import require_admin
from ..http.deps import hall_of, store_of
from ..models import ERRORS
from . import PREFIX

router = APIRouter(prefix=PREFIX, tags=["teacher"], responses=ERRORS)

ROSTER_CHARS = 7000
"""The longest roster a request carries (a few hundred names; the league's request
bodies are at most 8 KiB)."""

URL = r"^https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~\-/]*)?$"
"""An address the sheet's shell commands may hold: no space, quote or shell character."""
FILE = r"^[A-Za-z0-9][A-Za-z0-9._\-]*$"
"""A certificate file's name for ``--cafile`` on the sheet: a plain name."""


class RosterImport(BaseModel):
    """A roster to add: its CSV text, the league's address and, for a server whose
    certificate is from its own authority, the certificate file the teams are given."""

    roster: str = Field(min_length=1, max_length=ROSTER_CHARS, description="the CSV text")
    url: str = Field(max_length=200, pattern=URL, description="the league's address")
    cafile: str | None = Field(
        default=None, max_length=100, pattern=FILE, description="for --cafile on the sheet"
    )


class RosterAdded(BaseModel):
    """What a roster did: the teams added, those already bots, and the sheet (HTML) of
    the new teams' tokens, answered only this once."""

    added: list[str]
    present: list[str]
    sheet: str


@router.post(
    "/admin/roster",
    status_code=201,
    response_model=RosterAdded,
    dependencies=[Depends(require_admin)],
)
async def import_roster(request: Request, body: RosterImport) -> dict[str, Any]:
    """Add the roster's new teams as bots and answer their token sheet; a refused
    roster (a bad or reserved name, two names too alike, a name like another member's)
    is 400 with the reason and adds nothing."""
    store = store_of(request)
    plan = plan_roster(read_roster(body.roster), store.members.members())
    tokens: dict[str, str] = {}
    for name in plan.new:
        _, token = store.members.add_member(name, "bot")
        tokens[name] = token or ""  # a bot always gets one
    hall_of(request).wake()
    return {
        "added": plan.new,
        "present": plan.present,
        "sheet": token_sheet(tokens, body.url, body.cafile),
    }
