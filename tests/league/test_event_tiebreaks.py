"""A Swiss's Buchholz and median Buchholz as FIDE's handbook defines them for unplayed
rounds (a virtual opponent for a member's own bye or unpaired round; an opponent's
unplayed rounds counted as drawn pairs), against examples worked by hand from those
rules. Points are pair points: a round is a colour-swapped pair worth 2, a bye 2, a
drawn pair 1 (FIDE's 1, 1/2 and 0 doubled)."""

from __future__ import annotations

from html import escape

from adjacency.league.event_results.event_views import TIEBREAKS, render_html, render_text
from adjacency.league.events.event_standings import EventGame, standings, virtual_opponent


def pair(round_index: int, a: int, b: int, a_points: float) -> list[EventGame]:
    """The two games of a pair in which ``a`` scored ``a_points`` of 2 (2, 1 or 0)."""
    first, second = {2.0: (1.0, 1.0), 1.0: (1.0, 0.0), 0.0: (0.0, 0.0)}[a_points]
    return [EventGame(round_index, a, b, 0, first), EventGame(round_index, a, b, 1, 1.0 - second)]


def test_the_virtual_opponents_score_is_the_handbooks_formula_in_pair_points() -> None:
    # Svon = SPR + (1 - SfPR) + 0.5 (n - R): a forfeit win in round 4 of 9 with 2 points
    # before it gives 2 + 0 + 2.5 = 4.5 in FIDE's points, 9 in pair points.
    assert virtual_opponent(before=4.0, got=2.0, rounds=9, round_no=4) == 9.0
    # a round not paired (0 points) in round 2 of 3 with 1 point before: 1 + 2 + 1
    assert virtual_opponent(before=1.0, got=0.0, rounds=3, round_no=2) == 4.0


def test_a_bye_feeds_no_opponent_and_its_own_round_is_a_virtual_opponent() -> None:
    """Three teams, three rounds, each with one bye:
    round 1: A beats B 2-0, C's bye; round 2: C beats A 2-0, B's bye; round 3: B and C
    draw 1-1, A's bye. Scores: A 4, B 3, C 5; with the byes as drawn pairs (what an
    opponent counts): A 3, B 2, C 4.
    A: B 2 + C 4 + its bye (2 before, a bye: 2 + 0 + 0) 2 = 8, median 2 (of 2 2 4);
    B: A 3 + its bye (0 before: 0 + 0 + 1) 1 + C 4 = 8, median 3 (of 1 3 4);
    C: its bye (0 + 0 + 2) 2 + A 3 + B 2 = 7, median 2 (of 2 2 3).
    Counting opponents' byes as won pairs (the rule before) gave B 9, its byes' points
    fed A's and C's sums."""
    games = pair(0, 1, 2, 2.0) + pair(1, 3, 1, 2.0) + pair(2, 2, 3, 1.0)
    rows = {r.member: r for r in standings([1, 2, 3], games, [(3, 0), (2, 1), (1, 2)], True)}
    assert {m: r.points for m, r in rows.items()} == {1: 4.0, 2: 3.0, 3: 5.0}
    assert {m: r.buchholz for m, r in rows.items()} == {1: 8.0, 2: 8.0, 3: 7.0}
    assert {m: r.median_buchholz for m, r in rows.items()} == {1: 2.0, 2: 3.0, 3: 2.0}


def test_rounds_a_withdrawn_team_was_not_paired_in_are_virtual_opponents() -> None:
    """Four teams, three rounds; D is withdrawn after round 1:
    round 1: A beats B 2-0, C and D draw 1-1; round 2: A and C draw, B's bye, D not
    paired; round 3: B beats C 2-0, A's bye, D not paired.
    Scores: A 5, B 4, C 2, D 1; as opponents count them (unplayed rounds as drawn
    pairs): A 4, B 3, C 2, D 3.
    A: B 3 + C 2 + its bye (3 before: 3 + 0 + 0) 3 = 8, median 3;
    B: A 4 + its bye (0 before: 0 + 0 + 1) 1 + C 2 = 7, median 2;
    C: D 3 + A 4 + B 3 = 10, median 3;
    D: C 2 + round 2 (1 before, 0 scored: 1 + 2 + 1) 4 + round 3 (1 + 2 + 0) 3 = 9, median 3.
    Every team has three terms, so the median cuts two from each (the rule before cut
    none from a team with fewer than three meetings)."""
    games = pair(0, 1, 2, 2.0) + pair(0, 3, 4, 1.0) + pair(1, 1, 3, 1.0) + pair(2, 2, 3, 2.0)
    rows = {r.member: r for r in standings([1, 2, 3, 4], games, [(2, 1), (1, 2)], True)}
    assert {m: r.points for m, r in rows.items()} == {1: 5.0, 2: 4.0, 3: 2.0, 4: 1.0}
    assert {m: r.buchholz for m, r in rows.items()} == {1: 8.0, 2: 7.0, 3: 10.0, 4: 9.0}
    assert {m: r.median_buchholz for m, r in rows.items()} == {1: 3.0, 2: 2.0, 3: 3.0, 4: 3.0}


def forfeit(round_index: int, present: int, gone: int) -> list[EventGame]:
    """The two unplayed games of a board whose ``gone`` withdrew after it was paired:
    forfeit wins for ``present`` (the board's ``a``), X in leg 0 and O in leg 1."""
    return [
        EventGame(round_index, present, gone, 0, 1.0, forfeit=True),
        EventGame(round_index, present, gone, 1, 0.0, forfeit=True),
    ]


def test_a_forfeit_win_counts_through_a_virtual_opponent_and_feeds_no_one() -> None:
    """Four teams, three rounds; D withdraws after round 1 is paired, its pair with A
    never played:
    round 1: A wins 2-0 by forfeit against D, C beats B 2-0; round 2: A and B draw, C's
    bye, D not paired; round 3: C beats A 2-0, B's bye, D not paired.
    Scores: A 3, B 3, C 6, D 0; as opponents count them (unplayed rounds, the forfeit
    among them, as drawn pairs): A 2, B 2, C 5, D 3.
    A: its forfeit win (0 before: 0 + 0 + 2 drawn pairs) 2 + B 2 + C 5 = 9, median 2;
    B: C 5 + A 2 + its bye (1 before: 1 + 0 + 0) 1 = 8, median 2;
    C: B 2 + its bye (2 before: 2 + 0 + 1) 3 + A 2 = 7, median 2;
    D: its forfeit loss (0 + 2 + 2) 4 + round 2 (0 + 2 + 1) 3 + round 3 (0 + 2 + 0) 2 = 9,
    median 3. A ranks above B on Buchholz."""
    games = forfeit(0, 1, 4) + pair(0, 3, 2, 2.0) + pair(1, 1, 2, 1.0) + pair(2, 3, 1, 2.0)
    rows = {r.member: r for r in standings([1, 2, 3, 4], games, [(3, 1), (2, 2)], True)}
    assert {m: r.points for m, r in rows.items()} == {1: 3.0, 2: 3.0, 3: 6.0, 4: 0.0}
    assert {m: r.buchholz for m, r in rows.items()} == {1: 9.0, 2: 8.0, 3: 7.0, 4: 9.0}
    assert {m: r.median_buchholz for m, r in rows.items()} == {1: 2.0, 2: 2.0, 3: 2.0, 4: 3.0}
    assert [r.member for r in sorted(rows.values(), key=lambda r: r.rank)] == [3, 1, 2, 4]
    # the forfeits are scored but not played: no games, wins or losses, no pair counts
    assert (rows[1].games, rows[1].unplayed, rows[1].wins, rows[1].losses) == (4, 2, 1, 3)
    assert (rows[4].games, rows[4].unplayed, rows[4].losses) == (0, 2, 0)
    assert sum(rows[1].pentanomial) == 2 and sum(rows[4].pentanomial) == 0
    assert rows[4].elo is None


def test_the_event_page_says_which_rules_it_uses() -> None:
    swiss = {"event": {**EVENT, "format": "swiss"}, "standings": [], "crosstable": CROSS}
    robin = {"event": {**EVENT, "format": "round-robin"}, "standings": [], "crosstable": CROSS}
    assert escape(TIEBREAKS[True]) in render_html(swiss) and "virtual opponent" in TIEBREAKS[True]
    assert TIEBREAKS[True] in render_text(swiss) and TIEBREAKS[False] in render_text(robin)
    assert escape(TIEBREAKS[False]) in render_html(robin) and "Sonneborn-Berger" in TIEBREAKS[False]


CROSS: dict[str, list[object]] = {"names": [], "cells": [], "absent": [], "byes": []}
EVENT = {"name": "cup", "rounds": 3, "status": "running", "time_control": "30+0"}


def absent_pair(round_index: int, there: int | None, away: int) -> list[EventGame]:
    """Both games of a pair decided by ``away``'s absence (``there`` ``None``: both away)."""
    other = away + 100 if there is None else there
    both = there is None
    return [
        EventGame(round_index, other, away, leg, 0.0 if both or leg == 1 else 1.0,
                  absent=True, both_lost=both, forfeit=True)
        for leg in (0, 1)
    ]  # fmt: skip


def test_a_bye_scores_nothing_for_a_team_never_there() -> None:
    """A round robin of four: 3 never came (its games lost by its absence), 4 came once;
    3's bye scores nothing, 4's its two points, 1's and 2's theirs; a team with no game
    to start yet keeps its bye's points."""
    games = [*absent_pair(0, 1, 3), *pair(1, 2, 4, 2.0), *absent_pair(2, 4, 3)]
    byes = [(2, 0), (4, 0), (3, 1), (1, 1)]
    rows = {r.member: r for r in standings([1, 2, 3, 4], games, byes, swiss=False)}
    assert rows[3].points == 0.0 and rows[3].byes == 1 and rows[3].unplayed == 4
    assert rows[4].points == 2.0 + 2.0  # its bye, and the forfeits of 3's absence
    assert rows[1].points == 2.0 + 2.0 and rows[2].points == 2.0 + 2.0
    early = standings([1, 3], [], [(3, 0)], swiss=False)
    assert {r.member: r.points for r in early} == {1: 0.0, 3: 2.0}
