"""Teams' code where it is graded: a version's kept files (highlighted), the difference
between two versions (every kept file), a version's zip as the league keeps it (the
upload repacked with its kept files only: :mod:`adjacency.league.grading.left_out` notes the
zip as sent), and the similarity report of an event's teams
(:mod:`adjacency.league.grading.similarity`).

Who reads what: the admin token reads every team's code (``/admin/members/NAME/...``)
and every event's report; a team's bot token reads its own versions only
(``/submissions/...``: the token names the team, no route of a team takes another
team's name); any other secret is 401 or 403 (:mod:`adjacency.league.http.auth`). A version
is named by the team's own number (1 for its first upload); an unknown one is 404. The
zip is opened through the projects' intake (its limits checked before a byte is read),
in a worker thread on the store's read connection, never on the event loop.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as FastPath
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ...core.errors import AdjacencyError
from ...serving.errors import GameNotFound
from ..grading.class_similarity import class_report
from ..grading.fingerprints import K
from ..grading.left_out import read as read_left_out
from ..grading.matched_blocks import BLOCK_LINES, BLOCK_TOKENS
from ..grading.similarity import THRESHOLD, CommonFile, FilePair
from ..grading.version_code import Kept, diff, kept_files
from ..grading.version_digest import code_of, corpus_prints
from ..http.auth import require_admin, require_bot
from ..http.deps import heavy_read, member_named
from ..http.limits import check_rate
from ..league_file import LeagueError, LeagueStore
from ..models import ERRORS
from ..store.digest_rows import TEMPLATE, Kind
from ..store.records import Member
from ..store.submission_rows import Submission
from . import PREFIX
from .events import _event_named
from .pages import PAGES
from .submissions import UPLOAD_BODY
from .submissions import _pack as pack_upload

router = APIRouter(prefix=PREFIX, tags=["code"], responses=ERRORS)
pages = APIRouter(include_in_schema=False)

ADMIN = [Depends(require_admin)]
Team = Annotated[Member, Depends(require_bot)]
Version = Annotated[int, FastPath(ge=1, le=2**31, description="the team's version number")]
Pick = Annotated[int, Query(ge=1, le=2**31, description="a version number of the team")]
ZIP: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the version's zip as the league keeps it: the upload repacked with "
        "its kept files only (its SHA-256 is the version's sha256)",
        "content": {"application/zip": {}},
    }
}


class CodeFile(BaseModel):
    """One kept file: its path in the project and its lines as HTML (escaped, coloured
    by ``<span>`` classes of Pygments)."""

    path: str
    lines: list[str]


class LeftOutKind(BaseModel):
    """Files of one kind an upload held besides its kept files: how many, their bytes."""

    kind: str = Field(description="'jar', 'native library', 'class file' or 'other'")
    count: int
    bytes: int = Field(description="their size unpacked")


class VersionCode(BaseModel):
    """A version's kept files that are text (its sources, manifest and resources: FXML,
    CSS, properties), its kept pictures named, and what its upload held besides, unread."""

    name: str
    version: int
    sha256: str
    status: str
    files: list[CodeFile]
    pictures: list[str] = Field(default_factory=list, description="kept pictures, named")
    left_out: list[str] = Field(description="the paths left out (the first 200 of an upload)")
    left_out_kinds: list[LeftOutKind] = Field(
        default_factory=list, description="what the upload left out, by kind"
    )


class DiffLine(BaseModel):
    """A line of a diff: ``op`` ``" "`` (both), ``"-"`` (the older only), ``"+"`` (the
    newer only), its numbers in each version, its HTML."""

    op: str
    a: int | None
    b: int | None
    html: str


class FileDiff(BaseModel):
    """One kept file's difference: ``added``, ``removed``, ``changed`` or ``same``
    (every kept file: sources, manifest, FXML, CSS, properties; a picture compared by
    its bytes, named without lines)."""

    path: str
    status: str
    hunks: list[list[DiffLine]]
    picture: bool = Field(default=False, description="a kept picture: compared, not shown")


class VersionDiff(BaseModel):
    """Two versions of a team compared, file by file."""

    name: str
    a: int
    b: int
    files: list[FileDiff]


class PairOut(BaseModel):
    """Two projects compared: their listed file pairs (best first) and, beside them,
    the whole projects' shares (the skeleton left out)."""

    a: str
    b: str
    a_version: int
    b_version: int | None = Field(description="none for an entry of the corpus")
    corpus: bool = Field(description="whether ``b`` is an earlier project of the corpus")
    best: float = Field(description="the best file pair's larger share")
    a_share: float = Field(description="the share of a's whole project b has")
    b_share: float = Field(description="the share of b's whole project a has")
    shared: int
    files: list[FilePair] = Field(description="its file pairs, best first")


class SimilarityReport(BaseModel):
    """An event's teams compared file by file, pair by pair (best file share first),
    and each with the corpus."""

    event: str
    threshold: float
    least: int = Field(description="the fewest shared fingerprints of a listed file pair")
    block_tokens: int = Field(description="the fewest tokens of a matched block that lists")
    block_lines: int = Field(description="the fewest lines of a matched block, each side")
    template: str | None = Field(
        description="the base left out: a member's or a corpus entry's name, ``league`` "
        "(the league's template) or none (then the majority rule is in force)"
    )
    majority: bool = Field(description="whether the majority rule made the skeleton")
    common: list[CommonFile] = Field(
        description="with the majority rule, the files it took code from, to review"
    )
    skeleton: int = Field(description="fingerprints left out as the class's skeleton")
    teams: list[str] = Field(description="the teams compared (each with its version)")
    corpus: list[str] = Field(description="the earlier projects compared with the class")
    without_code: list[str] = Field(description="the event's teams with no accepted version")
    pairs: list[PairOut] = Field(description="the pairs with a file pair listed")
    below: int = Field(description="pairs with no file pair listed")


class CorpusEntry(BaseModel):
    """A kept entry of the similarity corpus."""

    name: str
    kind: str


class CorpusDropped(BaseModel):
    """A corpus entry dropped."""

    name: str
    dropped: bool


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


def _code(store: LeagueStore, member: Member, number: int) -> Response:
    """A version's code as shown (:class:`VersionCode`), read from its digest (made
    once: :mod:`~adjacency.league.grading.version_digest`), its files spliced in as kept: the
    answer, of megabytes for a large project, is never parsed nor checked again, here or
    on the event loop."""
    submission = _version(store, member, number)
    code, files = code_of(store, submission)
    dropped = read_left_out(store.submissions.left_out(submission.id))
    head = {
        "name": member.name,
        "version": submission.version,
        "sha256": submission.sha256,
        "status": submission.status,
        "pictures": code.get("pictures", []),
        "left_out": [*code["left_out"], *(path for path, _ in dropped["files"])],
        "left_out_kinds": dropped["kinds"],
    }
    body = json.dumps(head, separators=(",", ":"))[:-1] + ',"files":' + files + "}"
    return Response(body.encode(), media_type="application/json")


def _own(request: Request) -> None:
    """A team's reads of its own code: its own rate (each is a heavy read)."""
    limits = request.app.state.limits
    check_rate(request, "code", limits.code_reads_per_minute, limits.code_burst)


def _diff(store: LeagueStore, member: Member, a: int, b: int) -> dict[str, Any]:
    old = _kept(store, _version(store, member, a))
    new = _kept(store, _version(store, member, b))
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
async def team_code(request: Request, name: str, version: Version) -> Response:
    """A team's version: its kept files, highlighted (the admin token)."""
    member = member_named(request, name)
    return await heavy_read(request, lambda store: _code(store, member, version))


@router.get("/admin/members/{name}/diff", response_model=VersionDiff, dependencies=ADMIN)
async def team_diff(request: Request, name: str, a: Pick, b: Pick) -> dict[str, Any]:
    """Two of a team's versions compared, ``a`` the older side (the admin token)."""
    member = member_named(request, name)
    return await heavy_read(request, lambda store: _diff(store, member, a, b))


@router.get("/admin/members/{name}/versions/{version}/zip", dependencies=ADMIN, responses=ZIP)
async def team_zip(request: Request, name: str, version: Version) -> Response:
    """A team's version's kept zip, its upload repacked (the admin token)."""
    member = member_named(request, name)
    return await heavy_read(request, lambda store: _zip(store, member, version))


@router.get("/submissions/{version}/code", response_model=VersionCode)
async def own_code(request: Request, member: Team, version: Version) -> Response:
    """One of the team's own versions, its kept files highlighted (its bot token)."""
    _own(request)
    return await heavy_read(request, lambda store: _code(store, member, version))


@router.get("/submissions/diff", response_model=VersionDiff)
async def own_diff(request: Request, member: Team, a: Pick, b: Pick) -> dict[str, Any]:
    """Two of the team's own versions compared (its bot token)."""
    _own(request)
    return await heavy_read(request, lambda store: _diff(store, member, a, b))


@router.get("/submissions/{version}/zip", responses=ZIP)
async def own_zip(request: Request, member: Team, version: Version) -> Response:
    """One of the team's own versions' kept zip, its upload repacked (its bot token)."""
    _own(request)
    return await heavy_read(request, lambda store: _zip(store, member, version))


def _similarity(
    store: LeagueStore, event_name: str, threshold: float, template: str | None, block: Block
) -> dict[str, Any]:
    """The event's :func:`~adjacency.league.grading.class_similarity.class_report` as the
    route answers it: the pairs with a file pair listed."""
    event = store.events.named(event_name)
    found = class_report(store, event, threshold, template, *block)
    report, playing = found.report, found.playing
    listed = report.listed
    return {
        "event": event.name,
        "threshold": threshold,
        "least": report.least,
        "block_tokens": report.block_tokens,
        "block_lines": report.block_lines,
        "template": found.template,
        "majority": report.majority,
        "common": [asdict(f) for f in report.common],
        "skeleton": report.skeleton,
        "teams": report.teams,
        "corpus": report.corpus,
        "without_code": found.without,
        "pairs": [
            {
                "a": pair.a,
                "b": pair.b,
                "a_version": playing[pair.a].version,
                "b_version": playing[pair.b].version if pair.b in playing else None,
                "corpus": pair.b not in playing,
                "best": pair.best,
                "a_share": pair.a_share,
                "b_share": pair.b_share,
                "shared": pair.shared,
                "files": [asdict(f) for f in pair.files],
            }
            for pair in listed
        ],
        "below": len(report.pairs) - len(listed),
    }


Block = tuple[int, int]
"""A matched block's least tokens and lines."""


@router.get("/admin/events/{name}/similarity", response_model=SimilarityReport, dependencies=ADMIN)
async def similarity(
    request: Request,
    name: str,
    threshold: Annotated[float, Query(gt=0, le=1)] = THRESHOLD,
    template: Annotated[str | None, Query(max_length=80)] = None,
    block_tokens: Annotated[int, Query(ge=K, le=100_000)] = BLOCK_TOKENS,
    block_lines: Annotated[int, Query(ge=1, le=10_000)] = BLOCK_LINES,
) -> dict[str, Any]:
    """The event's teams compared file by file by their stored fingerprints (the
    versions they play in it), and each with the corpus; a file pair is listed by its
    share or by a matched block of ``block_tokens`` tokens and ``block_lines`` lines.
    The base left out: ``template`` (a corpus entry's name, else a member's latest
    upload), else the league's template, else the majority rule. 404: no such event,
    corpus entry or member."""
    event = _event_named(request, name)
    block = (block_tokens, block_lines)
    return await heavy_read(
        request, lambda store: _similarity(store, event.name, threshold, template, block)
    )


CorpusName = Annotated[
    str, Query(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/ -]*$")
]


async def _corpus_zip(request: Request, name: str, kind: Kind) -> None:
    packed, _ = await pack_upload(request)

    def keep(store: LeagueStore) -> None:
        store.digests.add(name, kind, packed.data, corpus_prints(packed.data, name))

    await heavy_read(request, keep)


@router.post(
    "/admin/similarity/template",
    status_code=201,
    response_model=CorpusEntry,
    dependencies=ADMIN,
    openapi_extra={"requestBody": UPLOAD_BODY},
)
async def put_template(request: Request) -> dict[str, str]:
    """Keep the zip in the body as the league's template (the code the class was given),
    left out of every pair of every similarity report; it replaces the one before. 400:
    a zip the intake refuses."""
    await _corpus_zip(request, TEMPLATE, "template")
    return {"name": TEMPLATE, "kind": "template"}


@router.post(
    "/admin/similarity/corpus",
    status_code=201,
    response_model=CorpusEntry,
    dependencies=ADMIN,
    openapi_extra={"requestBody": UPLOAD_BODY},
)
async def add_corpus(request: Request, name: CorpusName) -> dict[str, str]:
    """Keep the zip in the body as an earlier project of the corpus, called ``name``
    (``2025/team3``): every report compares the class with it. 400: a name kept
    already, or a zip the intake refuses."""
    if name == TEMPLATE:
        raise LeagueError(f"{TEMPLATE!r} is the template's name: call the project otherwise")
    await _corpus_zip(request, name, "earlier")
    return {"name": name, "kind": "earlier"}


@router.get("/admin/similarity/corpus", response_model=list[CorpusEntry], dependencies=ADMIN)
async def corpus(request: Request) -> list[dict[str, str]]:
    """The corpus' entries: the template (if one is kept) and the earlier projects."""

    def listed(store: LeagueStore) -> list[dict[str, str]]:
        return [
            {"name": name, "kind": kind}
            for kind in ("template", "earlier")
            for name in store.digests.entries(kind)  # type: ignore[arg-type]
        ]

    return await heavy_read(request, listed)


@router.delete(
    "/admin/similarity/corpus/{name:path}", response_model=CorpusDropped, dependencies=ADMIN
)
async def drop_corpus(request: Request, name: str) -> CorpusDropped:
    """Drop a corpus entry (``template``: the league's template). 404: none so named."""
    if not await heavy_read(request, lambda store: store.digests.remove(name)):
        raise GameNotFound(f"the corpus has no entry named {name[:80]!r}")
    return CorpusDropped(name=name, dropped=True)


@pages.get("/teacher/code")
def code_page(request: Request) -> Response:
    """``/teacher/code``: a team's version, two versions' difference or an event's
    similarity report, as its address asks (the page reads the admin token the teacher's
    page keeps in the tab, then the API)."""
    return PAGES.response("code.html", request)
