"""A withdrawal is undone (``POST .../reinstate``, ``adjacency league event reinstate``)
until the event's next round is paired, through a real league server: after that, and
for a member not withdrawn, it is refused with the reason and nothing changes (over HTTP
and on the command line); the teacher's overview says, for each withdrawn member,
whether it can still be undone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.events.event_pairing import Board
from adjacency.league.league_file import LeagueStore
from cli_helpers import run
from league_helpers import (
    ADMIN,
    Response,
    add_member,
    make_league,
    request,
    thread_server,
    wait_until,
)

pytestmark = pytest.mark.xdist_group("league-teacher")

HOUSE = ("h1", "h2", "h3", "h4")
PACE = 20.0
"""Seconds each move of the event's games takes: its first round lasts for minutes, far
beyond the test, so the next round is never paired by the server meanwhile."""


def league(tmp_path: Path) -> Path:
    db = tmp_path / "league.db"
    make_league(db, base=600.0, increment=0.0)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(HOUSE), pace=PACE)
    return db


def withdrawn(db: Path) -> set[str]:
    with LeagueStore(db) as store:
        event = store.events.named("friday")
        return {store.members.member(m).name for m in store.events.withdrawn(event.id)}


def members(url: str) -> dict[str, Any]:
    """The teacher's overview of friday's members: name to (withdrawn, undo)."""
    overview = request(f"{url}/api/league/admin/overview", token=ADMIN).body
    (event,) = [e for e in overview["events"] if e["name"] == "friday"]
    return {m["name"]: (m["withdrawn"], m["undo"]) for m in event["members"]}


def test_a_withdrawal_is_undone_until_the_next_round_then_refused_with_the_reason(
    tmp_path: Path,
) -> None:
    db = league(tmp_path)
    with thread_server(db, house_games=False) as url:
        api = f"{url}/api/league/admin/events/friday"

        def post(path: str, who: str) -> Response:
            return request(f"{api}/{path}", "POST", {"member": who}, ADMIN)

        assert post("withdraw", "h4").status == 200
        assert withdrawn(db) == {"h4"} and members(url)["h4"] == (True, None)
        undone = post("reinstate", "h4")
        assert undone.status == 200 and undone.body == {"name": "friday", "status": "scheduled"}
        assert withdrawn(db) == set() and members(url)["h4"] == (False, None)

        for who, status, reason in (
            ("h3", 400, "not withdrawn"),
            ("nobody", 404, "no member"),
        ):
            refused = post("reinstate", who)
            assert refused.status == status and reason in refused.body["detail"], refused
        assert request(f"{url}/api/league/admin/events/nothing/reinstate", "POST",
                       {"member": "h4"}, ADMIN).status == 404  # fmt: skip

        assert post("withdraw", "h4").status == 200
        assert request(f"{api}/start", "POST", {}, ADMIN).status == 200
        wait_until(  # the server pairs round 1 without h4
            lambda: request(f"{url}/api/league/events/friday").body["playing"],
            30,
            "round 1 to be paired and started",
        )
        refused = post("reinstate", "h4")
        assert refused.status == 400, refused
        assert "round 1 of event 'friday' was paired without it" in refused.body["detail"]
        assert "until the next round starts" in refused.body["detail"]
        assert withdrawn(db) == {"h4"}
        reason = members(url)["h4"][1]
        assert reason is not None and "was paired without it" in reason

        # a member withdrawn now, in the round under way, is undone: its boards not yet
        # started are played again
        assert post("withdraw", "h3").status == 200
        assert post("reinstate", "h3").status == 200
        assert withdrawn(db) == {"h4"}


def test_the_command_line_undoes_a_withdrawal_and_says_why_it_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = league(tmp_path)
    for action in ("withdraw", "reinstate"):  # each in its own words, status 0
        status, out, _ = run(capsys, "league", "event", action, "--db", str(db), "friday", "h2")
        assert status == 0, out
    assert out == "Reinstated h2 in friday.\n" and withdrawn(db) == set()
    status, _, err = run(capsys, "league", "event", "reinstate", "--db", str(db), "friday", "h2")
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "'h2' cannot be reinstated: it is not withdrawn from event 'friday'" in err
    assert "Traceback" not in err


def test_a_round_paired_while_a_withdrawal_changed_is_not_stored(tmp_path: Path) -> None:
    """The server pairs a round from the withdrawals it read; if one changed before the
    round is stored (a teacher's undo in between), the round is not stored, and the next
    pass pairs it with the withdrawals as they are: an undo accepted is never lost."""
    db = league(tmp_path)
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("friday")
        h4 = store.members.member_named("h4").id
        events.withdraw("friday", "h4")
        read = events.withdrawn(event.id)
        events.reinstate("friday", "h4")  # between the server's read and its write
        boards = [Board(store.members.member_named("h1").id, store.members.member_named("h2").id)]
        assert events.add_round(event.id, 0, boards, 1, read) is False
        assert events.boards(event.id) == []
        assert events.add_round(event.id, 0, boards, 1, events.withdrawn(event.id)) is True
        assert [b.round for b in events.boards(event.id)] == [0]
        assert h4 not in events.withdrawn(event.id)
