"""A code view is made once: while a version's digest is being made (by the builder at
acceptance, or by the first request for a version accepted before digests were kept),
another request for it is answered at once with "being prepared" (503,
``being_prepared``) instead of making it again, and once made it is served from storage
(the real league server)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from adjacency.league import version_digest
from league_helpers import ADMIN, Response, add_member, keep, project, request

MIB = 1 << 20


def test_a_view_being_made_is_answered_at_once_then_served_from_storage(
    league: tuple[str, Path],
) -> None:
    url, db = league
    add_member(db, "team1")
    files = {f"src/A{i}.java": "<a" * (MIB // 2) for i in range(3)}  # 3 s to digest
    files["src/Bot.java"] = "class Bot { int depth = 2; }\n"
    keep(db, "team1", project(files))  # accepted with no digest: made when first asked
    api = url + "/api/league/admin/members/team1/versions/1/code"
    first: list[Response] = []
    asking = threading.Thread(target=lambda: first.append(request(api, token=ADMIN)))
    asking.start()
    deadline = time.monotonic() + 30.0
    while not version_digest.preparing() and asking.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)
    assert version_digest.preparing(), "the first request never made the digest"
    second = request(api, token=ADMIN)
    asking.join(60.0)
    assert second.status == 503, second
    assert second.body["code"] == "being_prepared"
    assert "is being prepared: ask again in a few seconds" in second.body["detail"]
    [made] = first
    assert made.status == 200, made
    assert [f["path"] for f in made.body["files"]] == [*sorted(files)]
    assert not version_digest.preparing()
    served = request(api, token=ADMIN)
    assert served.status == 200 and served.body == made.body
