"""Give what the package ships a provenance record, unknown fields marked so.

Three kinds of shipped result were stored before records were kept:

- the solved table's rows (``solving/data/solutions.db``), whose ``provenance`` is empty;
- the puzzle set's files (``puzzles/data/*.jsonl.gz``), which have no
  ``FILE.provenance.json`` beside them (what ``adjacency puzzles build`` writes);
- the evaluation weights (``engine/weights/*.json``), whose ``training`` section has no
  ``provenance``.

Each gets one record with the keys of :func:`adjacency.system.provenance.provenance`
(:func:`reconstructed`). What is known goes in: for a table row, the package version
that computed it and when (its ``engine`` and ``finished`` columns) and the settings it
keeps; for a puzzle file, the build command and figures its documentation records
(:data:`PUZZLE_BUILDS`, from docs/puzzles.md); for a weights file, the command its
``training`` section records; for all, under ``reconstructed``, the commit that first
committed the row or the file as it is now, read from git history. Unknown, and written
``"unknown"`` (:data:`~adjacency.system.provenance.UNKNOWN`), never guessed: the commit
of the code that computed it, whether that checkout was clean, its source hash, Python,
the libraries' versions, the machine, and any setting nothing recorded.

What is affordable on this machine is recomputed instead: a puzzle file's record gets a
``reproved`` section, a sample of its puzzles proved again by the exact solver now
(:func:`adjacency.puzzles.prove.verify`), with the sample's size, seed, failures and the
provenance of the run that proved them.

Usage, from the checkout: ``python tools/backfill_provenance.py [DATABASE]`` fills the
table (default: the shipped one); ``--puzzles N`` writes the shipped puzzle files'
records, re-proving N puzzles of each (``--seed S`` draws them; ``--file NAME``: of that
file only); ``--weights`` fills the
shipped weights files; ``--weights-data`` gives them their training data's and weights'
SHA-256 (:func:`record_weights_data`: the learned evaluation's command is run again,
about 4 minutes of CPU). Rows and files that already have a record are left as they are,
so running it twice changes nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
from adjacency.solving.store import SolutionsStore  # noqa: E402
from adjacency.system.provenance import UNKNOWN, code, provenance  # noqa: E402

PACKAGE = REPO / "src" / "adjacency"
SHIPPED = PACKAGE / "solving" / "data" / "solutions.db"
HISTORY = (
    "docs/solutions/solutions.db",
    "benchmarks/results/solutions.db",
    "src/adjacency/solving/data/solutions.db",
)
"""The paths the table had in the history, oldest first."""
WEIGHTS = (PACKAGE / "engine" / "weights" / "eval-8x8.json",
           PACKAGE / "engine" / "weights" / "patterns-8x8.json")  # fmt: skip
"""The shipped weights files."""
PUZZLE_BUILDS: dict[str, dict[str, Any]] = {
    "puzzles.jsonl.gz": {
        "settings": {
            "count": 1000, "min_plies": 8, "max_plies": 14, "jobs": 1, "resume": True,
            "sources": ["data:../shared/data/positions-s6820"], "out": "puzzles.jsonl.gz",
        },
        "seeds": 20261124,
        "figures": {
            "kept": 1000, "planned": 140795, "examined": 11264, "found": 1001,
            "solves": 119517, "resumed_batches": UNKNOWN,
        },
    },
    "middle.jsonl.gz": {
        "settings": {
            "count": 200, "min_plies": 15, "max_plies": 18, "jobs": 1, "resume": False,
            "sources": ["data:../shared/data/positions-s6820"], "out": "middle.jsonl.gz",
        },
        "seeds": 20261125,
        "figures": {
            "kept": 200, "planned": 80392, "examined": 2848, "found": 200,
            "solves": 41486, "resumed_batches": UNKNOWN,
        },
    },
}  # fmt: skip
"""Each shipped puzzle file's build: the command and figures docs/puzzles.md records
for it ("The shipped set"), the settings in ``adjacency puzzles build``'s names."""
DATA_COMMAND = (
    "adjacency train-eval --kind patterns --data positions-s6820 --games 100000 "
    "--chunk-games 50 --seed 6820 --rounds 28 --depth 6 --exact-plies 16 --jobs 16 --no-fit "
    "(805 of its 2,000 shards; at commit cb03095 on a 16-core machine, as the data's README "
    "says)"
)
"""The command that made the puzzles' source data (not shipped: its hash is recorded)."""
Key = tuple[Any, ...]


def git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, check=True).stdout


def reconstructed(
    version: Any, settings: dict[str, Any], seeds: Any, created: Any, known: dict[str, Any]
) -> dict[str, Any]:
    """A record made after the fact: the code, Python, libraries and machine unknown;
    ``version``, ``settings``, ``seeds`` and ``created`` as known (:data:`UNKNOWN` where
    not); ``known``, under ``reconstructed``, says where the known fields came from."""
    return {
        "package": "adjacency-game",
        "version": version,
        "commit": UNKNOWN,
        "dirty": UNKNOWN,
        "source": UNKNOWN,
        "python": UNKNOWN,
        "libraries": {"numpy": UNKNOWN, "numba": UNKNOWN},
        "machine": {"cpu": UNKNOWN, "cores": UNKNOWN, "system": UNKNOWN, "arch": UNKNOWN},
        "settings": settings,
        "seeds": seeds,
        "created": created,
        "reconstructed": known,
    }


# ------------------------------------------------------------------ the solved table


def first_commits() -> dict[Key, tuple[str, str]]:
    """(rows, cols, rounds, first, symmetry, finished) -> (commit, its date) of the first
    commit holding that row."""
    versions = []
    for path in HISTORY:
        for line in git("log", "--format=%aI %H", "--", path).decode().splitlines():
            date, commit = line.split()
            versions.append((date, commit, path))
    found: dict[Key, tuple[str, str]] = {}
    for date, commit, path in sorted(versions):
        blob = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{commit}:{path}"], capture_output=True, check=False
        ).stdout
        if not blob:  # the commit that moved the file away
            continue
        with tempfile.NamedTemporaryFile(suffix=".db") as copy:
            copy.write(blob)
            copy.flush()
            db = sqlite3.connect(copy.name)
            keys = db.execute(
                "SELECT rows, cols, rounds, first, symmetry, finished FROM entries"
            ).fetchall()
            db.close()
        for key in keys:
            found.setdefault(tuple(key), (commit, date))
    return found


def record(row: sqlite3.Row, history: dict[Key, tuple[str, str]]) -> dict[str, Any]:
    """The provenance record of one row stored before records were kept."""
    key = (row["rows"], row["cols"], row["rounds"], row["first"], row["symmetry"], row["finished"])
    commit, date = history.get(key, (UNKNOWN, UNKNOWN))
    settings = {
        "budget": row["budget"],
        "symmetry": bool(row["symmetry"]),
        "source": row["source"],
        "tt_mb": UNKNOWN,
        "threads": UNKNOWN,
    }
    known = {
        "from": "the row's own columns and git history",
        "committed_in": commit,
        "committed": date,
    }
    return reconstructed(row["engine"], settings, None, row["finished"], known)


def backfill(path: Path) -> int:
    """Fill every empty record of the table at ``path`` (opened, and so upgraded, by the
    store first); returns the rows filled."""
    SolutionsStore(path, create=False).close()  # the schema's upgrade adds the column
    history = first_commits()
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    rows = db.execute("SELECT * FROM entries WHERE provenance = ''").fetchall()
    with db:
        for row in rows:
            db.execute(
                "UPDATE entries SET provenance = ? WHERE rows = ? AND cols = ? AND rounds = ? "
                "AND first = ? AND symmetry = ?",
                (
                    json.dumps(record(row, history)),
                    row["rows"], row["cols"], row["rounds"], row["first"], row["symmetry"],
                ),
            )  # fmt: skip
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return len(rows)


# ------------------------------------------------------------------ shipped files


def first_commit_of(path: Path) -> tuple[str, str]:
    """(commit, its date) of the first commit whose version of ``path`` is the file's
    content now (its git blob), or :data:`UNKNOWN` twice if none is."""
    relative = path.relative_to(REPO).as_posix()
    blob = git("hash-object", str(path)).decode().strip()
    lines = git("log", "--reverse", "--format=%H %aI", "--", relative).decode().splitlines()
    for line in lines:
        commit, date = line.split()
        if git("rev-parse", f"{commit}:{relative}").decode().strip() == blob:
            return commit, date
    return UNKNOWN, UNKNOWN


def reprove(path: Path, sample: int, seed: int) -> dict[str, Any]:
    """Prove again ``sample`` puzzles of the file at ``path`` drawn by ``seed`` (all of
    them when there are no more): what the ``reproved`` section records."""
    from adjacency.puzzles import load_puzzles
    from adjacency.puzzles.prove import verify

    puzzles = load_puzzles(path)
    drawn = random.Random(seed).sample(puzzles, min(sample, len(puzzles)))
    started = time.process_time()
    failed = [p.id for p in drawn if verify(p) is not None]
    return {
        "puzzles": len(drawn),
        "of": len(puzzles),
        "failed": failed,
        "cpu_seconds": round(time.process_time() - started, 1),
        "provenance": provenance({"sample": len(drawn), "file": path.name}, seeds=seed),
    }


def backfill_puzzles(sample: int, seed: int, only: str | None = None) -> list[Path]:
    """Write the record of every shipped puzzle file (or only the one named ``only``)
    that has none; returns those written."""
    from adjacency.puzzles.model import provenance_path

    written = []
    for name, build in PUZZLE_BUILDS.items():
        if only is not None and name != only:
            continue
        path = PACKAGE / "puzzles" / "data" / name
        target = provenance_path(path)
        if target.exists():
            continue
        commit, date = first_commit_of(path)
        known = {
            "from": "docs/puzzles.md's build command and figures, and git history",
            "committed_in": commit,
            "committed": date,
        }
        content = reconstructed(UNKNOWN, build["settings"], build["seeds"], UNKNOWN, known)
        from adjacency.cli.puzzle_commands import source_data

        data = source_data(build["settings"]["sources"])  # the copy the build read
        content["settings"]["source_data"] = [{**d, "command": DATA_COMMAND} for d in data]
        content["figures"] = build["figures"]
        content["reproved"] = reprove(path, sample, seed)
        target.write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
        written.append(target)
    return written


def command_settings(command: str) -> dict[str, Any]:
    """The options of a recorded command line (``--games 400 --ridge 1.0``) as settings:
    numbers as numbers, a flag without a value as ``True``."""
    words = command.split()
    settings: dict[str, Any] = {"command": command}
    for i, word in enumerate(words):
        if not word.startswith("--"):
            continue
        value: Any = True
        if i + 1 < len(words) and not words[i + 1].startswith("--"):
            text = words[i + 1]
            try:
                value = int(text)
            except ValueError:
                try:
                    value = float(text)
                except ValueError:
                    value = text
        settings[word[2:].replace("-", "_")] = value
    return settings


def rewrite_weights(path: Path, text: str, content: dict[str, Any]) -> None:
    """Write ``content`` to the weights file at ``path`` laid out as its ``text`` was
    (the pattern file is one line, the other ``indent=0``), so only the records change."""
    compact = "\n" not in text.strip()
    dumped = (
        json.dumps(content, separators=(",", ":")) if compact else json.dumps(content, indent=0)
    )
    path.write_text(dumped + "\n", encoding="utf-8")


def backfill_weights() -> list[Path]:
    """Give the ``training`` section of every shipped weights file without one a
    ``provenance`` record, the file otherwise written as it was; returns those written."""
    written = []
    for path in WEIGHTS:
        text = path.read_text(encoding="utf-8")
        content = json.loads(text)
        training = content["training"]
        if "provenance" in training:
            continue
        commit, date = first_commit_of(path)
        settings = command_settings(training["command"])
        known = {
            "from": "the file's recorded training command and git history",
            "committed_in": commit,
            "committed": date,
        }
        seeds = settings.get("seed", UNKNOWN)
        training["provenance"] = reconstructed(UNKNOWN, settings, seeds, UNKNOWN, known)
        rewrite_weights(path, text, content)
        written.append(path)
    return written


DATA_NOT_MADE_AGAIN = {
    "patterns-8x8.json": (
        "fitted before the training data was hashed, and its 55,000 labelled positions "
        "(four times the learned evaluation's 13,904, which took 79.9 CPU s and 8.5 min "
        "of wall time to make again at load 10 to 27) were not made again: the 2-core "
        "machine was shared and the session that recorded this ended within the hour; "
        "its command makes them again, the same for any --jobs"
    ),
}
"""Why a shipped weights file's training data was not made again to hash it, by name
(drop its entry, and the file's ``data``, to make them again with ``--weights-data``)."""


def rerun_training(command: str, out: Path) -> dict[str, Any]:
    """Run a weights file's recorded ``adjacency train-eval`` command again, writing to
    ``out``; the ``training`` section of what it wrote."""
    import shlex

    from adjacency.cli import main as cli

    words = shlex.split(command)
    if words[:2] != ["adjacency", "train-eval"]:
        raise SystemExit(f"not a train-eval command: {command!r}")
    if cli([*words[1:], "--out", str(out)]) != 0:
        raise SystemExit(f"the recorded command failed: {command!r}")
    return dict(json.loads(out.read_text(encoding="utf-8"))["training"])


def record_weights_data() -> list[Path]:
    """Give every shipped weights file's ``training`` section what it lacks of its
    ``weights_sha256`` (of the weights as they are) and its ``data`` record; returns the
    files written. The data's hash is taken by running the file's recorded command again
    (the generation is seeded and single-threaded) and kept only if the weights that run
    fits equal the file's, which shows the data is the file's own; the run's provenance
    goes with it. A file named in :data:`DATA_NOT_MADE_AGAIN`, or whose rerun fits other
    weights, gets ``"not recorded"`` and why. Never a guessed hash."""
    from adjacency.engine.weights_file import NOT_RECORDED, weights_sha256

    written = []
    for path in WEIGHTS:
        text = path.read_text(encoding="utf-8")
        content = json.loads(text)
        training = content["training"]
        if "data" in training and "weights_sha256" in training:
            continue
        training["weights_sha256"] = weights_sha256(content)
        if "data" not in training:
            why = DATA_NOT_MADE_AGAIN.get(path.name)
            if why is not None:
                training["data"] = {"sha256": NOT_RECORDED, "why": why}
            else:
                code()  # the commit and sources as the run starts, not as it ends
                with tempfile.TemporaryDirectory() as scratch:
                    started = time.process_time()
                    again = rerun_training(training["command"], Path(scratch) / path.name)
                    cpu = round(time.process_time() - started, 1)
                if again["weights_sha256"] == training["weights_sha256"]:
                    training["data"] = {
                        **again["data"],
                        "made_again": {
                            "how": "the recorded command run again; the weights it fitted "
                            "equal this file's, so this is the data they were fitted on",
                            "cpu_seconds": cpu,
                            "provenance": again["provenance"],
                        },
                    }
                else:
                    training["data"] = {
                        "sha256": NOT_RECORDED,
                        "why": "fitted before the training data was hashed; the recorded "
                        f"command run again at commit {again['provenance']['commit']} fits "
                        "other weights, so its data is not this file's",
                    }
        rewrite_weights(path, text, content)
        written.append(path)
    return written


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", nargs="?", type=Path, help="a solved table to fill")
    parser.add_argument("--puzzles", type=int, metavar="N", help="puzzle files, N re-proved")
    parser.add_argument("--seed", type=int, default=0, help="the re-proved puzzles' draw")
    parser.add_argument("--file", choices=sorted(PUZZLE_BUILDS), help="only this puzzle file")
    parser.add_argument("--weights", action="store_true", help="the shipped weights files")
    parser.add_argument(
        "--weights-data", action="store_true",
        help="the shipped weights files' data and weights hashes (reruns their commands)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.puzzles is not None:
        for path in backfill_puzzles(args.puzzles, args.seed, args.file):
            print(f"wrote {path}")
    if args.weights:
        for path in backfill_weights():
            print(f"gave {path} a provenance record")
    if args.weights_data:
        for path in record_weights_data():
            print(f"recorded the data and weights hashes of {path}")
    if args.database is not None or (
        args.puzzles is None and not args.weights and not args.weights_data
    ):
        target = args.database or SHIPPED
        print(f"{backfill(target)} rows given a provenance record in {target}")


if __name__ == "__main__":
    main(sys.argv[1:])
