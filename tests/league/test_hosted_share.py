"""New games wait in the pairing while the machine cannot give the hosted moves their
cores (:meth:`~adjacency.league.play.hosted.HostedPlayers.room`), and start again once
the machine can, or once no recent move says otherwise."""

from __future__ import annotations

import time

from adjacency.league.play.hosted import SHARE_FLOOR, SHARE_WINDOW, HostedPlayers


def test_games_wait_while_the_latest_moves_had_too_little_of_their_cores() -> None:
    hosted = HostedPlayers(None, jobs=2)
    now = time.monotonic()
    assert hosted.core_share(now) is None and hosted.room() == 2  # nothing measured yet
    hosted.shares.append((now - 5.0, 0.9, 0.1))  # a move that had its core
    assert hosted.core_share(now) == 0.9 and not hosted.held(now)
    hosted.shares.append((now - 1.0, 0.3, 2.7))  # one the machine kept waiting
    share = hosted.core_share(now)
    assert share is not None and share < SHARE_FLOOR
    assert hosted.held(now) and hosted.room() == 0  # the pairing holds new games
    later = now + SHARE_WINDOW + 1.0  # no move since: the machine may be free again
    assert hosted.core_share(later) is None and not hosted.held(later)
    hosted.shares.append((time.monotonic(), 2.0, 0.1))  # and a move says it is
    assert not hosted.held() and hosted.room() == 2


def test_moves_that_neither_computed_nor_waited_say_nothing() -> None:
    hosted = HostedPlayers(None, jobs=1)
    now = time.monotonic()
    hosted.shares.extend([(now, 0.001, 0.0), (now, 0.0, 0.002)])  # answered at once
    assert hosted.core_share(now) is None and hosted.room() == 1
