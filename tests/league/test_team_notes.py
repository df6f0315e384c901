"""The teacher's notes on teams through the real league server: written, read back,
replaced and cleared by the admin token only (a team's own token is refused, so no
team reads what the teacher wrote), kept in the league file, in the grading sheet's
last column, and logged as the teacher's action by the team's name, never its words."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from league_helpers import ADMIN, add_member, request, wait_until

NOTE = "Pair-programmed with beta in week 3; asked about minimax twice."


def test_a_note_is_the_teachers_only_and_in_the_grading_sheet(
    league: tuple[str, Path], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="adjacency")  # the server's default level
    url, db = league
    token = add_member(db, "alpha")
    add_member(db, "beta")
    api = f"{url}/api/league/admin/members/alpha/note"
    assert request(api, token=ADMIN).body == {"name": "alpha", "note": "", "updated": None}
    written = request(api, "PUT", {"note": f"  {NOTE}\n"}, ADMIN)
    assert written.status == 200 and written.body["note"] == NOTE
    assert written.body["updated"] is not None
    assert request(api, token=ADMIN).body["note"] == NOTE
    # nobody else reads or writes it
    assert request(api).status == 401
    assert request(api, token=token).status == 403
    assert request(api, "PUT", {"note": "mine"}, token).status == 403
    assert request(f"{url}/api/league/admin/members/nobody/note", token=ADMIN).status == 404
    too_long = request(api, "PUT", {"note": "x" * 4001}, ADMIN)
    assert too_long.status == 422
    assert request(api, token=ADMIN).body["note"] == NOTE  # nothing changed
    with LeagueStore(db) as store:  # kept in the league file
        assert store.notes.note(store.members.member_named("alpha").id)[0] == NOTE
    sheet = request(f"{url}/api/league/admin/grading", token=ADMIN).body["teams"]
    assert {r["team"]: r["note"] for r in sheet} == {"alpha": NOTE, "beta": ""}
    csv_text = request(f"{url}/api/league/admin/grading.csv", token=ADMIN, raw=True).body
    assert csv_text.splitlines()[0].endswith(",note") and NOTE in csv_text
    cleared = request(api, "PUT", {"note": "   "}, ADMIN)
    assert cleared.body == {"name": "alpha", "note": "", "updated": None}

    def logged() -> list[str]:
        lines = request(f"{url}/api/league/admin/log?kind=teacher", token=ADMIN).body["lines"]
        return [line["message"] for line in lines if "note" in line["message"]]

    said = wait_until(lambda: len(logged()) == 2 and logged(), 30, "both notes logged")
    assert said == ["the teacher wrote the note on alpha", "the teacher cleared the note on alpha"]
    assert all("minimax" not in line for line in said)
