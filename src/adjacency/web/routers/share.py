"""The QR codes of a game's share links (:mod:`adjacency.web.qr`): the watch link for
any visitor, a seat's link for whoever presents its token. Included by the games'
router; an image for the page, so not in the API's description.

Contract: the link drawn is built from the server's own values only: the address the
request reached (its scheme and Host, which the Host guard checks where the server
names its hosts, and which must look like a host name or address of at most
:data:`MAX_SITE` characters), the game's id as the server knows it, and a seat token
the server has checked opens a seat of that game. Nothing else the client sends is
drawn. A seat's code holds its token: it is drawn afresh each time and never kept or
logged (``Cache-Control: no-store``).
"""

from __future__ import annotations

import re
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ...serving.errors import Forbidden, WebError
from ..deps import Manager, rate_limited
from ..qr import public_qr_svg, qr_svg

router = APIRouter()

MAX_SITE = 100
"""The longest scheme and host (with its port) a drawn link may start with."""
SITE = re.compile(r"https?://(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
"""A scheme and a host name, an IPv4 or a bracketed IPv6 address, and a port."""


class QrRequest(BaseModel):
    """Which link of the game to draw: its watch link, or the link of the seat whose
    token is given."""

    model_config = ConfigDict(extra="forbid")
    token: str | None = Field(
        default=None, max_length=64, description="a seat's token (from its seat link)"
    )


def site(request: Request) -> str:
    """The scheme and host the request reached (``http://192.168.1.20:8000``): what the
    page's own address starts with; 400 if it is no plain host."""
    url = request.url
    found = f"{url.scheme}://{url.netloc}"
    if len(found) > MAX_SITE or not SITE.fullmatch(found):
        raise WebError(f"this server's address ({found[:MAX_SITE]!r}) cannot start a share link")
    return found


@router.post(
    "/api/games/{game_id}/qr",
    include_in_schema=False,
    response_class=Response,
    dependencies=[rate_limited("move")],
)
def share_qr(game_id: str, body: QrRequest, request: Request, manager: Manager) -> Response:
    """The QR code (SVG) of the game's watch link (``/?game=ID``), or with ``token`` of
    that seat's link (``/?game=ID#seat=TOKEN``); 403 if the token opens no seat of the
    game, 404 for an unknown game."""
    session = manager.get(game_id)
    link = f"{site(request)}/?game={quote(session.id, safe='')}"
    if body.token is None:
        svg = public_qr_svg(link)
    else:
        if session.seats.token_seat(body.token) is None:
            raise Forbidden(
                "this token opens no seat of this game: only a seat's link makes its code",
                code="bad_seat_link",
            )
        svg = qr_svg(f"{link}#seat={body.token}")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})
