"""Bot specs: bad input gets a specific error listing what is accepted."""

from __future__ import annotations

import pytest

from adjacency.bots import BotError, make_bot


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (
            "hill:variant=simulated",
            r"variant='simulated'.* not one of steepest, sideways, stochastic, restart",
        ),
        ("hill:score=margin", r"not one of reply, gain, own"),
        ("hill:neighbourhood=ring", r"neighbourhood='ring'.* not one of all, area"),
        ("hill:variant=restart", r"variant=restart needs neighbourhood=area"),
        ("report-a:alphabeta", r"algorithm='alphabeta'.* not one of minimax, localsearch, genetic"),
        ("report-b:minimax,genetic", r"expected key=value, got 'genetic'"),
        ("report-b:minimax,algorithm=genetic", r"option 'algorithm' given twice"),
        ("hill:radius=9", r"radius='9'.*out of range: must be int in \[1, 7\]"),
        ("anneal:cooling=1.5", r"cooling='1.5'.*out of range: must be float in \[0.5, 0.9999\]"),
        ("anneal:t0=hot", r"t0='hot'.*must be float"),
        (
            "anneal:temp=2",
            r"no option 'temp'; accepted: t0, cooling, tmin, score, neighbourhood, radius, seed",
        ),
        ("genetic:population=1", r"population='1'.*out of range"),
        ("genetic:mutation=2", r"mutation='2'.*out of range: must be float in \[0, 1\]"),
        ("genetic:size=4", r"accepted: population, generations, horizon, mutation, elitism, seed"),
        ("gatree:depth=-1", r"depth='-1'.*out of range"),
        ("minimax:depth=-1", r"depth='-1'.*out of range: must be int in \[0, 64\]"),
        ("minimax:prune=true", r"no option 'prune'; accepted: depth, ties, seed"),
        ("alphabeta:ties=random", r"ties='random'.* not one of order, scan"),
        ("alphabeta:order=maybe", r"order='maybe'.*must be true or false"),
        ("alphabeta:depth", r"expected key=value, got 'depth'"),
    ],
)
def test_bad_specs_name_what_is_accepted(spec: str, expected: str) -> None:
    with pytest.raises(BotError, match=expected):
        make_bot(spec)


def test_an_unknown_bot_lists_every_known_bot() -> None:
    with pytest.raises(BotError, match=r"unknown bot 'alphabet'; known bots: ") as caught:
        make_bot("alphabet")
    for name in ("random", "greedy", "minimax", "alphabeta", "hill", "anneal", "genetic", "gatree"):
        assert name in str(caught.value)


@pytest.mark.parametrize(
    "spec",
    [
        "minimax:depth=6",
        "alphabeta:depth=6",
        "hill:variant=sideways",
        "anneal:t0=2.0,cooling=0.95",
        "genetic:population=40,generations=60",
        "gatree:population=30,depth=6",
        "hill:variant=restart,neighbourhood=area,restarts=4,seed=3",
        "alphabeta:depth=5,ties=scan",
        "report-a:minimax",
        "report-b:genetic,seed=3",
    ],
)
def test_documented_specs_build_bots_that_remember_their_spec(spec: str) -> None:
    assert make_bot(spec).spec == spec
