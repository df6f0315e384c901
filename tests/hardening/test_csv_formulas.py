"""CSV exports show names as text: a spreadsheet never runs a cell as a formula.

A member, a bot or a crash message may be named ``=HYPERLINK("http://evil","click")``
(a league member stored under older rules, an arena bot's name, a bot's own words in
a game's detail); every CSV the project writes prefixes such a cell with an
apostrophe, which spreadsheets show as text, and leaves numbers as numbers.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from adjacency.arena.export import write_csv
from adjacency.arena.store import GameRow
from adjacency.core.text import SPREADSHEET_TRIGGERS, is_ascii_decimal, spreadsheet_text
from adjacency.league.event_results.event_views import crosstable_csv, table_csv

FORMULA = '=HYPERLINK("http://example.invalid","click")'


@given(st.text(max_size=30))
def test_a_cell_never_starts_a_formula_and_keeps_its_text(text: str) -> None:
    shown = spreadsheet_text(text)
    assert isinstance(shown, str)
    starts_formula = shown.startswith(SPREADSHEET_TRIGGERS)
    assert not starts_formula or is_ascii_decimal(shown)  # only a number may start with -
    assert shown in (text, "'" + text)


@given(st.one_of(st.integers(), st.floats(allow_nan=False), st.none(), st.booleans()))
def test_numbers_and_other_values_pass_unchanged(value: object) -> None:
    assert spreadsheet_text(value) is value


def test_numbers_written_as_text_stay_numbers() -> None:
    assert [spreadsheet_text(t) for t in ("-3", "-0.5", "12")] == ["-3", "-0.5", "12"]
    assert spreadsheet_text("+cmd") == "'+cmd" and spreadsheet_text("@SUM(A1)") == "'@SUM(A1)"


def table_data(names: list[str]) -> dict[str, object]:
    """An event table as :func:`~adjacency.league.event_results.event_views.table` returns it."""
    rows = []
    for rank, name in enumerate(names, 1):
        row: dict[str, object] = {field: 0 for field in ("points", "games", "wins", "draws")}
        row.update(rank=rank, name=name, losses=0, byes=0, unplayed=0, sonneborn_berger=0)
        row.update(buchholz=0)
        row.update(median_buchholz=0, pentanomial=[0, 0, 0, 0, 0], pair_elo=None, elo=-12.5)
        row.update(elo_low=-40, elo_high=15, margin=-0.5, withdrawn=False, stand_ins=0)
        row.update(versions=[])
        rows.append(row)
    cells = [[None if i == j else (1.0, 1) for j in range(len(names))] for i in range(len(names))]
    byes = [0.0] * len(names)
    return {"standings": rows, "crosstable": {"names": names, "cells": cells, "byes": byes}}


def test_event_exports_write_a_formula_named_member_as_text() -> None:
    data = table_data([FORMULA, "ada"])
    table = list(csv.DictReader(io.StringIO(table_csv(data))))
    assert [row["name"] for row in table] == ["'" + FORMULA, "ada"]
    assert table[0]["elo"] == "-12.5" and table[0]["margin"] == "-0.5"  # numbers stay numbers
    cross = list(csv.reader(io.StringIO(crosstable_csv(data))))
    assert cross[0][1:] == ["'" + FORMULA, "ada", "unplayed", "byes", "versions"]
    assert cross[1][0] == "'" + FORMULA


def test_the_arena_csv_writes_formula_names_and_details_as_text(tmp_path: Path) -> None:
    row = GameRow(
        run_id=1, idx=0, pairing=0, pair=0, a=FORMULA, b="beta", x=FORMULA, o="beta",
        rounds=4, a_is_x=True, result="o", termination="crash", detail="-crashed: =1+1",
        x_score=3, o_score=9, plies=3, move_times=[0.1], record="", seconds=1.0,
    )  # fmt: skip
    path = tmp_path / "games.csv"
    write_csv([row], path)
    with path.open(encoding="utf-8") as handle:
        (read,) = list(csv.DictReader(handle))
    assert read["x"] == "'" + FORMULA and read["detail"] == "'-crashed: =1+1"
    assert read["x_score"] == "3"
