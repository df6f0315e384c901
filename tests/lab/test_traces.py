"""Local-search and genetic traces replay, end in the bot's own move and change nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Position
from adjacency.bots import Limit, make_bot
from adjacency.lab import LabError, climb_trace, evolution_trace
from adjacency.lab.limits import MAX_STEPS
from lab_strategies import small_positions

LOCAL = (
    "hill",
    "hill:variant=sideways",
    "hill:variant=stochastic",
    "hill:neighbourhood=area,variant=steepest",
    "hill:neighbourhood=area,variant=sideways,sideways=3",
    "hill:neighbourhood=area,variant=stochastic",
    "hill:neighbourhood=area,variant=restart,restarts=4",
    "anneal",
    "anneal:neighbourhood=area,radius=1",
    "report-a:localsearch",
    "report-b:localsearch",
)
GENETIC = (
    "genetic:population=12,generations=6",
    "gatree:population=10,generations=4",
    "report-a:genetic",
    "report-b:genetic",
)


def _untraced(spec: str, seed: int, position: Position) -> tuple[str, int | None]:
    bot = make_bot(spec, seed=seed)
    move = bot.choose_move(position, Limit(time=None))
    assert bot.report is not None
    return move, bot.report.nodes


@hsettings(max_examples=25, deadline=None)
@given(small_positions(max_empty=12), st.sampled_from(LOCAL), st.integers(0, 1000))
def test_climb_replays_and_ends_in_the_bots_move(position: Position, spec: str, seed: int) -> None:
    trace = climb_trace(position, spec, seed)
    assert trace.to_dict() == climb_trace(position, spec, seed).to_dict()
    assert (trace.move, trace.complete) == (_untraced(spec, seed, position)[0], True)
    legal = set(position.legal_moves())
    assert trace.steps and set(trace.heat) <= legal
    for step in trace.steps:
        assert step.chosen in legal
        for square, value in step.candidates:
            assert trace.heat[square] == value  # one objective value per candidate
        if step.kind in ("uphill", "sideways"):
            assert step.chosen_value is not None
            best = max(value for _, value in step.candidates)
            if step.kind == "sideways":
                assert step.chosen_value == step.current_value == best
            elif "stochastic" not in spec:
                assert step.chosen_value == best > step.current_value
            else:
                assert step.chosen_value > step.current_value
    if trace.steps[0].kind == "choose":  # neighbourhood=all: one step over every successor
        assert len(trace.steps) == 1 and trace.steps[0].chosen == trace.move
        assert {square for square, _ in trace.steps[0].candidates} == legal
    if spec.startswith("anneal"):
        assert all(step.temperature is not None for step in trace.steps)
        temperatures = [step.temperature or 0.0 for step in trace.steps[1:]]
        assert temperatures == sorted(temperatures, reverse=True)
        assert trace.heat[trace.move] == max(
            step.chosen_value for step in trace.steps if step.chosen_value is not None
        )


def test_restarts_are_counted() -> None:
    position = Position.start(8, 8, rounds=28).play("c3")
    trace = climb_trace(position, "hill:neighbourhood=area,variant=restart,restarts=5", 7)
    assert trace.restarts == 4
    assert sum(step.kind == "start" for step in trace.steps) == 5


def test_long_anneals_keep_a_bounded_trace() -> None:
    position = Position.start(8, 8, rounds=28)
    trace = climb_trace(position, "anneal:t0=10,cooling=0.999,tmin=0.01", 1)
    assert len(trace.steps) == MAX_STEPS and trace.dropped > 0
    assert trace.move == _untraced("anneal:t0=10,cooling=0.999,tmin=0.01", 1, position)[0]


@hsettings(max_examples=12, deadline=None)
@given(small_positions(max_empty=12), st.sampled_from(GENETIC), st.integers(0, 1000))
def test_evolution_replays_and_ends_in_the_bots_move(
    position: Position, spec: str, seed: int
) -> None:
    trace = evolution_trace(position, spec, seed)
    assert trace.to_dict() == evolution_trace(position, spec, seed).to_dict()
    assert trace.move == _untraced(spec, seed, position)[0]
    assert trace.chromosome[0] == trace.move
    assert [g.generation for g in trace.generations] == list(range(len(trace.generations)))
    for generation in trace.generations:
        assert generation.worst <= generation.mean <= generation.best
        assert 0 < generation.diversity <= 1 and 0 < generation.distinct <= 1
    if spec.startswith("genetic"):  # elitism: the best fitness never falls
        bests = [g.best for g in trace.generations]
        assert bests == sorted(bests)


def test_genetic_history_matches_the_bots_own() -> None:
    position = Position.start(8, 8, rounds=28).play("c3")
    trace = evolution_trace(position, "genetic:population=20,generations=8", 5)
    bot = make_bot("genetic:population=20,generations=8", seed=5)
    bot.choose_move(position, Limit(time=None))
    last = getattr(bot, "last", None)
    assert last is not None
    assert [g.best for g in trace.generations] == last.history
    assert trace.seed == 5 and trace.spec == "genetic:population=20,generations=8"


def test_bad_specs_and_sizes_are_refused() -> None:
    position = Position.start(6, 6, rounds=3)
    with pytest.raises(LabError, match="not a local-search bot"):
        climb_trace(position, "greedy")
    with pytest.raises(LabError, match="not a genetic bot"):
        evolution_trace(position, "hill")
    with pytest.raises(LabError, match="at most population=200, got population=500"):
        evolution_trace(position, "genetic:population=500")
    with pytest.raises(LabError, match=r"unknown bot|no bot"):
        climb_trace(position, "nosuchbot")


def test_traces_draw_themselves() -> None:
    import xml.etree.ElementTree as ET

    position = Position.start(6, 6, rounds=3)
    climb = climb_trace(position, "anneal", 2)
    evolution = evolution_trace(position, "genetic:population=8,generations=3", 2)
    for picture in (climb._repr_svg_(), evolution._repr_svg_()):
        assert ET.fromstring(picture).tag.endswith("svg")
    assert "polyline" in evolution._repr_svg_()


def test_the_climbs_heat_map_draws_each_candidates_value_on_its_square() -> None:
    import xml.etree.ElementTree as ET

    position = Position.start(6, 6, rounds=8).play("c3").play("d4")
    climb = climb_trace(position, "hill:neighbourhood=area,variant=sideways", 3)
    ns = "{http://www.w3.org/2000/svg}"
    for heat, values, chosen in [
        (climb.heat_map(), climb.heat, climb.move),
        *((climb.heat_map(i), dict(s.candidates), s.chosen) for i, s in enumerate(climb.steps)),
    ]:
        assert (heat.values, heat.chosen, heat.fen) == (values, chosen, position.fen())
        root = ET.fromstring(heat._repr_svg_())
        tinted = [r for r in root.iter(f"{ns}rect") if (r.get("fill") or "").startswith("rgb(")]
        assert sorted(r.findtext(f"{ns}title") or "" for r in tinted) == sorted(
            str(v) for v in values.values()
        )
        outlined = [r for r in root.iter(f"{ns}rect") if r.findtext(f"{ns}title") == "last move"]
        assert len(outlined) == 1  # the chosen move
    assert heat.to_dict()["chosen"] == chosen
    with pytest.raises(LabError, match="step must be a whole number from 0 to"):
        climb.heat_map(len(climb.steps))
