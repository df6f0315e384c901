"""Totals per pairing and rounds setting, computed from stored games.

Everything is from the point of view of the pairing's first player ``a``
(``adjacency match A B`` reports A's score). Forfeits are counted for the side
that lost them: time losses, illegal moves, and crashes (an engine that
disconnected or a bot that raised).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..core.game import Termination
from ..core.stand_ins import record_counts
from ..ratings.bradley_terry import Rating, ratings
from ..ratings.margin import MarginEstimate, pair_mean
from ..ratings.margin import estimate as margin_estimate
from ..ratings.stats import Estimate, los, pentanomial, trinomial
from .store import GameRow

FAULTS = {
    Termination.TIME_FORFEIT.value: "time",
    Termination.ILLEGAL_MOVE.value: "illegal",
    Termination.DISCONNECTION.value: "crash",
}


@dataclass
class Summary:
    """Totals of ``a`` against ``b`` at ``rounds`` rounds (``None``: every setting)."""

    a: str
    b: str
    rounds: int | None
    wins: int = 0
    draws: int = 0
    losses: int = 0
    penta: list[int] = field(default_factory=lambda: [0] * 5)
    faults_a: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULTS.values(), 0))
    faults_b: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULTS.values(), 0))
    margins: list[int] = field(default_factory=list)
    pair_means: list[float] = field(default_factory=list)
    """The margin sample of each pair counted in ``penta``
    (:func:`~adjacency.ratings.margin.pair_mean`)."""
    plies: int = 0
    stand_ins_a: int = 0
    """Moves of ``a`` its engine said were not its bot's own (stand-ins)."""
    stand_ins_b: int = 0
    """Moves of ``b`` its engine said were not its bot's own."""

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Points of ``a``: 1 per win, 0.5 per draw."""
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        """Points of ``a`` per game (0.5 without games)."""
        return self.points / self.games if self.games else 0.5

    @property
    def pairs(self) -> int:
        """Colour-swapped pairs counted in ``penta``."""
        return sum(self.penta)

    @property
    def estimate(self) -> Estimate:
        """Pentanomial estimate when complete pairs exist, else per game."""
        if self.pairs >= 2:
            return pentanomial(self.penta)
        return trinomial(self.wins, self.draws, self.losses)

    @property
    def margin(self) -> MarginEstimate:
        """Mean margin per game with its 95% interval, from the pair means when two complete
        pairs exist, else per game, as :attr:`estimate`
        (:func:`adjacency.ratings.margin.estimate`)."""
        return margin_estimate(self.pair_means, self.margins)

    @property
    def los(self) -> float:
        """Likelihood that ``a`` is stronger than ``b``, from wins and losses
        (:func:`adjacency.ratings.stats.los`)."""
        return los(self.wins, self.losses)

    def fault_text(self, kind: str) -> str:
        """``"a/b"`` counts of a fault kind, e.g. ``"1/0"``."""
        return f"{self.faults_a[kind]}/{self.faults_b[kind]}"

    def add(self, game: GameRow) -> None:
        """Count one game of ``a`` against ``b``: its result, a forfeit (whose, and of which
        kind), its margin, plies and move time, and each side's stand-in moves (its
        record's ``StandIns``, :mod:`adjacency.core.stand_ins`). Pentanomial pairs are counted by
        :func:`summarize`, with their margin samples."""
        points = game.a_points
        if points == 1.0:
            self.wins += 1
        elif points == 0.0:
            self.losses += 1
        else:
            self.draws += 1
        kind = FAULTS.get(game.termination)
        if kind is not None:
            loser_is_a = (game.result == "o") == game.a_is_x
            (self.faults_a if loser_is_a else self.faults_b)[kind] += 1
        self.margins.append(game.a_margin)
        self.plies += game.plies
        if "StandIns" in game.record:  # cheap: only a record with the tag is read for it
            x, o = record_counts(game.record)
            self.stand_ins_a += x if game.a_is_x else o
            self.stand_ins_b += o if game.a_is_x else x


def pair_slot(pair: Sequence[GameRow]) -> int:
    """The pentanomial slot of a colour-swapped pair: ``a``'s points in both games, doubled
    (0 for two losses to 4 for two wins)."""
    return round(2 * sum(game.a_points for game in pair))


def summarize(games: Iterable[GameRow]) -> list[Summary]:
    """One :class:`Summary` per (pairing, rounds setting) and one per pairing overall.

    Order: pairings in order of first appearance; within one, rounds ascending,
    then the overall row (``rounds=None``).
    """
    table: dict[tuple[str, str, int | None], Summary] = {}
    pairs: dict[tuple[int, int], list[GameRow]] = defaultdict(list)
    order: list[tuple[str, str]] = []
    for game in games:
        if (game.a, game.b) not in order:
            order.append((game.a, game.b))
        for rounds in (game.rounds, None):
            key = (game.a, game.b, rounds)
            if key not in table:
                table[key] = Summary(game.a, game.b, rounds)
            table[key].add(game)
        pairs[(game.run_id, game.pair)].append(game)
    for members in pairs.values():
        if len(members) == 2:
            first = members[0]
            slot = pair_slot(members)
            sample = pair_mean(members[0].a_margin, members[1].a_margin)
            for rounds in (first.rounds, None):
                table[(first.a, first.b, rounds)].penta[slot] += 1
                table[(first.a, first.b, rounds)].pair_means.append(sample)
    keys = sorted(
        table,
        key=lambda k: (order.index((k[0], k[1])), k[2] is None, k[2] or 0),
    )
    return [table[k] for k in keys]


def players_of(games: Sequence[GameRow]) -> list[str]:
    """Every player in order of first appearance."""
    seen: list[str] = []
    for game in games:
        for player in (game.a, game.b):
            if player not in seen:
                seen.append(player)
    return seen


def standings(games: Sequence[GameRow], rounds: int | None = None) -> list[Rating]:
    """The ranking of every player (Bradley-Terry Elo), optionally at one rounds setting.

    One scale for all: meaningful only when the games connect every player
    (:func:`ranking_groups` splits them where they do not)."""
    chosen = [g for g in games if rounds is None or g.rounds == rounds]
    players = players_of(chosen)
    return ratings(players, [(g.a, g.b, g.a_points) for g in chosen]) if players else []


@dataclass(frozen=True)
class RankingGroup:
    """Players connected by games (directly or through others), ranked among themselves."""

    name: str
    """``group 1``, ``group 2``, ...: largest first; ``all players`` when there is one."""
    ratings: list[Rating]

    @property
    def players(self) -> list[str]:
        """The group's players, best first."""
        return [r.player for r in self.ratings]


def connected_players(games: Sequence[GameRow]) -> list[list[str]]:
    """The players split into groups connected by games: two players are in one group
    when a chain of games joins them. Largest group first, ties in order of first
    appearance; players within a group in order of first appearance."""
    parent = {p: p for p in players_of(games)}

    def root(p: str) -> str:
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for g in games:
        parent[root(g.a)] = root(g.b)
    groups: dict[str, list[str]] = {}
    for p in parent:
        groups.setdefault(root(p), []).append(p)
    return sorted(groups.values(), key=lambda members: -len(members))


def ranking_groups(games: Sequence[GameRow], rounds: int | None = None) -> list[RankingGroup]:
    """The Bradley-Terry ranking (:func:`standings`) of each group of players connected by
    games (:func:`connected_players`), each fitted on its own games with its own mean 0.

    Players who never met, directly or through common opponents, have no Elo difference
    a sample can estimate (a joint fit would set it from the prior alone), so they are
    never ranked on one scale. ``rounds``: only the games at that setting."""
    chosen = [g for g in games if rounds is None or g.rounds == rounds]
    groups = connected_players(chosen)
    out = []
    for number, members in enumerate(groups, 1):
        inside = set(members)
        own = [g for g in chosen if g.a in inside]
        name = "all players" if len(groups) == 1 else f"group {number}"
        out.append(RankingGroup(name, standings(own)))
    return out


@dataclass(frozen=True)
class NodeLoad:
    """The games one node played: ``node`` is a Ray node id or ``local``."""

    node: str
    host: str
    games: int
    processes: int
    seconds: float

    @property
    def mean_seconds(self) -> float:
        """Seconds per game on this node (0 without games)."""
        return self.seconds / self.games if self.games else 0.0


def by_node(games: Iterable[GameRow]) -> list[NodeLoad]:
    """Games per node (and host), most games first; games stored before nodes were
    recorded count under an empty node name."""
    groups: dict[tuple[str, str], list[GameRow]] = defaultdict(list)
    for game in games:
        groups[(game.node, game.host)].append(game)
    loads = [
        NodeLoad(node, host, len(rows), len({g.pid for g in rows}), sum(g.seconds for g in rows))
        for (node, host), rows in groups.items()
    ]
    return sorted(loads, key=lambda load: (-load.games, load.node, load.host))
