"""A class stored in a league file for the grading sheet's tests: seven course-shaped
teams (two planted copies among them, :mod:`similarity_class`), a house bot, ladder
games ended every way a game ends, and a round of an event."""

from __future__ import annotations

from pathlib import Path

from adjacency.league.events.event_pairing import round_robin
from adjacency.league.league_file import LeagueStore
from adjacency.serving.details import ended
from league_helpers import add_member, keep, project
from similarity_class import course_class

TEAMS = course_class()
CUP = ("alpha", "beta", "gamma", "delta")

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
