"""The teacher's part of the admin API and the teacher's page (``/teacher``): what the
page needs beyond :mod:`.admin` (adding, approving and removing members): an overview
of the league for the admin, events created, edited and deleted (until they start),
started, paused, resumed, withdrawn from (and withdrawals undone until the next round),
given an upload deadline (or none), and an event's results as one zip archive.

Every JSON route needs the league's admin token (:func:`~adjacency.league.http.auth.require_admin`:
401 without it or with an unknown one, 403 with a member's). Bodies are pydantic models
with bounded fields (422 when malformed); a refusal of the event store (a taken name,
an unknown member, a start time in the past, an event that is not scheduled) is 400
with its reason, and changes nothing. No route takes a bot spec or a file path: the
events are the league's members, the archive is made in memory. The page itself is a
static file: it asks for the admin token once and keeps it in the tab's
``sessionStorage``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ...core.errors import InvalidSettingsError
from ...core.text import quote
from ...serving.logs import say
from ..event_results.event_failures import Failure, failures
from ..event_results.event_views import archive, exports
from ..events.event_pairing import FORMATS
from ..events.event_store import Event
from ..http.auth import require_admin
from ..http.deps import hall_of, member_named, read, store_of
from ..league_file import MAX_NAME, LeagueError, LeagueStore
from ..models import ERRORS
from ..overview import COMPACT, MOST, PAGE, MemberRows
from ..settings import MAX_PACE, LeagueSettings, parse_clock
from . import PREFIX
from .events import _event_named
from .pages import PAGES

log = logging.getLogger("adjacency.league.teacher")
"""The teacher's own actions, one line each in the server's log (kind ``teacher``)."""

router = APIRouter(prefix=PREFIX, tags=["teacher"], responses=ERRORS)
pages = APIRouter(include_in_schema=False)

ADMIN = [Depends(require_admin)]

MAX_MEMBERS = 256
"""The most members an event created here may name (a class is a few dozen)."""
MAX_ROUNDS = 255
"""The most rounds a Swiss created here may ask for (the store refuses more rounds than
the members allow)."""
LATEST_START = 2**34
"""The latest start time accepted (Unix seconds, about the year 2514)."""

MemberName = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
"""A member's name in a request body."""

Format = Literal["round-robin", "double-round-robin", "swiss"]
assert set(Format.__args__) == set(FORMATS)  # type: ignore[attr-defined]  # one list of formats


class NewEvent(BaseModel):
    """An event the teacher creates (``POST /api/league/admin/events``): its ``members``
    (bots or house bots, by name, in seeding order), ``rounds`` for a Swiss (a round
    robin's follow from its members), an optional ``start`` (Unix seconds, in the future;
    none: started with the start route), rated or not."""

    name: str = Field(min_length=1, max_length=MAX_NAME, description="unique, A-Z a-z 0-9 - _ .")
    format: Format
    members: list[MemberName] = Field(
        min_length=2,
        max_length=MAX_MEMBERS,
        description="the members in seeding order (two or more)",
    )
    rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS, description="a Swiss's rounds")
    start: float | None = Field(
        default=None, ge=0, le=LATEST_START, description="start time, Unix seconds"
    )
    rated: bool = True
    clock: str | None = Field(
        default=None,
        max_length=32,
        description="the event's own clock, BASE+INCREMENT seconds (e.g. '30+0.5'); "
        "none, empty or the league's clock as written ('3 s/move'): the league's",
    )
    pace: float | None = Field(
        default=None,
        ge=0,
        le=MAX_PACE,
        description="the least seconds each bot's move takes in its games (people are "
        "never held); none: the server's --pace, for games between two house bots",
    )
    people: bool = Field(
        default=False,
        description="people may join it from their play page until it starts (the bots "
        "are the members named here)",
    )


class Withdrawal(BaseModel):
    """A member to withdraw from an event (it is paired in no later round)."""

    member: MemberName


class LadderChoice(BaseModel):
    """Whether an event's teams play ladder games while it runs."""

    allowed: bool = Field(
        description="true: a team plays the ladder once its games of the round are over (a "
        "withdrawn team at once); false (an event's default): none until the event is over"
    )


class EventMember(BaseModel):
    """A member of an event as the teacher sees it."""

    name: str
    withdrawn: bool
    undo: str | None = Field(
        default=None,
        description="a withdrawn member: why its withdrawal can no longer be undone "
        "(null: it can, until the next round is paired)",
    )
    absent: bool = Field(
        default=False,
        description="a running event's member paused for its absence: its bot missed its "
        "last 2 games of the event and is not connected (a Swiss pairs it with nobody "
        "until its bot is back)",
    )


class TeacherEvent(BaseModel):
    """An event as the teacher's page lists it."""

    name: str
    format: str
    rounds: int
    status: Literal["scheduled", "running", "finished"]
    rated: bool
    start: float | None = Field(description="its start time (Unix seconds), if it has one")
    all_connected: bool = Field(description="its members are the bots connected at its start")
    paused: bool = Field(description="a running event the teacher paused (no new game starts)")
    ladder: bool = Field(
        default=False,
        description="its teams play ladder games while it runs (false: the event comes first)",
    )
    members: list[EventMember]
    time_control: str = Field(description="its games' clock: its own, or the league's")
    pace: float | None = Field(
        description="its own pace (seconds a bot's move); null: the server's"
    )
    deadline: float | None = Field(
        description="its upload deadline (Unix seconds): its teams' later uploads are refused"
    )
    people: bool = Field(default=False, description="people may join it until it starts")
    failures: list[Failure] = Field(
        default_factory=list,
        description="its newest games a failure decided (not the board), newest first:"
        " each its game (/watch/{game} shows it), round, sides, ending and stored reason",
    )
    failures_total: int = Field(default=0, description="its games a failure decided, in all")


class TeacherMember(BaseModel):
    """A member the teacher manages."""

    name: str
    kind: Literal["bot", "house", "person"]
    online: bool
    waiting: bool = Field(description="a person whose games are not rated yet (needs approval)")
    code: bool = Field(
        default=False,
        description="a team with an accepted version of its code (the server plays it); "
        "a team without one plays only while its bot is connected",
    )
    building: bool = Field(
        default=False,
        description="a team with a version of its code waiting to be built or being built",
    )
    kept_out: bool = Field(
        default=False,
        description="kept out of the ladder and the events (a template or sparring account)",
    )


class Overview(BaseModel):
    """What the teacher's page shows: the members (not removed, revoked ones neither),
    the events (newest first), the formats offered and the league's clock (the clock of
    every game of the league, but those of an event with its own)."""

    members: list[TeacherMember] = Field(description="one page of them (``offset``, ``limit``)")
    total: int = Field(description="members listed over all pages")
    offset: int = Field(description="the first member of this page (0: the first)")
    limit: int = Field(description="the most members (and events) a page lists")
    events: list[TeacherEvent] = Field(description="one page of them (``events_offset``)")
    events_total: int = Field(description="events listed over all pages")
    events_offset: int = Field(description="the first event of this page (0: the newest)")
    formats: list[str]
    base: float = Field(description="the league's clock: seconds each")
    increment: float = Field(description="the league's clock: seconds added per move")
    move_time: float | None = Field(
        default=None, description="the league's seconds a move (then base and increment are unused)"
    )
    time_control: str = Field(
        default="", description="the league's clock as written: '60+1' or '3 s/move'"
    )


class EventDone(BaseModel):
    """An event created, started or withdrawn from."""

    name: str
    status: Literal["scheduled", "running", "finished"]


class EventPaused(EventDone):
    """An event paused or resumed."""

    paused: bool = Field(description="whether it is paused now")


class EventLadder(EventDone):
    """Whether an event's teams play ladder games while it runs, as set."""

    ladder: bool = Field(description="whether they do (false: the event comes first)")


def _failures(store: LeagueStore, event: Event) -> dict[str, Any]:
    """An event's failures for its entry (none before it starts)."""
    if event.status == "scheduled":
        return {"failures": [], "failures_total": 0}
    listed, total = failures(store, event.id)
    return {"failures": [asdict(f) for f in listed], "failures_total": total}


def _overview(store: LeagueStore, online: set[int], members: MemberRows, page: Page) -> Response:
    """The :class:`Overview` of the league in ``store`` as JSON, one ``page`` of its
    members and of its events: the members' part kept by ``members`` between polls
    (read again only when the file changed), the rest (a page of events, the settings)
    read each time."""
    settings = store.meta.settings()
    names = members.names(store)
    events = store.events
    deadlines = store.submissions.deadlines()
    listed = []
    every = events.events()
    for event in every[page.events_offset : page.events_offset + page.limit]:
        withdrawn = events.withdrawn(event.id)
        away = events.absentees(event.id) - online if event.status == "running" else set()
        listed.append(
            {
                "name": event.name,
                "format": event.format,
                "rounds": event.rounds,
                "status": event.status,
                "rated": event.rated,
                "start": event.start,
                "all_connected": event.all_connected,
                "paused": event.paused,
                "ladder": event.ladder,
                "time_control": event.time_control(settings.time_control),
                "pace": event.pace,
                "deadline": deadlines.get(event.name),
                "people": event.people,
                **_failures(store, event),
                "members": [
                    {
                        "name": names[m],
                        "withdrawn": m in withdrawn,
                        "undo": events.reinstate_refusal(event, m) if m in withdrawn else None,
                        "absent": m in away,
                    }
                    for m in events.members(event.id)
                ],
            }
        )
    rest = {
        "total": members.total(store),
        "offset": page.offset,
        "limit": page.limit,
        "events": listed,
        "events_total": len(every),
        "events_offset": page.events_offset,
        "formats": list(FORMATS),
        "base": settings.base,
        "increment": settings.increment,
        "move_time": settings.move_time,
        "time_control": settings.time_control,
    }
    body = (
        '{"members":'
        + members.json(store, online, page.offset, page.limit)
        + ","
        + json.dumps(rest, separators=COMPACT)[1:]
    )
    return Response(body, media_type="application/json")


class Page(BaseModel):
    """Which page of the overview: ``limit`` members from the ``offset``-th (in the
    order of joining) and as many events from the ``events_offset``-th (newest first)."""

    model_config = {"extra": "forbid"}
    offset: int = Field(default=0, ge=0, le=2**31)
    limit: int = Field(default=PAGE, ge=1, le=MOST)
    events_offset: int = Field(default=0, ge=0, le=2**31)


@router.get("/admin/overview", response_model=Overview, dependencies=ADMIN)
async def overview(request: Request, page: Annotated[Page, Query()]) -> Response:
    """The league as the teacher's page shows it (:class:`Overview`), a page at a time
    (a league of many members or events answers each poll with one page, :data:`PAGE`
    by default); its member list costs a query per member only when the league changed
    since the last poll."""
    rows: MemberRows | None = getattr(request.app.state, "teacher_members", None)
    if rows is None:
        rows = request.app.state.teacher_members = MemberRows()
    return _overview(store_of(request), hall_of(request).presence.online(), rows, page)


def own_clock(text: str | None, settings: LeagueSettings) -> tuple[float, float] | None:
    """An event's own clock from the form's ``text``: ``None`` (the league's clock) for
    none, an empty one, or the league's clock as the league writes it (``3 s/move``,
    ``60+1``: what the form offers first, and what an event on the league's clock is
    shown with, so it is saved as it was made); else BASE+INCREMENT seconds. Seconds a
    move other than the league's is refused with :class:`LeagueError`: an event's own
    clock is a Fischer clock."""
    if text is None or not text.strip() or text.strip() == settings.time_control:
        return None
    if text.strip().endswith("s/move"):
        raise LeagueError(
            f"clock {text.strip()[:32]!r}: an event keeps the league's clock"
            f" ({settings.time_control}) or has its own, BASE+INCREMENT seconds, e.g. 30+0.5"
        )
    try:
        return parse_clock(text)
    except InvalidSettingsError as exc:
        raise LeagueError(str(exc)) from None


@router.post("/admin/events", status_code=201, response_model=EventDone, dependencies=ADMIN)
async def create_event(request: Request, body: NewEvent) -> dict[str, Any]:
    """Create a scheduled event, as ``adjacency league event create --members`` does;
    refused (400, nothing created) as
    :meth:`~adjacency.league.events.event_definitions.EventDefinitions.create` refuses."""
    events = hall_of(request).store.events
    clock = own_clock(body.clock, store_of(request).meta.settings())
    event = events.create(
        body.name, body.format, body.rounds, [m.strip() for m in body.members], body.start,
        body.rated, clock=clock, pace=body.pace, people=body.people,
    )  # fmt: skip
    members = ", ".join(m.strip() for m in body.members)
    say(log, logging.INFO, "teacher-created-event", event=event.name, format=event.format,
        members=members)  # fmt: skip
    return {"name": event.name, "status": event.status}


class EventDeleted(BaseModel):
    """An event deleted (it had not started)."""

    name: str
    deleted: bool


@router.put("/admin/events/{name}", response_model=EventDone, dependencies=ADMIN)
async def edit_event(request: Request, name: str, body: NewEvent) -> dict[str, Any]:
    """Change a scheduled event: its name, format, members, rounds, start time, rated,
    clock, pace and whether people may join become the body's, as creating it checks
    them (a PUT replaces them all: a body without ``people`` closes the event to people,
    and the people who joined are taken out). 404: no such event;
    400 with the reason: it has started (running or finished), or a setting is refused
    (:meth:`~adjacency.league.events.event_definitions.EventDefinitions.edit`); nothing
    changes then."""
    event = _event_named(request, name)
    events = hall_of(request).store.events
    clock = own_clock(body.clock, store_of(request).meta.settings())
    event = events.edit(
        event.name, body.name, body.format, body.rounds, [m.strip() for m in body.members],
        body.start, body.rated, clock=clock, pace=body.pace, people=body.people,
    )  # fmt: skip
    hall_of(request).wake()
    say(log, logging.INFO, "teacher-changed-event", event=event.name)
    return {"name": event.name, "status": event.status}


@router.delete("/admin/events/{name}", response_model=EventDeleted, dependencies=ADMIN)
async def delete_event(request: Request, name: str) -> dict[str, Any]:
    """Delete a scheduled event. 404: no such event; 400: it has started (its games are
    the league's history: it stays)."""
    event = _event_named(request, name)
    hall_of(request).store.events.delete(event.name)
    say(log, logging.INFO, "teacher-deleted-event", event=event.name)
    return {"name": event.name, "deleted": True}


@router.post("/admin/events/{name}/start", response_model=EventDone, dependencies=ADMIN)
async def start_event(request: Request, name: str) -> dict[str, Any]:
    """Start a scheduled event now, as ``adjacency league event start`` does (the server
    pairs its first round at once); one that is running or finished already, or takes
    every connected bot (the server starts it at its start time), is 400."""
    event = _event_named(request, name)
    if event.all_connected and event.status == "scheduled":
        raise LeagueError(
            f"event {quote(event.name)} takes every connected bot: the server starts it "
            "at its start time"
        )
    event = hall_of(request).store.events.start(event.name)
    hall_of(request).wake()
    say(log, logging.INFO, "teacher-started-event", event=event.name)
    return {"name": event.name, "status": event.status}


@router.post("/admin/events/{name}/pause", response_model=EventPaused, dependencies=ADMIN)
async def pause_event(request: Request, name: str) -> dict[str, Any]:
    """Pause a running event, as ``adjacency league event pause`` does: the server starts
    none of its games (those in play end as usual) until it is resumed. 404: no such
    event; 400: it is not running, or paused already."""
    event = hall_of(request).store.events.pause(_event_named(request, name).name)
    say(log, logging.INFO, "teacher-paused-event", event=event.name)
    return {"name": event.name, "status": event.status, "paused": event.paused}


@router.post("/admin/events/{name}/resume", response_model=EventPaused, dependencies=ADMIN)
async def resume_event(request: Request, name: str) -> dict[str, Any]:
    """Resume a paused event, as ``adjacency league event resume`` does (the server goes
    on pairing it at once, where it stopped). 404: no such event; 400: it is not paused."""
    event = hall_of(request).store.events.resume(_event_named(request, name).name)
    hall_of(request).wake()
    say(log, logging.INFO, "teacher-resumed-event", event=event.name)
    return {"name": event.name, "status": event.status, "paused": event.paused}


@router.post("/admin/events/{name}/ladder", response_model=EventLadder, dependencies=ADMIN)
async def event_ladder(request: Request, name: str, body: LadderChoice) -> dict[str, Any]:
    """Whether the event's teams play ladder games while it runs, as ``adjacency league
    event ladder`` sets it (the server reads it on its next pass: turned off, their ladder
    games in play are stopped). 404: no such event; 400: it is finished."""
    event = hall_of(request).store.events.set_ladder(_event_named(request, name).name, body.allowed)
    hall_of(request).wake()
    code = "teacher-opened-event-ladder" if event.ladder else "teacher-closed-event-ladder"
    say(log, logging.INFO, code, event=event.name)
    return {"name": event.name, "status": event.status, "ladder": event.ladder}


@router.post("/admin/events/{name}/withdraw", response_model=EventDone, dependencies=ADMIN)
async def withdraw(request: Request, name: str, body: Withdrawal) -> dict[str, Any]:
    """Withdraw a member from an event, as ``adjacency league event withdraw`` does (it
    plays no later board; its games in play end as usual). 404: no such event or
    member; 400: the member is not in the event."""
    event = _event_named(request, name)
    member = member_named(request, body.member)
    hall_of(request).store.events.withdraw(event.name, member.name)
    say(log, logging.INFO, "teacher-withdrew", team=member.name, event=event.name)
    return {"name": event.name, "status": event.status}


@router.post("/admin/events/{name}/reinstate", response_model=EventDone, dependencies=ADMIN)
async def reinstate(request: Request, name: str, body: Withdrawal) -> dict[str, Any]:
    """Undo a withdrawal, as ``adjacency league event reinstate`` does: until the event's
    next round is paired the member plays its boards not yet started and is paired
    again. 404: no such event or member; 400 with the reason: it is not withdrawn, the
    event finished, or a round was paired since
    (:meth:`~adjacency.league.events.event_entries.EventEntries.reinstate`)."""
    event = _event_named(request, name)
    member = member_named(request, body.member)
    event = hall_of(request).store.events.reinstate(event.name, member.name)
    hall_of(request).wake()
    say(log, logging.INFO, "teacher-reinstated", team=member.name, event=event.name)
    return {"name": event.name, "status": event.status}


class Deadline(BaseModel):
    """An event's upload deadline, or ``null`` to clear it."""

    deadline: float | None = Field(
        ge=0, le=LATEST_START, description="Unix seconds; null: uploads are never closed"
    )


class DeadlineSet(BaseModel):
    """An event's upload deadline as it is now."""

    name: str
    deadline: float | None


@router.put("/admin/events/{name}/deadline", response_model=DeadlineSet, dependencies=ADMIN)
async def set_deadline(request: Request, name: str, body: Deadline) -> dict[str, Any]:
    """Set or clear an event's upload deadline: from then on a team entered in it (not
    withdrawn) gets its uploads refused, with the deadline in the message, until the
    event finishes; the event plays each team's last version accepted before it. 404: no
    such event; 400: it has finished (its games were played)."""
    event = _event_named(request, name)
    if event.status == "finished":
        raise LeagueError(f"event {quote(event.name)} has finished: its deadline is kept as it was")
    store_of(request).submissions.set_deadline(event.name, body.deadline)
    done = "cleared" if body.deadline is None else "set"
    say(log, logging.INFO, f"teacher-{done}-deadline", event=event.name)
    return {"name": event.name, "deadline": body.deadline}


@router.get(
    "/admin/events/{name}/archive",
    dependencies=ADMIN,
    responses={200: {"description": "the event's files", "content": {"application/zip": {}}}},
)
async def event_archive(request: Request, name: str) -> Response:
    """The event's results as one zip archive: ``table.csv``, ``table.json``,
    ``crosstable.csv`` and ``games.txt``, byte for byte as ``adjacency league event
    export`` writes them: each game's versions of the teams' code and its end's whole
    detail (a failed program's own output included, which the event page's public
    downloads leave out)."""
    event = _event_named(request, name)
    data = await read(request, lambda store: archive(exports(store, event, whole=True)))
    return Response(
        data,
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="{event.name}.zip"',
            "Cache-Control": "no-store",
        },
    )


@pages.get("/teacher")
def teacher_page(request: Request) -> Response:
    """``/teacher``: the teacher's page (it asks for the admin token, then the API)."""
    return PAGES.response("teacher.html", request)
