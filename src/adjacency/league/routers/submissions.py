"""Submitting a team's code: the upload (the team's bot token, or the admin token for a
team) and the list of its versions (:mod:`adjacency.league.submission_rows`).

The body is the zip itself (``Content-Type: application/zip``), at most
:data:`~adjacency.client.wire.MAX_UPLOAD` bytes: the app's body limit allows that
size on these two paths only (:data:`UPLOAD_PATHS`) and refuses a larger one before it is
read whole. Nothing of the zip is opened here: it is stored as uploaded and built later,
in the sandbox. A team entered in an event whose upload deadline has passed gets 409 with
the deadline in the message, and nothing is stored.
"""

from __future__ import annotations

import re
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ...client.wire import MAX_UPLOAD
from ...sandbox import SandboxUnavailable
from ...serving.errors import NotNow, WebError
from ...serving.models import ErrorMessage
from ..auth import require_admin, require_bot
from ..deps import member_named, store_of
from ..limits import check_rate
from ..models import ERRORS, Submissions, Submitted
from ..records import Member
from ..submission_rows import Submission
from . import PREFIX

router = APIRouter(prefix=PREFIX, tags=["league"], responses=ERRORS)

Team = Annotated[Member, Depends(require_bot)]
"""The team whose bot token is the bearer token."""

UPLOAD_PATHS = (
    re.compile(rf"^{re.escape(PREFIX)}/submissions$"),
    re.compile(rf"^{re.escape(PREFIX)}/admin/members/[^/]+/submissions$"),
)
"""The paths whose request bodies may be as large as an upload (the app's
:class:`~adjacency.serving.middleware.BodyLimit`)."""

UNAVAILABLE: dict[int | str, dict[str, Any]] = {
    503: {"model": ErrorMessage, "description": "the server cannot sandbox uploads (the fix named)"}
}
"""The upload routes' further answer: where no sandbox can start, nothing is taken."""

UPLOAD_BODY = {
    "required": True,
    "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}},
}
"""The OpenAPI description of an upload's body: the zip's bytes."""

FILENAME = re.compile(r"[^A-Za-z0-9._ -]")
"""What is kept of the ``X-Filename`` header: a plain file name, shown back to the team."""


def submission_out(
    submission: Submission, results: dict[int, tuple[int, float]] | None = None
) -> dict[str, Any]:
    """A version as the API shows it (never its bytes), with its finished games and
    points from ``results`` (:meth:`~adjacency.league.submission_rows.SubmissionsRepo.results`)."""
    games, points = (results or {}).get(submission.id, (0, 0.0))
    return {
        "version": submission.version,
        "sha256": submission.sha256,
        "size": submission.size,
        "filename": submission.filename,
        "status": submission.status,
        "detail": submission.detail,
        "created": submission.created,
        "decided": submission.decided,
        "games": games,
        "points": points,
    }


async def _store_upload(request: Request, member: Member) -> dict[str, Any]:
    """Read the body and keep it as the member's next version (the checks of
    :meth:`~adjacency.league.submission_rows.SubmissionsRepo.add`, then the deadline)."""
    refused = request.app.state.builds_refused
    if refused is not None:
        raise SandboxUnavailable(f"this server cannot build uploads: {refused}")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in ("application/zip", "application/octet-stream"):
        raise WebError(
            f"send the zip itself as the body, Content-Type: application/zip (not {kind or 'none'})"
        )
    data = await request.body()
    if len(data) > MAX_UPLOAD:
        raise WebError(f"the upload is {len(data):,} bytes: at most {MAX_UPLOAD:,} are accepted")
    store = store_of(request)
    closed = store.submissions.closing_event(member.id)
    if closed is not None:
        name, deadline = closed
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(deadline))
        raise NotNow(f"uploads for event {name} closed at its deadline, {when}")
    filename = FILENAME.sub("_", request.headers.get("x-filename", ""))[:200] or "upload.zip"
    submission, new = store.submissions.add(member.id, data, filename)
    builder = request.app.state.builder
    if builder is not None:
        builder.wake()
    return {"name": member.name, "new": new, "submission": submission_out(submission)}


@router.post(
    "/submissions",
    status_code=201,
    response_model=Submitted,
    responses=UNAVAILABLE,
    openapi_extra={"requestBody": UPLOAD_BODY},
)
async def submit(request: Request, member: Team) -> dict[str, Any]:
    """Upload the team's code (the bot's token): a zip of its project, kept as its next
    version and built by the server; the same bytes again answer that version
    (``new``: false)."""
    limits = request.app.state.limits
    check_rate(request, "upload", limits.uploads_per_minute, limits.upload_burst)
    return await _store_upload(request, member)


@router.get("/submissions", response_model=Submissions)
async def own_versions(request: Request, member: Team) -> dict[str, Any]:
    """The team's versions, newest first, with each one's build verdict and the games
    and points it played."""
    return versions_out(request, member)


def versions_out(request: Request, member: Member) -> dict[str, Any]:
    """A team's versions, newest first, each with its games and points."""
    repo = store_of(request).submissions
    versions, results = repo.versions(member.id), repo.results(member.id)
    return {"name": member.name, "submissions": [submission_out(s, results) for s in versions]}


@router.post(
    "/admin/members/{name}/submissions",
    status_code=201,
    response_model=Submitted,
    dependencies=[Depends(require_admin)],
    responses=UNAVAILABLE,
    openapi_extra={"requestBody": UPLOAD_BODY},
)
async def submit_for(request: Request, name: str) -> dict[str, Any]:
    """Upload a team's code for it (the admin token), as the team's own upload would."""
    return await _store_upload(request, member_named(request, name))


@router.get(
    "/admin/members/{name}/submissions",
    response_model=Submissions,
    dependencies=[Depends(require_admin)],
)
async def versions_of(request: Request, name: str) -> dict[str, Any]:
    """A team's versions, newest first, each with its games and points (the admin
    token)."""
    return versions_out(request, member_named(request, name))
