"""Running the table: resume computes only what is missing, frontiers, the store, the CLI."""

from __future__ import annotations

import contextlib
import json
import re
import shlex
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from adjacency.cli import main
from adjacency.core.errors import AdjacencyRuntimeError, InvalidSettingsError
from adjacency.solving.entries import Entry, EntryResult, RootMove
from adjacency.solving.progress import MoveWatch
from adjacency.solving.report import LEGEND, frontiers, growth, symmetry_lines, text_tables
from adjacency.solving.run import SolveTask, recompute_table, run_table, run_task
from adjacency.solving.solved_starts import parse_sizes, plan_lanes, solve_entry
from adjacency.solving.store import SolutionsStore, SolutionsStoreError
from adjacency.storage import WrongDatabaseError
from adjacency.workers import SerialExecutor


class Interrupted(Exception):
    pass


class Counting:
    """The worker function, counting the entries it solves."""

    def __init__(self) -> None:
        self.solved: list[Entry] = []

    def __call__(self, task: SolveTask) -> EntryResult:
        self.solved.append(task.entry)
        return solve_entry(task.entry, task.budget, task.symmetry, task.tt_mb)


def test_resume_after_an_interruption_computes_only_the_missing_entries(tmp_path: Path) -> None:
    lanes = plan_lanes(parse_sizes("4x4,4x5"))
    first = Counting()

    def stop_after_three(result: EntryResult, skipped: int) -> None:
        if len(first.solved) == 3:
            raise Interrupted

    with SolutionsStore(tmp_path / "t.db") as store, pytest.raises(Interrupted):
        run_table(
            store, lanes, SerialExecutor(), None, tt_mb=4, on_result=stop_after_three, work=first
        )
    assert len(first.solved) == 3
    second = Counting()
    with SolutionsStore(tmp_path / "t.db") as store:
        report = run_table(store, lanes, SerialExecutor(), None, tt_mb=4, work=second)
        stored = store.results()
    everything = {lane.entry(n) for lane in lanes for n in range(1, lane.max_rounds + 1)}
    assert len(everything) == 4 + 6
    assert set(second.solved) == everything - set(first.solved)
    assert len(second.solved) == len(everything) - 3 == report.planned
    assert report.stored == 3
    # Followers (O first, 5x4) are derived, never solved, and every entry is there.
    assert len(stored) == 2 * 4 + 4 * 6
    assert {r.status for r in stored} == {"solved", "derived"}
    third = Counting()
    with SolutionsStore(tmp_path / "t.db") as store:
        run_table(store, lanes, SerialExecutor(), None, tt_mb=4, work=third)
    assert third.solved == []


def test_a_lane_stops_at_its_first_timeout_and_a_larger_budget_retries(tmp_path: Path) -> None:
    lanes = plan_lanes(parse_sizes("5x5"), ("x",))
    counting = Counting()
    with SolutionsStore(tmp_path / "t.db") as store:
        # A budget no solve can meet: the first entry times out and closes the lane.
        run_table(store, lanes, SerialExecutor(), 1e-9, tt_mb=4, work=counting)
        assert counting.solved == [Entry(5, 5, 1)]
        assert store.get(Entry(5, 5, 1)).status == "timeout"  # type: ignore[union-attr]
        (frontier,) = [f for f in frontiers(store.results()) if f.first == "x"]
        assert frontier.solved == 0 and frontier.timeout is not None
        # The same budget again: nothing to do. A larger one: retried, rounds upward.
        run_table(store, lanes, SerialExecutor(), 1e-9, tt_mb=4, work=counting)
        assert counting.solved == [Entry(5, 5, 1)]
        run_table(store, lanes, SerialExecutor(), 60, rounds_limit=3, tt_mb=4, work=counting)
        assert counting.solved[1:] == [Entry(5, 5, n) for n in (1, 2, 3)]
        (frontier,) = [f for f in frontiers(store.results()) if f.first == "x"]
        assert frontier.solved == 3 and frontier.timeout is None
        assert "5x5" in text_tables(store.results(), markdown=True)


def test_store_round_trip_and_bad_files(tmp_path: Path) -> None:
    result = solve_entry(Entry(4, 4, 2), tt_mb=4)
    with SolutionsStore(tmp_path / "t.db") as store:
        store.put(result)
        assert store.get(Entry(4, 4, 2)) == result
        assert store.get(Entry(4, 4, 2), symmetry=False) is None
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    with pytest.raises(WrongDatabaseError, match=r"cannot use .* not a SQLite database"):
        SolutionsStore(tmp_path / "junk.db")
    with pytest.raises(InvalidSettingsError, match="no solutions database"):
        SolutionsStore(tmp_path / "missing.db", create=False)
    db = sqlite3.connect(tmp_path / "t.db")
    with db:
        db.execute("UPDATE solutions_meta SET value = '99' WHERE key = 'schema'")
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(WrongDatabaseError, match=r"newer version .*schema version 99"):
        SolutionsStore(tmp_path / "t.db")


def test_a_file_that_is_no_solutions_database_and_a_missing_one_are_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Exit statuses of docs/errors.md: a file that is not a solutions database is bad
    # input (2), left as it was; a database that cannot be used (a full disk) is a
    # runtime failure (StoreError, 3); a path that does not exist is bad input (2).
    assert issubclass(SolutionsStoreError, AdjacencyRuntimeError)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    assert main(["solutions", "show", "--db", str(junk)]) == 2
    assert "cannot use" in capsys.readouterr().err
    assert junk.read_bytes() == b"not a database at all" * 100
    assert main(["solutions", "show", "--db", str(tmp_path / "missing.db")]) == 2
    err = capsys.readouterr().err
    assert "no solutions database" in err and "Traceback" not in err
    assert not (tmp_path / "missing.db").exists()


def test_sizes_parse_and_refuse_bad_input() -> None:
    assert len(parse_sizes("all")) == 25
    assert parse_sizes("square") == [(n, n) for n in range(4, 9)]
    assert parse_sizes("4x5, 8x8") == [(4, 5), (8, 8)]
    for bad in ("9x9", "4by5", "x", "4x٣"):
        with pytest.raises(InvalidSettingsError):
            parse_sizes(bad)


def test_growth_fit_recovers_a_geometric_series() -> None:
    results = [
        EntryResult(Entry(6, 6, n), "solved", True, 0, value=0, nodes=10**n * 7, seconds=n)
        for n in range(4, 8)
    ]
    fit = growth(results, 6, 6)
    assert fit is not None
    assert fit.rounds == (5, 6, 7)
    assert fit.factor == pytest.approx(10)
    assert fit.nodes(9) == pytest.approx(7e9)


@pytest.mark.parametrize("solved_to", [6, 7, 8])
def test_the_8x8_extrapolation_names_each_longer_game_once(solved_to: int) -> None:
    """Solved to 7 rounds, the next one (8) was listed twice; solved to 8, the solved 8
    itself was "extrapolated"."""
    from adjacency.solving.report import growth_lines

    results = [
        EntryResult(Entry(8, 8, n), "solved", True, 0, value=-2, nodes=20**n, seconds=n)
        for n in range(4, solved_to + 1)
    ]
    rounds = [int(line.split()[1]) for line in growth_lines(results) if "extrapolated" in line]
    assert rounds == sorted(set(rounds)) and min(rounds) == solved_to + 1
    assert {9, 10, 28} <= set(rounds)


def _small(rows: int, cols: int, rounds: int, first: str, value: int | None) -> EntryResult:
    """A stored entry: solved (X first), derived by colour swap (O first) or a timeout."""
    entry = Entry(rows, cols, rounds, first)  # type: ignore[arg-type]
    if value is None:
        return EntryResult(entry, "timeout", True, 60.0, nodes=5000, seconds=60.0)
    if first == "x":
        return EntryResult(entry, "solved", True, 60.0, value=value, nodes=5000, seconds=0.1)
    source = f"{rows}x{cols} {rounds} rounds, x first by half turn and colour swap"
    return EntryResult(entry, "derived", True, 60.0, value=value, source=source)


def test_show_explains_its_table_and_leaves_out_empty_sections() -> None:
    results = [_small(4, 4, n, f, -2) for n in (1, 2) for f in "xo"]
    text = text_tables(results)
    lines = text.splitlines()
    assert lines[:3] == [
        "values, X first (columns: rounds):",
        " size     1     2",
        "  4x4    -2    -2",
    ]
    assert " ".join(text.split()).count(" ".join(LEGEND.split())) == 1  # the legend, wrapped
    assert max(len(line) for line in lines) <= 79
    assert "have a value with X first and with O first: the same in all 2" in " ".join(text.split())
    assert "2 O-first entries were derived, not solved" in text
    # Entries too small for the cost fit: no "cost growth" heading with nothing under it.
    assert "cost growth" not in text and "symmetry" not in text
    assert "\n\n\n" not in text and not text.endswith("\n")


def test_show_names_entries_where_the_first_mover_matters_and_the_open_ones() -> None:
    results = [_small(4, 4, 1, "x", -2), _small(4, 4, 1, "o", 0)]
    results += [_small(4, 5, 1, "x", None), _small(4, 5, 1, "o", None)]
    joined = " ".join(text_tables(results).split())
    assert (
        "have a value with X first and with O first: the same in 0, different in 1: "
        "4x4 1 rounds: X first -2, O first 0" in joined
    )
    assert "1 more were not solved within the budget" in joined
    assert "4x5 x first: no rounds count solved; 1 rounds not within 60 s (of 6)" in joined
    # Only O-first entries stored: the table shows them, not an empty X-first table.
    only_o = text_tables([_small(4, 4, 1, "o", -2)]).splitlines()
    assert only_o[0] == "values, O first (columns: rounds):" and only_o[2] == "  4x4    -2"
    assert "first mover (X first against O first)" not in "\n".join(only_o)


def reconstruct(db: Path, value: dict[tuple[int, str], int] | None = None) -> None:
    """Give every row of ``db`` a record reconstructed after the fact, as the shipped rows
    stored before records were kept have, and the rows keyed (rounds, first) in ``value``
    another value."""
    with contextlib.closing(sqlite3.connect(db)) as c, c:
        for rounds, first, origin in c.execute("SELECT rounds, first, provenance FROM entries"):
            record = {**json.loads(origin), "commit": "unknown"}
            record["reconstructed"] = {"from": "a test", "committed_in": "0" * 40, "committed": "?"}
            c.execute(
                "UPDATE entries SET provenance = ?, value = COALESCE(?, value) "
                "WHERE rounds = ? AND first = ?",
                (json.dumps(record), (value or {}).get((rounds, first)), rounds, first),
            )


def test_recompute_replaces_the_reconstructed_rows_that_agree_and_names_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.db"
    with SolutionsStore(db) as store:
        run_table(store, plan_lanes(parse_sizes("4x4")), SerialExecutor(), None, rounds_limit=2)
        store.put(EntryResult(Entry(4, 4, 3), "timeout", True, 1e-9, nodes=9, seconds=1e-9))
    reconstruct(db, value={(2, "x"): 0})  # 4x4 at 2 rounds is -2: this row is wrong
    argv = ["solutions", "recompute", "--db", str(db), "--up-to", "60", "--tt", "4"]
    assert main(argv) == 1  # a row that disagrees is a finding, not a success
    out = capsys.readouterr().out
    assert "1 rows solved again with the same values (1 with the same node count)" in out
    assert "1 images derived again" in out and "1 disagree" in out
    assert "disagrees: 4x4 2 rounds, x first: stored 0, now -2" in out
    assert "1 left reconstructed" in out
    with SolutionsStore(db) as store:
        rows = {(r.entry.rounds, r.entry.first): r for r in store.results()}
        # recomputed, and its image derived from it: a full record, the command among it
        for key in (1, "x"), (1, "o"):
            record = rows[key].provenance or {}
            assert not rows[key].reconstructed and record["commit"] != "unknown"
            assert record["settings"]["command"] == shlex.join(["adjacency", *argv])
            assert record["settings"]["tt_mb"] == 4.0 and record["settings"]["threads"] == 1
        # the row that disagrees keeps its value, its image and the timeout stay marked
        assert rows[2, "x"].value == 0
        assert all(rows[k].reconstructed for k in ((2, "x"), (2, "o"), (3, "x")))
        report = recompute_table(store, 60, tt_mb=4)  # again: only the wrong row is tried
        assert not report.recomputed and len(report.disagree) == 1 and len(report.left) == 1
        shown = text_tables(store.results(), markdown=True)
    assert (
        "3 rows reconstructed (stored before records were kept: commit, machine and "
        "libraries unknown; `solutions recompute` solves them again), 1 of them derived "
        "images; computed: 4x4 2 rounds, x first, 4x4 3 rounds, x first (timeout)"
    ) in shown
    assert f"2 rows recorded by `{shlex.join(['adjacency', *argv])}` at commit" in shown
    assert "| 4x4 | 1 | x | -2 |" in shown and shown.count("| recorded |") == 1
    assert shown.count("| reconstructed |") == 2


def test_node_counts_of_rows_computed_by_different_code_are_not_compared() -> None:
    def row(nodes: int, symmetry: bool, record: dict[str, Any]) -> EntryResult:
        moves = 9 if symmetry else 17
        return EntryResult(
            Entry(5, 5, 4), "solved", symmetry, 60, -2, nodes=nodes, root_moves=moves,
            provenance=record,
        )  # fmt: skip

    now = row(126_160, True, {"source": "1e58f53663c7"})
    assert symmetry_lines([now], [row(197_684, False, {"source": "1e58f53663c7"})]) == [
        "5x5 4 rounds, x first: 9 of 17 first moves solved, 126,160 vs 197,684 nodes (0.64)",
        "total: 126,160 vs 197,684 nodes (0.64)",
    ]
    for other in {"source": "0a0a0a0a0a0a"}, {"reconstructed": {"from": "git history"}}:
        assert symmetry_lines([now], [row(197_684, False, other)]) == [
            "not compared, their two solves ran different code: 5x5 4 rounds, x first"
        ]


@pytest.mark.slow
def test_the_command_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    run = ["solutions", "run", "--db", db, "--sizes", "4x4", "--jobs", "1", "--tt", "4", "--quiet"]
    assert main([*run, "--rounds-max", "3"]) == 0
    assert main(run) == 0  # resumes: only 4 rounds is left to solve
    capsys.readouterr()
    assert main(["solutions", "show", "--db", db, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {(r["rounds"], r["first"], r["status"]) for r in rows} == {
        (n, f, "solved" if f == "x" else "derived") for n in range(1, 5) for f in "xo"
    }
    assert all(r["value"] == -2 for r in rows)  # the second mover wins 4x4 by 2
    from adjacency import __version__

    for r in rows:  # every entry records the code and machine that stored it
        assert r["provenance"]["version"] == __version__
        assert r["provenance"]["libraries"]["numba"] and r["provenance"]["machine"]["cores"]
        assert r["provenance"]["settings"]["symmetry"] is True
        # the settings that change a stored result: the table's size and the threads
        assert r["provenance"]["settings"]["tt_mb"] == 4.0
        assert r["provenance"]["settings"]["threads"] == 1
        assert r["provenance"]["settings"]["command"].startswith("adjacency solutions run --db")
    assert main(["solutions", "show", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "4x4 x first: complete" in out
    assert "4 entries (a size and a number of rounds) have a value with X first and" in out
    assert "cost growth" not in out  # 4x4 entries are too small to fit: no empty heading
    assert "…: not solved within the entry's" in out
    assert main(["solutions", "plot", "--db", db, "--out", str(tmp_path)]) == 0
    assert (tmp_path / "values.png").stat().st_size > 1000
    assert main(["solutions", "book", "--db", db, "--out", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    assert main(["solutions", "book", "--verify", str(tmp_path / "b" / "4x4.book")]) == 0
    assert "board 4x4" in capsys.readouterr().out
    (tmp_path / "b" / "4x4.book").write_text("ADJACENCY-BOOK\nversion 1\n")
    assert main(["solutions", "book", "--verify", str(tmp_path / "b" / "4x4.book")]) == 2
    assert "does not end with" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "--sizes", "9x9"], "must be from 4 to 8"),
        (["run", "--first", "z"], "--first must be x, o"),
        (["show", "--db", "/nonexistent/s.db"], "no solutions database"),
        (["book", "--db", "/nonexistent/s.db"], "give --out DIR"),
        (["show", "--db", "{empty}"], "no entries in"),
        (["plot", "--db", "{empty}"], "no entries in"),
        (["book", "--db", "{empty}", "--out", "{empty}.d"], "no entries in"),
    ],
)
def test_bad_input_is_a_clear_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty = tmp_path / "empty.db"
    SolutionsStore(empty).close()
    argv = [a.format(empty=empty) for a in argv]
    assert main(["solutions", *argv]) == 2
    assert message in capsys.readouterr().err


def test_bad_options_are_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    bad = ["--budget", "-1"], ["--budget", "nan"], ["--threads", "0"], ["--jobs", "0"]
    for argv in (*bad, ["--tt", "-1"]):
        with pytest.raises(SystemExit):
            main(["solutions", "run", *argv])
        assert "error: argument" in capsys.readouterr().err


def test_an_entry_resumes_at_its_next_first_move_with_the_same_result() -> None:
    """The checkpoints of a long entry: first moves proven in an earlier sitting are
    taken as they were kept, the others solved; the result is the one of a single run."""
    entry = Entry(5, 5, 5)
    kept: list[RootMove] = []
    whole = solve_entry(entry, tt_mb=8, on_move=kept.append)
    assert whole.status == "solved" and len(kept) == whole.root_moves == 9
    assert {m.move: m.value for m in kept}.items() <= whole.move_values.items()
    earlier = {m.move: m for m in kept[:4]}
    resumed = solve_entry(entry, tt_mb=8, known=earlier, on_move=kept.append)
    assert (resumed.value, resumed.optimal, resumed.move_values) == (
        whole.value,
        whole.optimal,
        whole.move_values,
    )
    # The principal variation is one of the optimal lines (each position on it proven),
    # not necessarily the same one: the table's contents differ.
    assert resumed.pv[0] in resumed.optimal and len(resumed.pv) == len(whole.pv)
    assert len(kept) == 9 + 5  # only the five missing first moves were solved again
    assert resumed.solves == whole.solves - 4
    assert resumed.seconds >= sum(m.seconds for m in earlier.values())


def test_kept_first_moves_are_trusted_not_solved_again(tmp_path: Path) -> None:
    """``run_task`` with a checkpoint database reads what is kept there: a value planted
    for one first move shows in the result, so that move was not solved again."""
    entry = Entry(4, 5, 4)
    db = tmp_path / "c.db"
    honest = run_task(SolveTask(entry, None, True, 4, 1, str(db)))
    with SolutionsStore(db) as store:
        kept = store.moves(entry)
        assert kept.keys() == {m for m in honest.move_values} and len(kept) == honest.root_moves
        worst = min(kept.values(), key=lambda m: m.value)
        store.put_move(entry, True, RootMove(worst.move, worst.value - 2, worst.best, 1, 0.5))
    planted = run_task(SolveTask(entry, None, True, 4, 1, str(db)))
    assert planted.move_values[worst.move] == worst.value - 2
    assert planted.solves == honest.solves - honest.root_moves


@pytest.mark.parametrize("threads", [2, 4])
def test_entries_solved_with_threads_have_the_single_thread_values(threads: int) -> None:
    for entry in (Entry(5, 5, 6), Entry(4, 6, 5), Entry(6, 6, 4)):
        one = solve_entry(entry, tt_mb=8)
        many = solve_entry(entry, tt_mb=8, threads=threads)
        assert (many.value, many.move_values, many.optimal) == (
            one.value,
            one.move_values,
            one.optimal,
        )


def test_a_long_run_without_a_budget_on_two_threads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "s.db")
    run = ["solutions", "run", "--db", db, "--sizes", "5x5", "--first", "x", "--jobs", "1"]
    assert main([*run, "--budget", "0", "--threads", "2", "--tt", "8", "--rounds-max", "5"]) == 0
    with SolutionsStore(db) as store:
        solved = [r for r in store.results() if r.status == "solved"]
        assert [r.entry.rounds for r in solved] == [1, 2, 3, 4, 5]
        assert [r.value for r in solved] == [0, 0, 0, -2, -2]
        assert len(store.moves(Entry(5, 5, 5))) == 9  # its first moves were kept as proven


def test_show_names_an_entry_in_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.db"
    entry = Entry(5, 5, 5)
    with SolutionsStore(db) as store:
        store.put(solve_entry(Entry(5, 5, 4), tt_mb=4))
        store.put_move(entry, True, RootMove("c1", -2, "a3", 1000, 1.5))
        store.put_move(entry, True, RootMove("d1", -4, "c1", 2000, 2.5))
        assert set(store.in_progress()) == {entry}
    capsys.readouterr()
    assert main(["solutions", "show", "--db", str(db)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "in progress: 5x5 5 rounds, x first: 2 of 9 first moves proven, the best worth -2 "
        "so far (a lower bound of the value); 3,000 nodes, 4 s of solving"
    ) in out
    with SolutionsStore(db) as store:
        store.put(solve_entry(entry, tt_mb=4))
        assert store.in_progress() == {}


def test_the_move_watch_reports_kept_moves_once_and_new_ones_as_they_come(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"
    watch = MoveWatch(db, slowest=2.0)
    assert watch.look() == []  # no database yet: nothing, and no error
    entry = Entry(5, 5, 5)
    with SolutionsStore(db) as store:
        store.put_move(entry, True, RootMove("c1", -2, "a3", 1000, 1.5))
    assert watch.look() == ["5x5 5 rounds, x first: 1 of 9 first moves kept from earlier"]
    assert watch.look() == []
    with SolutionsStore(db) as store:
        store.put_move(entry, True, RootMove("d1", -4, "c1", 2000, 2.5))
        store.put_move(entry, True, RootMove("e1", -2, "c1", 3000, 0.5))  # quick: counted only
        store.put_move(entry, True, RootMove("c2", -2, "c1", 4000, 3.0))
    assert watch.look() == [
        "5x5 5 rounds, x first: d1 proven -4 (best reply c1), 3 of 9 first moves; 2,000 nodes, 2 s",
        "5x5 5 rounds, x first: c2 proven -2 (best reply c1), 4 of 9 first moves; 4,000 nodes, 3 s",
    ]
    with SolutionsStore(db) as store:
        store.put(solve_entry(entry, tt_mb=4))
    assert watch.look() == []  # solved: no longer in progress


def test_a_resumed_run_says_what_it_kept_from_earlier(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.db"
    entry = Entry(5, 5, 5)
    with SolutionsStore(db) as store:
        for rounds in range(1, 5):
            store.put(solve_entry(Entry(5, 5, rounds), tt_mb=4))
        proven: list[RootMove] = []
        solve_entry(entry, tt_mb=4, on_move=proven.append)
        store.put_move(entry, True, proven[0])
    capsys.readouterr()
    run = ["solutions", "run", "--db", str(db), "--sizes", "5x5", "--first", "x", "--jobs", "1"]
    assert main([*run, "--budget", "0", "--rounds-max", "5", "--tt", "8"]) == 0
    err = capsys.readouterr().err
    assert "5x5 5 rounds, x first: 1 of 9 first moves kept from earlier" in err
    assert "5x5 5 rounds, x first: value -2" in err


def test_show_without_a_database_here_reads_the_table_shipped_with_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``adjacency solutions show`` outside a checkout, where no solutions.db is: the table
    shipped in the package, read from a private copy (nothing is written here or beside
    the shipped file); a --db that does not exist is bad input naming how to make one."""
    import hashlib

    from adjacency.solving import store as solving_store

    shipped = Path(solving_store.__file__).parent / solving_store.SHIPPED_TABLE
    before = hashlib.sha256(shipped.read_bytes()).hexdigest()
    monkeypatch.chdir(tmp_path)
    assert main(["solutions", "show"]) == 0
    out = capsys.readouterr().out
    assert "8x8" in out and "6x6" in out
    assert main(["solutions", "show", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) > 100
    # every shipped row has a record: one solved again by `solutions recompute` the full
    # record of that run; one stored before records were kept says what is known (the
    # version, when, the settings the row keeps, the commit that shipped it) and marks the
    # rest unknown (tools/backfill_provenance.py)
    for row in rows:
        record = row["provenance"]
        assert record["version"] and record["created"]
        assert record["settings"]["symmetry"] == row["symmetry"]
        assert record["settings"]["budget"] == row["budget"]
        if "reconstructed" not in record:
            assert record["settings"]["command"].startswith("adjacency solutions recompute")
            assert re.fullmatch("[0-9a-f]{40}", record["commit"]) and record["dirty"] is False
            continue
        assert record["settings"]["tt_mb"] == record["settings"]["threads"] == "unknown"
        assert record["commit"] == record["machine"]["cpu"] == "unknown"
        assert re.fullmatch("[0-9a-f]{40}", record["reconstructed"]["committed_in"])
    assert main(["solutions", "book", "--out", "books"]) == 0
    assert sorted(p.name for p in (tmp_path / "books").iterdir())
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in shipped.parent.iterdir()) == ["solutions.db"]
    for action in (["show"], ["plot", "--out", "plots"], ["book", "--out", "books"]):
        assert main(["solutions", *action, "--db", "missing.db"]) == 2
        err = capsys.readouterr().err
        assert "no solutions database at 'missing.db'" in err, err
        assert "'adjacency solutions run --db missing.db'" in err and "Traceback" not in err
    assert not (tmp_path / "missing.db").exists()
