"""The teacher's own actions are in the server's log, through the real server's routes
and its log route: creating, changing, starting, pausing, resuming an event, withdrawing
and reinstating a team, an upload deadline; each line names the event and the team, and
is told in Indonesian when the page asks for it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from league_helpers import ADMIN, add_member, make_league, request, thread_server


def test_the_teachers_actions_are_logged_by_name(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="adjacency")  # the server's default level
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    for name in ("red", "blue", "gold"):
        add_member(db, name)
    with thread_server(db, house_games=False) as url:
        api = url + "/api/league/admin/events"
        body = {"name": "friday", "format": "round-robin", "members": ["red", "blue", "gold"]}
        steps = [
            ("POST", api, body),
            ("PUT", api + "/friday", {**body, "pace": 0.5}),
            ("PUT", api + "/friday/deadline", {"deadline": 4e9}),
            ("POST", api + "/friday/start", {}),
            ("POST", api + "/friday/withdraw", {"member": "gold"}),
            ("POST", api + "/friday/pause", {}),
            ("POST", api + "/friday/resume", {}),
        ]
        for method, address, sent in steps:
            answer = request(address, method, sent, ADMIN)
            assert answer.status in (200, 201), (address, answer)
        log = request(url + "/api/league/admin/log?kind=teacher", token=ADMIN).body
        gold = request(url + "/api/league/admin/log?team=gold", token=ADMIN).body
        told = request(url + "/api/league/admin/log?kind=teacher&lang=id", token=ADMIN).body
    said = [line["message"] for line in log["lines"]]
    assert said == [
        "the teacher created event friday (round-robin, members red, blue, gold)",
        "the teacher changed event friday",
        "the teacher set event friday's upload deadline",
        "the teacher started event friday",
        "the teacher withdrew gold from event friday",
        "the teacher paused event friday",
        "the teacher resumed event friday",
    ], said
    assert [line["text"] for line in told["lines"]] == [
        "guru membuat acara friday (round-robin, anggota red, blue, gold)",
        "guru mengubah acara friday",
        "guru menetapkan batas waktu unggah acara friday",
        "guru memulai acara friday",
        "guru menarik gold dari acara friday",
        "guru menjeda acara friday",
        "guru melanjutkan acara friday",
    ]
    assert [line["message"] for line in told["lines"]] == said
    assert "teacher" in log["kinds"]
    assert "the teacher withdrew gold from event friday" in [m["message"] for m in gold["lines"]]
