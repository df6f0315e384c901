"""The admin part of the JSON API: add a bot or a house bot, revoke or rotate a member's
token, remove a member, approve a person (their games are rated from then on). Every route needs the
league's admin token (:func:`~adjacency.league.http.auth.require_admin`); a revoked or
rotated member's connection is closed at once.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from ...bots import BotError
from ..http.auth import require_admin
from ..http.deps import hall_of, member_named, store_of
from ..models import (
    ERRORS,
    Added,
    Approved,
    NewMember,
    Removed,
    Revoked,
    Rotated,
)
from ..play.house import check_house_spec
from . import PREFIX

router = APIRouter(prefix=PREFIX, tags=["league"], responses=ERRORS)


@router.post(
    "/admin/members",
    status_code=201,
    response_model=Added,
    dependencies=[Depends(require_admin)],
)
async def add_member(request: Request, body: NewMember) -> dict[str, Any]:
    """Add a bot (answers its token, once) or a house bot (``spec``)."""
    if body.kind == "house":
        if not body.spec:
            raise BotError("a house bot needs a spec, e.g. greedy or alphabeta:depth=3")
        check_house_spec(body.spec)
    member, token = store_of(request).members.add_member(
        body.name, body.kind, body.spec if body.kind == "house" else None, body.concurrency
    )
    hall_of(request).wake()
    return {"name": member.name, "kind": member.kind, "token": token}


@router.post(
    "/admin/members/{name}/revoke", response_model=Revoked, dependencies=[Depends(require_admin)]
)
async def revoke(request: Request, name: str) -> dict[str, Any]:
    """Revoke a member's token: it is disconnected; its games and ratings stay."""
    member = store_of(request).members.revoke(member_named(request, name).name)
    hall = hall_of(request)
    outbox = hall.presence.connections.get(member.id)
    if outbox is not None:
        outbox.post({"type": "error", "detail": "this token was revoked"})
        outbox.close()
    return {"name": member.name, "revoked": True}


@router.post(
    "/admin/members/{name}/remove", response_model=Removed, dependencies=[Depends(require_admin)]
)
async def remove(request: Request, name: str) -> dict[str, Any]:
    """Remove a member: its token stops working for good and it is disconnected; its
    stored games stay in the history, the standings no longer list it (one that never
    played is deleted: ``deleted``, and its name is free)."""
    member, deleted = store_of(request).members.remove(member_named(request, name).name)
    hall = hall_of(request)
    outbox = hall.presence.connections.get(member.id)
    if outbox is not None:
        outbox.post({"type": "error", "detail": "this member was removed from the league"})
        outbox.close()
    return {"name": member.name, "removed": True, "deleted": deleted}


@router.post(
    "/admin/members/{name}/approve", response_model=Approved, dependencies=[Depends(require_admin)]
)
async def approve(request: Request, name: str) -> dict[str, Any]:
    """Approve a person: their games are rated from their next game on (a bot or house
    bot: 400, it needs no approval)."""
    member = store_of(request).members.approve(member_named(request, name).name)
    return {"name": member.name, "approved": True}


@router.post(
    "/admin/members/{name}/rotate", response_model=Rotated, dependencies=[Depends(require_admin)]
)
async def rotate(request: Request, name: str) -> dict[str, Any]:
    """A new token for a member (the old one stops working); answered once."""
    member = member_named(request, name)
    token = store_of(request).members.rotate(member.name)
    outbox = hall_of(request).presence.connections.get(member.id)
    if outbox is not None:
        outbox.close()
    return {"name": member.name, "token": token}
