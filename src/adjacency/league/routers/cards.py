"""The report cards of the teams' versions (:mod:`adjacency.league.grading.report_card`):
a team's own, with its bot token; any team's, every team's as CSV and as a printable
page, with the league's admin token.

Each answer says at once what is made: a card being made (in the background, at the
lowest priority, :mod:`~adjacency.league.grading.card_worker`) is listed ``computing``
and appears when asked again. ``board`` is the web app's address where the league was
told it (``league serve --analysis-board``): the pages link each figure to its position
on that analysis board. The reads run in the heavy reads' own pool.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from ..grading.card_sheet import STATES, as_csv, csv_rows, printable, team_cards
from ..grading.card_worker import CardKeeper
from ..http.auth import require_admin, require_bot
from ..http.deps import heavy_read, named
from ..models import ERRORS
from ..store.records import MAX_NAME, Member
from . import PREFIX

router = APIRouter(prefix=PREFIX, tags=["report cards"], responses=ERRORS)

ADMIN = [Depends(require_admin)]
Team = Annotated[Member, Depends(require_bot)]
TeamName = Annotated[str, Query(min_length=1, max_length=MAX_NAME, description="a team's name")]


class VersionCard(BaseModel):
    """One accepted version's card."""

    version: int
    state: str = Field(description=f"one of {', '.join(STATES)}")
    card: dict[str, Any] | None = Field(
        description="the card (docs/league.md, 'Report cards'); null unless ready"
    )
    summary: dict[str, Any] | None = Field(description="its figures in one row; null unless ready")


class Cards(BaseModel):
    """A team's versions' cards, oldest first, and the analysis board's address."""

    team: str
    board: str | None = Field(description="the web app's address; null: no links")
    versions: list[VersionCard]


def keeper_of(request: Request) -> CardKeeper:
    """The app's :class:`~adjacency.league.grading.card_worker.CardKeeper`."""
    keeper: CardKeeper = request.app.state.cards
    return keeper


def board_of(request: Request) -> str | None:
    """The analysis board's address the league was told, or ``None``."""
    board: str | None = request.app.state.analysis_board
    return board


@router.get("/cards", response_model=Cards)
async def own_cards(request: Request, member: Team) -> dict[str, Any]:
    """The report cards of the team's accepted versions (its bot token)."""
    keeper = keeper_of(request)
    versions = await heavy_read(request, lambda store: team_cards(store, keeper, member))
    return {"team": member.name, "board": board_of(request), "versions": versions}


@router.get("/admin/cards", response_model=Cards, dependencies=ADMIN)
async def cards_of(request: Request, team: TeamName) -> dict[str, Any]:
    """The report cards of ``team``'s accepted versions (404: no such team)."""
    keeper = keeper_of(request)

    def read(store: Any) -> tuple[str, list[dict[str, Any]]]:
        member = named(store, team)
        return member.name, team_cards(store, keeper, member)

    name, versions = await heavy_read(request, read)
    return {"team": name, "board": board_of(request), "versions": versions}


@router.get(
    "/admin/cards.csv",
    dependencies=ADMIN,
    responses={200: {"description": "a row per version", "content": {"text/csv": {}}}},
)
async def cards_csv(request: Request) -> Response:
    """Every team's accepted versions' cards as CSV, one row each (beside the grading
    sheet): a card still being made has its state and an empty row."""
    keeper = keeper_of(request)
    text = await heavy_read(request, lambda store: as_csv(csv_rows(store, keeper)))
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": 'attachment; filename="league-cards.csv"',
            "Cache-Control": "no-store",
        },
    )


@router.get(
    "/admin/cards.html",
    dependencies=ADMIN,
    responses={200: {"description": "the page to print", "content": {"text/html": {}}}},
)
async def cards_page(
    request: Request,
    lang: Literal["en", "id"] = "en",
    team: Annotated[str | None, Query(max_length=MAX_NAME)] = None,
) -> HTMLResponse:
    """The report cards as one page to print (a download), in ``lang``: every team's,
    or ``team``'s alone (404: no such team)."""
    keeper = keeper_of(request)

    def read(store: Any) -> dict[str, list[dict[str, Any]]]:
        if team is not None:
            member = named(store, team)
            return {member.name: team_cards(store, keeper, member)}
        return {
            m.name: team_cards(store, keeper, m)
            for m in store.members.members()
            if m.kind == "bot" and not m.removed
        }

    teams = await heavy_read(request, read)
    return HTMLResponse(
        printable(teams, lang, board_of(request)),
        headers={
            "Content-Disposition": 'attachment; filename="league-cards.html"',
            "Cache-Control": "no-store",
        },
    )
