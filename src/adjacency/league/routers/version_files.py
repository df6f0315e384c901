"""A version's kept pictures and output, for its team (the bot token) and the teacher (the
admin token): the PNGs of its program's window and of its board at a failed move, and
its program's last output there, each served as a file that can run nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends, Request, Response

from ...hosting.fx_kind import kept_window
from ...hosting.kinds import through_window
from ...hosting.player import load_choice
from ...serving.errors import GameNotFound
from ..builder import version_folder
from ..http.auth import require_admin
from ..http.deps import member_named, store_of
from ..models import ERRORS
from ..store.picture_rows import What
from ..store.records import Member
from . import PREFIX
from .submissions import Team, version_of

router = APIRouter(prefix=PREFIX, tags=["league"], responses=ERRORS)

PNG_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"content": {"image/png": {}}, "description": "the picture"}
}


@router.get("/submissions/{version}/window.png", responses=PNG_ANSWER)
async def version_window(request: Request, member: Team, version: int) -> Response:
    """The picture of the input window of the team's ``version`` (a PNG, as its dry run
    drew it): an accepted program's, or a refused one's that opened its window. 404
    where there is none."""
    return await _picture(request, member, version, "window")


@router.get("/submissions/{version}/board.png", responses=PNG_ANSWER)
async def check_board(request: Request, member: Team, version: int) -> Response:
    """The picture of the board of the team's ``version`` (a program played through its
    window) at the failed move of its check, as its window drew it then. 404 where none
    is kept (the version was not refused so, or its window did not answer)."""
    return await _picture(request, member, version, "check")


@router.get("/submissions/{version}/games/{game_id}/board.png", responses=PNG_ANSWER)
async def game_board(request: Request, member: Team, version: int, game_id: int) -> Response:
    """The picture of the board of the team's ``version`` at its failed move in game
    ``game_id``, as its window drew it then. 404 where none is kept."""
    return await _picture(request, member, version, "game", game_id)


TEXT_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/plain": {}}, "description": "the program's last output"}
}


@router.get("/submissions/{version}/output.txt", responses=TEXT_ANSWER)
async def version_output(request: Request, member: Team, version: int) -> Response:
    """The last output of the team's refused ``version`` at its check's failed move: its
    program's standard error, at most its last 64 KiB (its prints and traces). 404 where
    none is kept."""
    return await _output(request, member, version)


@router.get("/submissions/{version}/games/{game_id}/output.txt", responses=TEXT_ANSWER)
async def game_output(request: Request, member: Team, version: int, game_id: int) -> Response:
    """The last output of the team's ``version`` at the failed move that lost it game
    ``game_id``, as :func:`version_output`. 404 where none is kept."""
    return await _output(request, member, version, game_id)


ADMIN_PICTURES = "/admin/members/{name}/submissions/{version}"
"""Where the teacher reads a team's pictures (the same as the team's, by its name)."""


@router.get(
    ADMIN_PICTURES + "/window.png", responses=PNG_ANSWER, dependencies=[Depends(require_admin)]
)
async def team_window(request: Request, name: str, version: int) -> Response:
    """A team's version's window, as :func:`version_window` (the admin token)."""
    return await _picture(request, member_named(request, name), version, "window")


@router.get(
    ADMIN_PICTURES + "/board.png", responses=PNG_ANSWER, dependencies=[Depends(require_admin)]
)
async def team_check_board(request: Request, name: str, version: int) -> Response:
    """A team's version's board at its check's failed move, as :func:`check_board`."""
    return await _picture(request, member_named(request, name), version, "check")


@router.get(
    ADMIN_PICTURES + "/games/{game_id}/board.png",
    responses=PNG_ANSWER,
    dependencies=[Depends(require_admin)],
)
async def team_game_board(request: Request, name: str, version: int, game_id: int) -> Response:
    """A team's version's board at its failed move in a game, as :func:`game_board`."""
    return await _picture(request, member_named(request, name), version, "game", game_id)


@router.get(
    ADMIN_PICTURES + "/output.txt", responses=TEXT_ANSWER, dependencies=[Depends(require_admin)]
)
async def team_output(request: Request, name: str, version: int) -> Response:
    """A team's refused version's last output, as :func:`version_output`."""
    return await _output(request, member_named(request, name), version)


@router.get(
    ADMIN_PICTURES + "/games/{game_id}/output.txt",
    responses=TEXT_ANSWER,
    dependencies=[Depends(require_admin)],
)
async def team_game_output(request: Request, name: str, version: int, game_id: int) -> Response:
    """A team's version's last output in a game it lost, as :func:`game_output`."""
    return await _output(request, member_named(request, name), version, game_id)


async def _output(request: Request, member: Member, version: int, game_id: int = 0) -> Response:
    """The last output kept for ``member``'s ``version`` at its check (``game_id`` 0) or
    in game ``game_id``, as plain UTF-8 text with the pictures' headers (never sniffed,
    never run); 404 for no such version or output."""

    def read() -> str | None:
        submission = version_of(request, member, version)
        return store_of(request).outputs.output(submission.id, game_id)

    text = await asyncio.to_thread(read)
    if text is None:
        where = f" in game {game_id}" if game_id else ""
        raise GameNotFound(f"{member.name}'s version {version} has no output kept{where}")
    return Response(text, media_type="text/plain; charset=utf-8", headers=PICTURE_HEADERS)


PICTURE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox; frame-ancestors 'self'",
}
"""The headers of every picture of a team's program: never cached, never sniffed as
anything but the PNG it is, and a policy of its own that lets it load nothing and run
nothing even when opened alone (a team's picture is drawn again before it is kept, and
served as if it were not)."""


async def _picture(
    request: Request, member: Member, version: int, what: What, game_id: int = 0
) -> Response:
    """The picture of ``what`` of ``member``'s ``version`` (and ``game_id``) as the
    answer: a PNG with :data:`PICTURE_HEADERS`; 404 for no such version or picture."""

    def read() -> bytes | None:
        submission = version_of(request, member, version)
        if what == "window":  # an accepted program's is in its build
            db = request.app.state.league_db
            choice = load_choice(version_folder(db, member.id, submission.version))
            if choice is not None and through_window(choice.kind):
                return kept_window(choice.classes)
        return store_of(request).pictures.picture(submission.id, what, game_id)

    picture = await asyncio.to_thread(read)
    if picture is None:
        shown = {"window": "its window", "check": "its board", "game": f"game {game_id}"}
        raise GameNotFound(f"{member.name}'s version {version} has no picture of {shown[what]}")
    return Response(picture, media_type="image/png", headers=PICTURE_HEADERS)
