"""The shipped puzzle set: its two builds' files (the endgame's, a thousand puzzles or
more, and the middle game's), each well formed by its own rules, merged into one set;
and a random sample of each phase proved again by the solver (a new sample every run;
its seed is in the message)."""

from __future__ import annotations

import random
from collections import Counter
from importlib import resources

import pytest

from adjacency.cli import main
from adjacency.core import Position
from adjacency.puzzles import (
    THEMES,
    Puzzle,
    PuzzleFileError,
    load_puzzles,
    load_shipped,
    model,
    puzzle_id,
)
from adjacency.puzzles.prove import verify

BUILDS = {"puzzles.jsonl.gz": (range(8, 15), 1000), "middle.jsonl.gz": (range(15, 19), 30)}
"""Each shipped file's rules (docs/puzzles.md, "The shipped set"): the plies left of its
puzzles (the build's ``--min-plies`` to ``--max-plies``: the endgame build 8 to 14, the
middle-game build 15 to 18) and the fewest puzzles it holds."""
ENDGAME_SAMPLE = 6
"""Endgame puzzles re-proved per run: 8 to 14 plies left, well under a second each."""
MIDDLE_SAMPLE = 1
"""Middle-game puzzles re-proved per run: 15 to 18 plies left, 0.1 to 12 s of CPU each
here (median 1 s, the 18-ply ones 5 to 12 s), so one a run, in a test of its own."""


def shipped_file(name: str) -> list[Puzzle]:
    """The puzzles of one shipped file, in file order."""
    with resources.as_file(resources.files("adjacency.puzzles").joinpath("data", name)) as path:
        return load_puzzles(path)


def test_each_shipped_file_is_well_formed_by_its_builds_rules() -> None:
    assert set(BUILDS) == set(model.SHIPPED)
    for name, (plies, fewest) in BUILDS.items():
        puzzles = shipped_file(name)
        assert len(puzzles) >= fewest, name
        ids = [p.id for p in puzzles]
        assert ids == sorted(ids) and len(set(ids)) == len(ids), name
        for puzzle in puzzles:
            position = Position.from_fen(puzzle.position)
            assert puzzle.id == puzzle_id(position.fen())
            assert puzzle.plies_left in plies and len(position.legal_moves()) >= 4, name
            assert puzzle.value >= 0 and set(puzzle.themes) <= set(THEMES)
            assert ("only-win" in puzzle.themes) == (puzzle.value > 0)
            assert puzzle.source.startswith(("league", "arena", "web", "data:"))
            assert 600 <= puzzle.rating <= 2400
            # every other move is refuted: worse in outcome class than the solution's
            for step in puzzle.refutations:
                assert all((r.value > 0) - (r.value < 0) < (puzzle.value > 0) for r in step)


def test_the_shipped_set_is_every_file_merged_and_sorted_by_id() -> None:
    puzzles = load_shipped()
    by_file = [p for name in BUILDS for p in shipped_file(name)]
    assert puzzles == sorted(by_file, key=lambda p: p.id)
    ids = [p.id for p in puzzles]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert Counter(p.phase for p in puzzles).keys() == {"endgame", "middlegame"}
    # the themes are not all one name
    counts = Counter(name for p in puzzles for name in p.themes)
    assert len(counts) >= 4


def test_one_id_in_two_shipped_files_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    first = model.SHIPPED[0]
    monkeypatch.setattr(model, "SHIPPED", (first, first))
    with pytest.raises(PuzzleFileError, match=f"is in both shipped files '{first}' and '{first}'"):
        load_shipped()


def reproved(phase: str, count: int) -> None:
    """Re-prove ``count`` puzzles of ``phase`` drawn at random (the seed in the message)."""
    seed = random.SystemRandom().randrange(2**32)
    of_phase = [p for p in load_shipped() if p.phase == phase]
    for puzzle in random.Random(seed).sample(of_phase, count):
        assert verify(puzzle) is None, f"sample seed {seed}: {puzzle.id} {verify(puzzle)}"


def test_a_random_sample_of_the_endgame_is_proved_again() -> None:
    reproved("endgame", ENDGAME_SAMPLE)


def test_a_random_middle_game_puzzle_is_proved_again() -> None:
    reproved("middlegame", MIDDLE_SAMPLE)


def test_show_reads_the_shipped_set_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = load_shipped()[0]
    assert main(["puzzles", "show", puzzle.id]) == 0
    shown = capsys.readouterr().out
    assert puzzle.position in shown and f"solution: {' '.join(puzzle.solution)}" in shown


def nones(value: object, where: str = "") -> list[str]:
    """The paths of every ``None`` inside a JSON value."""
    if value is None:
        return [where or "(the record)"]
    if isinstance(value, dict):
        return [n for k, v in value.items() for n in nones(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [n for i, v in enumerate(value) for n in nones(v, f"{where}[{i}]")]
    return []


def test_every_shipped_puzzle_has_its_builds_provenance_with_nothing_left_none() -> None:
    """Each shipped file's record (beside it, as a build writes one) gives what is known
    of the build (its seed and settings as docs/puzzles.md records them, the commit that
    added the file) and ``"unknown"`` for the rest, never ``None``; and a sample proved
    again, none failed."""
    from adjacency.system.provenance import UNKNOWN

    records = model.shipped_provenance()
    assert set(records) == set(model.SHIPPED)
    held = Counter(name for _, name in model.load_shipped_files())
    for name, (plies, fewest) in BUILDS.items():
        record = records[name]
        assert nones(record) == [], name
        assert record["settings"]["min_plies"] == plies.start
        assert record["settings"]["max_plies"] == plies.stop - 1
        assert record["figures"]["kept"] == held[name] >= fewest
        assert record["commit"] == UNKNOWN and record["python"] == UNKNOWN
        assert len(record["reconstructed"]["committed_in"]) == 40
        again = record["reproved"]
        assert again["of"] == held[name] and again["puzzles"] >= 1 and again["failed"] == []
        assert again["provenance"]["libraries"]["numba"]


def test_show_prints_and_its_json_carries_the_builds_provenance(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    puzzle, name = next(p for p in model.load_shipped_files() if p[1] == "middle.jsonl.gz")
    assert main(["puzzles", "show", puzzle.id]) == 0
    shown = capsys.readouterr().out
    assert "provenance of its build (middle.jsonl.gz):" in shown
    assert "seeds: 20261125" in shown and "commit unknown" in shown
    assert "proved again: " in shown and " 0 failed" in shown
    assert main(["puzzles", "show", puzzle.id, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["puzzle"]["id"] == puzzle.id and data["file"] == name
    assert data["provenance"] == model.shipped_provenance()[name]
