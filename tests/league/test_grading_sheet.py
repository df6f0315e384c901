"""The grading sheet through the real league server: its columns recomputed here from
the stored games (each game read back from the league file, its versions through the
submissions), its points against the event's own table, its similarity against the
projects fingerprinted again from their texts, and its CSV equal to its JSON."""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from adjacency.league.grading.similarity import compare
from adjacency.league.league_file import LeagueStore
from adjacency.league.store.records import StoredGame
from grading_class import CUP, TEAMS, stored_class
from league_helpers import ADMIN, add_member, request

KINDS = {"time forfeit": "time", "disconnection": "crash", "illegal move": "illegal"}
ABSENT = {"absent", "absent-both", "absent-page-closed"}


def expected(games: list[StoredGame], names: dict[int, str]) -> dict[str, Counter[str]]:
    """Each team's columns recomputed from its stored games (points doubled)."""
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for game in games:
        both = game.detail_code == "absent-both"
        for member, side in ((game.x_id, "x"), (game.o_id, "o")):
            row = rows[names[member]]
            if game.status == "aborted" and not both:
                row["abandoned"] += 1
                continue
            points = (
                0.0
                if both
                else 0.5
                if game.result in (None, "draw")
                else float(game.result == side)
            )
            row["points2"] += int(points * 2)
            if game.detail_code in ABSENT:
                row["absent"] += points == 0
                if not both:  # a forfeit: scored, never played, not a game
                    continue
            row["games"] += 1  # played, or lost by both teams' absence
            row[f"{side}_{['losses', 'draws', 'wins'][int(points * 2)]}"] += 1
            if points == 0 and game.termination in KINDS and not both:
                row[KINDS[game.termination or ""]] += 1
    return rows


def versions_of(store: LeagueStore, games: list[StoredGame]) -> dict[str, Counter[int]]:
    """The games each team's versions played (by the team's numbers)."""
    used: dict[str, Counter[int]] = defaultdict(Counter)
    for game in games:
        if game.status == "aborted" or game.detail_code in ABSENT:  # no move played
            continue
        for member, submission in zip(
            (game.x_id, game.o_id), store.submissions.played(game.id), strict=True
        ):
            if submission is not None:
                used[store.members.member(member).name][
                    store.submissions.get(submission).version
                ] += 1
    return used


COUNTED = (
    "games", "x_wins", "x_draws", "x_losses", "o_wins", "o_draws", "o_losses",
    "time", "crash", "illegal", "absent", "abandoned",
)  # fmt: skip


def check_sheet(rows: list[dict[str, Any]], counts: Any, used: Any, store: LeagueStore) -> None:
    for row in rows:
        team = row["team"]
        assert {c: row[c] for c in COUNTED} == {c: counts[team][c] for c in COUNTED}, team
        played = used.get(team, Counter())
        assert row["played"] == sorted(played), team
        if played:
            assert row["most_played"] == max(played, key=lambda v: (played[v], v))
        else:
            assert row["most_played"] is None
        versions = store.submissions.versions(store.members.member_named(team).id)
        assert row["versions"] == len(versions)
        assert row["accepted"] == sum(v.status == "accepted" for v in versions)


def best_partners(teams: dict[str, dict[str, str]]) -> dict[str, tuple[float, str]]:
    """Each team's highest file share and partner, the projects fingerprinted again."""
    best: dict[str, tuple[float, str]] = {}
    for pair in compare(teams).pairs:
        for me, other in ((pair.a, pair.b), (pair.b, pair.a)):
            if pair.best > best.get(me, (0.0, ""))[0]:
                best[me] = (pair.best, other)
    return best


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def as_cells(row: dict[str, Any]) -> dict[str, str]:
    cells = {k: "" if v is None else str(v) for k, v in row.items()}
    cells["played"] = " ".join(map(str, row["played"]))
    return cells


def test_the_grading_sheet_of_the_league_is_its_stored_games(
    league: tuple[str, Path],
) -> None:
    url, db = league
    stored_class(db)
    api = url + "/api/league/admin/grading"
    answer = request(api, token=ADMIN)
    assert answer.status == 200, answer
    body = answer.body
    assert body["event"] is None and body["columns"][0] == "team"
    rows = body["teams"]
    with LeagueStore(db) as store:
        games = store.games.games()
        names = {m.id: m.name for m in store.members.members()}
        counts = expected(games, names)
        used = versions_of(store, games)
        # every team, the house bot that played; no one else
        assert [r["team"] for r in rows] == [*TEAMS, "late", "h1"]
        check_sheet(rows, counts, used, store)
    by_team = {r["team"]: r for r in rows}
    for team, row in by_team.items():
        assert row["points"] * 2 == counts[team]["points2"], team
        assert row["unplayed"] == row["byes"] == 0, team  # an event's columns only
    alpha = by_team["alpha"]
    assert (alpha["versions"], alpha["accepted"], alpha["played"], alpha["most_played"]) == (
        3, 2, [1, 2], 2,
    )  # fmt: skip
    assert (alpha["time"], alpha["illegal"], alpha["absent"], alpha["abandoned"]) == (0, 1, 1, 1)
    assert by_team["gamma"]["time"] == 1 and by_team["gamma"]["crash"] == 1
    assert by_team["late"]["games"] == 0 and by_team["late"]["similarity"] is None
    # the highest similarity and its partner: the projects fingerprinted again
    best = best_partners(TEAMS)
    for team in TEAMS:
        share, partner = best.get(team, (None, None))
        assert (by_team[team]["similarity"], by_team[team]["partner"]) == (
            None if share is None else round(share, 3), partner,
        ), team  # fmt: skip
    assert by_team["alpha"]["partner"] == "delta" and by_team["zeta"]["partner"] == "epsilon"
    assert by_team["alpha"]["similarity"] >= 0.8
    # the CSV says what the JSON says
    sheet = request(api.replace("grading", "grading.csv"), token=ADMIN, raw=True)
    assert sheet.status == 200
    assert csv_rows(sheet.body) == [as_cells(r) for r in rows]


def test_an_events_grading_sheet_counts_its_games_as_its_table_does(
    league: tuple[str, Path],
) -> None:
    url, db = league
    stored_class(db)
    answer = request(url + "/api/league/admin/grading?event=cup", token=ADMIN)
    assert answer.status == 200, answer
    rows = answer.body["teams"]
    assert answer.body["event"] == "cup" and [r["team"] for r in rows] == list(CUP)
    with LeagueStore(db) as store:
        event = store.events.named("cup")
        pairs = {b.pair_id for b in store.events.boards(event.id)}
        games = [g for g in store.games.games() if g.pair_id in pairs]
        assert len(games) == 4
        names = {m.id: m.name for m in store.members.members()}
        counts = expected(games, names)
        check_sheet(rows, counts, versions_of(store, games), store)
    table = request(url + "/api/league/events/cup").body["standings"]
    points = {r["name"]: (r["points"], r["unplayed"], r["byes"]) for r in table}
    assert {r["team"]: (r["points"], r["unplayed"], r["byes"]) for r in rows} == points
    assert sum(r["absent"] for r in rows) == 2  # the leg both teams missed
    both = [g for g in games if g.detail_code == "absent-both"]
    assert len(both) == 1  # a game that counts for both: in their games, their loss
    missed = {names[both[0].x_id], names[both[0].o_id]}
    assert all(counts[team]["games"] >= 1 for team in missed)
    sheet = request(url + "/api/league/admin/grading.csv?event=cup", token=ADMIN, raw=True)
    assert csv_rows(sheet.body) == [as_cells(r) for r in rows]


def test_the_grading_sheet_is_the_teachers_only(league: tuple[str, Path]) -> None:
    url, db = league
    token = add_member(db, "alpha")
    for path in ("/api/league/admin/grading", "/api/league/admin/grading.csv"):
        assert request(url + path).status == 401
        assert request(url + path, token=token).status == 403
        assert request(url + path + "?event=nope", token=ADMIN).status == 404
