"""SPSA tuning of numeric bot options, the way fishtest tunes Stockfish.

Simultaneous perturbation stochastic approximation (Spall 1992) estimates the
gradient of playing strength from games between two copies of the bot: for a
random sign vector ``flip`` (each entry +1 or -1), the *plus* copy plays with
``theta + c_k * flip`` and the *minus* copy with ``theta - c_k * flip``. They
play a colour-swapped game pair from one opening; ``result`` is the plus copy's
wins minus its losses in the pair (-2..2), and every parameter moves at once::

    theta[i] += (a_k / c_k[i]) * result * flip[i]        (clipped to [min, max])

Schedules (fishtest's, with ``k`` counting game pairs from 1 and ``N`` the
pairs of the whole run)::

    c_k[i] = c[i] / k ** GAMMA       with c[i] = c_end[i] * N ** GAMMA
    a_k[i] = a[i] / (A + k) ** ALPHA with a[i] = r_end[i] * c_end[i] ** 2 * (A + N) ** ALPHA

so the perturbation ends at ``c_end`` (choose it so that ``theta +- c_end`` is a
small but measurable strength difference) and the last steps are
``r_end * c_end * result``. Pairs are dispatched in batches; every pair of a
batch uses the same ``k`` (the pairs completed when the batch started), as
fishtest's workers use the iteration of their dispatch. After every batch the
new ``theta`` is checkpointed (:mod:`adjacency.tuning.store`), so a run
stopped at any moment resumes at its last batch boundary; a batch's flips and
openings are drawn from the run's seed and the batch number, so a replayed
batch plays the same games.

Integer options are tuned as real numbers; the bots get them rounded (the
perturbation of an integer option is at least 1 by default, so that the two
copies differ).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..arena.games import GameResult, play_tasks
from ..arena.schedule import GameTask, RunSettings, opening_for
from ..bots.base import BotError
from ..bots.lookup import entry, parse_spec
from ..core.errors import InvalidSettingsError
from ..workers import Executor

ALPHA = 0.602
"""Decay exponent of the step ``a_k``: Spall's recommended value, used by fishtest."""
GAMMA = 0.101
"""Decay exponent of the perturbation ``c_k``: Spall's value, used by fishtest (slow decay)."""
R_END = 0.002
"""Default learning rate at the end of the run, fishtest's default ``r_end``."""
A_FRACTION = 0.1
"""Default stability constant ``A`` as a fraction of the run's pairs (fishtest suggests
0-20%): it damps the first steps, when ``c_k`` is large."""
C_END_FRACTION = 0.05
"""Default final perturbation ``c_end`` as a fraction of a parameter's range."""


@dataclass(frozen=True)
class Param:
    """One tuned option: its start, bounds, final perturbation and final learning rate."""

    name: str
    start: float
    minimum: float
    maximum: float
    c_end: float
    r_end: float = R_END
    integer: bool = False

    def clip(self, value: float) -> float:
        """``value`` moved into ``[minimum, maximum]``."""
        return min(self.maximum, max(self.minimum, value))

    def text(self, value: float) -> str:
        """The option value a bot gets: rounded for integer options."""
        clipped = self.clip(value)
        return str(round(clipped)) if self.integer else f"{clipped:.6g}"

    def value(self, theta: float) -> int | float:
        """The option value of ``theta``: clipped, then rounded to a whole number (an integer
        option) or to 6 decimals."""
        clipped = self.clip(theta)
        return round(clipped) if self.integer else round(clipped, 6)

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready (how a run stores it)."""
        return asdict(self)


def parse_param(text: str, bot: str) -> Param:
    """``NAME=START,MIN,MAX[,C_END[,R_END]]`` for a numeric option of ``bot``'s spec."""
    name, eq, rest = text.partition("=")
    name = name.strip().lower()
    fields = [f.strip() for f in rest.split(",")]
    if not eq or not name or not 3 <= len(fields) <= 5:
        raise InvalidSettingsError(
            f"--param {text!r}: expected NAME=START,MIN,MAX[,C_END[,R_END]], e.g. t0=2,0.1,10"
        )
    try:
        spec = parse_spec(bot)
        option = entry(spec.name).option(name)
    except BotError as exc:
        raise InvalidSettingsError(f"--param {text!r}: {exc}") from None
    if option.kind not in ("int", "float"):
        raise InvalidSettingsError(
            f"--param {text!r}: option {name!r} of {spec.name!r} is {option.kind}, not a number"
        )
    if name in spec.options:
        raise InvalidSettingsError(f"--param {text!r}: {bot!r} already fixes {name!r}")
    try:
        numbers = [float(f) for f in fields]
    except ValueError:
        raise InvalidSettingsError(f"--param {text!r}: every field must be a number") from None
    if not all(math.isfinite(n) for n in numbers):
        raise InvalidSettingsError(f"--param {text!r}: every field must be finite")
    start, low, high = numbers[:3]
    integer = option.kind == "int"
    if option.minimum is not None and low < option.minimum:
        raise InvalidSettingsError(f"--param {text!r}: {name} cannot go below {option.minimum:g}")
    if option.maximum is not None and high > option.maximum:
        raise InvalidSettingsError(f"--param {text!r}: {name} cannot go above {option.maximum:g}")
    if not low <= start <= high or low == high:
        raise InvalidSettingsError(f"--param {text!r}: need MIN <= START <= MAX and MIN < MAX")
    c_end = numbers[3] if len(numbers) > 3 else (high - low) * C_END_FRACTION
    if integer and len(numbers) <= 3:
        c_end = max(c_end, 1.0)
    r_end = numbers[4] if len(numbers) > 4 else R_END
    if c_end <= 0 or r_end <= 0:
        raise InvalidSettingsError(f"--param {text!r}: C_END and R_END must be positive")
    return Param(name, start, low, high, c_end, r_end, integer)


@dataclass(frozen=True)
class Schedule:
    """The gain sequences of a run of ``pairs`` game pairs."""

    pairs: int
    big_a: float
    alpha: float = ALPHA
    gamma: float = GAMMA

    def c_k(self, param: Param, k: int) -> float:
        """The perturbation of ``param`` at pair ``k`` (from 1):
        ``c_end * (pairs / k) ** gamma``, so ``c_end`` at the last pair."""
        return float(param.c_end * self.pairs**self.gamma / k**self.gamma)

    def a_k(self, param: Param, k: int) -> float:
        """The step of ``param`` at pair ``k``: ``a / (big_a + k) ** alpha``, with ``a`` such
        that the step over the squared perturbation is ``param.r_end`` at the last pair."""
        a = param.r_end * param.c_end**2 * (self.big_a + self.pairs) ** self.alpha
        return float(a / (self.big_a + k) ** self.alpha)

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready (how a run stores it)."""
        return asdict(self)


def flips(seed: int, batch: int, pairs: int, count: int) -> list[tuple[int, ...]]:
    """The sign vectors of a batch's pairs (reproducible from the seed and batch number)."""
    rng = random.Random(f"spsa:{seed}:{batch}")
    return [tuple(rng.choice((-1, 1)) for _ in range(count)) for _ in range(pairs)]


def with_options(bot: str, values: dict[str, str]) -> str:
    """``bot``'s spec with some options set (as text)."""
    spec = parse_spec(bot)
    options = dict(spec.options)
    options.update(values)
    return str(type(spec)(spec.name, options, spec.raw, spec.positional))


@dataclass(frozen=True)
class PairPlan:
    """One game pair of a batch: the sign vector and the two specs."""

    number: int
    flip: tuple[int, ...]
    plus: str
    minus: str


@dataclass(frozen=True)
class BatchOutcome:
    """What one batch did: its ``k``, plus-side W/D/L and the new ``theta``."""

    batch: int
    k: int
    pairs: int
    wins: int
    draws: int
    losses: int
    theta: tuple[float, ...]


def plan_batch(
    bot: str,
    params: Sequence[Param],
    schedule: Schedule,
    theta: Sequence[float],
    batch: int,
    first_pair: int,
    pairs: int,
    seed: int,
) -> list[PairPlan]:
    """The pairs of one batch: ``theta +- c_k * flip`` for each pair's own flip vector."""
    k = first_pair + 1
    plans = []
    for offset, flip in enumerate(flips(seed, batch, pairs, len(params))):
        plus: dict[str, str] = {}
        minus: dict[str, str] = {}
        for p, t, f in zip(params, theta, flip, strict=True):
            step = schedule.c_k(p, k) * f
            plus[p.name] = p.text(t + step)
            minus[p.name] = p.text(t - step)
        plans.append(
            PairPlan(first_pair + offset, flip, with_options(bot, plus), with_options(bot, minus))
        )
    return plans


def pair_tasks(plan: PairPlan, settings: RunSettings) -> list[GameTask]:
    """The two games of a pair: same opening, the plus copy X then O."""
    rounds = settings.rounds[plan.number % len(settings.rounds)]
    opening = opening_for(settings, plan.number, rounds).fen()
    tasks = []
    for a_is_x in (True, False):
        index = 2 * plan.number + (0 if a_is_x else 1)
        x, o = (plan.plus, plan.minus) if a_is_x else (plan.minus, plan.plus)
        tasks.append(
            GameTask(
                index=index, pairing=0, pair=plan.number, a=plan.plus, b=plan.minus, x=x, o=o,
                rows=settings.rows, cols=settings.cols, rounds=rounds, opening=opening,
                seed=settings.seed * 1_000_003 + index, time=settings.time,
                depth=settings.depth, nodes=settings.nodes, margin=settings.margin,
                a_is_x=a_is_x,
            )
        )  # fmt: skip
    return tasks


def update(
    params: Sequence[Param],
    schedule: Schedule,
    theta: Sequence[float],
    k: int,
    flip: Sequence[int],
    result: float,
) -> tuple[float, ...]:
    """``theta`` after one pair whose plus copy scored ``result`` (wins minus losses)."""
    return tuple(
        p.clip(t + schedule.a_k(p, k) / schedule.c_k(p, k) * result * f)
        for p, t, f in zip(params, theta, flip, strict=True)
    )


def play_batch(
    executor: Executor,
    settings: RunSettings,
    plans: list[PairPlan],
    on_game: Callable[[GameResult], None] | None = None,
) -> dict[int, list[GameResult]]:
    """Play every game of a batch on ``executor``; the results grouped by pair number."""
    tasks = [task for plan in plans for task in pair_tasks(plan, settings)]
    games: dict[int, list[GameResult]] = {plan.number: [] for plan in plans}
    for result in play_tasks(executor, tasks):
        games[result.task.pair].append(result)
        if on_game is not None:
            on_game(result)
    return games


def run_batch(
    executor: Executor,
    bot: str,
    params: Sequence[Param],
    schedule: Schedule,
    settings: RunSettings,
    theta: Sequence[float],
    batch: int,
    first_pair: int,
    pairs: int,
    on_game: Callable[[GameResult], None] | None = None,
) -> BatchOutcome:
    """Plan, play and apply one batch; pairs are applied in pair order (deterministic)."""
    k = first_pair + 1
    plans = plan_batch(bot, params, schedule, theta, batch, first_pair, pairs, settings.seed)
    games = play_batch(executor, settings, plans, on_game)
    wins = draws = losses = 0
    current = tuple(theta)
    for plan in plans:
        points = [g.a_points for g in games[plan.number]]
        wins += points.count(1.0)
        losses += points.count(0.0)
        draws += points.count(0.5)
        result = points.count(1.0) - points.count(0.0)
        current = update(params, schedule, current, k, plan.flip, result)
    return BatchOutcome(batch, k, len(plans), wins, draws, losses, current)


def batches(total_pairs: int, batch_pairs: int, done_pairs: int) -> Iterator[tuple[int, int, int]]:
    """``(batch number, first pair, pairs)`` of the batches still to play."""
    first = done_pairs
    while first < total_pairs:
        size = min(batch_pairs, total_pairs - first)
        yield first // batch_pairs, first, size
        first += size


def tuned_values(params: Sequence[Param], theta: Sequence[float]) -> dict[str, int | float]:
    """Option -> value (integer options rounded), as written to the tuned-values file."""
    return {p.name: p.value(t) for p, t in zip(params, theta, strict=True)}
