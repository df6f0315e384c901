"""Every shipped artifact's provenance record (the weights files', the puzzle builds' and
their re-proofs', every row of the solved-game table) holds every field a record made
now holds: the fields are read from a
fresh :func:`adjacency.system.provenance.provenance` record, so a field added there is
demanded of the shipped files at once. Nothing is None or empty, and a field written
``"unknown"`` appears only in a record that says it was reconstructed, from what and
in which commit the artifact was first committed. A table row recorded by the run that
computed it names its command; a solve has no seed, so a row's ``seeds`` may be None."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from adjacency.engine.weights_file import shipped_training
from adjacency.puzzles import model
from adjacency.solving.store import SolutionsStore, shipped_table
from adjacency.system.provenance import UNKNOWN, provenance

RECONSTRUCTED = ("from", "committed_in", "committed")
"""What a reconstructed record says of itself."""


def fresh() -> dict[str, Any]:
    """A record made now: the fields every record must have."""
    return provenance({"setting": 1}, seeds=1)


def unknowns(value: Any, where: str = "") -> list[str]:
    """The paths of the fields written ``"unknown"``."""
    if isinstance(value, dict):
        return [u for k, v in value.items() for u in unknowns(v, f"{where}.{k}".lstrip("."))]
    return [where] if value == UNKNOWN else []


def lacking(
    record: Any, shape: dict[str, Any], where: str = "", may_be_none: tuple[str, ...] = ()
) -> list[str]:
    """The fields of ``shape`` (a fresh record, or a part of it) that ``record`` lacks or
    holds as None or empty (None allowed for the top-level fields ``may_be_none``), by
    path; ``reconstructed`` (or the part of it missing) when a field is ``"unknown"`` and
    the record does not say how it was reconstructed."""
    if not isinstance(record, dict):
        return [where or "(the record)"]
    missing = []
    for key, value in shape.items():
        path = f"{where}.{key}".lstrip(".")
        held = record.get(key)
        if held is None and key in record and path in may_be_none:
            continue
        if held is None or held in ({}, [], ""):
            missing.append(path)
        elif isinstance(value, dict) and key != "settings":
            missing += lacking(held, value, path)
    if not where and unknowns(record):
        told = record.get("reconstructed")
        if not isinstance(told, dict):
            missing.append("reconstructed")
        else:
            missing += [f"reconstructed.{k}" for k in RECONSTRUCTED if not told.get(k)]
    return missing


def shipped_records() -> dict[str, dict[str, Any]]:
    """Every shipped artifact's record, by a name for the failure message."""
    records = {
        f"weights {name}": training["provenance"] for name, training in shipped_training().items()
    }
    for name, record in model.shipped_provenance().items():
        records[f"puzzles {name}"] = record
        records[f"puzzles {name}, its re-proof"] = record["reproved"]["provenance"]
    return records


def test_every_shipped_record_holds_every_field_of_a_record_made_now() -> None:
    shape = fresh()
    records = shipped_records()
    assert len(records) == 6
    for name, record in records.items():
        assert lacking(record, shape) == [], name


def test_what_only_the_artifact_knows_is_recorded_too() -> None:
    """The weights' command, the puzzle builds' sources, seed and figures."""
    for name, training in shipped_training().items():
        assert training["command"].startswith("adjacency train-eval "), name
        assert training["provenance"]["settings"]["command"] == training["command"], name
    for name, record in model.shipped_provenance().items():
        assert record["settings"]["sources"] and record["seeds"] is not None, name
        assert record["figures"]["kept"] > 0, name


def paths(shape: dict[str, Any], where: str = "") -> list[str]:
    """Every field's path in a fresh record (a part's own path and its fields')."""
    found = []
    for key, value in shape.items():
        path = f"{where}.{key}".lstrip(".")
        found.append(path)
        if isinstance(value, dict) and key != "settings":
            found += paths(value, path)
    return found


def without(record: dict[str, Any], path: str, replacement: Any = ...) -> dict[str, Any]:
    """A copy of ``record`` with the field at ``path`` deleted (or replaced)."""
    changed = copy.deepcopy(record)
    *parents, last = path.split(".")
    part = changed
    for key in parents:
        part = part[key]
    if replacement is ...:
        del part[last]
    else:
        part[last] = replacement
    return changed


@pytest.mark.parametrize("path", paths(fresh()))
def test_a_record_lacking_any_field_fails_the_check_by_name(path: str) -> None:
    shape = fresh()
    for record in shipped_records().values():
        assert lacking(without(record, path), shape) == [path]
        assert lacking(without(record, path, None), shape) == [path]


def test_an_unknown_field_needs_the_record_to_say_it_was_reconstructed() -> None:
    shape = fresh()
    record = shipped_training()["eval-8x8.json"]["provenance"]
    assert "commit" in unknowns(record)
    assert lacking(without(record, "reconstructed"), shape) == ["reconstructed"]
    assert lacking(without(record, "reconstructed.from"), shape) == ["reconstructed.from"]
    made_now = fresh()
    assert lacking(made_now, shape) == [] and unknowns(made_now) == []


def table_rows() -> list[Any]:
    """Every row of the shipped solved-game table, both symmetry settings."""
    with shipped_table() as path, SolutionsStore(path, create=False) as store:
        return store.results(symmetry=None)


def test_every_row_of_the_shipped_table_holds_every_field_and_a_recorded_one_its_command() -> None:
    shape = fresh()
    rows = table_rows()
    assert len(rows) >= 403
    for row in rows:
        assert lacking(row.provenance, shape, may_be_none=("seeds",)) == [], str(row.entry)
        if not row.reconstructed:
            command = row.provenance["settings"]["command"]  # type: ignore[index]
            assert command.startswith("adjacency solutions "), str(row.entry)
    # `solutions recompute` solved 116 rows again and derived 209 images from them; the
    # rows left reconstructed are the timeouts and the longer solves (docs/solutions.md)
    assert sum(1 for r in rows if not r.reconstructed) >= 325
