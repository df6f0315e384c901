"""Teams' code where it is graded: a version's kept files (highlighted), the difference
between two versions, a version's zip as uploaded, and the similarity report of an
event's teams (:mod:`adjacency.league.similarity`).

Who reads what: the admin token reads every team's code (``/admin/members/NAME/...``)
and every event's report; a team's bot token reads its own versions only
(``/submissions/...``: the token names the team, no route of a team takes another
team's name); any other secret is 401 or 403 (:mod:`adjacency.league.auth`). A version
is named by the team's own number (1 for its first upload); an unknown one is 404. The
zip is opened through the projects' intake (its limits checked before a byte is read),
in a worker thread on the store's read connection, never on the event loop.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as FastPath
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ...core.errors import AdjacencyError
from ...serving.errors import GameNotFound
from ..auth import require_admin, require_bot
from ..deps import member_named, read
from ..league_file import LeagueError, LeagueStore
from ..models import ERRORS
from ..similarity import THRESHOLD, compare
from ..store.records import Member
from ..store.submission_rows import Submission
from ..version_code import Kept, diff, highlighted, kept_files
from . import PREFIX
from .events import _event_named
from .pages import PAGES

router = APIRouter(prefix=PREFIX, tags=["code"], responses=ERRORS)
pages = APIRouter(include_in_schema=False)

ADMIN = [Depends(require_admin)]
Team = Annotated[Member, Depends(require_bot)]
Version = Annotated[int, FastPath(ge=1, le=2**31, description="the team's version number")]
Pick = Annotated[int, Query(ge=1, le=2**31, description="a version number of the team")]
ZIP: dict[int | str, dict[str, Any]] = {
    200: {"description": "the version's zip as uploaded", "content": {"application/zip": {}}}
}


class CodeFile(BaseModel):
    """One kept file: its path in the project and its lines as HTML (escaped, coloured
    by ``<span>`` classes of Pygments)."""

    path: str
    lines: list[str]


class VersionCode(BaseModel):
    """A version's kept files (the sources and manifest the build read) and the zip's
    other entries, unread."""

    name: str
    version: int
    sha256: str
    status: str
    files: list[CodeFile]
    left_out: list[str]


class DiffLine(BaseModel):
    """A line of a diff: ``op`` ``" "`` (both), ``"-"`` (the older only), ``"+"`` (the
    newer only), its numbers in each version, its HTML."""

    op: str
    a: int | None
    b: int | None
    html: str


class FileDiff(BaseModel):
    """One path's difference: ``added``, ``removed``, ``changed`` or ``same``."""

    path: str
    status: str
    hunks: list[list[DiffLine]]


class VersionDiff(BaseModel):
    """Two versions of a team compared, file by file."""

    name: str
    a: int
    b: int
    files: list[FileDiff]


class PassageOut(BaseModel):
    """A passage two teams share: file, lines (1-based, inclusive) and text on each side."""

    a_file: str
    a_first: int
    a_last: int
    a_text: str
    b_file: str
    b_first: int
    b_last: int
    b_text: str


class PairOut(BaseModel):
    """Two teams compared: the share of each one's fingerprints the other has (the
    skeleton left out), and the shared passages of a listed pair."""

    a: str
    b: str
    a_version: int
    b_version: int
    a_share: float
    b_share: float
    shared: int
    passages: list[PassageOut]


class SimilarityReport(BaseModel):
    """An event's teams compared pair by pair (largest share first)."""

    event: str
    threshold: float
    template: str | None = Field(description="the member whose code is the class's skeleton")
    skeleton: int = Field(description="fingerprints left out as the class's skeleton")
    teams: list[str] = Field(description="the teams compared (each with its version)")
    without_code: list[str] = Field(description="the event's teams with no accepted version")
    pairs: list[PairOut] = Field(description="the pairs at or above the threshold")
    below: int = Field(description="pairs under the threshold (not listed)")


def _version(store: LeagueStore, member: Member, number: int) -> Submission:
    for found in store.submissions.versions(member.id):
        if found.version == number:
            return found
    raise GameNotFound(f"{member.name} has no version {number}")


def _kept(store: LeagueStore, submission: Submission) -> Kept:
    try:
        return kept_files(store.submissions.data(submission.id))
    except AdjacencyError as exc:
        raise LeagueError(f"version {submission.version} cannot be read: {exc}") from None


def _code(store: LeagueStore, member: Member, number: int) -> dict[str, Any]:
    submission = _version(store, member, number)
    kept = _kept(store, submission)
    return {
        "name": member.name,
        "version": submission.version,
        "sha256": submission.sha256,
        "status": submission.status,
        "files": [{"path": p, "lines": highlighted(p, t)} for p, t in kept.files.items()],
        "left_out": kept.left_out,
    }


def _diff(store: LeagueStore, member: Member, a: int, b: int) -> dict[str, Any]:
    old = _kept(store, _version(store, member, a)).files
    new = _kept(store, _version(store, member, b)).files
    return {"name": member.name, "a": a, "b": b, "files": [asdict(f) for f in diff(old, new)]}


def _zip(store: LeagueStore, member: Member, number: int) -> Response:
    submission = _version(store, member, number)
    return Response(
        store.submissions.data(submission.id),
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="{member.name}-v{number}.zip"',
            "Cache-Control": "no-store",
        },
    )


@router.get(
    "/admin/members/{name}/versions/{version}/code",
    response_model=VersionCode,
    dependencies=ADMIN,
)
async def team_code(request: Request, name: str, version: Version) -> dict[str, Any]:
    """A team's version: its kept files, highlighted (the admin token)."""
    member = member_named(request, name)
    return await read(request, lambda store: _code(store, member, version))


@router.get("/admin/members/{name}/diff", response_model=VersionDiff, dependencies=ADMIN)
async def team_diff(request: Request, name: str, a: Pick, b: Pick) -> dict[str, Any]:
    """Two of a team's versions compared, ``a`` the older side (the admin token)."""
    member = member_named(request, name)
    return await read(request, lambda store: _diff(store, member, a, b))


@router.get("/admin/members/{name}/versions/{version}/zip", dependencies=ADMIN, responses=ZIP)
async def team_zip(request: Request, name: str, version: Version) -> Response:
    """A team's version as it uploaded it (the admin token)."""
    member = member_named(request, name)
    return await read(request, lambda store: _zip(store, member, version))


@router.get("/submissions/{version}/code", response_model=VersionCode)
async def own_code(request: Request, member: Team, version: Version) -> dict[str, Any]:
    """One of the team's own versions, its kept files highlighted (its bot token)."""
    return await read(request, lambda store: _code(store, member, version))


@router.get("/submissions/diff", response_model=VersionDiff)
async def own_diff(request: Request, member: Team, a: Pick, b: Pick) -> dict[str, Any]:
    """Two of the team's own versions compared (its bot token)."""
    return await read(request, lambda store: _diff(store, member, a, b))


@router.get("/submissions/{version}/zip", responses=ZIP)
async def own_zip(request: Request, member: Team, version: Version) -> Response:
    """One of the team's own versions as it uploaded it (its bot token)."""
    return await read(request, lambda store: _zip(store, member, version))


def _similarity(
    store: LeagueStore, event_name: str, threshold: float, template: Member | None
) -> dict[str, Any]:
    """The report of :func:`~adjacency.league.similarity.compare` over the versions the
    event's teams play (before its deadline, if it has one)."""
    event = store.events.named(event_name)
    deadline = store.submissions.deadline(event.id)
    projects, versions, without = {}, {}, []
    for member_id in store.events.members(event.id):
        member = store.members.member(member_id)
        if member.kind != "bot" or (template is not None and member.id == template.id):
            continue
        playing = store.submissions.playing(member.id, deadline)
        if playing is None:
            without.append(member.name)
            continue
        projects[member.name] = _kept(store, playing).files
        versions[member.name] = playing.version
    skeleton = None
    if template is not None:
        own = store.submissions.versions(template.id)
        if not own:
            raise LeagueError(f"the template {template.name} has no version uploaded")
        skeleton = _kept(store, own[0]).files
    report = compare(projects, skeleton, threshold)
    listed = report.listed
    return {
        "event": event.name,
        "threshold": threshold,
        "template": None if template is None else template.name,
        "skeleton": report.skeleton,
        "teams": report.teams,
        "without_code": sorted(without),
        "pairs": [
            {
                **asdict(pair),
                "a_version": versions[pair.a],
                "b_version": versions[pair.b],
            }
            for pair in listed
        ],
        "below": len(report.pairs) - len(listed),
    }


@router.get("/admin/events/{name}/similarity", response_model=SimilarityReport, dependencies=ADMIN)
async def similarity(
    request: Request,
    name: str,
    threshold: Annotated[float, Query(gt=0, le=1)] = THRESHOLD,
    template: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """The event's teams compared pair by pair by their fingerprints (the versions they
    play in it); ``template``: a member whose latest upload is the code the class was
    given (left out of every pair). 404: no such event or template member."""
    event = _event_named(request, name)
    skeleton = None if template is None else member_named(request, template)
    return await read(request, lambda store: _similarity(store, event.name, threshold, skeleton))


@pages.get("/teacher/code")
def code_page(request: Request) -> Response:
    """``/teacher/code``: a team's version, two versions' difference or an event's
    similarity report, as its address asks (the page reads the admin token the teacher's
    page keeps in the tab, then the API)."""
    return PAGES.response("code.html", request)
