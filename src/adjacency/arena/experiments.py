"""The reproduced experiments: the course reports' matchups, with real sample sizes.

The course reports compared minimax/alpha-beta, local search (hill climbing,
simulated annealing) and genetic bots on 3 to 5 games each. ``adjacency
experiments`` replays those matchups, plus our compiled ``engine`` against each
of them, at 8, 12, 16 and 28 rounds, in colour-swapped game pairs, and writes a
report with plots. Bots are looked up in the registry by role; a role whose bot
is not registered is skipped and named in the output.

The ``course`` preset plays the reports' own bots instead (the ``report-a:`` and
``report-b:`` presets of :mod:`adjacency.bots.course_reports`): each report's minimax,
local search and genetic bot against each other, at 8, 16 and 28 rounds as the
reports did, so that each report's claims can be checked with real samples.

Presets (all 8x8; seconds per move; games per pairing and rounds setting):

========  =========  ==============  =====  ============================================
preset    s/move     rounds          games  size of the run (2 cores)
========  =========  ==============  =====  ============================================
full      0.2        8,12,16,28      40     11 pairings x 4 x 40 = 1760 games, 26 min
reduced   0.1        8,12,16,28      20     11 pairings x 4 x 20 = 880 games, 8-11 min
original  5          8               4      4 pairings x 4 = 16 games, 4-5 min (1 core)
course    0.5        8,16,28         20     6 pairings x 3 x 20 = 360 games, 29 min (1 core*)
========  =========  ==============  =====  ============================================

All durations were measured on this project's 2-core machine
(docs/experiments.md); * with one worker while six other jobs loaded it.

Every game pair starts after 2 random plies (one per side, drawn from
``--seed``): the searching bots are deterministic, and without varied openings
the games of a pairing would be copies of each other, not a sample. Durations
are for an idle 2-core machine; every option can be overridden on the command
line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import InvalidSettingsError
from .schedule import RunSettings

ROLES: dict[str, str] = {
    "alphabeta": "alphabeta",
    "hill": "hill",
    "anneal": "anneal",
    "genetic": "genetic",
    "gatree": "gatree",
    "engine": "engine",
    **{f"{report}:{algorithm}": f"{report}:{algorithm}"
       for report in ("report-a", "report-b")
       for algorithm in ("minimax", "localsearch", "genetic")},
}  # fmt: skip
"""Role -> default bot spec. Override with ``--bot ROLE=SPEC``."""

MATCHUPS: tuple[tuple[str, str, str], ...] = (
    ("search vs local search", "alphabeta", "hill"),
    ("search vs local search", "alphabeta", "anneal"),
    ("search vs genetic", "alphabeta", "genetic"),
    ("search vs genetic", "alphabeta", "gatree"),
    ("local search vs genetic", "hill", "genetic"),
    ("local search vs genetic", "anneal", "gatree"),
    ("engine vs each", "engine", "alphabeta"),
    ("engine vs each", "engine", "hill"),
    ("engine vs each", "engine", "anneal"),
    ("engine vs each", "engine", "genetic"),
    ("engine vs each", "engine", "gatree"),
)
"""(group, role A, role B): the course reports' matchups and the engine against each bot."""

COURSE_MATCHUPS = tuple(
    (f"{report}:{a}", f"{report}:{b}")
    for report in ("report-a", "report-b")
    for a, b in (("minimax", "localsearch"), ("minimax", "genetic"), ("localsearch", "genetic"))
)
"""Each report's three bots against each other (its section 5 tables)."""

ORIGINAL_MATCHUPS = (
    ("alphabeta", "hill"),
    ("alphabeta", "genetic"),
    ("hill", "genetic"),
    ("engine", "alphabeta"),
)


@dataclass(frozen=True)
class Preset:
    time: float
    rounds: tuple[int, ...]
    games: int
    matchups: tuple[tuple[str, str], ...]
    random_plies: int = 2
    """Each game pair starts after this many random plies: searching bots are
    deterministic, so without varied openings a pair would repeat the same two games."""
    duration: str = ""
    """How long the whole preset took on this project's 2-core machine (see the table above)."""

    @property
    def planned(self) -> int:
        """Games in the whole preset run (every pairing, rounds setting and game)."""
        return len(self.matchups) * len(self.rounds) * self.games

    def describe(self) -> str:
        """``0.2 s/move, 8,12,16,28 rounds, 40 games: 1760 games, about 26 min on 2 cores``."""
        rounds = ",".join(map(str, self.rounds))
        text = (
            f"{self.time:g} s/move, {len(self.matchups)} pairings at {rounds} rounds, "
            f"{self.games} games each: {self.planned} games"
        )
        return f"{text}, {self.duration}" if self.duration else text


PRESETS: dict[str, Preset] = {
    "full": Preset(
        0.2, (8, 12, 16, 28), 40, tuple((a, b) for _, a, b in MATCHUPS),
        duration="about 26 min on 2 cores",
    ),
    "reduced": Preset(
        0.1, (8, 12, 16, 28), 20, tuple((a, b) for _, a, b in MATCHUPS),
        duration="about 8-11 min on 2 cores",
    ),
    "original": Preset(5.0, (8,), 4, ORIGINAL_MATCHUPS, duration="about 4-5 min on 1 core"),
    "course": Preset(0.5, (8, 16, 28), 20, COURSE_MATCHUPS, duration="about 29 min on 1 core"),
}  # fmt: skip
DEFAULT_PRESET = "full"
"""The preset a bare ``adjacency experiments`` plays (it says so before starting)."""


def available_pairs(
    matchups: tuple[tuple[str, str], ...], specs: dict[str, str]
) -> tuple[list[str], list[str]]:
    """The flattened pair list (A1 B1 A2 B2 ...) of matchups whose bots exist, and the skipped."""
    from ..bots import BotError
    from ..bots.lookup import parse_spec

    usable: dict[str, bool] = {}
    for role, spec in specs.items():
        try:
            parse_spec(spec)
            usable[role] = True
        except BotError:
            usable[role] = False
    players: list[str] = []
    skipped: list[str] = []
    for a, b in matchups:
        if usable.get(a) and usable.get(b):
            players += [specs[a], specs[b]]
        else:
            missing = [r for r in (a, b) if not usable.get(r)]
            skipped.append(f"{a} vs {b} (no bot for {', '.join(missing)})")
    return players, skipped


def role_specs(overrides: Sequence[str] = ()) -> dict[str, str]:
    """The role -> bot spec table with ``ROLE=SPEC`` overrides applied (``--bot``)."""
    specs = dict(ROLES)
    for item in overrides:
        role, eq, spec = item.partition("=")
        if not eq or role not in ROLES or not spec:
            raise InvalidSettingsError(
                f"--bot {item!r}: expected ROLE=SPEC with ROLE one of {', '.join(ROLES)}"
            )
        specs[role] = spec
    return specs


def experiment_settings(
    preset: Preset,
    *,
    rounds: tuple[int, ...] | None = None,
    games: int | None = None,
    time: float | None = None,
    margin: float = 0.25,
    seed: int = 1,
    random_plies: int | None = None,
) -> RunSettings:
    """The arena settings of a preset run, each given value overriding the preset's."""
    return RunSettings(
        rounds=rounds or preset.rounds,
        games=games or preset.games,
        time=time or preset.time,
        margin=margin,
        seed=seed,
        random_plies=preset.random_plies if random_plies is None else random_plies,
    )
