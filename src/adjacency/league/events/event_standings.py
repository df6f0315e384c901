"""An event's standings, tie-breaks and crosstable as pure functions of its games.

Points are game points (a win 1, a draw 1/2, a loss 0); a game never played because a
team withdrew after its round was paired, or because a team's bot (a person's page) was
not there when the game was to start, is a forfeit (:attr:`EventGame.forfeit`): a win
for the team there, a loss for the withdrawn or absent one (as FIDE scores a forfeit),
counted in the points and in Sonneborn-Berger but not as a game played (no games, wins
or losses column, no pair statistics, no Elo: :attr:`Row.unplayed` counts it); a game
neither team was there for is a double forfeit, a loss for both
(:attr:`EventGame.both_lost`: no points to either); a bye scores
:data:`BYE_POINTS`, the points of a won pair (FIDE's pairing-allocated bye scores as a
win), and counts no games, but nothing for a team never there (:func:`never_there`:
each of its games that was to start, one at least, lost by its absence), as FIDE gives
a player who does not come no bye's point (a Swiss pairs a team away with nobody, a
round robin's fixed schedule still names it for a bye). Tie-breaks, in the order of
:func:`standings`:

* round robins: **Sonneborn-Berger**, the sum over a member's games of its points in
  the game times the opponent's final score (a win against a strong member weighs
  more);
* Swiss: **Buchholz**, then **median Buchholz** (Buchholz less its highest and its
  lowest term), as FIDE's handbook defines them for unplayed rounds (its tie-break
  rules' "virtual opponent"): a member has one term per round paired so far; a round it
  played adds its opponent's score with that opponent's own unplayed rounds counted as
  drawn pairs (so a bye's two points feed no opponent's Buchholz, only half of them);
  a round it did not play (a bye, a round whose games were all forfeits, or a round it
  was not paired in: withdrawn, paused for its absence) adds a virtual opponent's
  score, :func:`virtual_opponent`: the member's score before that round, plus what the
  virtual opponent scored in it (2 less the member's points from it), plus a drawn pair
  for each later round. Every
  member thus has as many terms as rounds, and the median cuts the same two from each.
  So a forfeit win's round counts through a virtual opponent, and the withdrawn team's
  forfeited rounds count as drawn pairs in its opponents' Buchholz (the virtual-opponent
  rule of FIDE's tie-break regulations up to 2022; those applied from 2023 treat
  unplayed rounds otherwise, and the league does not follow them). A round with one
  game played and one forfeited counts as played. A game decided by an absence is a
  forfeit like a withdrawal's (the league stores it as a game with no move, unrated:
  the absent team's bot was called and lost on the spot).

Then wins, then the seeding order. Beside them, per member: the pentanomial counts of
its complete colour-swapped pairs with their Elo (:func:`adjacency.ratings.stats.pentanomial`),
the Bradley-Terry Elo with its 95% interval over the event's games
(:func:`adjacency.ratings.bradley_terry.ratings`) and its mean piece margin per game
(:func:`adjacency.ratings.margin.estimate`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...ratings.bradley_terry import ratings
from ...ratings.margin import estimate as margin_estimate
from ...ratings.margin import pair_mean
from ...ratings.stats import PAIR_SCORES, elo_from_score, mean_score

BYE_POINTS = 2.0
"""What a bye scores: a won pair (two games)."""


@dataclass(frozen=True)
class EventGame:
    """One finished game of an event: leg ``leg`` (0 or 1) of the pair on round
    ``round``'s board of ``a`` and ``b`` (``a`` plays X in leg 0, O in leg 1)."""

    round: int
    a: int
    b: int
    leg: int
    x_points: float
    """X's points: 1, 0.5 or 0."""
    margin: int = 0
    """X's squares minus O's at the end."""
    absent: bool = False
    """Decided by an absence: a team (or both) had no bot there when it was to start
    (a forfeit, :attr:`forfeit`)."""
    both_lost: bool = False
    """Neither team was there (or both withdrew): a loss for both, no points to either
    (``x_points`` 0)."""
    forfeit: bool = False
    """Never played: a team withdrew after its round was paired, or was absent when the
    game was to start (:attr:`absent`). A forfeit win (1) for the team there, a loss for
    the one withdrawn or absent (both: ``both_lost``); no moves, no margin, no pair
    statistics, no Elo, and an unplayed game for the tie-breaks (the module's rules)."""

    @property
    def x(self) -> int:
        """Who played X."""
        return self.a if self.leg == 0 else self.b

    @property
    def o(self) -> int:
        """Who played O."""
        return self.b if self.leg == 0 else self.a

    def points(self, member: int) -> float:
        """What ``member`` (X or O) scored (0 for both in a game both lost)."""
        if self.both_lost:
            return 0.0
        return self.x_points if member == self.x else 1.0 - self.x_points

    def margin_of(self, member: int) -> int:
        """``member``'s squares minus its opponent's."""
        return self.margin if member == self.x else -self.margin


ABSENT_PAUSE = 2
"""Event games in a row a team may miss (its bot not there as each was to start) before
it is paused: left out of the pairings while its bot is still away (lichess pauses a
player who misses games in an arena the same way)."""


def _missed(games: Sequence[EventGame]) -> dict[int, list[bool]]:
    """Per member, each game that was to start with it (in the order of ``games``; a
    withdrawal's forfeits never were): whether it lost it by its own absence (a game a
    team's absence decided is the absent team's loss; one both teams lost by absence,
    both's)."""
    seen: dict[int, list[bool]] = defaultdict(list)
    for game in games:
        if game.forfeit and not game.absent:  # a withdrawal's: no game was to start
            continue
        for member in (game.a, game.b):
            seen[member].append(game.absent and game.points(member) == 0.0)
    return seen


def absentees(games: Sequence[EventGame], run: int = ABSENT_PAUSE) -> set[int]:
    """The members whose last ``run`` games (in the order of ``games``, oldest first)
    were all lost by their own absence (:func:`_missed`)."""
    return {m for m, seen in _missed(games).items() if len(seen) >= run and all(seen[-run:])}


@dataclass
class Row:
    """One member's line of the standings."""

    member: int
    points: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    unplayed: int = 0
    """Its forfeits, won or lost: games scored but never played (not in ``games``)."""
    sonneborn_berger: float = 0.0
    buchholz: float = 0.0
    median_buchholz: float = 0.0
    pentanomial: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    pair_elo: float | None = None
    elo: float | None = None
    elo_low: float | None = None
    elo_high: float | None = None
    margin: float | None = None
    rank: int = 0


def _finite(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None


def never_there(games: Sequence[EventGame]) -> set[int]:
    """The members never there for a game of the event: every game that was to start
    with them (one at least; a withdrawal's forfeits were never to start) was lost by
    their own absence (:func:`_missed`). Their byes score nothing (:func:`bye_value`)."""
    return {m for m, lost in _missed(games).items() if lost and all(lost)}


def bye_value(member: int, away: set[int]) -> float:
    """What a bye of ``member`` scores: :data:`BYE_POINTS`, nothing for a member in
    ``away`` (:func:`never_there`)."""
    return 0.0 if member in away else BYE_POINTS


def scores(
    members: Sequence[int], games: Sequence[EventGame], byes: Sequence[int]
) -> dict[int, float]:
    """Each member's points: its games' points and per bye in ``byes`` (a member once
    per bye) :data:`BYE_POINTS`, nothing for a member never there (:func:`never_there`)."""
    total = dict.fromkeys(members, 0.0)
    for game in games:
        for member in (game.a, game.b):
            if member in total:
                total[member] += game.points(member)
    away = never_there(games)
    for member in byes:
        if member in total:
            total[member] += bye_value(member, away)
    return total


def crosstable(games: Sequence[EventGame]) -> dict[tuple[int, int], tuple[float, int]]:
    """``(a, b)`` to ``(points of a against b, games)``, both orders."""
    cells: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for game in games:
        for me, other in ((game.a, game.b), (game.b, game.a)):
            cell = cells[(me, other)]
            cell[0] += game.points(me)
            cell[1] += 1
    return {k: (v[0], int(v[1])) for k, v in cells.items()}


DRAWN_PAIR = BYE_POINTS / 2
"""What a round drawn (a pair shared) scores: what FIDE's rules count an unplayed round
as, in an opponent's score and in a virtual opponent's later rounds."""


def virtual_opponent(before: float, got: float, rounds: int, round_no: int) -> float:
    """The score of the virtual opponent of a member's unplayed round ``round_no``
    (counted from 1) of ``rounds``: FIDE's ``Svon = SPR + (1 - SfPR) + 0.5 (n - R)``
    in pair points (a round is worth 2): the member's score ``before`` the round, what
    the opponent scored in it (2 less the member's ``got``), a drawn pair per later round."""
    return before + (BYE_POINTS - got) + DRAWN_PAIR * (rounds - round_no)


def _buchholz_terms(
    members: Sequence[int],
    games: Sequence[EventGame],
    byes: Sequence[tuple[int, int]],
    total: dict[int, float],
) -> dict[int, list[float]]:
    """Each member's Buchholz terms, one per round paired (:func:`virtual_opponent`)."""
    got: dict[tuple[int, int], float] = defaultdict(float)  # (member, round): its points
    met: dict[tuple[int, int], int] = {}  # (member, round): its opponent
    for game in games:
        for me, other in ((game.a, game.b), (game.b, game.a)):
            got[(me, game.round)] += game.points(me)
            if not game.forfeit:
                met[(me, game.round)] = other
    away = never_there(games)
    for member, round_index in byes:
        got[(member, round_index)] += bye_value(member, away)
    rounds = 1 + max([g.round for g in games] + [r for _, r in byes], default=-1)
    unplayed = {m: [r for r in range(rounds) if (m, r) not in met] for m in members}
    adjusted = {
        m: total[m] - sum(got[(m, r)] for r in unplayed[m]) + DRAWN_PAIR * len(unplayed[m])
        for m in members
    }
    terms: dict[int, list[float]] = {}
    for m in members:
        before = 0.0
        terms[m] = []
        for r in range(rounds):
            if (m, r) in met:
                other = met[(m, r)]
                terms[m].append(adjusted.get(other, total.get(other, 0.0)))
            else:
                terms[m].append(virtual_opponent(before, got[(m, r)], rounds, r + 1))
            before += got[(m, r)]
    return terms


def standings(
    members: Sequence[int],
    games: Sequence[EventGame],
    byes: Sequence[tuple[int, int]],
    swiss: bool,
) -> list[Row]:
    """The standings, best first (see the module's order), ranks 1, 2, ... (members
    with equal points and tie-breaks share a rank). ``members`` in seeding order;
    ``byes``: each bye's member and round (from 0)."""
    total = scores(members, games, [member for member, _ in byes])
    rows = {m: Row(m, points=total[m]) for m in members}
    for member, _ in byes:
        if member in rows:
            rows[member].byes += 1
    pairs: dict[tuple[int, int, int], list[EventGame]] = defaultdict(list)
    for game in games:
        for me, other in ((game.a, game.b), (game.b, game.a)):
            if me not in rows:
                continue
            row = rows[me]
            got = game.points(me)
            row.sonneborn_berger += got * total.get(other, 0.0)
            if game.forfeit:
                row.unplayed += 1
                continue
            row.games += 1
            row.wins += got == 1.0
            row.draws += got == 0.5
            row.losses += got == 0.0
        if not game.forfeit:
            pairs[(game.round, game.a, game.b)].append(game)
    for member, terms in _buchholz_terms(members, games, byes, total).items():
        rows[member].buchholz = sum(terms)
        rows[member].median_buchholz = sum(sorted(terms)[1:-1])
    _pair_statistics(rows, pairs)
    _elo(rows, [g for g in games if not g.both_lost and not g.forfeit])
    seed = {m: i for i, m in enumerate(members)}

    def tiebreaks(row: Row) -> tuple[float, ...]:
        if swiss:
            return (row.points, row.buchholz, row.median_buchholz, row.wins)
        return (row.points, row.sonneborn_berger, row.wins)

    ordered = sorted(rows.values(), key=lambda r: (tuple(-t for t in tiebreaks(r)), seed[r.member]))
    for i, row in enumerate(ordered):
        same = i > 0 and tiebreaks(ordered[i - 1]) == tiebreaks(row)
        row.rank = ordered[i - 1].rank if same else i + 1
    return ordered


def _pair_statistics(
    rows: dict[int, Row], pairs: dict[tuple[int, int, int], list[EventGame]]
) -> None:
    """Pentanomial counts and margins per member from its complete pairs."""
    means: dict[int, list[float]] = defaultdict(list)
    margins: dict[int, list[float]] = defaultdict(list)
    for (_, a, b), pair in pairs.items():
        if any(g.both_lost for g in pair):  # no result between them to measure
            continue
        for me in (a, b):
            if me not in rows:
                continue
            margins[me] += [float(g.margin_of(me)) for g in pair]
            if len(pair) == 2:
                got = sum(g.points(me) for g in pair)
                rows[me].pentanomial[round(got * 2)] += 1
                means[me].append(pair_mean(*(g.margin_of(me) for g in pair)))
    for member, row in rows.items():
        if sum(row.pentanomial):
            row.pair_elo = _finite(elo_from_score(mean_score(row.pentanomial, PAIR_SCORES)))
        if margins[member]:
            mean = margin_estimate(means[member], margins[member]).mean
            row.margin = round(mean, 2) if math.isfinite(mean) else None


def _elo(rows: dict[int, Row], games: Sequence[EventGame]) -> None:
    """Bradley-Terry Elo with 95% intervals over the event's games."""
    played = sorted({m for g in games for m in (g.x, g.o) if m in rows})
    if len(played) < 2:
        return
    names = {m: str(m) for m in played}
    results = [(names[g.x], names[g.o], g.x_points) for g in games if g.x in names and g.o in names]
    for rating in ratings([names[m] for m in played], results):
        row = rows[int(rating.player)]
        row.elo = _finite(rating.elo)
        row.elo_low = _finite(rating.low)
        row.elo_high = _finite(rating.high)
