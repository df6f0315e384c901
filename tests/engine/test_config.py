"""``EngineConfig``: every setting checked in one place, with the errors of docs/errors.md,
and the same configuration whether it comes from Python, from an ``engine:`` spec or from
``Engine``'s keywords."""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
from typing import Any, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.bots import make_bot
from adjacency.bots.engine_bot import BOT_OPTIONS, EngineBot, setting_option
from adjacency.bots.lookup import entry, option_values, parse_spec
from adjacency.bots.registry import Option
from adjacency.cli import build_parser
from adjacency.cli.arguments import thread_count
from adjacency.cli.engine_commands import SETTING_FLAGS, config_from_args
from adjacency.core.errors import InvalidSettingsError
from adjacency.engine import DRIVERS, EVALUATIONS, Engine, EngineConfig
from adjacency.engine.config import (
    NULL_REDUCTION_MAX,
    PROBCUT_MAX,
    SETTING,
    SETTINGS,
    SPEC_SETTING,
    TERM_MAX,
    TERMS,
    THREADS_MAX,
    EngineSettings,
    config_from_spec,
    spec_values,
)
from adjacency.engine.kernels import layout as L
from adjacency.engine.kernels.layout import ORDER_ALL
from adjacency.engine.profiles import PROFILES
from adjacency.engine.threads import default_threads

spec_configs = st.builds(
    EngineConfig,
    tt_mb=st.integers(1, 4).map(float),
    evaluation=st.sampled_from(EVALUATIONS),
    driver=st.sampled_from(DRIVERS),
    profile=st.sampled_from(tuple(PROFILES)),
    threads=st.integers(1, 2),
    reductions=st.booleans(),
    null_reduction=st.none() | st.integers(0, NULL_REDUCTION_MAX),
    probcut=st.none() | st.integers(0, PROBCUT_MAX),
    next_iteration=st.none() | st.sampled_from([0.25, 0.4, 0.75, 1.0]),
    terms=st.dictionaries(st.sampled_from(tuple(TERMS)), st.integers(0, TERM_MAX)),
)
"""Configurations an ``engine:`` spec can state (small tables: each one is allocated)."""

configs = st.builds(
    EngineConfig,
    tt_mb=st.floats(0.001, 8.0),
    evaluation=st.sampled_from(EVALUATIONS),
    driver=st.sampled_from(DRIVERS),
    profile=st.sampled_from(tuple(PROFILES)),
    threads=st.integers(1, THREADS_MAX),
    use_tt=st.booleans(),
    ordering=st.none() | st.integers(0, ORDER_ALL),
    reductions=st.none() | st.booleans(),
    null_reduction=st.none() | st.integers(0, NULL_REDUCTION_MAX),
    probcut=st.none() | st.integers(0, PROBCUT_MAX),
    next_iteration=st.none() | st.floats(0.0, 1.0, exclude_min=True) | st.just(1),
    terms=st.dictionaries(st.sampled_from(tuple(TERMS)), st.integers(0, TERM_MAX)),
)

not_whole = st.sampled_from([True, False, 1.0, 2.5, "3", math.nan])
"""Not whole numbers (``None`` is not among them: it means "the profile's" where allowed)."""
BAD: dict[str, tuple[st.SearchStrategy[Any], str]] = {
    "threads": (
        st.integers(max_value=0) | st.integers(min_value=THREADS_MAX + 1) | not_whole | st.none(),
        f"threads must be a whole number from 1 to {THREADS_MAX}, got ",
    ),
    "tt_mb": (
        st.floats(max_value=0.0)
        | st.sampled_from([math.inf, math.nan, "64", True, None])
        | st.integers(max_value=0),
        "tt_mb must be a number above 0, got ",
    ),
    "profile": (st.text().filter(lambda s: s not in PROFILES), "profile must be one of v1, "),
    "driver": (
        st.text().filter(lambda s: s not in DRIVERS),
        "driver must be one of pvs, mtdf, got ",
    ),
    "evaluation": (
        st.text().filter(lambda s: s not in EVALUATIONS),
        "evaluation must be one of positional, material, got ",
    ),
    "use_tt": (st.sampled_from([0, 1, None, "yes"]), "use_tt must be true or false, got "),
    "reductions": (st.sampled_from([0, 1, "no"]), "reductions must be true, false or None"),
    "ordering": (
        st.integers(max_value=-1) | st.integers(min_value=ORDER_ALL + 1) | not_whole,
        f"ordering must be a whole number from 0 to {ORDER_ALL}, got ",
    ),
    "null_reduction": (
        st.integers(max_value=-1) | st.integers(min_value=NULL_REDUCTION_MAX + 1) | not_whole,
        f"pruning setting null_reduction must be a whole number from 0 to {NULL_REDUCTION_MAX}",
    ),
    "probcut": (
        st.integers(max_value=-1) | st.integers(min_value=PROBCUT_MAX + 1) | not_whole,
        f"pruning setting probcut must be a whole number from 0 to {PROBCUT_MAX}",
    ),
    "next_iteration": (
        st.floats(max_value=0.0)
        | st.floats(min_value=1.0, exclude_min=True)
        | st.sampled_from([math.nan, True, "0.5"]),
        "next_iteration must be a fraction of the time above 0 and at most 1, or None "
        r"\(the profile's\), got ",
    ),
    "terms": (
        st.dictionaries(st.text().filter(lambda s: s not in TERMS), st.integers(), min_size=1)
        | st.sampled_from([[("exposure", 3)], "exposure=3"]),
        "(evaluation term must be one of exposure, tempo, parity, horizon, got "
        "|terms must map evaluation terms to weights, got )",
    ),
    "terms ": (  # the weights of known terms
        st.dictionaries(
            st.sampled_from(tuple(TERMS)),
            st.integers(max_value=-1) | st.integers(min_value=TERM_MAX + 1) | not_whole | st.none(),
            min_size=1,
        ),
        f"evaluation term (exposure|tempo|parity|horizon) must be a whole number from 0 to "
        f"{TERM_MAX}",
    ),
}
"""Per setting: bad values, and the start of the error each gives."""


def spec_of(config: EngineConfig) -> str:
    """The ``engine:`` spec of ``config``, written out here independently of the bot."""
    items = {
        "tt": f"{config.tt_mb:g}",
        "eval": config.evaluation,
        "driver": config.driver,
        "lmr": "true" if config.reductions else "false",
        "profile": config.profile,
        "threads": str(config.threads),
        "null": "-1" if config.null_reduction is None else str(config.null_reduction),
        "probcut": "-1" if config.probcut is None else str(config.probcut),
        "next_iteration": "0" if config.next_iteration is None else f"{config.next_iteration:g}",
        **{name: str(value) for name, value in config.terms.items()},
    }
    return "engine:" + ",".join(f"{key}={value}" for key, value in items.items())


@settings(max_examples=60, deadline=None)
@given(configs)
def test_valid_configurations_keep_their_values_and_are_frozen(config: EngineConfig) -> None:
    copy = EngineConfig(**{f.name: getattr(config, f.name) for f in dataclasses.fields(config)})
    assert copy == config and hash(copy) == hash(config)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.threads = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.terms["exposure"] = 1  # type: ignore[index]
    resolved = config.resolved()
    profile = PROFILES[config.profile]
    for field in dataclasses.fields(config):
        given_value = getattr(config, field.name)
        if field.name in ("ordering", "reductions", "null_reduction", "probcut", "next_iteration"):
            expected = getattr(profile, field.name) if given_value is None else given_value
        else:
            expected = given_value
        assert getattr(resolved, field.name) == expected


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_each_bad_setting_is_refused_with_its_own_message(data: st.DataObject) -> None:
    field = data.draw(st.sampled_from(sorted(BAD)))
    values, message = BAD[field]
    bad = data.draw(values)
    name = field.strip()
    with pytest.raises(InvalidSettingsError, match="^" + message) as raised:
        EngineConfig(**{name: bad})
    with pytest.raises(InvalidSettingsError) as through_engine:
        Engine(**{name: bad})
    assert str(through_engine.value) == str(raised.value)
    good = EngineConfig(tt_mb=1)
    with pytest.raises(InvalidSettingsError) as changed:
        good.with_settings(**{name: bad})
    assert str(changed.value) == str(raised.value)


def test_a_name_that_is_no_setting_is_refused() -> None:
    with pytest.raises(InvalidSettingsError, match="unknown engine setting 'tt'; settings: "):
        Engine(tt=4)  # type: ignore[call-arg]
    with pytest.raises(InvalidSettingsError, match="unknown engine setting 'eval'"):
        EngineConfig().with_settings(eval="material")


@settings(max_examples=15, deadline=None)
@given(spec_configs)
def test_spec_configurations_round_trip_through_the_bot_and_the_engine(
    config: EngineConfig,
) -> None:
    bot = make_bot(spec_of(config))
    assert isinstance(bot, EngineBot)
    assert bot.engine.config == config
    keywords = Engine(**{f.name: getattr(config, f.name) for f in dataclasses.fields(config)})
    for engine in (bot.engine, Engine(config), keywords):
        assert engine.config == config
        assert (engine.S == bot.engine.S).all()
        assert len(engine.U) == len(bot.engine.U)
    resolved = config.resolved()
    S = bot.engine.S
    assert int(S[L.CFG + L.CFG_NULL_R]) == resolved.null_reduction
    assert int(S[L.CFG + L.CFG_PROBCUT]) == resolved.probcut
    assert int(S[L.CFG + L.CFG_LMR]) == int(bool(resolved.reductions))
    assert int(S[L.CFG + L.CFG_ORDER]) == resolved.ordering
    for name, value in config.terms.items():
        assert int(S[L.W + TERMS[name]]) == value
    assert bot.engine.next_iteration == resolved.next_iteration


def test_the_specs_unset_is_the_configs_none_and_the_profiles_value() -> None:
    bot = make_bot(
        "engine:tt=1,profile=v3,null=-1,probcut=-1,next_iteration=0,exposure=-1,threads=0"
    )
    assert isinstance(bot, EngineBot)
    config = bot.engine.config
    assert (config.null_reduction, config.probcut, config.next_iteration, dict(config.terms)) == (
        None,
        None,
        None,
        {},
    )
    assert bot.engine.next_iteration == PROFILES["v3"].next_iteration
    assert config.threads == 1  # threads=0: one thread unless the process said otherwise
    assert int(bot.engine.S[L.CFG + L.CFG_PROBCUT]) == PROFILES["v3"].probcut


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("engine:null=9", r"option null='9' is out of range: must be int in \[-1, 8\]"),
        ("engine:probcut=1001", r"option probcut='1001' is out of range"),
        ("engine:threads=257", r"option threads='257' is out of range: must be int in \[0, 256\]"),
        ("engine:tempo=1001", r"option tempo='1001' is out of range: must be int in \[-1, 1000\]"),
        ("engine:next_iteration=1.5", r"option next_iteration='1.5' is out of range"),
        ("engine:next_iteration=-0.5", r"option next_iteration='-0.5' is out of range"),
        ("engine:eval=learned", "option eval='learned' is not one of positional, material"),
    ],
)
def test_spec_ranges_are_the_configs(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


# ------------------------------------------------ one declaration per setting, and its places


def _option_values(option: Option) -> st.SearchStrategy[Any]:
    """Values the ``engine`` bot's ``option`` accepts, as parsed (small tables and thread
    counts: each example builds the engine)."""
    if option.choices:
        return st.sampled_from(option.choices)
    if isinstance(option.default, bool):
        return st.booleans()
    if option.name == "tt":
        return st.integers(1, 4)
    if option.name == "threads":
        return st.integers(0, 2)
    if isinstance(option.default, int):
        return st.integers(int(option.minimum or 0), int(option.maximum or 0))
    if isinstance(option.default, float):
        low, high = (round(1000 * (bound or 0)) for bound in (option.minimum, option.maximum))
        return st.integers(low, high).map(lambda thousandths: thousandths / 1000)
    assert option.shared is not None
    return st.sampled_from(option.shared)


def _spell(value: object) -> str:
    """A spec's text of a parsed option value."""
    return str(value).lower() if isinstance(value, bool) else str(value)


ENGINE_OPTIONS = tuple(entry("engine").option(name) for name in SPEC_SETTING)
"""The ``engine`` bot's options that are engine settings."""


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_every_setting_round_trips_from_the_spec_through_the_bot_and_the_config(
    data: st.DataObject,
) -> None:
    given_options = {
        option.name: data.draw(_option_values(option), label=option.name)
        for option in ENGINE_OPTIONS
        if data.draw(st.booleans(), label=f"give {option.name}")
    }
    text = "engine:" + ",".join(f"{name}={_spell(value)}" for name, value in given_options.items())
    options = option_values(parse_spec(text.rstrip(":")))
    bot = make_bot(text.rstrip(":"))
    assert isinstance(bot, EngineBot)
    config = config_from_spec({name: options[name] for name in SPEC_SETTING})
    assert bot.engine.config == config
    for setting in SETTINGS:  # the spec's "unset" is None in Python, and nothing else is
        value = getattr(config, setting.name)
        for name in setting.spec:
            spec_value = options[name]
            given_value = value.get(name) if setting.rule == "terms" else value
            if spec_value == setting.spec_unset:
                fallback = setting.fallback
                assert given_value == (None if fallback is None else fallback())
            else:
                assert given_value == spec_value
    back = spec_values(config)
    expected = dict(options)
    if options["threads"] == 0:  # the spec's 0 threads: the process's default, a number
        expected["threads"] = default_threads()
    assert back == {name: expected[name] for name in SPEC_SETTING}
    written = "engine:" + ",".join(f"{name}={_spell(value)}" for name, value in back.items())
    reread = option_values(parse_spec(written))
    assert config_from_spec({name: reread[name] for name in SPEC_SETTING}) == config


def test_each_declared_setting_is_a_field_a_keyword_and_a_bot_option() -> None:
    names = [setting.name for setting in SETTINGS]
    assert [f.name for f in dataclasses.fields(EngineConfig)] == names
    assert get_type_hints(EngineSettings) == get_type_hints(EngineConfig)
    for f in dataclasses.fields(EngineConfig):
        setting = f.metadata["setting"]
        assert setting is SETTING[f.name]
        assert getattr(EngineConfig(), f.name) == setting.default
        if setting.profile is not None:  # the profile's field fills it in
            assert getattr(EngineConfig().resolved(), f.name) == getattr(
                PROFILES[EngineConfig().profile], setting.profile
            )
    bot_options = {option.name: option for option in entry("engine").options}
    assert set(bot_options) == set(SPEC_SETTING) | set(BOT_OPTIONS)
    for name, setting in SPEC_SETTING.items():
        option = bot_options[name]
        assert option == setting_option(name)
        assert (option.default, option.minimum, option.maximum, option.cap, option.shared) == (
            setting.spec_default,
            setting.spec_minimum,
            setting.spec_maximum,
            setting.cap,
            setting.shared,
        )
        assert option.choices == (setting.choices or None)
        assert option.help == setting.option_help(name)
    assert {s.name for s in SETTINGS if not s.spec} == {"use_tt", "ordering"}  # Python only


NOT_SETTINGS = {("train-eval", "--parity")}
"""Flags named like an engine setting's option that are something else: ``train-eval
--parity`` fits a parity feature of the pattern evaluation, not the parity term's weight."""


def _setting_flags() -> list[tuple[str, str, argparse.Action]]:
    """Every flag of every command that is named after an engine setting: (command, flag,
    action)."""
    found: list[tuple[str, str, argparse.Action]] = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}".strip())
            for flag in action.option_strings:
                name = flag.removeprefix("--").replace("-", "_")
                if (name in SPEC_SETTING or name in SETTING) and (path, flag) not in NOT_SETTINGS:
                    found.append((path, flag, action))

    walk(build_parser(), "")
    return found


def test_each_command_line_flag_of_a_setting_is_declared_and_reads_its_range() -> None:
    flags = _setting_flags()
    declared = {f"--{s.spec[0]}" for s in SETTINGS if s.flag}
    assert {flag for _, flag, _ in flags} == declared
    for command, flag, action in flags:
        setting = SPEC_SETTING[flag.removeprefix("--")]
        assert setting.flag, (command, flag)
        form = SETTING_FLAGS[setting.spec[0]]
        assert (action.type, action.choices) == (form.get("type"), form.get("choices")), command
        if setting.rule == "choice":
            assert action.choices == setting.choices
    parser = build_parser()
    top = str(SETTING["threads"].high)
    args = parser.parse_args(["analyse", "x", "--driver", "mtdf", "--threads", top])
    assert config_from_args(args) == EngineConfig(driver="mtdf", threads=int(top))
    args = parser.parse_args(["solve", "x", "--tt", "2", "--threads", "1"])
    assert config_from_args(args) == EngineConfig(tt_mb=2.0, threads=1)
    with pytest.raises(argparse.ArgumentTypeError, match=f"must be at most {top}, got"):
        thread_count(str(int(top) + 1))


def test_the_bot_in_python_says_unset_with_none() -> None:
    spec_bot = make_bot("engine:tt=1")
    assert isinstance(spec_bot, EngineBot)
    bot = EngineBot(random.Random(0), EngineConfig(tt_mb=1, reductions=True))
    assert bot.engine.config == spec_bot.engine.config
    assert (bot.time, bot.depth, spec_bot.time, spec_bot.depth) == (None, None, None, None)
    timed = make_bot("engine:tt=1,time=0.5,depth=3")
    assert isinstance(timed, EngineBot) and (timed.time, timed.depth) == (0.5, 3)
    assert EngineBot(random.Random(0)).engine.config == config_from_spec({})
