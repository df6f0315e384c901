"""A code view is made once, by a worker process of its own, never by the threads that
answer requests: a request for a version whose digest is not made yet (accepted before
digests were kept) starts its making and is answered at once with "being prepared" (503,
``being_prepared``), and so is every request while it is made; other requests are
answered meanwhile; once made, the view is served from storage (the real league
server).

The worker is held stopped (SIGSTOP) while the requests are made, so "answered while
the digest runs" is an ordering the test fixes, never a race with the machine's load.

The builder stores an accepted version's verdict first and makes its digest after, so
its first games never wait for it; a code view asked for in between is "being prepared"
and starts no second making."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from adjacency.hosting.verdict import Judged
from adjacency.league import builder
from adjacency.league.grading import digest_worker, version_digest
from adjacency.league.league_file import LeagueStore
from adjacency.league.store.submission_rows import Submission
from league_helpers import ADMIN, Response, add_member, keep, make_league, project, request

MIB = 1 << 20


def _until(ask: Callable[[], Response], status: int, what: str) -> Response:
    deadline = time.monotonic() + 45.0
    while True:
        answer = ask()
        if answer.status == status or time.monotonic() > deadline:
            assert answer.status == status, (what, answer)
            return answer
        time.sleep(0.05)


def test_a_view_being_made_is_answered_at_once_then_served_from_storage(
    league: tuple[str, Path],
) -> None:
    url, db = league
    add_member(db, "team1")
    files = {f"src/A{i}.java": "<a" * (MIB // 2) for i in range(3)}
    files["src/Bot.java"] = "class Bot { int depth = 2; }\n"
    keep(db, "team1", project(files), digest=False)  # made when first asked
    api = url + "/api/league/admin/members/team1/versions/1/code"
    first = request(api, token=ADMIN)
    assert first.status == 503, first
    assert first.body["code"] == "being_prepared"
    assert "is being prepared: ask again in a few seconds" in first.body["detail"]
    said = {name.lower(): value for name, value in first.headers.items()}
    assert said["retry-after"] == "2"  # when the page asks again
    deadline = time.monotonic() + 30.0
    while not digest_worker.running() and time.monotonic() < deadline:
        time.sleep(0.005)
    [worker] = digest_worker.running()
    assert worker != os.getpid()  # made in a process of its own
    os.kill(worker, signal.SIGSTOP)  # the digest is in hand until the test lets it go
    try:
        again = request(api, token=ADMIN)
        other = request(url + "/api/league/members/team1")
        assert digest_worker.running() == [worker]  # both answered while it was made
    finally:
        os.kill(worker, signal.SIGCONT)
    assert again.status == 503 and again.body["code"] == "being_prepared", again
    assert other.status == 200, other
    made = _until(lambda: request(api, token=ADMIN), 200, "the view once made")
    assert [f["path"] for f in made.body["files"]] == [*sorted(files)]
    assert not version_digest.preparing() and not digest_worker.running()
    served = request(api, token=ADMIN)
    assert served.status == 200 and served.body == made.body


def test_the_builder_stores_the_verdict_then_makes_the_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "team1")
    seen: dict[str, object] = {}

    def digest(store: LeagueStore, submission: Submission) -> None:  # as the builder's is
        seen["status"] = store.submissions.get(submission.id).status
        with pytest.raises(version_digest.BeingPrepared):  # a code view asked for now
            version_digest.code_of(store, submission)
        seen["making"] = version_digest.preparing()  # that request started no other

    monkeypatch.setattr(builder, "keep_version_digest", digest)
    with LeagueStore(db) as store:
        member = store.members.member_named("team1")
        store.submissions.add(member.id, project({"bot.py": "print()\n"}), "team.zip")
        claimed = store.submissions.claim()
        assert claimed is not None
        builder.Builder(db)._keep(store, claimed, tmp_path / "build", Judged(True, "ok"))
    assert seen == {"status": "accepted", "making": frozenset({claimed.id})}
    assert not version_digest.preparing()  # released once made
