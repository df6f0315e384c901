"""The grading sheet (:mod:`adjacency.league.grading.grading_sheet`) for the teacher: an
event's or the whole league's, as JSON for the teacher's page and as CSV for a spreadsheet.

Both routes need the league's admin token (401 without it, 403 with a member's); an
unknown event is 404. The sheet holds each team's best similarity, so it is made in
the heavy reads' own pool (:func:`~adjacency.league.http.deps.heavy_read`), never on the
event loop nor in the pool of the public reads.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ..grading.grading_sheet import FIELDS, as_csv, as_json, sheet
from ..http.auth import require_admin
from ..http.deps import heavy_read
from ..league_file import LeagueStore
from ..models import ERRORS
from ..store.records import MAX_NAME
from . import PREFIX
from .events import _event_named

router = APIRouter(prefix=PREFIX, tags=["teacher"], responses=ERRORS)

ADMIN = [Depends(require_admin)]
EventName = Annotated[
    str | None,
    Query(max_length=MAX_NAME, description="an event's name; none: the whole league"),
]


class SheetRowOut(BaseModel):
    """One team's row (the columns of :mod:`adjacency.league.grading.grading_sheet`)."""

    team: str
    versions: int = Field(description="versions of its code uploaded")
    accepted: int = Field(description="of them accepted")
    played: list[int] = Field(description="the version numbers that played the games")
    most_played: int | None = Field(description="the version that played most of them")
    games: int
    points: float
    unplayed: int = Field(description="an event's forfeits, won or lost")
    byes: int
    x_wins: int
    x_draws: int
    x_losses: int
    o_wins: int
    o_draws: int
    o_losses: int
    time: int = Field(description="games lost on time")
    crash: int = Field(description="games lost by a crash or a disconnection")
    illegal: int = Field(description="games lost by an illegal move")
    absent: int = Field(description="games lost by its absence")
    abandoned: int = Field(description="its games stopped before their end (no result)")
    similarity: float | None = Field(description="its highest file share with a partner")
    partner: str | None = Field(description="that partner (a team or a corpus entry)")
    note: str = Field(default="", description="the teacher's note on the team")


class Sheet(BaseModel):
    """A grading sheet: its event (``null``: the whole league), its columns, its rows."""

    event: str | None
    columns: list[str]
    teams: list[SheetRowOut]


def _sheet(request: Request, event_name: str | None) -> Any:
    """The event named ``event_name`` (404 if none), or ``None`` for the league."""
    return None if event_name is None else _event_named(request, event_name)


@router.get("/admin/grading", response_model=Sheet, dependencies=ADMIN)
async def grading(request: Request, event: EventName = None) -> dict[str, Any]:
    """The grading sheet of ``event``, or of the whole league without one."""
    scope = _sheet(request, event)

    def make(store: LeagueStore) -> list[dict[str, Any]]:
        return as_json(sheet(store, scope))

    teams = await heavy_read(request, make)
    return {"event": None if scope is None else scope.name, "columns": list(FIELDS), "teams": teams}


@router.get(
    "/admin/grading.csv",
    dependencies=ADMIN,
    responses={200: {"description": "the sheet as CSV", "content": {"text/csv": {}}}},
)
async def grading_csv(request: Request, event: EventName = None) -> Response:
    """The grading sheet as CSV (one line per team, the columns of the JSON sheet)."""
    scope = _sheet(request, event)
    text = await heavy_read(request, lambda store: as_csv(sheet(store, scope)))
    filename = "league" if scope is None else scope.name
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}-grading.csv"',
            "Cache-Control": "no-store",
        },
    )
