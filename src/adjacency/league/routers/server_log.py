"""The server's log for the teacher: ``GET /api/league/admin/log``, the last lines the
league logged (:class:`~adjacency.serving.logs.RecentLines`, installed by the app while
it serves), oldest first, filtered by level and text.

The lines are what standard error gets at the server's ``--log-level``: who connected and
left, what was refused, games started and ended, each step of an event, the builds. They
name members and addresses, never a token (the admin token only reads them). A process
that serves several leagues at once (tests) gives each the lines of all.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from ...serving.logs import KEPT_LINES, RecentLines
from ..auth import require_admin
from ..models import ERRORS
from . import PREFIX

router = APIRouter(prefix=PREFIX, tags=["teacher"], responses=ERRORS)

MAX_TEXT = 200
"""The longest text a filter may ask for."""


class LogLineOut(BaseModel):
    """One line of the server's log."""

    number: int = Field(description="its place among every line logged since the start")
    time: float = Field(description="when it was logged (Unix seconds)")
    level: str = Field(description="DEBUG, INFO, WARNING, ERROR or CRITICAL")
    logger: str
    message: str


class ServerLog(BaseModel):
    """The lines kept that pass the filter, oldest first."""

    lines: list[LogLineOut]
    kept: int = Field(description="how many lines the server keeps at most")


@router.get("/admin/log", response_model=ServerLog, dependencies=[Depends(require_admin)])
async def server_log(
    request: Request,
    level: Literal["debug", "info", "warning", "error"] = "debug",
    text: Annotated[str, Query(max_length=MAX_TEXT)] = "",
) -> dict[str, Any]:
    """The server's last lines (at most :data:`~adjacency.serving.logs.KEPT_LINES`),
    oldest first: those at ``level`` or above whose logger or message holds ``text``
    (any case)."""
    recent: RecentLines = request.app.state.recent_log
    lines = recent.lines(level, text.strip())
    return {
        "lines": [
            {
                "number": line.number,
                "time": line.time,
                "level": line.level,
                "logger": line.logger,
                "message": line.message,
            }
            for line in lines
        ],
        "kept": KEPT_LINES,
    }
