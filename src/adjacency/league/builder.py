"""The league's builder: every uploaded version built, checked and given its verdict
(:class:`Builder`), in the sandbox, off the event loop.

Up to :func:`build_jobs` threads each take the oldest ``received`` version of a team
not already building (:meth:`.store.submission_rows.SubmissionsRepo.claim`; a team has at
most one waiting, a newer upload replacing it), build it under the league's build
folder (:func:`build_folder`: one folder per version, which the next start may rebuild
from the stored zip), builds and checks it on the league's board
(:func:`adjacency.hosting.verdict.judge`, at most :data:`CHECK_SECONDS` a move) and
stores the verdict: ``accepted`` with the check's account, or ``refused`` with the
reason (the intake's rule, javac's output verbatim, the position the bot failed on); a
refused version's folder keeps only the form of its program's window, where it had one
(:func:`~adjacency.hosting.fx_kind.discard_build`), so that its team can choose again. The
verdict's detail is the team's and the teacher's to read (their routes), never a public
page's.

A check the machine could not judge (its program starved of its core at its start or at
a position, past every retry: :class:`~adjacency.hosting.check.ServerBusy`) is never a
refusal: the version goes back to ``received`` and is checked again after
:data:`BUSY_WAIT` seconds.

Where the sandbox cannot start, the builder does not run at all (:meth:`Builder.start`
raises :class:`~adjacency.sandbox.SandboxUnavailable`, whose one line names the fix): the
versions wait as ``received``, and nothing is ever built or run outside the sandbox.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from contextlib import nullcontext
from pathlib import Path

from ..core.errors import AdjacencyRuntimeError
from ..hosting.check import ServerBusy
from ..hosting.fx_kind import discard_build
from ..hosting.player import Choice
from ..hosting.slots import Slots
from ..hosting.verdict import Judged, judge, plays_windows
from ..hosting.verdict import rebuild as rebuild_build
from ..sandbox import StopScope
from ..sandbox import check as sandbox_check
from ..serving.logs import say
from .grading.digest_worker import DigestStopped
from .grading.digest_worker import stop_all as stop_digests
from .grading.version_digest import keep as keep_version_digest
from .grading.version_digest import making
from .league_file import LeagueStore
from .settings import LeagueSettings
from .store.submission_rows import Submission

log = logging.getLogger("adjacency.league")

CHECK_SECONDS = 5.0
"""The most seconds a move may take in the check (the course's 5 s a move; a league
with a shorter move time checks at its own)."""

BUSY_WAIT = 30.0
"""Seconds a builder thread waits before it takes a version again after the machine
could not give a check its core (:class:`~adjacency.hosting.check.ServerBusy`)."""

IDLE_WAIT = 5.0
"""Seconds the builder sleeps with nothing to build, unless woken (:meth:`Builder.wake`)."""


def keep_digest(store: LeagueStore, submission: Submission) -> None:
    """Make an accepted version's digest now, once (:mod:`.grading.version_digest`): its code
    view and fingerprints are then read, never made, by requests. A digest that cannot
    be made, or that a stopping server ended, is made when first asked for. The builder
    calls it after the verdict is stored, within
    :func:`~.grading.version_digest.making`: the version plays meanwhile, and its code
    view is "being prepared"."""
    try:
        keep_version_digest(store, submission)
    except DigestStopped:
        say(log, logging.INFO, "digest-stopped", version=submission.version)
    except Exception:
        log.exception("builder: the digest of version %d failed", submission.id)


def version_folder(db: Path, member_id: int, version: int) -> Path:
    """The build folder of a member's ``version`` under :func:`build_folder`."""
    return build_folder(db) / f"{member_id}-{version}"


def build_folder(db: Path) -> Path:
    """Where a league file's builds go: a folder beside it (``league.db.builds``),
    searchable by the sandbox's users; absolute, wherever the server was started from."""
    db = db.resolve()
    folder = db.with_name(db.name + ".builds")
    folder.mkdir(exist_ok=True)
    os.chmod(folder, 0o755)
    return folder


def check_seconds(settings: LeagueSettings) -> float:
    """The check's seconds a move: :data:`CHECK_SECONDS`, or the league's move time if
    shorter."""
    own = settings.move_time if settings.move_time is not None else settings.base
    return max(0.5, min(CHECK_SECONDS, own))


def verdict(store: LeagueStore, submission: Submission, folder: Path) -> Judged:
    """Build and check ``submission`` under ``folder`` on the league's board
    (:func:`adjacency.hosting.verdict.judge`): accepted or not, and why."""
    settings = store.meta.settings()
    data = store.submissions.data(submission.id)
    return judge(
        data,
        folder,
        settings.rows,
        settings.cols,
        settings.rounds,
        check_seconds(settings),
        from_start=settings.from_start,
    )


def keep_pictures(store: LeagueStore, submission: Submission, judged: Judged) -> None:
    """Keep a refused program's pictures (its window, its board at the check's failed
    move) in the league file, its build folder being removed (:mod:`.store.picture_rows`)."""
    if judged.window is not None:
        store.pictures.keep(submission.member_id, submission.id, "window", judged.window)
    if judged.board is not None:
        store.pictures.keep(submission.member_id, submission.id, "check", judged.board)


def rebuild(db: Path, submission: Submission) -> Choice:
    """Build an accepted ``submission`` again from its kept zip into its
    :func:`version_folder` (:func:`adjacency.hosting.verdict.rebuild`): what :mod:`.play.hosted`
    plays once a build folder is gone (removed, or a league file restored on another
    machine). Raises as the build does."""
    with LeagueStore(db, create=False) as store:
        data = store.submissions.data(submission.id)
        settings = store.meta.settings()
    windows = plays_windows(settings.rows, settings.cols, settings.from_start)
    folder = version_folder(db, submission.member_id, submission.version)
    return rebuild_build(data, folder, windows=windows)


def build_jobs(hosted_jobs: int | None = None) -> int:
    """How many builds run at once: the machine's cores, at most ``hosted_jobs`` (the
    server's bound on its hosted work), at least one."""
    cores = os.cpu_count() or 1
    return max(1, min(cores, hosted_jobs) if hosted_jobs else cores)


class Builder:
    """The threads that build the league's uploads: ``jobs`` builds at once (default
    :func:`build_jobs`), never two of one team
    (:meth:`.store.submission_rows.SubmissionsRepo.claim`), so a team whose build takes
    its whole cap holds one thread, not the builder."""

    def __init__(self, db: Path, jobs: int | None = None, slots: Slots | None = None) -> None:
        self.db = Path(db)
        self.jobs = build_jobs() if jobs is None else max(1, jobs)
        self.slots = slots
        """The server's slots of computing sides (:class:`~adjacency.hosting.slots.Slots`,
        shared with its hosted games): a build, its dry run and its check hold one."""
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._halt = StopScope()
        """The sandboxes of the builds and checks in hand, ended at once by :meth:`stop`."""
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        """Check that the sandbox starts here
        (:class:`~adjacency.sandbox.SandboxUnavailable` if not), hand back builds a stopped
        server left, and start."""
        sandbox_check()
        with LeagueStore(self.db, create=False) as store:
            back = store.submissions.requeue()
        if back:
            say(log, logging.INFO, "builds-handed-back", count=back)
        for number in range(self.jobs):
            thread = threading.Thread(
                target=self._run, name=f"league-builder-{number}", daemon=True
            )
            thread.start()
            self._threads.append(thread)

    def wake(self) -> None:
        """A version was uploaded: look now."""
        self._wake.set()

    def stop(self, wait: float = 1.0) -> None:
        """Stop now: the builds and checks in hand have their sandboxes ended (their
        versions go back to ``received``, never refused for it, and are built again at
        the next start, which also hands back any left ``building``), and their threads
        are waited for at most ``wait`` seconds while they unwind (daemon threads); a
        digest in hand is ended at once (its version is accepted, and the digest made
        when first asked for)."""
        self._stop.set()
        self._wake.set()
        self._halt.stop()
        stop_digests()
        deadline = time.monotonic() + wait
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _run(self) -> None:
        with LeagueStore(self.db, create=False) as store:
            while not self._stop.is_set():
                submission = store.submissions.claim()
                if submission is None:
                    self._wake.wait(IDLE_WAIT)
                    self._wake.clear()
                    continue
                folder = version_folder(self.db, submission.member_id, submission.version)
                judged = self._judge(store, submission, folder)
                if self._halt.stopped:  # ended by the stop, not judged: built again
                    store.submissions.release(submission.id)
                    return
                if judged is not None:
                    self._keep(store, submission, folder, judged)

    def _judge(self, store: LeagueStore, submission: Submission, folder: Path) -> Judged | None:
        """The verdict on the claimed ``submission``, built under ``folder`` within a slot;
        ``None`` where the machine could not judge it now
        (:class:`~adjacency.hosting.check.ServerBusy`: handed back, and this thread waits
        :data:`BUSY_WAIT` before it takes a version again)."""
        try:
            with (
                self._halt.inside(),
                self.slots.hold() if self.slots is not None else nullcontext(),
            ):
                return verdict(store, submission, folder)
        except ServerBusy as exc:  # held, not judged: checked again later
            store.submissions.release(submission.id)
            say(log, logging.WARNING, "version-held", version=submission.version,
                reason=str(exc))  # fmt: skip
            self._stop.wait(BUSY_WAIT)
            return None
        except AdjacencyRuntimeError as exc:  # the sandbox or the machine failed
            return Judged(False, f"the server could not build it: {exc}")
        except Exception:
            if not self._halt.stopped:
                log.exception("builder: version %d failed", submission.id)
            return Judged(False, "the server failed while building it")

    def _keep(
        self, store: LeagueStore, submission: Submission, folder: Path, judged: Judged
    ) -> None:
        """Store ``submission``'s verdict and what goes with it (a refused version's
        pictures and output, its build discarded; an accepted one's digest, made after
        its verdict is stored, so that its first games never wait for it: its code view
        is "being prepared" meanwhile)."""
        accepted = judged.accepted
        keep_pictures(store, submission, judged)
        if not accepted:
            store.outputs.keep(submission.member_id, submission.id, judged.output)
        with making(submission) if accepted else nullcontext():
            store.submissions.decide(submission.id, accepted, judged.detail)
            if not accepted:  # nothing plays it: only its form is kept, to choose again
                discard_build(folder)
            self._wake.set()  # its team's next version may be built now, by any thread
            say(log, logging.INFO, "version-accepted" if accepted else "version-refused",
                version=submission.version,
                team=store.members.member(submission.member_id).name)  # fmt: skip
            if accepted:
                keep_digest(store, submission)
