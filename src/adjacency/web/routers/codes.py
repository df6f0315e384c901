"""Short seat codes (:mod:`adjacency.web.codes`): made for a seat by whoever presents its
token, typed on the main page of another device to get the seat's link. Included by
the games' router."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ...serving.errors import Forbidden, GameNotFound, TooMany, WebError
from ..codes import (
    CODE_SECONDS,
    SERVER_TRIES_BURST,
    SERVER_TRIES_PER_MINUTE,
    TRIES_BURST,
    TRIES_PER_MINUTE,
    BadCode,
    SeatCodes,
    normalize,
)
from ..deps import Manager, limited_client, rate_limited
from . import ERRORS

router = APIRouter()


class CodeRequest(BaseModel):
    """A seat's token, to make its short code."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=64, description="the seat's token (from its seat link)")


class SeatCodeInfo(BaseModel):
    """A seat's short code: typed on the main page of another device, it opens the seat."""

    code: str = Field(description="six letters and digits (no 0, O, 1, I or L)")
    seat: Literal["x", "o"]
    seconds: float = Field(description="seconds the code stays valid")


class CodeLookup(BaseModel):
    """A code as typed (any case; spaces and dashes are ignored)."""

    model_config = ConfigDict(extra="forbid")
    code: str = Field(max_length=32)


class CodeSeat(BaseModel):
    """The seat a code stands for and its link (``/?game=ID#seat=TOKEN``)."""

    game: str
    seat: Literal["x", "o"]
    link: str


def seat_codes(request: Request) -> SeatCodes:
    """The app's live codes (made on first use)."""
    codes: SeatCodes | None = getattr(request.app.state, "seat_codes", None)
    if codes is None:
        codes = request.app.state.seat_codes = SeatCodes()
    return codes


@router.post(
    "/api/games/{game_id}/code",
    response_model=SeatCodeInfo,
    responses=ERRORS,
    tags=["games"],
    dependencies=[rate_limited("create")],
)
def make_code(game_id: str, body: CodeRequest, request: Request, manager: Manager) -> SeatCodeInfo:
    """The short code of the seat whose token is given (the same one while it lasts, 30
    minutes); 403 if the token opens no seat of the game."""
    session = manager.get(game_id)
    color = session.seats.token_seat(body.token)
    if color is None:
        raise Forbidden(
            "this token opens no seat of this game: only a seat's link makes its code",
            code="bad_seat_link",
        )
    code, _ = seat_codes(request).make(session.id, color, body.token)
    return SeatCodeInfo(code=code, seat=color, seconds=CODE_SECONDS)


@router.post("/api/codes", response_model=CodeSeat, responses=ERRORS, tags=["games"])
def find_code(body: CodeLookup, request: Request) -> CodeSeat:
    """The seat link a code stands for. Each look-up, found or not, counts against the
    address's tries (6 a minute after 10 at once) and the server's (60 a minute after
    60 at once, all addresses together): 429 beyond either; a code of the wrong shape
    is 400, an unknown or expired one 404."""
    address = limited_client(request)
    rates = request.app.state.rates
    if address is not None and not rates.allow(address, "seat-code", TRIES_PER_MINUTE, TRIES_BURST):
        raise TooMany(
            f"too many seat codes tried from your address (at most {TRIES_PER_MINUTE:g} a "
            "minute); wait a minute",
            code="code_tries",
        )
    if address is not None and not rates.allow(
        "*", "seat-code", SERVER_TRIES_PER_MINUTE, SERVER_TRIES_BURST
    ):
        raise TooMany(
            "too many seat codes tried on this server lately (at most "
            f"{SERVER_TRIES_PER_MINUTE:g} a minute from everyone); wait a minute, or open "
            "the seat's link",
            code="code_tries_server",
        )
    try:
        code = normalize(body.code)
    except BadCode as exc:
        raise WebError(str(exc), code="bad_code") from None
    seat = seat_codes(request).find(code)
    if seat is None:
        raise GameNotFound(
            f"no seat has the code {code}: a code lasts 30 minutes; ask for a new one",
            code="unknown_code",
            params={"code": code},
        )
    return CodeSeat(game=seat.game, seat=seat.color, link=f"/?game={seat.game}#seat={seat.token}")
