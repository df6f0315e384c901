"""FastAPI dependencies shared by the routers: the server's :class:`GameManager`.

The manager lives on ``app.state`` (set by :func:`~adjacency.web.app.create_app`);
routes receive it as a parameter typed :data:`Manager`, so a test can build an
app around any manager and the routers hold no global state.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from .manager import GameManager


async def get_manager(request: Request) -> GameManager:
    """The manager of the app serving ``request``."""
    manager: GameManager = request.app.state.manager
    return manager


Manager = Annotated[GameManager, Depends(get_manager)]
"""A route parameter of this type receives the app's game manager."""
