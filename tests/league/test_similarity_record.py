"""An event's similarity report kept as a record, through the real league server: saved
with its time, its fingerprints' version and threshold and the pairs it lists; each pair
marked reviewed, cleared or flagged with a note; and what changed since: a pair no
longer listed when a team's new version drops the copy, new versions compared for a
pair still listed. Refusals change nothing."""

from __future__ import annotations

import time
from pathlib import Path

from adjacency.league.league_file import LeagueStore
from league_helpers import ADMIN, add_member, keep, project, request
from similarity_class import PLANTED, course_class


def test_a_saved_report_keeps_its_pairs_marks_and_says_what_changed(
    league: tuple[str, Path],
) -> None:
    url, db = league
    teams = course_class()
    for team, files in teams.items():
        add_member(db, team)
        keep(db, team, project(files))
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, list(teams))
        store.events.create("other", "round-robin", None, ["alpha", "beta"])
    api = f"{url}/api/league/admin/events/cup/similarity"
    empty = request(f"{api}/record", token=ADMIN).body
    assert (empty["made"], empty["pairs"], empty["changes"]) == (None, [], None)
    before = time.time()
    saved = request(f"{api}/record", "POST", {}, ADMIN)
    assert saved.status == 200, saved
    record = saved.body
    assert before <= record["made"] <= time.time()
    assert record["prints"] == record["prints_now"] and record["threshold"] == 0.5
    report = request(api, token=ADMIN).body  # the report as the route shows it now
    assert [(p["a"], p["b"], p["best"]) for p in record["pairs"]] == [
        (p["a"], p["b"], round(p["best"], 4)) for p in report["pairs"]
    ]
    assert {(p["a"], p["b"]) for p in record["pairs"]} == PLANTED
    assert record["changes"] == {"new": [], "gone": [], "versions": []}
    # marks: either order names the pair; the note is kept whole
    marked = request(f"{api}/marks", "PUT",
                     {"a": "delta", "b": "alpha", "mark": "flagged", "note": "same minimax"},
                     ADMIN)  # fmt: skip
    assert marked.status == 200, marked
    assert (marked.body["a"], marked.body["mark"], marked.body["note"]) == (
        "alpha", "flagged", "same minimax",
    )  # fmt: skip
    request(f"{api}/marks", "PUT", {"a": "epsilon", "b": "zeta", "mark": "reviewed"}, ADMIN)
    # refusals: no such pair, no record, a mark not offered, no token, a team's token
    bad = request(f"{api}/marks", "PUT", {"a": "beta", "b": "eta", "mark": "cleared"}, ADMIN)
    assert bad.status == 400 and "lists no pair" in bad.body["detail"]
    other = f"{url}/api/league/admin/events/other/similarity/marks"
    none = request(other, "PUT", {"a": "alpha", "b": "beta", "mark": "cleared"}, ADMIN)
    assert none.status == 400 and "save the report first" in none.body["detail"]
    odd = request(f"{api}/marks", "PUT", {"a": "alpha", "b": "delta", "mark": "guilty"}, ADMIN)
    assert odd.status == 422
    token = add_member(db, "nosy")
    assert request(f"{api}/record", token=token).status == 403
    assert request(f"{api}/record", "POST", {}).status == 401
    # since then: zeta drops the copied file, alpha uploads a new version
    zeta = {k: v for k, v in teams["zeta"].items() if k != "src/core/GameState.java"}
    keep(db, "zeta", project(zeta))
    keep(db, "alpha", project({**teams["alpha"], "src/adjacency/Note.java": "class Note {}\n"}))
    later = request(f"{api}/record", token=ADMIN).body
    assert later["made"] == record["made"]  # the record is as it was saved
    marks = {(p["a"], p["b"]): (p["mark"], p["note"]) for p in later["pairs"]}
    assert marks == {("alpha", "delta"): ("flagged", "same minimax"),
                     ("epsilon", "zeta"): ("reviewed", "")}  # fmt: skip
    changes = later["changes"]
    assert [(p["a"], p["b"]) for p in changes["gone"]] == [("epsilon", "zeta")]
    assert changes["new"] == []
    (moved,) = changes["versions"]
    assert (moved["a"], moved["b"], moved["a_version"], moved["was"]) == (
        "alpha",
        "delta",
        2,
        [1, 1],
    )
    # saved again: the record is the report now, the marks stay with their pairs
    again = request(f"{api}/record", "POST", {}, ADMIN).body
    assert [(p["a"], p["b"], p["mark"]) for p in again["pairs"]] == [("alpha", "delta", "flagged")]
    assert again["changes"] == {"new": [], "gone": [], "versions": []}
