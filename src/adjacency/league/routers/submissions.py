"""Submitting a team's code: the upload (the team's bot token, or the admin token for a
team) and the list of its versions (:mod:`adjacency.league.store.submission_rows`).

The body is the project's zip as the team has it (``Content-Type: application/zip``):
GitHub's Download ZIP with the JavaFX SDK inside, or the few kilobytes ``adjacency league
submit`` packed. On these two paths only (:data:`UPLOAD_PATHS`) the app's body limit lets
a body of up to :data:`~adjacency.client.wire.MAX_UPLOAD` bytes through as it arrives;
it is streamed to a file of its own beside the league file (never held in memory), at
most :data:`RECEIVING` at once, then packed there as the team's machine packs it
(:func:`adjacency.hosting.packing.pack`: the zip's directory read, only the kept files
extracted, nothing run) and the file removed: the league stores the packed kept files
alone, so one project is one version by either route. A team entered in an event whose
upload deadline has passed gets 409 with the deadline in the message, and nothing is
stored.
"""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
import time
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import partial
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from starlette.requests import ClientDisconnect

from ...client.wire import MAX_UPLOAD
from ...hosting.fx_kind import kept_form, refused_form, with_choices
from ...hosting.fx_recipe import recipe_for
from ...hosting.intake import IntakeRefused
from ...hosting.java_build import BuildFailed
from ...hosting.kinds import WINDOWS, through_window
from ...hosting.manifest import ManifestError
from ...hosting.packing import Packed, pack, pack_program
from ...hosting.player import load_choice
from ...sandbox import SandboxUnavailable
from ...serving.errors import GameNotFound, NotNow, TooLarge, WebError
from ...serving.models import ErrorMessage
from ..builder import build_folder, version_folder
from ..grading.left_out import received, summary
from ..http import quota
from ..http.auth import details_for, require_admin, require_bot
from ..http.deps import member_named, store_of
from ..http.limits import check_rate
from ..league_file import LeagueStore
from ..models import ERRORS
from ..standings import game_summary
from ..store.picture_rows import What
from ..store.records import LeagueError, Member
from ..store.submission_rows import Submission
from ..submission_models import ChoiceIn, ProgramForm, Submissions, Submitted, VersionGame
from . import PREFIX

router = APIRouter(prefix=PREFIX, tags=["league"], responses=ERRORS)

Team = Annotated[Member, Depends(require_bot)]
"""The team whose bot token is the bearer token."""

UPLOAD_PATHS = (
    re.compile(rf"^{re.escape(PREFIX)}/submissions$"),
    re.compile(rf"^{re.escape(PREFIX)}/admin/members/[^/]+/submissions$"),
    re.compile(rf"^{re.escape(PREFIX)}/admin/similarity/(template|corpus)$"),
)
"""The paths whose request bodies may be as large as an upload (the app's
:class:`~adjacency.serving.middleware.BodyLimit`): a team's upload, and the similarity
template and corpus projects the teacher uploads (:mod:`.code`)."""

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
    submission: Submission,
    results: dict[int, tuple[int, float]] | None = None,
    db: Path | None = None,
    pictures: AbstractSet[tuple[int, What, int]] = frozenset(),
    outputs: AbstractSet[tuple[int, int]] = frozenset(),
    received: tuple[str, int] | None = None,
) -> dict[str, Any]:
    """A version as the API shows it (never its bytes), with its finished games and
    points from ``results``
    (:meth:`~adjacency.league.store.submission_rows.SubmissionsRepo.results`),
    whether it is a program played through its window with its build kept (looked up in
    the league file ``db``'s builds, when given), and which of its pictures are kept in
    the league file (``pictures``: :meth:`~.store.picture_rows.PicturesRepo.kept`), and
    whether its check's last output is (``outputs``:
    :meth:`~.store.output_rows.OutputsRepo.kept`); ``received``: the SHA-256 and size of
    the zip its team sent (:func:`~adjacency.league.grading.left_out.received`), where noted."""
    games, points = (results or {}).get(submission.id, (0, 0.0))
    program = False
    if db is not None and submission.status in ("accepted", "refused"):
        folder = version_folder(db, submission.member_id, submission.version)
        if submission.status == "refused":
            program = refused_form(folder) is not None
        else:
            choice = load_choice(folder)
            program = choice is not None and through_window(choice.kind)
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
        "program": program,
        "window": program or (submission.id, "window", 0) in pictures,
        "board": (submission.id, "check", 0) in pictures,
        "output": (submission.id, 0) in outputs,
        "uploaded_sha256": None if received is None else received[0],
        "uploaded_size": None if received is None else received[1],
    }


RECEIVING = 4
"""Uploads received at once (each streamed to disk, then packed in a thread); one more
is told to send again shortly, so a class uploading at the deadline cannot fill the disk
or hold every thread."""


async def _receive(request: Request, folder: Path) -> Path:
    """Stream the request's body to a new file in ``folder``, at most
    :data:`~adjacency.client.wire.MAX_UPLOAD` bytes (413 past it; the file removed)."""
    folder.mkdir(exist_ok=True)
    handle, name = tempfile.mkstemp(suffix=".zip", dir=folder)
    path = Path(name)
    size = 0
    try:
        with os.fdopen(handle, "wb") as out:
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_UPLOAD:
                    break
                out.write(chunk)
    except ClientDisconnect:  # the client left, or the app's body limit cut it off
        size = MAX_UPLOAD + 1
    if size > MAX_UPLOAD:
        path.unlink(missing_ok=True)
        raise TooLarge(
            f"the upload ended early or passed {MAX_UPLOAD:,} bytes: at most {MAX_UPLOAD:,} "
            "are accepted"
        )
    return path


PROGRAM_HEADER = "x-program"
"""The upload's header that asks for the project to be played as its own program,
through its window (``X-Program: javafx``): packed with its form's defaults
(:func:`~adjacency.hosting.packing.pack_program`), as ``league submit --program`` packs."""


def _packer(request: Request) -> Callable[[Path], Packed]:
    """How the upload is packed: as a program played through its window when the
    request asks so (:data:`PROGRAM_HEADER`), else as the project it is."""
    asked = request.headers.get(PROGRAM_HEADER, "").strip().lower()
    if asked in ("", "no"):
        return pack
    if asked not in WINDOWS:
        raise WebError(
            f"X-Program names how the upload is played: {', '.join(WINDOWS)}, not {asked[:40]!r}"
        )
    return partial(pack_program, choices={})


async def _pack(request: Request) -> tuple[Packed, str]:
    """The request's zip received (:func:`_receive`) and packed
    (:func:`~adjacency.hosting.packing.pack`, or as a program played through its window
    where :data:`PROGRAM_HEADER` asks, in a thread), with the note of what it left out
    (:func:`~adjacency.league.grading.left_out.summary`); an intake rule broken is 400 with
    the rule's words."""
    packer = _packer(request)
    receiving: asyncio.Semaphore = request.app.state.receiving
    if receiving.locked():
        raise NotNow(f"the server is receiving {RECEIVING} uploads now: send yours again shortly")
    store = store_of(request)
    async with receiving:
        path = await _receive(request, store.path.with_name(store.path.name + ".uploads"))
        try:
            packed = await asyncio.to_thread(packer, path)
            return packed, await asyncio.to_thread(summary, path, packed.left_out)
        except IntakeRefused as exc:
            raise WebError(str(exc)) from None
        finally:
            path.unlink(missing_ok=True)


def _builds_possible(request: Request) -> None:
    """503 naming the fix where this server cannot sandbox builds (nothing is taken)."""
    refused = request.app.state.builds_refused
    if refused is not None:
        raise SandboxUnavailable(f"this server cannot build uploads: {refused}")


def _admit(request: Request, member: Member) -> LeagueStore:
    """Whether the member may add a version now: a server that builds, its event's
    upload deadline not passed, its quota (:mod:`~adjacency.league.http.quota`) not full;
    the league's store, else the refusal raised. It walks the team's build folders:
    call it in a worker thread, never on the event loop (every game's clock runs there)."""
    _builds_possible(request)
    store = store_of(request)
    closed = store.submissions.closing_event(member.id)
    if closed is not None:
        name, deadline = closed
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(deadline))
        raise NotNow(
            f"uploads for event {name} closed at its deadline, {when}",
            code="uploads_closed",
            params={"event": name, "when": when},
        )
    builds = build_folder(request.app.state.league_db)
    quota.check(store, builds, member.id, store.meta.rules())
    return store


async def _store_upload(request: Request, member: Member) -> dict[str, Any]:
    """Receive and pack the body, and keep the packed project as the member's next
    version (:func:`_admit` first, then the checks of
    :meth:`~adjacency.league.store.submission_rows.SubmissionsRepo.add`)."""
    _builds_possible(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in ("application/zip", "application/octet-stream"):
        raise WebError(
            f"send the zip itself as the body, Content-Type: application/zip (not {kind or 'none'})"
        )
    store = await asyncio.to_thread(_admit, request, member)
    packed, left_out = await _pack(request)
    filename = FILENAME.sub("_", request.headers.get("x-filename", ""))[:200] or "upload.zip"
    submission, new = await asyncio.to_thread(
        store.submissions.add, member.id, packed.data, filename, None, left_out
    )
    sent = received(left_out)
    earlier = sent
    if not new:  # the version kept already: what it received (a file read, off the loop)
        earlier = received(await asyncio.to_thread(store.submissions.left_out, submission.id))
    # kept already: these very bytes, or another zip keeping the same files
    same = new or sent is None or sent[0] in (submission.sha256, (earlier or ("",))[0])
    builder = request.app.state.builder
    if builder is not None:
        builder.wake()
    return {
        "name": member.name,
        "new": new,
        "same_bytes": same,
        "submission": submission_out(submission, received=earlier),
    }


@router.post(
    "/submissions",
    status_code=201,
    response_model=Submitted,
    responses=UNAVAILABLE,
    openapi_extra={"requestBody": UPLOAD_BODY},
)
async def submit(request: Request, member: Team) -> dict[str, Any]:
    """Upload the team's code (the bot's token): a zip of its project, kept as its next
    version and built by the server; a zip keeping the same files again answers that
    version (``new``: false; ``same_bytes``: whether it was these very bytes)."""
    limits = request.app.state.limits
    check_rate(request, "upload", limits.uploads_per_minute, limits.upload_burst)
    return await _store_upload(request, member)


@router.get("/submissions", response_model=Submissions)
async def own_versions(request: Request, member: Team) -> dict[str, Any]:
    """The team's versions, newest first, with each one's build verdict and the games
    and points it played."""
    return await asyncio.to_thread(versions_out, request, member)


def versions_out(request: Request, member: Member) -> dict[str, Any]:
    """A team's versions, newest first, each with its games and points (file reads:
    call it in a worker thread)."""
    store = store_of(request)
    repo = store.submissions
    versions, results = repo.versions(member.id), repo.results(member.id)
    pictures = store.pictures.kept([s.id for s in versions])
    outputs = store.outputs.kept([s.id for s in versions])
    db = request.app.state.league_db
    return {
        "name": member.name,
        "submissions": [
            submission_out(s, results, db, pictures, outputs, received(repo.left_out(s.id)))
            for s in versions
        ],
    }


@router.get("/submissions/{version}/games", response_model=list[VersionGame])
async def version_games(request: Request, member: Team, version: int) -> list[dict[str, Any]]:
    """The games the team's ``version`` played, newest first (at most 200), each end
    told whole where the team's own program failed (the exception, its file and line,
    the time it used, the square it named), and whether a picture of its program's
    board and its last output at that failure are kept: what the team needs to learn
    why it lost."""
    told = details_for(request)

    def read() -> list[dict[str, Any]]:  # the league file's rows: off the event loop
        store = store_of(request)
        submission = version_of(request, member, version)
        played = store.submissions.games_of(member.id, submission.id)
        found = [g for g in (store.games.game(i) for i in played) if g is not None]
        names = store.members.names({g.x_id for g in found} | {g.o_id for g in found})
        kept = store.pictures.kept([submission.id])
        pictured = {game for _, what, game in kept if what == "game"}
        printed = {game for _, game in store.outputs.kept([submission.id]) if game}
        return [
            {**game_summary(g, names, told), "board": g.id in pictured, "output": g.id in printed}
            for g in found
        ]

    return await asyncio.to_thread(read)


@router.post("/submissions/{version}/build", response_model=Submitted)
async def build_again(request: Request, member: Team, version: int) -> dict[str, Any]:
    """Build and check the team's refused ``version`` again (a refusal caused by the
    server's load, say): it waits for the builder as a new upload does. 409 for a
    version that is not refused."""
    limits = request.app.state.limits
    check_rate(request, "upload", limits.uploads_per_minute, limits.upload_burst)
    store = store_of(request)
    try:
        submission = store.submissions.build_again(member.id, version)
    except LeagueError as exc:
        raise NotNow(str(exc)) from None
    builder = request.app.state.builder
    if builder is not None:
        builder.wake()
    return {"name": member.name, "new": False, "submission": submission_out(submission)}


NOT_A_PROGRAM = "is not a program played through its window, or is not built"
"""Why a version has no window to show or choose in."""


def version_of(request: Request, member: Member, version: int) -> Submission:
    """``member``'s ``version`` (its own count), or 404 where it has none (a file read:
    call it off the event loop)."""
    submission = store_of(request).submissions.version(member.id, version)
    if submission is None:
        raise GameNotFound(f"{member.name} has no version {version}")
    return submission


def _program(request: Request, member: Member, version: int) -> tuple[Submission, Path]:
    """The team's ``version`` and the folder its program was built in (its kept choice's,
    :func:`~adjacency.hosting.player.load_choice`; a refused version's, where it keeps its
    form: :func:`~adjacency.hosting.fx_kind.refused_form`); 404 for no such version, and for
    one that is no program played through its window or whose build is not kept."""
    submission = version_of(request, member, version)
    db = request.app.state.league_db
    folder = version_folder(db, member.id, submission.version)
    kept = refused_form(folder) if submission.status == "refused" else None
    if kept is not None:
        return submission, kept
    choice = load_choice(folder)
    if choice is None or not through_window(choice.kind):
        raise GameNotFound(f"{member.name}'s version {version} {NOT_A_PROGRAM}")
    return submission, choice.classes


@router.get("/submissions/{version}/form", response_model=ProgramForm)
async def version_form(request: Request, member: Team, version: int) -> dict[str, Any]:
    """The input window of the team's ``version``, a program played through its own
    window, as its dry run read it: the choice it plays with and the controls the team
    may choose (a refused version's too, with the values its window showed where no
    choice was made). 404 for another kind of version, or one whose build is not kept."""
    _, folder = await asyncio.to_thread(_program, request, member, version)
    form = await asyncio.to_thread(kept_form, folder)
    if form is None:
        raise GameNotFound(f"{member.name}'s version {version} {NOT_A_PROGRAM}")
    return {
        "choice": form.choice,
        "controls": [
            {"name": c.name, "label": c.label, "options": list(c.options), "chosen": c.chosen}
            for c in form.controls
        ],
    }


@router.post("/submissions/{version}/choice", status_code=201, response_model=Submitted)
async def choose(request: Request, member: Team, version: int, body: ChoiceIn) -> dict[str, Any]:
    """Play the program of the team's ``version`` with another choice in its window: the
    same files with the new choice are the team's next version, built and checked as an
    upload is. 400 for a choice its form does not have (the form's words), 404 as
    :func:`version_form`."""
    limits = request.app.state.limits
    check_rate(request, "upload", limits.uploads_per_minute, limits.upload_burst)
    submission, folder = await asyncio.to_thread(_program, request, member, version)
    form = await asyncio.to_thread(kept_form, folder)
    if form is None:
        raise GameNotFound(f"{member.name}'s version {version} {NOT_A_PROGRAM}")
    try:
        recipe_for(form.form, body.choose)
    except BuildFailed as exc:
        raise WebError(str(exc)) from None
    store = await asyncio.to_thread(_admit, request, member)

    def keep() -> tuple[Submission, bool]:
        """The same files with the new choice, kept as the team's next version."""
        data = with_choices(store.submissions.data(submission.id), body.choose)
        return store.submissions.add(member.id, data, submission.filename)

    try:
        added, new = await asyncio.to_thread(keep)
    except (ManifestError, IntakeRefused) as exc:
        raise WebError(str(exc)) from None
    builder = request.app.state.builder
    if builder is not None:
        builder.wake()
    return {"name": member.name, "new": new, "submission": submission_out(added)}


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
    return await asyncio.to_thread(versions_out, request, member_named(request, name))
