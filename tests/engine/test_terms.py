"""The hand-tuned evaluation's terms can be set by name (what ``adjacency tune`` varies)."""

from __future__ import annotations

import pytest

from adjacency.bots import make_bot
from adjacency.bots.engine_bot import EngineBot
from adjacency.bots.lookup import entry
from adjacency.core import Position
from adjacency.engine import Engine
from adjacency.engine.config import TERMS
from adjacency.engine.kernels import layout as L
from adjacency.engine.profiles import V1_WEIGHTS


def test_terms_override_the_profile_weights_by_name() -> None:
    engine = Engine(tt_mb=1, profile="v1", terms={"exposure": 3, "horizon": 40})
    weights = engine.S[L.W : L.W + len(V1_WEIGHTS)].tolist()
    expected = list(V1_WEIGHTS)
    expected[L.W_EXPOSURE], expected[L.W_HORIZON] = 3, 40
    assert weights == expected


def test_an_unknown_term_is_refused() -> None:
    with pytest.raises(ValueError, match="evaluation term must be one of exposure"):
        Engine(tt_mb=1, terms={"mobility": 3})


def test_the_engine_bot_passes_its_weight_options_and_they_change_the_search() -> None:
    position = Position.start(8, 8, rounds=28).play("c3").play("f6")
    default = make_bot("engine:depth=4,tt=1,solve=false,profile=v1")
    changed = make_bot("engine:depth=4,tt=1,solve=false,profile=v1,exposure=0,tempo=40")
    assert isinstance(default, EngineBot) and isinstance(changed, EngineBot)
    assert int(changed.engine.S[L.W + L.W_TEMPO]) == 40
    assert int(default.engine.S[L.W + L.W_TEMPO]) == V1_WEIGHTS[L.W_TEMPO]
    first = default.engine.search(position, depth=4).value
    second = changed.engine.search(position, depth=4).value
    assert first != second
    # Every term is a registry option (so `adjacency tune` and specs can set it).
    for name in TERMS:
        assert entry("engine").option(name).default == -1
