"""A version's verdict: its uploaded zip built and checked in the sandbox (:func:`judge`).

:func:`build_afresh` builds the zip by its kind (:func:`~.kinds.build_submission`) into an
emptied folder; :func:`judge` then checks the built bot on the league's board
(:func:`~.check.check_bot`; a program played through its window plays a short game with
each colour instead, :func:`~.fx_check.check_driven_program`) and says whether the version is
accepted and why: the check's account, or the refusal's reason (the intake's rule, the
compiler's output verbatim, the position the bot failed on), with what the intake left
out unread. An
accepted build keeps its bot's choice in its folder (:func:`~.player.save_choice`), from
which the league plays it. Where the version is stored, and who waits for its verdict,
is the league's.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import AdjacencyError
from .build_cache import CACHE_FOLDER
from .check import check_bot
from .fx_check import CHECK_ROUNDS, check_driven_program
from .fx_kind import check_rounds, kept_window, refused_window
from .fx_recipe import as_refused
from .kinds import KINDS, WINDOWS_ONLY, build_submission
from .player import Choice, save_choice
from .sandbox_build import HostedBuild
from .scripts import packages_note


@dataclass(frozen=True)
class Judged:
    """A version's verdict: ``accepted`` or not, and why (``detail``); for a refused
    program played through its window, the picture of its ``board`` at the failed move
    of its check and of its input ``window`` (its dry run's), where they were taken: its
    build folder, which holds them, is not kept; for a refused program, its last
    ``output``."""

    accepted: bool
    detail: str
    board: bytes | None = None
    window: bytes | None = None
    output: str = ""
    """A refused program's last standard error at its check's failed move
    (:attr:`~.check.Verdict.output`), for its team; empty where none was kept."""


def plays_windows(rows: int, cols: int, from_start: bool) -> bool:
    """Whether a league of ``rows`` x ``cols`` games can play a program through its
    window: its games are 8x8 and all ``from_start`` (a window starts a game only from
    its start position)."""
    return (rows, cols) == (8, 8) and from_start


def build_afresh(data: bytes, folder: Path, *, windows: bool) -> HostedBuild:
    """Build the zip ``data`` in the sandbox into ``folder``, emptied first
    (:func:`~.kinds.build_submission`, ``windows`` as there; raises as it does). The
    build cache (:mod:`.build_cache`) is :data:`~.build_cache.CACHE_FOLDER` beside
    ``folder`` (among the league's version folders): the same sources sent again, built
    again, or rebuilt where their folder is gone are copied from it, not compiled."""
    if folder.exists():
        shutil.rmtree(folder)
    cache = folder.parent / CACHE_FOLDER
    return build_submission(data, folder, windows=windows, cache=cache)


def rebuild(data: bytes, folder: Path, *, windows: bool) -> Choice:
    """Build an accepted version's zip ``data`` again into ``folder``, under the same
    sandbox and limits as its first build, and keep its choice there. Not checked again:
    its check accepted these very sources, and the build is the same (the same
    ``windows``: a league's settings never change). Raises as
    :func:`~.kinds.build_submission` (a machine that no longer builds it: no JDK, no
    sandbox)."""
    choice = Choice.of(build_afresh(data, folder, windows=windows))
    save_choice(folder, choice)
    return choice


def judge(
    data: bytes,
    folder: Path,
    rows: int,
    cols: int,
    rounds: int,
    seconds: float,
    *,
    from_start: bool,
) -> Judged:
    """Build the zip ``data`` under ``folder`` and check it on a ``rows`` x ``cols`` board
    of ``rounds`` rounds at ``seconds`` a move, for a league whose games are all
    ``from_start`` or not: accepted or not, and why (:class:`Judged`). Raises only for the machine's
    failures (:class:`~adjacency.core.errors.AdjacencyRuntimeError`: the sandbox could
    not start); the team's failures are the refusal's reason."""
    windows = plays_windows(rows, cols, from_start)
    try:
        hosted = build_afresh(data, folder, windows=windows)
    except AdjacencyError as exc:  # the intake's rule, the compiler's output, no bot to choose
        return Judged(False, str(exc), window=refused_window(folder))  # a form no recipe fills
    choice = Choice.of(hosted)
    window = KINDS[hosted.kind].window
    if window:  # played from its window's start only: its check is a game
        if not windows:
            return Judged(
                False,
                f"{WINDOWS_ONLY}\n{as_refused(hosted.label)}",
                window=kept_window(hosted.folder),
            )
        fewest = check_rounds(hosted.folder) or CHECK_ROUNDS
        checked = check_driven_program(choice.bot_checked, seconds, rounds=fewest, kind=choice.kind)
    else:
        checked = check_bot(choice.bot_checked, rows, cols, rounds, seconds, choice.kind)
    if checked.accepted:
        save_choice(folder, choice)
    left = f"; left out, not read: {len(hosted.left_out)} files" if hosted.left_out else ""
    if hosted.installed:
        left += (
            f" ({len(hosted.installed)} of them installed packages, never loaded: the league "
            "installs no npm or pip package)"
        )
    detail = f"{hosted.label}: {checked.detail}{left}"
    if checked.accepted:
        return Judged(True, detail)
    picture = kept_window(hosted.folder) if window else None
    note = packages_note(checked.detail)
    refused = f"{as_refused(hosted.label)}: {checked.detail}{left}{note}"
    return Judged(False, refused, checked.picture, picture, checked.output)
