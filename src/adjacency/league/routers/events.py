"""Events on the web: the list, one event's table (standings, crosstable, rounds, games
in play, the next round), its downloads, and its page. Anyone may read them; nothing
here changes the league (events are created and started with ``adjacency league
event``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, PlainTextResponse

from ...serving.errors import GameNotFound
from ..deps import hall_of
from ..event_store import EventStore
from ..event_views import exports, table
from ..models import ERRORS
from ..store import MAX_NAME, LeagueError
from . import PREFIX
from .pages import STATIC

router = APIRouter(tags=["events"], responses=ERRORS)

DOWNLOADS = {
    "table.csv": "text/csv",
    "table.json": "application/json",
    "crosstable.csv": "text/csv",
    "games.txt": "text/plain",
}
"""The files an event's page offers, with their media types."""


def _events(request: Request) -> EventStore:
    return hall_of(request).events.events


def _event_named(request: Request, name: str) -> Any:
    try:
        return _events(request).named(name)
    except LeagueError:
        raise GameNotFound(f"no event named {name[:MAX_NAME]!r}") from None


@router.get(f"{PREFIX}/events")
async def list_events(request: Request) -> list[dict[str, Any]]:
    """Every event, newest first: name, format, rounds, status."""
    return [
        {"name": e.name, "format": e.format, "rounds": e.rounds, "status": e.status}
        for e in _events(request).events()
    ]


@router.get(f"{PREFIX}/events/{{name}}")
async def get_event(request: Request, name: str) -> dict[str, Any]:
    """An event's table (:func:`adjacency.league.event_views.table`), with its games in
    play named (``live``: id, x, o)."""
    event = _event_named(request, name)
    data = await asyncio.to_thread(table, _events(request), event)
    hall = hall_of(request)
    data["live"] = [
        {"id": gid, "x": hall.live[gid].x.name, "o": hall.live[gid].o.name}
        for gid in data["playing"]
        if gid in hall.live
    ]
    data["changed"] = hall.changed
    return data


@router.get(f"{PREFIX}/events/{{name}}/{{file}}")
async def download(request: Request, name: str, file: str) -> PlainTextResponse:
    """One of the event's files (:data:`DOWNLOADS`), as ``adjacency league event export``
    writes it."""
    if file not in DOWNLOADS:
        raise GameNotFound(f"no file {file[:40]!r}: one of {', '.join(DOWNLOADS)}")
    event = _event_named(request, name)
    files = await asyncio.to_thread(exports, _events(request), event)
    return PlainTextResponse(
        files[file],
        media_type=DOWNLOADS[file],
        headers={"Content-Disposition": f'attachment; filename="{event.name}-{file}"'},
    )


@router.get("/event/{name}", include_in_schema=False)
def event_page(name: str) -> FileResponse:
    """``/event/NAME``: the event's page (it asks the API for ``name`` and refreshes)."""
    return FileResponse(STATIC / "event.html", headers={"Cache-Control": "no-cache"})
