"""The teacher's roster import over HTTP against a real league server: only the admin
token adds (401/403 otherwise, nothing added); a roster with a bad or too-alike name,
or an address or certificate name that a shell would read as more than one, is refused
with the reason and adds nothing; a good one adds its new teams, keeps a bot that is
there already, and answers the sheet whose tokens are the new teams' own."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from league_helpers import ADMIN, add_member, make_league, request, thread_server

pytestmark = pytest.mark.xdist_group("league-teacher")


def names(db: Path) -> set[str]:
    with LeagueStore(db) as store:
        return {m.name for m in store.members.members()}


def test_a_roster_is_added_only_by_the_admin_and_only_when_every_name_is_good(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    bot = add_member(db, "gold")
    good = {"roster": "name\nred\nblue\ngold\n", "url": "https://192.168.1.20"}
    with thread_server(db, house_games=False) as url:
        api = f"{url}/api/league/admin/roster"
        for token, status in ((None, 401), (bot, 403), ("adjl_not-a-token", 401)):
            assert request(api, "POST", good, token).status == status
        for body, status, reason in (
            ({**good, "roster": "red\nRed\n"}, 400, "too alike"),
            ({**good, "roster": "red\nbad name!\n"}, 400, "roster row 2"),
            ({**good, "roster": "team\n"}, 400, "names no team"),
            ({**good, "url": "https://x.org;rm -rf ~"}, 422, "url"),
            ({**good, "cafile": "ca.crt; curl evil"}, 422, "cafile"),
            ({**good, "roster": "x" * 7001}, 422, "at most 7000"),
            ({**good, "roster": "x" * 9000}, 413, ""),
        ):
            answer = request(api, "POST", body, ADMIN)
            assert answer.status == status and reason in str(answer.body), (body, answer)
            assert names(db) == {"gold"}
        done = request(api, "POST", {**good, "cafile": "class-ca.crt"}, ADMIN)
    assert done.status == 201, done
    assert (done.body["added"], done.body["present"]) == (["red", "blue"], ["gold"])
    assert names(db) == {"gold", "red", "blue"}
    sheet = done.body["sheet"]
    with LeagueStore(db) as store:
        for card in sheet.split('<section class="card">')[1:]:
            team = card.split("</h2>")[0].removeprefix("<h2>")
            token = card.split('<code class="token">')[1].split("</code>")[0]
            member = store.members.authenticate(token)
            assert member is not None and member.name == team
            assert f"--token-file {team}.token --cafile class-ca.crt" in card
            assert f" {token}" not in card.split("<pre>")[1].split("\n", 1)[1]  # only printf
        gold = store.members.authenticate(bot)
        assert gold is not None and gold.name == "gold"  # its token unchanged
