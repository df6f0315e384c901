"""The course reports' bots: each preset's parameters, scan-order ties, report A's genetic.

Report A is the shared seed document ``000_1017c440989dc4b0.txt`` (course report A),
report B ``001_93a3ca6f84fd1e25.txt`` (course report B), neither part of this repository;
sections are those of the reports.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Position
from adjacency.bots import Limit, entries, make_bot
from adjacency.bots.course_reports import REPORT_BOTS
from adjacency.bots.gametree import GameTreeBot, GameTreeSettings, evolve_tree
from adjacency.bots.local import HillBot
from adjacency.bots.minimax import MinimaxBot
from adjacency.bots.sequence_genetic import (
    SequenceGeneticBot,
    Simulator,
    crossover_in_place,
    evolve,
)
from core_strategies import positions
from oracles import fixed_depth_value

PARAMETERS: dict[str, tuple[type, dict[str, Any], str]] = {
    "report-a:minimax": (
        MinimaxBot,
        {"prune": True, "depth": 5, "ties": "scan"},
        "A 2: alpha-beta, 6 levels counting level 0 (to the bot's 3rd move); step 8: a new "
        "best only when strictly better, scanning the board row by row",
    ),
    "report-a:localsearch": (
        HillBot,
        {"variant": "sideways", "neighbourhood": "all", "score": "own"},
        "A 3a: every valid move, kept if not below the current value, best kept, one at "
        "random; 1b: the objective is the bot's score after the move",
    ),
    "report-a:genetic": (
        SequenceGeneticBot,
        {"population": 20, "horizon": 3, "mutation": 0.1, "generations": 100},
        "A 4: own moves per chromosome; the report gives no numbers (ours, docs/bots.md)",
    ),
    "report-b:minimax": (
        MinimaxBot,
        {"prune": True, "depth": 7, "ties": "scan"},
        "B 2 (alpha-beta; step 5: the move changes only with a new extreme) and 5.1 (depth 7)",
    ),
    "report-b:localsearch": (
        HillBot,
        {"variant": "steepest", "neighbourhood": "all", "score": "gain"},
        "B 3.1: successors of every legal move, h = BotScore - OpponentScore; 3.2 step 2: "
        "the maximal successor, random among equals",
    ),
    "report-b:genetic": (
        GameTreeBot,
        {"population": 100, "generations": 5, "depth": 0, "mutation": 0.1},
        "B 4: lines of both sides in a reservation tree valued by minimax, best N kept; "
        "N=100, 5 rounds of breeding, lines of the rounds left: its appendix's repository",
    ),
}
"""preset -> (class, the report's parameters, where the report defines them)."""


def test_every_report_bot_is_a_registered_preset() -> None:
    assert {b.name for b in REPORT_BOTS} == set(PARAMETERS)
    names = {e.name for e in entries()}
    assert {"report-a", "report-b"} <= names


@pytest.mark.parametrize("name", PARAMETERS)
def test_each_preset_has_its_reports_parameters(name: str) -> None:
    kind, expected, _source = PARAMETERS[name]
    bot = make_bot(name, seed=1)
    assert type(bot) is kind
    assert bot.spec == name
    found = getattr(bot, "settings", bot)
    for key, value in expected.items():
        assert getattr(found, key) == value, (name, key)


def reading_order_key(position: Position, move: str) -> tuple[int, str]:
    """Top rank first, then files a, b, ...: the reports' row-by-row scan."""
    return (-int(move[1:]), move[0])


@hsettings(max_examples=40, deadline=None)
@given(positions(), st.integers(1, 2))
def test_scan_ties_play_the_first_best_move_in_reading_order(
    position: Position, depth: int
) -> None:
    assume(not position.is_over and len(position.legal_moves()) <= 30)
    values = {m: -fixed_depth_value(position.play(m), depth - 1) for m in position.legal_moves()}
    best = max(values.values())
    first = min(
        (m for m, v in values.items() if v == best), key=lambda m: reading_order_key(position, m)
    )
    for name in ("alphabeta", "minimax"):
        bot = make_bot(f"{name}:depth={depth},ties=scan")
        assert bot.choose_move(position, Limit(time=None)) == first, (name, position.fen())


def naive_fitness(position: Position, genes: list[int], rng: random.Random) -> int:
    """Report A, section 4 step 2, on the rules: replies convert the most, random on ties."""
    names = [position.board.name(sq) for sq in genes]
    me = position.turn
    for i, move in enumerate(names):
        if move not in position.legal_moves():
            return 0
        position = position.play(move)
        if position.is_over:
            break
        gains = {m: len(position.flips(m)) for m in position.legal_moves()}
        ties = sorted(
            (m for m, g in gains.items() if g == max(gains.values())),
            key=position.board.square,
        )
        reply = rng.choice(ties)
        if reply in names[i + 1 :]:
            return 0
        position = position.play(reply)
        if position.is_over:
            break
    return position.margin(me)


@hsettings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 10_000))
def test_report_a_fitness_follows_the_rules_and_zeroes_illegal_chromosomes(
    position: Position, seed: int
) -> None:
    assume(not position.is_over)
    pick = random.Random(seed)
    squares = position.legal_squares()
    genes = [pick.choice(squares) for _ in range(min(3, position.rounds_left))]
    ours = Simulator(position, random.Random(seed)).fitness(genes)
    assert ours == naive_fitness(position, genes, random.Random(seed))
    if len(genes) >= 2:
        repeated = [genes[0], genes[0], *genes[2:]]
        assert Simulator(position, random.Random(seed)).fitness(repeated) == 0


def test_report_a_crossover_runs_over_the_first_half_pair_by_pair() -> None:
    population = [[1, 1], [2, 2], [3, 3], [4, 4]]
    crossover_in_place(population, 1)
    # (0, 1): [1, 2] and [2, 1]; then (1, 2) with the new second one: [2, 3] and [3, 1].
    assert population == [[1, 2], [2, 3], [3, 1], [4, 4]]


def test_report_a_genetic_plays_the_first_gene_of_its_fittest_chromosome() -> None:
    position = Position.start()
    run = evolve(position, make_bot("report-a:genetic").settings, random.Random(4))  # type: ignore[attr-defined]
    assert run.generations == 100 and len(run.best) == 3
    assert position.board.name(run.best[0]) in position.legal_moves()
    move = make_bot("report-a:genetic", seed=4).choose_move(position, Limit(time=None))
    assert move == position.board.name(run.best[0])


@pytest.mark.parametrize("rounds", [1, 3, 12])
def test_gatree_depth_zero_makes_lines_of_the_rounds_left(rounds: int) -> None:
    position = Position.start(8, 8, rounds).play("c3")
    result = evolve_tree(position, GameTreeSettings(20, 1, 0, 0.1), random.Random(1))
    assert len(result.line) == min(position.rounds_left, position.plies_left)


def test_scan_and_search_order_break_a_tie_differently() -> None:
    # From the start X converts one piece on f7, f8, g6 or h6 (every other move none).
    start = Position.start()
    assert make_bot("alphabeta:depth=1,ties=scan").choose_move(start, Limit(time=None)) == "f8"
    assert make_bot("alphabeta:depth=1").choose_move(start, Limit(time=None)) == "g6"


def test_the_browsers_bot_chooser_offers_the_report_bots() -> None:
    """/api/config lists the registry's bots; the chooser builds its form from them."""
    from adjacency.web.routers.games import bots

    offered = {b.name: b for b in bots()}
    for report in ("report-a", "report-b"):
        (algorithm,) = offered[report].options
        assert algorithm.name == "algorithm"
        assert algorithm.choices == ["minimax", "localsearch", "genetic"]
