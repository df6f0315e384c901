"""No command ends in a traceback: bad input, bad files, failing engines and databases
each give one ``error:`` line and a documented exit status."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from adjacency.cli import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_RUNTIME, main
from adjacency.core.text import MAX_INPUT_BYTES
from protocol_helpers import fake_spec

START = "6oo/6oo/8/8/8/8/xx6/xx6 x 56"


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def argparse_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as caught:
        main(list(argv))
    assert caught.value.code == 2
    return capsys.readouterr().err


def cli(*args: str, stdin: bytes = b"", **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "adjacency", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "100", "NO_COLOR": "1", **env},
    )


# ---------------------------------------------------------------------- replay


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.txt", "no such file"),
        (lambda d: d, "is a directory, not a file"),
        (
            lambda d: _write(d / "latin1.txt", b'[X "Jos\xe9"]\n'),
            "is not UTF-8 text (byte 7 is b'\\xe9')",
        ),
        (
            lambda d: _write(d / "r.json", json.dumps({"start": START, "result": [1]}).encode()),
            "result [1] is not one of 'x', 'o', 'draw', null",
        ),
        (
            lambda d: _write(d / "deep.json", b"[" * 100_000 + b"]" * 100_000),
            "nested too deeply",
        ),
        (
            lambda d: _write(
                d / "big.txt", b'[Rows "8"]\n[Cols "8"]\n[Rounds "' + b"9" * 5000 + b'"]\n'
            ),
            "tag Rounds must be a whole number of at most 18 digits",
        ),
        (
            lambda d: _write(d / "sup.txt", '[Rows "8"]\n[Cols "8"]\n[Rounds "²"]\n'.encode()),
            "tag Rounds must be a whole number, got '²'",
        ),
    ],
    ids=[
        "missing",
        "directory",
        "not-utf8",
        "json-result-list",
        "deep-json",
        "5000-digits",
        "sup2",
    ],
)
def test_replay_reports_bad_files_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, message: str
) -> None:
    status, _, err = run_main(capsys, "replay", str(make(tmp_path)))
    assert status == EXIT_BAD_INPUT
    assert err.startswith("adjacency replay: error: ") and message in err, err
    assert err.count("\n") == 1


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_replay_of_an_endless_file_stops_at_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(capsys, "replay", "/dev/zero")
    assert status == EXIT_BAD_INPUT
    assert f"is larger than the limit of {MAX_INPUT_BYTES} bytes" in err


@pytest.mark.slow
def test_replay_reads_standard_input_with_the_same_limit() -> None:
    record = b'[Rows "4"]\n[Cols "4"]\n[Rounds "2"]\n\n1. c2 *\n'
    ok = cli("replay", "-", stdin=record)
    assert ok.returncode == 0, ok.stderr
    assert b"1 plies" in ok.stdout
    big = cli("replay", "-", stdin=b" " * (MAX_INPUT_BYTES + 10))
    assert big.returncode == EXIT_BAD_INPUT
    assert b"standard input is larger than the limit" in big.stderr
    assert b"Traceback" not in big.stderr


# ---------------------------------------------------------------------- solve/move options


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", START, "--time", "-1"], "argument --time: must be a number of seconds above 0"),
        (["solve", START, "--time", "0"], "argument --time: must be a number of seconds above 0"),
        (["solve", START, "--time", "nan"], "got 'nan'"),
        (["solve", START, "--tt", "0"], "argument --tt: must be a number of MB above 0"),
        (["solve", START, "--tt", "-5"], "argument --tt: must be a number of MB above 0"),
        (["solve", START, "--tt", "100000000"], "more than this machine's memory"),
        (["move", "greedy", "--time", "1e300"], "at most 604800"),
        (["move", "greedy", "--depth", "３"], "must be a whole number, got '３'"),
        (["match", "random", "greedy", "--time", "nan"], "argument --time: must be 0 (none)"),
        (["match", "random", "greedy", "--time", "1e300"], "at most 604800"),
        (["match", "random", "greedy", "--size", "8x８"], "expected ROWSxCOLS"),
        (["match", "random", "greedy", "--rounds", "²"], "expected whole numbers"),
        (["analyse", START, "--depth", "0"], "argument --depth: the value must be at least 1"),
        (["match", "random", "greedy", "--games", "３"], "must be a whole number, got '３'"),
        (["match", "random", "greedy", "--seed", "-1"], "argument --seed: the value must be"),
        (["match", "random", "greedy", "--margin", "nan"], "argument --margin: must be 0"),
        (
            ["tournament", "random", "greedy", "--jobs", "0"],
            "argument --concurrency/--jobs/-j: the value must be at least 1",
        ),
        (["experiments", "--time", "-1", "--list"], "argument --time: must be a number"),
        (["tune", "greedy", "--alpha", "inf"], "argument --alpha: must be a number above 0"),
        (["train-eval", "--ridge", "-1"], "argument --ridge: must be a number of at least 0"),
        (["bench", "--seconds", "nan"], "argument --seconds: must be a number of seconds"),
        (["engine", "--seed", "٣"], "argument --seed: the value must be a whole number"),
    ],
)
def test_bad_option_values_are_rejected_by_argparse(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in argparse_error(capsys, *argv)


def test_out_of_memory_and_unexpected_errors_give_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import adjacency.cli.core_commands as core_commands

    def out_of_memory(args: Any) -> int:
        raise MemoryError

    def bug(args: Any) -> int:
        raise KeyError("x" * 1000)

    monkeypatch.setattr(core_commands, "run_show", out_of_memory)
    status, _, err = run_main(capsys, "show")
    assert (status, err) == (
        EXIT_RUNTIME,
        "adjacency show: error: out of memory (try a smaller --tt or fewer workers)\n",
    )
    monkeypatch.setattr(core_commands, "run_show", bug)
    status, _, err = run_main(capsys, "show")
    assert status == EXIT_INTERNAL
    assert "internal error: KeyError" in err and "This is a bug in adjacency" in err
    assert len(err) < 400  # the exception's text is quoted, not echoed whole
    monkeypatch.setenv("ADJACENCY_DEBUG", "1")
    main(["show"])
    assert "Traceback" in capsys.readouterr().err  # the way to see it


# ---------------------------------------------------------------------- failing engines


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("crash-at-go", "exited with status 1"),
        ("occupied", "answered 'bestmove"),
        ("hang-on-go", "sent no bestmove within"),
    ],
)
def test_move_with_a_failing_engine_gives_one_error_line(
    capsys: pytest.CaptureFixture[str], mode: str, message: str
) -> None:
    status, out, err = run_main(
        capsys, "move", fake_spec(mode, "grace=0.3;timeout=5"), START, "--time", "0.5"
    )
    assert status == EXIT_RUNTIME, err
    assert err.startswith("adjacency move: error: ") and message in err, err
    assert out == ""


def test_solve_that_runs_out_of_time_is_a_runtime_failure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run_main(capsys, "solve", "x7/8/8/8/8/8/8/7o x 20", "--time", "0.2")
    assert status == EXIT_RUNTIME
    assert "could not solve" in err


# ---------------------------------------------------------------------- match and its database


def match(db: Path, *extra: str) -> subprocess.CompletedProcess[bytes]:
    return cli("match", "random", "greedy", "--games", "2", "--db", str(db), "--quiet", *extra)


@pytest.mark.slow
def test_match_on_a_foreign_database_says_so(tmp_path: Path) -> None:
    db = tmp_path / "foreign.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE games (name TEXT)")
    before = db.read_bytes()
    result = match(db)
    assert result.returncode == EXIT_BAD_INPUT  # the wrong file is the user's input
    assert b"Traceback" not in result.stderr
    assert b"its table 'games' lacks the columns a, a_is_x" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and db.read_bytes() == before


@pytest.mark.slow
def test_match_on_a_full_disk_fails_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "full.db"
    result = subprocess.run(
        [
            "sh",
            "-c",
            f'ulimit -f 30 && exec "$0" -m adjacency match random greedy --games 200 '
            f"--db {db} --quiet",
            sys.executable,
        ],
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == EXIT_RUNTIME, result.stderr
    assert b"Traceback" not in result.stderr
    assert result.stderr.startswith(b"adjacency match: error: ")


@pytest.mark.slow
def test_resume_of_a_missing_database_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    result = cli("match", "--resume", "--db", str(db))
    assert result.returncode == EXIT_BAD_INPUT
    assert b"--resume: results database" in result.stderr and b"does not exist" in result.stderr
    assert not db.exists()
