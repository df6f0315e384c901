"""The climb of a local-search bot (``hill`` and its variants, ``anneal``) on one position.

:func:`climb_trace` runs the bot (seeded, no time limit) with its trace hook
(:attr:`~adjacency.bots.local.LocalSearchBot.observer`) and returns every step:
the candidate moves looked at with their objective values (the bot's own
objective, :mod:`adjacency.bots.objective`, from the mover's view), the one
chosen, sideways steps and restarts (a ``start`` after the first), and for
annealing the temperature. The trace's ``move`` is the move the bot played.
At most :data:`~adjacency.lab.limits.MAX_STEPS` steps are kept; ``dropped``
counts the rest. ``heat`` holds every candidate's value that the search
computed (the board's heat map); :meth:`ClimbTrace.heat_map` draws it, or one
step's candidates, on the position (:class:`HeatMap`, SVG in Jupyter).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..bots.gate import NetworkSpec
from ..bots.local import LocalSearchBot, LocalStep
from ..core import Position
from ..core.svg import position_svg
from .drawing import chart
from .limits import MAX_STEPS, LabError, check_position
from .running import Cancel, build, play_traced


@dataclass(frozen=True)
class Step:
    """One step (square names; see :class:`adjacency.bots.local.LocalStep`)."""

    index: int
    kind: str
    current: str | None
    current_value: int
    candidates: tuple[tuple[str, int], ...]
    chosen: str
    chosen_value: int | None
    temperature: float | None

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return {
            "index": self.index,
            "kind": self.kind,
            "current": self.current,
            "current_value": self.current_value,
            "candidates": [list(pair) for pair in self.candidates],
            "chosen": self.chosen,
            "chosen_value": self.chosen_value,
            "temperature": self.temperature,
        }


@dataclass(frozen=True)
class HeatMap:
    """Candidate moves' objective values on the position ``fen``: ``values`` by square
    name (the mover's view), ``chosen`` the move outlined, ``title`` the caption."""

    fen: str
    values: dict[str, int]
    chosen: str | None
    title: str

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return {"fen": self.fen, "values": dict(self.values), "chosen": self.chosen}

    def _repr_svg_(self) -> str:
        return heat_map_svg(self)


@dataclass(frozen=True)
class ClimbTrace:
    """A local-search bot's search of one position."""

    fen: str
    spec: str
    seed: int
    steps: tuple[Step, ...]
    dropped: int
    heat: dict[str, int]
    move: str
    complete: bool

    @property
    def restarts(self) -> int:
        """Climbs started after the first one."""
        return max(0, sum(step.kind == "start" for step in self.steps) - 1)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return {
            "fen": self.fen,
            "spec": self.spec,
            "seed": self.seed,
            "steps": [step.to_dict() for step in self.steps],
            "dropped": self.dropped,
            "restarts": self.restarts,
            "heat": dict(self.heat),
            "move": self.move,
            "complete": self.complete,
        }

    def _repr_svg_(self) -> str:
        return climb_svg(self)

    def heat_map(self, step: int | None = None) -> HeatMap:
        """The board's heat map: every candidate's value the search computed and the move
        played (``step`` ``None``), or step number ``step``'s candidates and its choice.
        :class:`~adjacency.lab.limits.LabError` for a step the trace does not hold."""
        if step is None:
            title = f"{self.spec} (seed {self.seed}): every candidate's value; played {self.move}"
            return HeatMap(self.fen, dict(self.heat), self.move, title)
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(self.steps):
            raise LabError(f"step must be a whole number from 0 to {len(self.steps) - 1}")
        item = self.steps[step]
        title = f"{self.spec} (seed {self.seed}) step {step}, {item.kind}: chose {item.chosen}"
        return HeatMap(self.fen, dict(item.candidates), item.chosen, title)


def climb_trace(
    position: Position,
    spec: str | NetworkSpec = "hill",
    seed: int = 1,
    cancel: Cancel | None = None,
) -> ClimbTrace:
    """The trace of the local-search bot ``spec`` (seed ``seed``) choosing a move on
    ``position``; :class:`~adjacency.lab.limits.LabError` for another kind of bot or a
    position that is over."""
    check_position(position)
    bot = build(spec, seed, (LocalSearchBot,), "a local-search bot (hill, anneal)")
    assert isinstance(bot, LocalSearchBot)
    raw: list[LocalStep] = []
    dropped = 0
    heat: dict[int, int] = {}

    def observe(step: LocalStep) -> None:
        nonlocal dropped
        heat.update(step.candidates)
        if len(raw) < MAX_STEPS:
            raw.append(step)
        else:
            dropped += 1

    bot.observer = observe
    move, complete = play_traced(bot, position, cancel)
    name = position.board.name
    steps = tuple(
        Step(
            index,
            step.kind,
            None if step.current is None else name(step.current),
            step.current_value,
            tuple((name(sq), value) for sq, value in step.candidates),
            name(step.chosen),
            heat.get(step.chosen),
            step.temperature,
        )
        for index, step in enumerate(raw)
    )
    return ClimbTrace(
        position.fen(),
        bot.spec,
        seed,
        steps,
        dropped,
        {name(sq): value for sq, value in sorted(heat.items())},
        move,
        complete,
    )


def climb_svg(trace: ClimbTrace) -> str:
    """The value of the state after each step (restarts and sideways steps are in the data)."""
    points = [
        (float(step.index), float(step.chosen_value))
        for step in trace.steps
        if step.chosen_value is not None
    ]
    return chart(
        f"{trace.spec} (seed {trace.seed}): value after each step; played {trace.move}",
        [("value", "#1565c0", points)],
        x_label="step",
        y_label="objective",
    )


def heat_map_svg(heat: HeatMap) -> str:
    """The position with each candidate square tinted by its value and the chosen move
    outlined: the board picture of :func:`adjacency.core.svg.position_svg`."""
    position = Position.from_fen(heat.fen)
    return position_svg(position, last=heat.chosen, heat=heat.values, title=heat.title)
