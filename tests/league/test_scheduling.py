"""Scheduling that serves events first and that puppets cannot monopolise
(docs/league.md, "Challenges"): a challenge to a bot in a running event waits for the
event; after a challenge game with a bot, the challenger waits a cool-down before
challenging it again and the ladder may have the bot's next game; one address has at
most two open challenges to one member."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from adjacency.league.play import challenges as challenges_module
from adjacency.league.play.hall import Hall
from adjacency.serving.errors import NotNow
from hall_helpers import connect, run
from league_helpers import add_member, challenge, join, make_league, me, thread_server


def test_a_challenge_to_a_bot_in_a_running_event_waits_for_the_event(tmp_path: Path) -> None:
    async def scenario(store: LeagueStore, hall: Hall) -> None:
        bots = [store.members.add_member(name, "bot")[0] for name in ("a", "b", "c")]
        for bot in bots:
            connect(hall, bot)
        ada = store.members.add_member("ada", "person")[0]
        hall.presence.see(ada)
        events = store.events
        events.create("cup", "round-robin", None, ["a", "b", "c"])
        events.start("cup")
        started = hall.scheduler.pair()  # the event's first board; one of the three sits out, free
        assert len(started) == 1 and started[0].pair_id is not None
        free = next(b for b in bots if b.id not in (started[0].x.id, started[0].o.id))
        assert hall.games.is_free(free) and free.id in hall.desk.in_events
        waiting = hall.desk.challenge(ada, free)
        assert waiting.status == "queued" and waiting.game is None  # not started at once
        hall.scheduler.pair()
        assert waiting.status == "queued"  # the event's bot keeps it waiting
        assert all(g.x.kind == "bot" and g.o.kind == "bot" for g in hall.games.live.values())

    run(scenario, tmp_path)


def test_after_a_challenge_game_the_ladder_may_go_first_and_the_challenger_cools_down(
    tmp_path: Path,
) -> None:
    async def scenario(store: LeagueStore, hall: Hall) -> None:
        alpha, beta = (store.members.add_member(name, "bot")[0] for name in ("alpha", "beta"))
        puppets = [store.members.add_member(f"puppet{n}", "person")[0] for n in range(2)]
        for puppet in puppets:
            hall.presence.see(puppet)
        connect(hall, alpha)
        first = hall.desk.challenge(puppets[0], alpha, "10.0.0.7")
        assert first.status == "started" and first.game is not None
        second = hall.desk.challenge(puppets[1], alpha, "10.0.0.7")
        assert second.status == "queued"
        connect(hall, beta)
        assert hall.scheduler.pair() == []  # beta alone: alpha plays the puppet
        hall.actions.resign(puppets[0], first.game)
        ladder = hall.scheduler.pair()  # alpha's next game is the ladder's, not the other puppet's
        assert [(g.x.name, g.o.name) for g in ladder] in ([("alpha", "beta")], [("beta", "alpha")])
        assert second.status == "queued"
        with pytest.raises(NotNow, match="challenge it again in") as refused:
            hall.desk.challenge(puppets[0], alpha, "10.0.0.7")
        assert refused.value.code == "challenge_cooldown"
        assert refused.value.params["seconds"] == int(challenges_module.COOLDOWN)
        (game,) = ladder
        while game.id in hall.games.live:  # the ladder game played out
            position = game.game.position
            hall.actions.move(game.member(position.turn), game.id, position.legal_moves()[0])
        served = hall.scheduler.pair()  # now the queue's turn, before the pair's second leg
        assert second.status == "started" and [g.id for g in served] == [second.game]

    run(scenario, tmp_path)


def test_puppets_on_one_address_cannot_occupy_a_bot_or_fill_a_persons_slots(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    add_member(db, "house-greedy", "house", "greedy")
    with thread_server(db, house_games=False, limits=LeagueLimits()) as url:
        puppets = [join(url, f"puppet{n}") for n in range(4)]
        assert challenge(url, puppets[0], "house-greedy").status == 201  # playing it
        assert challenge(url, puppets[1], "house-greedy").body["status"] == "queued"
        assert challenge(url, puppets[2], "house-greedy").body["status"] == "queued"
        refused = challenge(url, puppets[3], "house-greedy")
        assert refused.status == 409, refused
        assert refused.body["code"] == "opponent_crowded"
        assert "2 challenges to house-greedy come from your address" in refused.body["detail"]

        target = join(url, "target")
        me(url, target)
        others = [join(url, f"fan{n}") for n in range(3)]
        assert [challenge(url, s, "target").status for s in others[:2]] == [202, 202]
        full = challenge(url, others[2], "target")
        assert full.status == 409 and full.body["code"] == "opponent_crowded", full
        assert len(me(url, target)["challenges"]) == 2  # six slots left for everyone else


def test_puppets_keeping_every_bot_in_challenge_games_still_leave_the_ladder_its_game(
    tmp_path: Path,
) -> None:
    """Two bots each playing a puppet, each with another puppet queued: the bot whose
    challenge game ends first waits for the other (its queue too) so the ladder pairs
    them, rather than going on to the next puppet."""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        alpha, beta = (store.members.add_member(name, "bot")[0] for name in ("alpha", "beta"))
        puppets = [store.members.add_member(f"puppet{n}", "person")[0] for n in range(4)]
        for puppet in puppets:
            hall.presence.see(puppet)
        connect(hall, alpha)
        connect(hall, beta)
        assert hall.scheduler.pair() != []  # the ladder pairs the bots at once: let it play out
        for game in list(hall.games.live.values()):
            while game.id in hall.games.live:
                position = game.game.position
                hall.actions.move(game.member(position.turn), game.id, position.legal_moves()[0])
        playing_alpha = hall.desk.challenge(puppets[0], alpha, "10.0.0.1")
        playing_beta = hall.desk.challenge(puppets[1], beta, "10.0.1.1")
        assert playing_alpha.status == playing_beta.status == "started"
        next_alpha = hall.desk.challenge(puppets[2], alpha, "10.0.2.1")
        next_beta = hall.desk.challenge(puppets[3], beta, "10.0.3.1")
        assert next_alpha.status == next_beta.status == "queued"
        assert playing_alpha.game is not None and playing_beta.game is not None
        hall.actions.resign(puppets[0], playing_alpha.game)  # alpha is free, beta still plays
        for _ in range(3):
            assert hall.scheduler.pair() == []  # alpha waits for the ladder, not for puppet 2
        assert next_alpha.status == "queued"
        hall.actions.resign(puppets[1], playing_beta.game)
        ladder = hall.scheduler.pair()
        assert [{g.x.name, g.o.name} for g in ladder] == [{"alpha", "beta"}]
        assert next_alpha.status == next_beta.status == "queued"

    run(scenario, tmp_path)
