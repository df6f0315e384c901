"""A team's side of submitting code: the upload over HTTP (``adjacency league submit``).

The project is packed on the team's machine as the server keeps it
(:func:`adjacency.hosting.packing.pack`: only its kept files, the same bytes the server makes of the
same project sent through the team's page), so only those few hundred kilobytes travel. :func:`send`
posts such a zip to the league (the team's token as its bearer; TLS verified against the system's
authorities or ``cafile``) and :func:`fetch_versions` lists the team's versions; a refusal raises
:class:`~.wire.LeagueRefused` with the server's own words, a server that cannot be reached
:class:`~.connect.ConnectError`.
"""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.request
from typing import Any

from ..hosting.packing import Packed
from .connect import ConnectError
from .wire import LeagueRefused

SUBMISSIONS_PATH = "/api/league/submissions"


def _context(url: str, cafile: str | None) -> ssl.SSLContext | None:
    return ssl.create_default_context(cafile=cafile) if url.startswith("https://") else None


def _base(url: str) -> str:
    base = url.rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise LeagueRefused(f"league URL {url[:80]!r}: expected http://HOST:PORT or https://...")
    return base


def _call(request: urllib.request.Request, url: str, cafile: str | None) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(request, timeout=60, context=_context(url, cafile)) as got:
            answer: dict[str, Any] = json.loads(got.read())
            return answer
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read()).get("detail", "")
        except (ValueError, AttributeError):
            detail = ""
        raise LeagueRefused(f"the league refused it ({exc.code}): {detail or exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ConnectError(f"cannot reach the league at {url}: {reason}") from None


def send(
    url: str, token: str, packed: Packed, filename: str, cafile: str | None = None
) -> dict[str, Any]:
    """Upload ``packed`` as the team's next version; the server's answer
    (``name``, ``new``, ``submission``)."""
    request = urllib.request.Request(
        _base(url) + SUBMISSIONS_PATH,
        data=packed.data,
        method="POST",
        headers={
            "Content-Type": "application/zip",
            "Authorization": f"Bearer {token}",
            "X-Filename": filename,
        },
    )
    return _call(request, url, cafile)


def fetch_versions(url: str, token: str, cafile: str | None = None) -> dict[str, Any]:
    """The team's versions as the server lists them (``name``, ``submissions``)."""
    request = urllib.request.Request(
        _base(url) + SUBMISSIONS_PATH, headers={"Authorization": f"Bearer {token}"}
    )
    return _call(request, url, cafile)


def fetch_games(url: str, token: str, version: int, cafile: str | None = None) -> Any:
    """The games the team's ``version`` played, newest first, as the server lists them
    (each failure of the team's own program told whole)."""
    request = urllib.request.Request(
        f"{_base(url)}{SUBMISSIONS_PATH}/{int(version)}/games",
        headers={"Authorization": f"Bearer {token}"},
    )
    return _call(request, url, cafile)
