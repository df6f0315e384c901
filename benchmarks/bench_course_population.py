"""Course projects sent unedited to a real league, as a class would: what each gets.

Takes a folder of GitHub Download ZIPs (``NAME-main.zip``) or of project folders and,
one project at a time, makes a league as the tutorial "Submit your course project" says
(``adjacency league create --course --rounds 8 --from-start``, the house bots ``greedy``
and ``alphabeta:depth=2``, one team), serves it on an ephemeral port (``league serve
--port 0``), sends the project as it is (``adjacency league submit URL PROJECT``), and
waits for the verdict and for the team's first rated game that ends on the board. Each
league is a fresh folder, served alone and stopped before the next: one project's
games never load another's.

Prints a table, one row per project: the verdict, the default choice the league read in
its form (the values it sets: the recipe kept with an accepted build), the bot that
plays (the verdict's ``plays ... as ...``), the seconds from upload to the verdict and to
the first game ended on the board, and the verdict's first line; with the load average
before and after. Progress is shown as it goes.

    python benchmarks/bench_course_population.py /work/population --timeout 240
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

HOUSE = ("greedy", "alphabeta:depth=2")
"""The house bots a class league has, as the tutorial makes it."""

READY = re.compile(r"League server ready at (http://\S+)")
PLAYS = re.compile(r"\bplays (.*?) as ([XO])\b")


@dataclass
class Row:
    """One project's outcome."""

    project: str
    verdict: str = "none"
    choice: str = "-"
    plays: str = "-"
    to_verdict: float | None = None
    to_game: float | None = None
    reason: str = ""
    detail: str = ""
    other_ends: str = ""
    """The games it finished otherwise (a loss by a failure, say) before its first ended
    on the board: each one's termination and the first line of its detail."""
    other_detail: str = ""
    """The first of those games' detail, whole."""


def adjacency(*argv: str | Path) -> str:
    """``adjacency ARGV`` run in this process (the same command line, without starting
    an interpreter for each): its standard output; :class:`RuntimeError` on failure."""
    from adjacency.cli import main as cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli([str(a) for a in argv])
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 2
    if status != 0:
        raise RuntimeError(f"adjacency {' '.join(map(str, argv))}: {err.getvalue().strip()}")
    return out.getvalue()


def make_league(folder: Path, rounds: int) -> str:
    """The class's league in ``folder`` (the tutorial's commands); the team's token."""
    db = folder / "class.db"
    create = ("league", "create", "--db", db, "--course", "--rounds", str(rounds), "--from-start")
    adjacency(*create)
    for spec in HOUSE:
        adjacency("league", "add-house", spec, "--db", db)
    token = adjacency("league", "add-bot", "team", "--db", db).strip().splitlines()[-1]
    (folder / "team.token").write_text(token)
    return token


def serve(folder: Path, pace: float) -> tuple[subprocess.Popen[str], str]:
    """``league serve --port 0`` on the league in ``folder``: the process and its URL."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "adjacency",
            "league",
            "serve",
            "--db",
            "class.db",
            "--port",
            "0",
            "--pace",
            str(pace),
            "--no-house-games",
        ],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # in the benchmark's own process group: a caller that ends the group ends it too
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        found = READY.search(line)
        if found:
            return process, found.group(1).rstrip("/")
    stop(process)
    raise RuntimeError("the league server did not start")


def stop(process: subprocess.Popen[str]) -> None:
    """End the server (SIGTERM, then SIGKILL); its sandboxes end with it."""
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def recipe_choice(folder: Path) -> str:
    """The values the league sets in the form, from the recipe kept with the build."""
    for recipe in sorted((folder / "class.db.builds").glob("**/recipe.json")):
        settings = json.loads(recipe.read_text(encoding="utf-8")).get("settings", {})
        return ", ".join(f"{k}={v}" for k, v in settings.items()) or "(none)"
    return "-"


POLL = 0.25
"""Seconds between two looks at the team's versions and games: the times to the verdict
and to the first game are measured to this (a second would be most of a tiny run's)."""


def one(project: Path, rounds: int, pace: float, timeout: float, progress: Progress) -> Row:
    """Send ``project`` to a fresh league and watch it (see the module docstring)."""
    row = Row(project.name.removesuffix(".zip"))
    task = progress.add_task(f"{row.project}: league", total=None)
    folder = Path(tempfile.mkdtemp(prefix="population-"))
    folder.chmod(0o755)  # the sandbox's users enter the builds below it
    server = None
    try:
        token = make_league(folder, rounds)
        server, url = serve(folder, pace)
        progress.update(task, description=f"{row.project}: upload")
        sent = time.monotonic()
        adjacency("league", "submit", url, project, "--token-file", folder / "team.token")
        api = httpx.Client(
            base_url=f"{url}/api/league", headers={"Authorization": f"Bearer {token}"}
        )
        with api:
            progress.update(task, description=f"{row.project}: building and checking")
            while time.monotonic() - sent < timeout:
                answer = api.get("/submissions")
                if answer.status_code != 200:
                    raise RuntimeError(f"GET /submissions: {answer.status_code} {answer.text}")
                version = answer.json()["submissions"][0]
                if version["status"] in ("accepted", "refused"):
                    row.to_verdict = time.monotonic() - sent
                    row.verdict = version["status"]
                    detail = str(version["detail"])
                    row.detail = detail
                    row.reason = " / ".join(detail.split("\n")[:2])
                    plays = PLAYS.search(row.reason)
                    bot = (plays.group(1) or "(blank)") if plays else ""
                    row.plays = f"{bot} as {plays.group(2)}" if plays else "-"
                    break
                time.sleep(POLL)
            row.choice = recipe_choice(folder)
            if row.verdict == "accepted":
                progress.update(task, description=f"{row.project}: its first game")
                games: list[dict[str, Any]] = []
                while time.monotonic() - sent < timeout:
                    games = api.get("/submissions/1/games").json()
                    if any(g.get("termination") == "normal" for g in games):
                        row.to_game = time.monotonic() - sent
                        break
                    time.sleep(POLL)
                ended = [g for g in games if g.get("status") == "finished"]
                other = [g for g in reversed(ended) if g.get("termination") != "normal"]
                row.other_detail = str(other[0].get("detail") or "") if other else ""
                row.other_ends = " | ".join(
                    f"{g['termination']}: {str(g.get('detail') or '').splitlines()[:1]}"
                    for g in other
                )[:600]
    except (RuntimeError, OSError, httpx.HTTPError) as exc:
        row.reason = f"the benchmark could not run it: {exc}"[:300]
    finally:
        if server is not None:
            stop(server)
        shutil.rmtree(folder, ignore_errors=True)
        progress.remove_task(task)
    return row


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def table(rows: list[Row]) -> Table:
    """The rows as a rich table."""
    out = Table(title="course projects sent unedited to a league (--course --rounds 8)")
    widths = {"project": 24, "default choice": 28, "plays": 18}
    for column in ("project", "verdict", "default choice", "plays", "to verdict s",
                   "to first game s", "verdict's first line", "games ended otherwise"):  # fmt: skip
        out.add_column(column, overflow="fold", max_width=widths.get(column))
    for r in rows:
        out.add_row(r.project, r.verdict, r.choice, r.plays, seconds(r.to_verdict),
                    seconds(r.to_game), r.reason[:240], r.other_ends[:240])  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="Download ZIPs (NAME-main.zip) or folders")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--pace", type=float, default=1.0, help="league serve --pace")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a project")
    parser.add_argument("--only", nargs="*", default=None, help="these projects' names only")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args(argv)
    projects = sorted(p for p in args.folder.iterdir() if p.suffix == ".zip" or p.is_dir())
    if args.only:
        projects = [p for p in projects if p.name.removesuffix(".zip") in args.only]
    if not projects:
        print(f"no project in {args.folder}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # its server stopped on the way out
    console = Console(width=max(Console().width, 200))
    before = os.getloadavg()
    rows: list[Row] = []
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        overall = progress.add_task("projects", total=len(projects))
        for project in projects:
            rows.append(one(project.resolve(), args.rounds, args.pace, args.timeout, progress))
            progress.advance(overall)
            if args.json:
                args.json.write_text(json.dumps([r.__dict__ for r in rows], indent=1))
    after = os.getloadavg()
    console.print(table(rows))
    console.print(
        f"load average before {before[0]:.2f} {before[1]:.2f} {before[2]:.2f}, "
        f"after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}; {os.cpu_count()} CPUs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
