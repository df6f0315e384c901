"""Every numeric option of every subcommand refuses non-finite and non-ASCII numbers.

The options are found in the parser itself: an option is numeric when its type
turns ``1`` or ``8x8`` into a number (or a tuple of numbers), so an option added
later is covered without touching this file. Each gets a value in its own shape
(``8x8``, ``8,12``) with one number replaced by a bad one (``nan``, ``inf``,
``٣``, ``３``, ``1_0``, ``²``...), and ``adjacency`` must answer with exit status 2
and one error line naming the option, no traceback.

The handlers are replaced by a stub while parsing, so a value that slipped
through would make ``main`` return 0 (and fail the test) instead of starting a
web server or a match. Options whose numbers a handler reads (``--sprt``,
``solutions run --sizes``) run the real handler: they are listed in
:data:`HANDLER_PARSED`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import adjacency.cli as cli
from adjacency.cli import EXIT_BAD_INPUT, build_parser, main
from adjacency.core.text import parse_rounds, parse_size

FIXED_BAD = ("nan", "inf", "-inf", "٣", "３", "1_0", "²")
"""Bad numbers: non-finite values and digits of other scripts that ``int``/``float`` accept."""

PROBES = ("1", "8x8")
"""Values in the shape of every numeric option: a number, a board size."""


@dataclass(frozen=True)
class NumericOption:
    command: tuple[str, ...]
    flag: str  # its first option string
    template: str  # a value its type accepts
    required: tuple[str, ...]  # the command's required positional values, filled in

    def __str__(self) -> str:
        return f"{' '.join(self.command)} {self.flag}"


def _parsers(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def _is_number(value: Any) -> bool:
    if isinstance(value, (tuple, list)):
        return bool(value) and all(_is_number(v) for v in value)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _template(action: argparse.Action) -> str | None:
    """A value ``action``'s type turns into a number, or ``None`` if it is not numeric."""
    if action.type is None or not callable(action.type):
        return None
    for probe in PROBES:
        try:
            value = action.type(probe)
        except (argparse.ArgumentTypeError, TypeError, ValueError):
            continue
        if _is_number(value):
            return probe
    return None


def _required_positionals(parser: argparse.ArgumentParser) -> tuple[str, ...]:
    values = []
    for action in parser._actions:
        if action.option_strings or isinstance(action, argparse._SubParsersAction):
            continue
        if action.nargs is None or action.nargs == "+":
            values.append(action.choices[0] if action.choices else "placeholder")  # type: ignore[index]
    return tuple(values)


def numeric_options() -> list[NumericOption]:
    found = []
    for path, parser in _parsers(build_parser()):
        for action in parser._actions:
            template = _template(action)
            if template is not None and action.option_strings:
                found.append(
                    NumericOption(
                        path, action.option_strings[0], template, _required_positionals(parser)
                    )
                )
    return found


OPTIONS = numeric_options()


def test_the_parser_has_the_numeric_options_this_test_is_about() -> None:
    # The derivation finds options of every kind: whole numbers, seconds, sizes, rounds.
    names = {str(o) for o in OPTIONS}
    for expected in (
        "match --games",
        "match --time",
        "match --size",
        "match --rounds",
        "tune --rounds",
        "tune --alpha",
        "experiments --rounds",
        "solutions run --tt",
        "solve --threads",
        "play --port",
        "move --seed",
    ):
        assert expected in names
    assert len(OPTIONS) > 60
    # Nothing positional is numeric today; a numeric positional would need a template here.
    for path, parser in _parsers(build_parser()):
        for action in parser._actions:
            if not action.option_strings:
                assert _template(action) is None, (path, action.dest)


@cache
def _stubbed_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    for _, sub in _parsers(parser):
        if sub.get_default("handler") is not None:
            sub.set_defaults(handler=lambda args: 0)
    return parser


def _run(argv: list[str], stub: bool) -> tuple[int, str]:
    """``main(argv)`` in this process: its exit status and what it wrote on stderr."""
    err = io.StringIO()
    patch = (
        mock.patch.object(cli, "build_parser", _stubbed_parser)
        if stub
        else contextlib.nullcontext()
    )
    with patch, contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
    return status, err.getvalue()


def _assert_refused(status: int, err: str, name: str) -> None:
    assert status == EXIT_BAD_INPUT, err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1, err
    assert name in errors[0], err


def _bad_in_shape(template: str, bad: str, which: int) -> str:
    """``template`` with its ``which``-th number (mod their count) replaced by ``bad``."""
    numbers = list(re.finditer(r"[0-9]+", template))
    span = numbers[which % len(numbers)]
    return template[: span.start()] + bad + template[span.end() :]


non_ascii_digit = st.characters(categories=["Nd"]).filter(lambda c: not c.isascii())
bad_numbers = st.one_of(
    st.sampled_from(FIXED_BAD),
    st.sampled_from(["NaN", "Infinity", "+inf", "-nan", "1e999", "-1e999", "1_000", "¹", "³"]),
    st.builds(lambda d, n: d + "0" * n, non_ascii_digit, st.integers(0, 2)),
    st.builds(lambda d, n: "1" * n + d, non_ascii_digit, st.integers(1, 2)),
)


@pytest.mark.parametrize("option", OPTIONS, ids=str)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad=bad_numbers, which=st.integers(0, 3))
@example(bad="nan", which=0)
@example(bad="inf", which=0)
@example(bad="-inf", which=0)
@example(bad="٣", which=0)
@example(bad="３", which=0)
@example(bad="1_0", which=0)
@example(bad="²", which=0)
@example(bad="٣", which=1)
def test_every_numeric_option_refuses_non_finite_and_non_ascii_numbers(
    option: NumericOption, bad: str, which: int
) -> None:
    value = _bad_in_shape(option.template, bad, which)
    argv = [*option.command, f"{option.flag}={value}", *option.required]
    status, err = _run(argv, stub=True)
    _assert_refused(status, err, option.flag)


HANDLER_PARSED = (
    # (argv before the value, how the value is written, the name in the message)
    (("match", "random", "greedy", "--sprt"), "elo0={}", "SPRT option"),
    (("match", "random", "greedy", "--sprt", "elo0=0"), "elo1={}", "SPRT option"),
    (("match", "random", "greedy", "--sprt"), "alpha={}", "SPRT option"),
    (("match", "random", "greedy", "--sprt", "stat=margin"), "m1={}", "SPRT option"),
    (("match", "random", "greedy", "--sprt", "stat=margin", "m1=1"), "m0={}", "SPRT option"),
    (("solutions", "run", "--sizes"), "4x{}", "board size"),
)
"""Numbers inside option values that a handler reads (before any work starts)."""


@pytest.mark.parametrize(("before", "shape", "name"), HANDLER_PARSED)
@settings(max_examples=6, deadline=None)
@given(bad=bad_numbers)
@example(bad="nan")
@example(bad="inf")
@example(bad="-inf")
@example(bad="٣")
@example(bad="３")
@example(bad="1_0")
@example(bad="²")
def test_numbers_read_by_handlers_refuse_non_finite_and_non_ascii_values(
    before: tuple[str, ...], shape: str, name: str, bad: str, tmp_path_factory: Any
) -> None:
    db = tmp_path_factory.mktemp("numeric") / "runs.db"
    argv = [*before, shape.format(bad), "--db", str(db)]
    if before[0] == "match":
        argv += ["--games", "2", "--time", "0", "--depth", "1", "--quiet"]
    status, err = _run(argv, stub=False)
    _assert_refused(status, err, name)
    assert err.count("\n") == 1  # no usage block: the handler's one line
    assert not db.exists()  # refused before anything was created


# -------------------------------------------------------- the fixed defects


def test_sprt_with_a_non_finite_value_is_bad_input_not_an_internal_error(
    tmp_path: Path,
) -> None:
    # Before: accepted, and the first counted game ended the run with exit 1 (a bug report).
    for value in ("elo0=nan", "elo0=-inf", "elo1=inf"):
        argv = ["match", "random", "greedy", "--sprt", value, "--db", str(tmp_path / "m.db")]
        status, err = _run([*argv, "--games", "2", "--time", "0", "--depth", "1"], stub=False)
        assert status == EXIT_BAD_INPUT
        assert "is not a number" in err and value in err
    assert not (tmp_path / "m.db").exists()


def test_the_sprt_itself_refuses_non_finite_bounds() -> None:
    from adjacency.ratings.stats import Sprt

    for bad in ({"elo0": float("nan")}, {"elo1": float("inf")}, {"elo0": -float("inf")}):
        with pytest.raises(ValueError, match="finite"):
            Sprt(**bad)


def test_experiments_rounds_take_ascii_digits_only() -> None:
    # Before: experiments read --rounds with int(), which took '٨,1_2' as (8, 12).
    status, err = _run(["experiments", "--rounds", "٨,1_2", "--list"], stub=False)
    _assert_refused(status, err, "--rounds")
    status, _ = _run(["experiments", "--rounds", "8, 12", "--list"], stub=False)
    assert status == 0


def test_one_parser_for_rounds_lists_and_board_sizes() -> None:
    assert parse_rounds("8,12, 16,,28") == (8, 12, 16, 28)
    assert parse_size("6X7") == (6, 7)
    for bad in ("", ",", "٨", "1_2", "8,²", "+8", "8.0"):
        with pytest.raises(ValueError, match="rounds"):
            parse_rounds(bad)
    for bad in ("8", "8x", "x8", "٨x8", "8x８", "8x8x8", "1_0x8", "-8x8"):
        with pytest.raises(ValueError, match="board size"):
            parse_size(bad)


def test_solutions_executor_choice_is_checked_as_input() -> None:
    # Before: an unknown --executor reached make_executor and ended as a runtime failure (3).
    status, err = _run(["solutions", "run", "--executor", "slurm"], stub=True)
    _assert_refused(status, err, "--executor")
