"""The server's log for the teacher: ``GET /api/league/admin/log``, the last lines the
league logged, kept in the league file across restarts (:mod:`adjacency.league.store.log_rows`:
bounded by size, the oldest dropped), oldest first, filtered by level, text, team and
kind.

The lines are what standard error gets at the server's ``--log-level``: who connected and
left, what was refused, games started and ended, each step of an event, the builds. They
name members and addresses, never a token (the admin token only reads them). A process
that serves several leagues at once (tests) gives each the lines of all.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from ...serving.logs import KEPT_LINES, told
from ..http.auth import require_admin
from ..http.deps import read
from ..league_file import MAX_NAME, LeagueStore
from ..models import ERRORS
from ..store.log_rows import KeptLog, LogLine, LogRepo
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
    message: str = Field(description="its words, in English")
    text: str = Field(description="its words in the language asked for (lang)")
    code: str | None = Field(
        default=None,
        description="the catalogues' message it says (log.<code>); null for a line of no "
        "code (its words are English whatever the language asked for)",
    )
    params: dict[str, str] = Field(
        default_factory=dict, description="what the code's message fills in"
    )


class ServerLog(BaseModel):
    """The newest lines that pass the filter, oldest first."""

    lines: list[LogLineOut]
    kept: int = Field(description="how many lines an answer gives at most")
    kinds: list[str] = Field(
        default_factory=list,
        description="the kinds of the lines kept (their loggers' last names), for the filter",
    )


@router.get("/admin/log", response_model=ServerLog, dependencies=[Depends(require_admin)])
async def server_log(
    request: Request,
    level: Literal["debug", "info", "warning", "error"] = "debug",
    text: Annotated[str, Query(max_length=MAX_TEXT)] = "",
    team: Annotated[str, Query(max_length=MAX_NAME)] = "",
    kind: Annotated[str, Query(max_length=MAX_NAME)] = "",
    lang: Literal["en", "id"] = "en",
) -> dict[str, Any]:
    """The server's newest lines (at most :data:`~adjacency.serving.logs.KEPT_LINES`),
    oldest first, from the league file (what was logged before a restart included):
    those at ``level`` or above whose logger or message holds ``text`` (any case; or the
    line as told in ``lang``), that name ``team`` as a whole word and whose logger's
    last name is ``kind``; each told in ``lang`` as well as in English."""
    kept: KeptLog = request.app.state.recent_log
    await asyncio.to_thread(kept.flush)  # the lines logged until now, in the file

    def lines_of(store: LeagueStore) -> tuple[list[LogLine], list[str]]:
        repo = LogRepo(store.database)
        found = repo.lines(level, text.strip(), team.strip(), kind.strip(), KEPT_LINES, lang)
        return found, repo.kinds()

    lines, kinds = await read(request, lines_of)
    return {
        "lines": [
            {
                "number": line.number,
                "time": line.time,
                "level": line.level,
                "logger": line.logger,
                "message": line.message,
                "text": told(line, lang),
                "code": line.code,
                "params": dict(line.params),
            }
            for line in lines
        ],
        "kept": KEPT_LINES,
        "kinds": kinds,
    }
