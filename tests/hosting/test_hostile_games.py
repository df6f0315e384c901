"""Hostile submissions in live games: each attack (:mod:`hostile_code`) is uploaded by a
team as a course project whose bot behaves in the check and turns hostile in a game, and
the real league server (HTTP, its builder, bubblewrap, the JVM, hosted games on) plays
it. For each: an attack that fails in the sandbox leaves a game that ends on the board
(the probe answers illegally when its attack worked) with every move credited to the
bot its own (none a line its native code wrote on the protocol's descriptor), one that
stops the bot a game lost with the reason stated and the version that lost recorded,
its side's sandbox ended with the game while the server plays on; afterwards no process
of the submission is left (not even a double-forked daemon) and no file outside the
sandbox changed (the league's folder, a host file anyone may write, the builds).

The trigger, O to move with fewer rounds left than the league has, is never met by the
check's positions (the check asks O only on its first move:
:func:`test_the_check_never_meets_the_trigger`), and is met on O's second move of every
game. Several hostile teams play in one league at once (they meet the house bot and each
other), so the batches also show that one attack does not spoil the other games.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.core.record import game_from_text
from adjacency.hosting.check import check_positions
from adjacency.league.league_file import LeagueStore, StoredGame
from hosted_helpers import accepted, guarded_league, served, side_ended
from hostile_code import (
    DAEMON,
    FAILURES,
    FORK_SLEEP,
    NATIVE_MOVE,
    PROBES,
    fill,
    project,
    together,
    tree_digest,
)
from league_helpers import add_member, upload, wait_until
from sandbox_helpers import host_pids_with, own_sandboxes, sightings

pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("hostile-submissions")]

ROUNDS = 4
"""The rounds of :func:`~hosted_helpers.new_league`'s board (6x6)."""

TRIGGER = f"!isX && roundsLeft < {ROUNDS}"
"""When the bot attacks: O to move after its first move (never in the check)."""

BATCHES: dict[str, list[tuple[str, ...]]] = {
    "the network, reads and native code": [
        ("connect to the league's own port", "connect to another loopback port"),
        ("read the league database", "read another team's submission", "read the system's secrets"),
        ("speak the protocol through native code",),
    ],
    "writes, disk, memory and a daemon": [
        ("write outside its temporary folder",),
        ("fill the disk",),
        ("allocate far past its memory",),
        ("a double-forked daemon",),
    ],
    "a fork bomb, a sleeper and an exit": [
        ("a fork bomb",),
        ("sleeping for ever",),
        ("System.exit mid-game",),
    ],
    "a loop and 100 MB of output": [("an endless loop",), ("printing 100 MB",)],
}
"""The teams played together in one league, each by the attacks its bot makes: the
probes that spend nothing of the sandbox's share a bot (:func:`hostile_code.together`),
those that spend it or stop the bot have one each."""

CAPPED = "of wall time of its own, more than its"
OVER_CLOCK = "did not move within its clock"

LOSSES = {
    # Its forks fail at the process limit: whether its CPU clock or its own wall time
    # ends it first depends on the machine.
    "a fork bomb": ("time forfeit", (CAPPED, OVER_CLOCK)),
    "an endless loop": ("time forfeit", (OVER_CLOCK,)),
    "sleeping for ever": ("time forfeit", (CAPPED,)),
    "System.exit mid-game": ("disconnection", ("exited with status 3",)),
}
"""How a game of a bot whose attack stops it ends: its termination and its stated
reason (one of these words)."""


def test_the_check_never_meets_the_trigger() -> None:
    """The check's positions on the league's board ask O only with all its rounds left
    (so a bot attacking on ``TRIGGER`` is accepted), a game asks O with fewer."""
    o_to_move = [p for p in check_positions(6, 6, ROUNDS) if p.turn == "o"]
    assert o_to_move and all(p.rounds_left == ROUNDS for p in o_to_move)


def first_game_as_o(db: Path, name: str) -> StoredGame:
    """Wait until ``name`` has finished a game as O (where its attack runs); it."""

    def played_as_o() -> StoredGame | None:
        with LeagueStore(db, create=False) as store:
            member = store.members.member_named(name)
            done = store.games.games(member_id=member.id, status="finished")
        return next((g for g in sorted(done, key=lambda g: g.id) if g.o_id == member.id), None)

    game: StoredGame = wait_until(played_as_o, 55, f"a game of {name} as O")
    return game


def moves_as_o(db: Path, game_id: int) -> list[tuple[str, str]]:
    """Each move credited to O in game ``game_id`` (its stored record), beside the hostile
    bot's own answer in that position (:data:`hostile_code.PROLOGUE`'s ``answer`` when no
    attack worked): the first empty square reading its buttons row by row from row 0,
    the board's top rank."""
    with LeagueStore(db, create=False) as store:
        game = store.games.game(game_id)
    assert game is not None and game.record is not None, game
    played = game_from_text(game.record)
    found = []
    for position, move in zip(played.positions, played.moves, strict=False):
        if position.turn == "o":
            empty = position.board.square_names(position.empty)
            own = max(empty, key=lambda name: (int(name[1:]), -ord(name[0])))
            found.append((move.square, own))
    return found


CAPPED_BY_WALL_TIME = ("sleeping for ever",)
"""The attacks whose loss is the wall cap's (a sleeper uses no CPU). In a batch without
them the cap is set out of the way, so a busy bot is ended by its CPU clock however
little CPU a loaded machine gives it (at a load of 15, an endless loop had 1.4 s of CPU
in the 10 s cap)."""


HELD = {"a double-forked daemon": "Thread.sleep(1500);"}
"""What a bot does after its attack so that the host's watcher (:func:`sightings`) sees
the process it left: the daemon's bot holds each move 1.5 s (wall time, which its CPU
clock does not charge). Without it the daemon lives only for the game's last moves
against a quick opponent, which a watcher scanning ``/proc`` at a load of 10 missed."""


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_hostile_bots_in_live_games_fail_and_leave_nothing(
    folder: Path, batch: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The teams of ``batch`` upload bots accepted by the check that attack in their
    games: a bot whose attacks fail plays to the end on the board, every move credited
    to it its own (a native library's ``bestmove`` on the protocol's descriptor never
    credited); one an attack stops loses its game with the reason named, its sandbox
    ended while the server plays on; nothing of any is left and no file outside changed."""
    groups = BATCHES[batch]
    attacks = [attack for group in groups for attack in group]
    if not set(attacks) & set(CAPPED_BY_WALL_TIME):
        monkeypatch.setattr("adjacency.league.play.server_sides.ceiling", lambda left: 50.0)
    league, host_file, digest = guarded_league(folder)
    before = digest()
    teams = {group: f"team{number}" for number, group in enumerate(groups, 1)}
    tokens = {group: add_member(league, teams[group]) for group in groups}
    # The processes an attack leaves behind if the sandbox let them escape, by marker.
    markers = {"a fork bomb": FORK_SLEEP, "a double-forked daemon": DAEMON}
    leftovers = {markers[a].replace(" ", "\0") for a in attacks if a in markers}
    with served(league) as (url, app), sightings(*leftovers) as seen:
        for group in groups:
            probing = all(attack in PROBES for attack in group)
            body = together(group) if probing else FAILURES[group[0]][0]
            body += "".join(HELD.get(attack, "") for attack in group)
            code = project(fill(body, url, league, host_file), when=TRIGGER)
            assert upload(url, code, tokens[group]).status == 201
        for group in groups:
            accepted(url, tokens[group])  # it behaved in the check
        builds = league.with_name(league.name + ".builds")
        built = tree_digest(builds)
        for group in groups:
            game = first_game_as_o(league, teams[group])
            if all(attack in PROBES for attack in group):  # its attacks failed: it answered
                assert game.termination == "normal", (group, game.termination, game.detail)
                # Every move credited to O is the bot's own (the first empty square), none
                # a line its native code wrote on the protocol's descriptor.
                credited = moves_as_o(league, game.id)
                assert len(credited) >= 2 and all(m == own for m, own in credited), credited
                assert NATIVE_MOVE not in {own for _, own in credited}  # so c1 would show
            else:
                (attack,) = group
                termination, reasons = LOSSES[attack]
                assert game.result == "x" and game.termination == termination, (attack, game)
                assert game.detail.startswith(f"{teams[group]} "), (attack, game.detail)
                assert any(reason in game.detail for reason in reasons), (attack, game.detail)
                with LeagueStore(league, create=False) as store:  # the version that lost
                    assert store.submissions.played(game.id)[1] is not None, attack
                # While the server plays on, the game's own sandbox is gone with the game.
                pid, outcome = side_ended(app, game.id, attack)
                assert pid is not None and outcome is not None and outcome.leftovers == 0
                assert not Path(f"/proc/{pid}").exists() or pid not in own_sandboxes()
        assert tree_digest(builds) == built
        assert seen == leftovers  # the daemon and the fork bomb's sleepers did start...
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
    # ...and are ended, not merely told to end: a process killed a moment ago may still be
    # listed (a fork bomb's last children); one the sandbox let escape runs for 1000 s.
    wait_until(lambda: not any(map(host_pids_with, leftovers)), 20, "no process left")
    assert digest() == before
    assert host_file.read_text() == "the host's own file\n"
