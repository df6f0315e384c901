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

from adjacency.league.events.event_pairing import round_robin
from adjacency.league.league_file import LeagueStore
from adjacency.league.similarity import compare
from adjacency.league.store.records import StoredGame
from adjacency.serving.details import ended
from league_helpers import ADMIN, add_member, keep, project, request
from similarity_class import course_class

TEAMS = course_class()
CUP = ("alpha", "beta", "gamma", "delta")
KINDS = {"time forfeit": "time", "disconnection": "crash", "illegal move": "illegal"}
ABSENT = {"absent", "absent-both", "absent-page-closed"}

LADDER = (
    # x, o, result, termination, detail (a code's name: an absence)
    ("alpha", "beta", "x", "normal", ""),
    ("beta", "alpha", "draw", "normal", ""),
    ("gamma", "alpha", "o", "time forfeit", "gamma ran out of time"),
    ("alpha", "delta", "o", "illegal move", "alpha played a4, taken"),
    ("delta", "gamma", "x", "disconnection", "gamma's program crashed"),
    ("eta", "alpha", "x", "time forfeit", "absent"),
    ("alpha", "h1", "x", "normal", ""),
    ("zeta", "epsilon", None, "time forfeit", ""),
)


def finish(store: LeagueStore, game: int, result: str | None, how: str, detail: str) -> None:
    words = ended("absent", player="alpha") if detail == "absent" else detail
    store.games.finish_game(game, result, how, words, "", (3, 2), 10, (1.0, 1.0))


def stored_class(db: Path) -> dict[str, list[int]]:
    """The class in the league file: seven teams (alpha with two accepted versions and
    a refused third, late with none accepted), a house bot, the ladder's games (one of
    them aborted) and a round of the event ``cup`` (a leg both teams missed); each
    team's submissions' ids, oldest first."""
    ids: dict[str, list[int]] = {}
    for team, files in TEAMS.items():
        add_member(db, team)
        if team == "alpha":
            keep(db, team, project({**files, "src/adjacency/Extra.java": "class Extra {}\n"}))
        keep(db, team, project(files))
    keep(db, "alpha", project({"A.java": "class A {"}), accepted=False)
    add_member(db, "late")
    keep(db, "late", project({"L.java": "class L {}\n"}), accepted=False)
    add_member(db, "h1", "house", "random")
    with LeagueStore(db) as store:
        for team in (*TEAMS, "late"):
            member = store.members.member_named(team).id
            ids[team] = [s.id for s in reversed(store.submissions.versions(member))]
        member_id = {m.name: m.id for m in store.members.members()}
        opening = store.meta.settings().opening(0).fen()
        for n, (x, o, result, how, detail) in enumerate(LADDER):
            game = store.games.start_game(member_id[x], member_id[o], opening)
            # alpha's first two games by its first version, the rest by its second
            version = {t: v[-1] for t, v in ids.items() if t != "late"}
            version["alpha"] = ids["alpha"][0 if n < 2 else 1]
            store.submissions.set_versions(game, version.get(x), version.get(o))
            finish(store, game, result, how, detail)
        aborted = store.games.start_game(member_id["alpha"], member_id["epsilon"], opening)
        store.games.abort_game(aborted, "the server stopped")
        event = store.events.create("cup", "round-robin", None, list(CUP))
        store.events.start("cup")
        boards = round_robin(store.events.members(event.id))[0]
        assert store.events.add_round(event.id, 0, boards, 4, set())
        first, second = (b for b in store.events.boards(event.id))
        assert first.pair_id and second.pair_id and first.b and second.b
        for leg, (result, how) in enumerate((("x", "normal"), ("o", "illegal move"))):
            x_id, o_id = (first.a, first.b) if leg == 0 else (first.b, first.a)
            game = store.games.start_game(x_id, o_id, opening, first.pair_id, leg)
            finish(store, game, result, how, "")
        game = store.games.start_game(second.a, second.b, opening, second.pair_id, 0)
        finish(store, game, "o", "disconnection", "")
        game = store.games.start_game(second.b, second.a, opening, second.pair_id, 1)
        store.games.lose_both(game, ended("absent-both", x="x", o="o"), "")
        store.events.pause("cup")
    return ids


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
            row["games"] += 1
            row["points2"] += int(points * 2)
            row[f"{side}_{['losses', 'draws', 'wins'][int(points * 2)]}"] += 1
            if points == 0 and game.detail_code in ABSENT:
                row["absent"] += 1
            elif points == 0 and game.termination in KINDS:
                row[KINDS[game.termination or ""]] += 1
    return rows


def versions_of(store: LeagueStore, games: list[StoredGame]) -> dict[str, Counter[int]]:
    """The games each team's versions played (by the team's numbers)."""
    used: dict[str, Counter[int]] = defaultdict(Counter)
    for game in games:
        if game.status == "aborted" and game.detail_code != "absent-both":
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
    sheet = request(url + "/api/league/admin/grading.csv?event=cup", token=ADMIN, raw=True)
    assert csv_rows(sheet.body) == [as_cells(r) for r in rows]


def test_the_grading_sheet_is_the_teachers_only(league: tuple[str, Path]) -> None:
    url, db = league
    token = add_member(db, "alpha")
    for path in ("/api/league/admin/grading", "/api/league/admin/grading.csv"):
        assert request(url + path).status == 401
        assert request(url + path, token=token).status == 403
        assert request(url + path + "?event=nope", token=ADMIN).status == 404
