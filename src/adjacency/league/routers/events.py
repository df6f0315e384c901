"""Events on the web: the list, one event's table (standings, crosstable, rounds, games
in play, the next round), its downloads, and its page. Anyone may read them; nothing
here changes the league (events are created and started with ``adjacency league
event``). The page is sent with the event's table in it, for a browser without
JavaScript. The API is rate limited per address like the other public reads
(:func:`~..http.limits.check_read_rate`, 429 beyond); an event's downloads are computed once
per change of its games (:func:`_exports`), never once per request, and so are its
table's JSON text and its page's HTML (:class:`Rendered`): a class of pages polling
the crosstable costs a splice of the games in play per request, not a validation and
serialization of the whole table.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from html import escape
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field

from ...serving.errors import GameNotFound
from ..event_models import EventSummary, EventTable
from ..event_results.event_views import exports, render_html, table
from ..events.event_store import Event, EventsRepo
from ..http.auth import require_person
from ..http.cache import SharedAnswer
from ..http.deps import hall_of, reader_of
from ..http.limits import check_rate, check_read_rate
from ..league_file import MAX_NAME, LeagueError, LeagueStore, Member
from ..models import ERRORS
from . import PREFIX
from .pages import PAGES

router = APIRouter(tags=["events"], responses=ERRORS)

DOWNLOADS = {
    "table.csv": "text/csv",
    "table.json": "application/json",
    "crosstable.csv": "text/csv",
    "games.txt": "text/plain",
}
"""The files an event's page offers, with their media types."""


def _events(request: Request) -> EventsRepo:
    return hall_of(request).store.events


def _event_named(request: Request, name: str) -> Any:
    try:
        return _events(request).named(name)
    except LeagueError:
        raise GameNotFound(f"no event named {name[:MAX_NAME]!r}") from None


LIMITED = [Depends(check_read_rate)]
"""The API routes' rate limit (public reads per address); the page itself is a file."""


@router.get(f"{PREFIX}/events", response_model=list[EventSummary], dependencies=LIMITED)
async def list_events(request: Request) -> list[dict[str, Any]]:
    """Every event, newest first: name, format, rounds, status, open to people."""
    return [
        {
            "name": e.name,
            "format": e.format,
            "rounds": e.rounds,
            "status": e.status,
            "people": e.people,
        }
        for e in _events(request).events()
    ]


@router.get(f"{PREFIX}/events/{{name}}", response_model=EventTable, dependencies=LIMITED)
async def get_event(request: Request, name: str) -> Response:
    """An event's table (:func:`..event_results.event_views.table`), with its games in
    play named (``live``: id, x, o)."""
    event = _event_named(request, name)
    hall = hall_of(request)
    data = await _shared_table(request, event)
    live = [
        {"id": gid, "x": hall.games.live[gid].x.name, "o": hall.games.live[gid].o.name}
        for gid in data["playing"]
        if gid in hall.games.live
    ]
    text = _rendered(request, event.name, data).json()
    tail = json.dumps({"live": live, "changed": hall.games.changed}, separators=COMPACT)
    return Response(text[:-1] + "," + tail[1:], media_type="application/json")


COMPACT = (",", ":")
"""JSON without spaces."""


@dataclass
class Rendered:
    """One computed table (the :class:`SharedAnswer`'s, kept while it is the current
    one) with its JSON text and its page's HTML, each made once, when first asked."""

    table: dict[str, Any]
    text: str | None = None
    html: str | None = None

    def json(self) -> str:
        """The table as :class:`EventTable` JSON, without ``live`` and ``changed`` (an
        object's text: its closing brace last), checked against the model once."""
        if self.text is None:
            checked = EventTable.model_validate({**self.table, "live": [], "changed": 0})
            dumped = checked.model_dump(mode="json", exclude={"live", "changed"})
            self.text = json.dumps(dumped, separators=COMPACT)
        return self.text

    def page(self) -> str:
        """The table as the page's HTML
        (:func:`..event_results.event_views.render_html`)."""
        if self.html is None:
            self.html = render_html(self.table)
        return self.html


def _rendered(request: Request, name: str, table: dict[str, Any]) -> Rendered:
    """The :class:`Rendered` of ``table``, the event ``name``'s current one (made anew
    when the shared answer was recomputed: an identity check, the old one dropped)."""
    kept: dict[str, Rendered] | None = getattr(request.app.state, "event_texts", None)
    if kept is None:
        kept = request.app.state.event_texts = {}
    found = kept.get(name)
    if found is None or found.table is not table:
        found = kept[name] = Rendered(table)
    return found


TABLE_AGE = 0.5
"""Seconds an event's table is reused whatever changed (a busy event ends many games a
second; the page polls about every second)."""

TABLE_REFRESH = 5.0
"""Seconds after which an event's table is recomputed even when no game started or ended."""


async def _shared_table(request: Request, event: Any) -> dict[str, Any]:
    """The event's table (:func:`..event_results.event_views.table`) as viewers share it.

    Recomputed when a game starts or ends (``hall.games.changed``) or the event's row changes
    (started, finished), and at least every TABLE_REFRESH s for what changes outside the
    server (a withdrawal from the CLI); concurrent viewers share one computation (a
    projector and thirty phones)."""
    hall = hall_of(request)
    key = (hall.games.changed, event, int(time.monotonic() // TABLE_REFRESH))
    return await _table_cache(request, event.name).get(key, lambda: _table(hall.store, event))


def _table_cache(request: Request, name: str) -> SharedAnswer[dict[str, Any]]:
    """The shared answer of one event's table on this app (one per existing event)."""
    caches: dict[str, SharedAnswer[dict[str, Any]]] | None = getattr(
        request.app.state, "event_tables", None
    )
    if caches is None:
        caches = request.app.state.event_tables = {}
    return caches.setdefault(name, SharedAnswer[dict[str, Any]](TABLE_AGE))


async def _table(league: LeagueStore, event: Any) -> dict[str, Any]:
    return await asyncio.to_thread(table, league, event)


class Entry(BaseModel):
    """A person's place in an event (``/api/league/events/{name}/entry``, ``join``,
    ``leave``)."""

    event: str = Field(description="the event's name")
    status: Literal["scheduled", "running", "finished"]
    people: bool = Field(description="whether people may join it before it starts")
    joined: bool = Field(description="whether this person is among its members")
    people_joined: int = Field(description="how many people are among its members")


def _entry(events: EventsRepo, event: Event, person: Member) -> dict[str, Any]:
    return {
        "event": event.name,
        "status": event.status,
        "people": event.people,
        "joined": events.joined(event.id, person.id),
        "people_joined": events.people_in(event.id),
    }


@router.get(f"{PREFIX}/events/{{name}}/entry", response_model=Entry, dependencies=LIMITED)
async def entry(
    request: Request, name: str, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """Whether the person holding this secret is in the event, and whether people may
    join it (the event page's Join button)."""
    event = _event_named(request, name)
    return _entry(_events(request), event, person)


@router.post(f"{PREFIX}/events/{{name}}/join", response_model=Entry)
async def join_event(
    request: Request, name: str, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """The person holding this secret joins a scheduled event open to people (again:
    nothing changes). 409 with the code: ``event_closed`` (not open to people),
    ``event_started``, ``event_full``
    (:meth:`~adjacency.league.events.event_entries.EventEntries.join`); nothing changes then."""
    check_rate(request, "event-entry", request.app.state.limits.requests_per_minute / 4)
    events = _events(request)
    event = events.join(_event_named(request, name).name, person)
    return _entry(events, event, person)


@router.post(f"{PREFIX}/events/{{name}}/leave", response_model=Entry)
async def leave_event(
    request: Request, name: str, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """The person holding this secret leaves a scheduled event they joined. 409 with the
    code: ``event_started``, ``event_not_joined``; nothing changes then."""
    check_rate(request, "event-entry", request.app.state.limits.requests_per_minute / 4)
    events = _events(request)
    event = events.leave(_event_named(request, name).name, person)
    return _entry(events, event, person)


@router.get(
    f"{PREFIX}/events/{{name}}/{{file}}",
    dependencies=LIMITED,
    responses={
        200: {
            "description": "the file, as an attachment",
            "content": {media: {} for media in sorted(set(DOWNLOADS.values()))},
        }
    },
)
async def download(request: Request, name: str, file: str) -> PlainTextResponse:
    """One of the event's files (:data:`DOWNLOADS`), as ``adjacency league event export``
    writes it (:func:`_exports`: computed once per change of the event's games)."""
    if file not in DOWNLOADS:
        raise GameNotFound(f"no file {file[:40]!r}: one of {', '.join(DOWNLOADS)}")
    event = _event_named(request, name)
    files = await _exports(request, event)
    return PlainTextResponse(
        files[file],
        media_type=DOWNLOADS[file],
        headers={"Content-Disposition": f'attachment; filename="{event.name}-{file}"'},
    )


async def _exports(request: Request, event: Any) -> dict[str, str]:
    """The event's files, computed again only when its stamp changed: the event's row
    (started, finished), its finished games' count and its withdrawals
    (:meth:`~adjacency.league.events.event_boards.EventBoards.stamp`, a read of the event's own
    boards); requests meanwhile share one computation, in a worker thread on the
    readers' connection."""
    reader = reader_of(request)
    stamp = await asyncio.to_thread(reader.events.stamp, event.id)
    caches: dict[str, SharedAnswer[dict[str, str]]] | None = getattr(
        request.app.state, "event_exports", None
    )
    if caches is None:
        caches = request.app.state.event_exports = {}
    cache = caches.setdefault(event.name, SharedAnswer[dict[str, str]](0.0))
    return await cache.get((event, stamp), lambda: asyncio.to_thread(exports, reader, event))


NOSCRIPT = "<!-- the table without JavaScript -->"
"""The place in ``event.html`` where the page is sent with the event's table."""


@router.get("/event/{name}", include_in_schema=False)
async def event_page(request: Request, name: str) -> HTMLResponse:
    """``/event/NAME``: the event's page. Its script asks the API for ``name`` and
    refreshes; the page is sent with the event's summary, standings and crosstable
    already in it (in ``<noscript>``, :func:`..event_results.event_views.render_html`),
    so that it shows the table without JavaScript; an unknown event's page says so
    there."""
    page = PAGES.html("event.html")
    try:
        event = _events(request).named(name)
    except LeagueError:
        static = f"<p>No event named {escape(repr(name[:MAX_NAME]))}.</p>"
    else:
        static = _rendered(request, event.name, await _shared_table(request, event)).page()
    return HTMLResponse(
        page.replace(NOSCRIPT, f"<noscript>{static}</noscript>", 1),
        headers={"Cache-Control": "no-cache"},
    )
