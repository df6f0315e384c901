"""The live progress bar of a run: games done / planned, elapsed, ETA and the running score."""

from __future__ import annotations

from collections import defaultdict
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .games import GameResult
from .store import GameRow


class LiveScore:
    """A rich progress bar fed with each finished game (use as a context manager).

    A match shows A's name, W-D-L and score; a tournament shows the top three by score.
    """

    def __init__(
        self, planned: int, done: list[GameRow], mode: str, console: Console | None = None
    ) -> None:
        self.mode = mode
        self.planned = planned
        self.points: dict[str, float] = defaultdict(float)
        self.played: dict[str, int] = defaultdict(int)
        self.wdl = [0, 0, 0]
        self.faults = 0
        self.a = "A"
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[score]}"),
            console=console,
            transient=False,
        )
        self.task = self.progress.add_task("arena", total=planned, completed=len(done), score="")
        for game in done:
            self._tally(game.a, game.b, game.a_points, game.termination)
        self._refresh(advance=0)

    def __enter__(self) -> LiveScore:
        self.progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.progress.stop()

    def _tally(self, a: str, b: str, a_points: float, termination: str) -> None:
        self.a = a
        self.points[a] += a_points
        self.points[b] += 1.0 - a_points
        self.played[a] += 1
        self.played[b] += 1
        self.wdl[{1.0: 0, 0.5: 1, 0.0: 2}[a_points]] += 1
        if termination not in ("normal",):
            self.faults += 1

    def score_text(self) -> str:
        """The running score shown beside the bar: in a match, A's W-D-L and score; otherwise the
        top three players by score; then the forfeits, if any."""
        if self.mode == "match":
            games = sum(self.wdl)
            pct = 100 * (self.wdl[0] + 0.5 * self.wdl[1]) / games if games else 50.0
            text = f"{self.a} {self.wdl[0]}-{self.wdl[1]}-{self.wdl[2]} ({pct:.1f}%)"
        else:
            best = sorted(self.points, key=lambda p: -self.points[p] / max(1, self.played[p]))
            text = "  ".join(f"{p} {100 * self.points[p] / self.played[p]:.0f}%" for p in best[:3])
        if self.faults:
            text += f"  forfeits {self.faults}"
        return text

    def _refresh(self, advance: int) -> None:
        self.progress.update(self.task, advance=advance, score=self.score_text())

    def add(self, result: GameResult) -> None:
        """Count one finished game and redraw."""
        task = result.task
        self._tally(task.a, task.b, result.a_points, result.termination)
        self._refresh(advance=1)
