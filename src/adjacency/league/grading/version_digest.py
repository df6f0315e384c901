"""A version's digest: what is read of it again and again (its kept files highlighted, as
the code view shows them, and its fingerprints, the similarity report's input), made
once from its zip when it is accepted and kept in the league file
(:class:`~.store.digest_rows.DigestsRepo`). The code is kept as two lines of JSON,
compressed: its pictures and left-out paths, then its files (:func:`code_of`).

Why: highlighting a whole project and fingerprinting it cost seconds of CPU each; made
on every request, a team asking for its own code view a dozen times at once, or a
teacher opening the report, held the server's threads for minutes. Made once, a request
reads stored bytes. The builder makes it right after it stores the version's verdict
(:func:`making` held over both), so its games never wait for it, and a request in
between is told it is being prepared. A version accepted before digests were kept gets
its digest the first time it is asked for (:func:`code_of`, :func:`prints_of`), once.
A digest is made by
one thread at a time, in a worker process with its own CPU budget
(:func:`.digest_worker.made_apart`), never by the threads that answer requests: while
the builder or a thread of its own makes a version's, a request for its code view is
answered at once, :class:`BeingPrepared` (503, ``being_prepared``), instead of making it
again or waiting for it.

The corpus' entries (the league's template, earlier years' projects) are zips too:
:func:`corpus_prints` fingerprints one the same way.
"""

from __future__ import annotations

import json
import logging
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...core.errors import AdjacencyError
from ...serving.errors import WebError
from ...serving.logs import say
from ..league_file import LeagueError, LeagueStore
from ..store.submission_rows import Submission
from .digest_worker import DigestStopped, made_apart, make
from .fingerprints import ProjectPrints, pack, project_prints, unpack
from .version_code import kept_files

__all__ = ["BeingPrepared", "code_of", "keep", "make", "making", "preparing", "prints_of"]

log = logging.getLogger("adjacency.league")


class BeingPrepared(WebError):
    """A version's digest is being made by another thread (the builder's at acceptance,
    or another request's): ask again in a few seconds."""

    status = 503
    code = "being_prepared"
    retry_after = 2
    """A code view's page asks again after this many seconds (``Retry-After``): a small
    version's digest is made by then, a large one's within a few asks."""


_making: set[int] = set()
"""The submissions whose digest a thread of this process is making now."""
_making_lock = threading.Lock()
_unreadable: dict[int, str] = {}
"""The submissions whose making failed in a thread of their own (:func:`_make_later`),
each with why: a request for their code view is told that."""


def preparing() -> frozenset[int]:
    """The submissions whose digest a thread of this process is making now."""
    with _making_lock:
        return frozenset(_making)


@contextmanager
def making(submission: Submission) -> Iterator[bool]:
    """Claim the making of ``submission``'s digest for this thread: yields whether it was
    claimed (``False``: another thread, or this one further out, holds it), released on
    leaving the claim that took it. Within it, a request for the version's code view is
    answered :class:`BeingPrepared` and starts no making of its own: the builder claims
    it before it stores an accepted version's verdict, and makes the digest after."""
    with _making_lock:
        claimed = submission.id not in _making
        _making.add(submission.id)
    try:
        yield claimed
    finally:
        if claimed:
            with _making_lock:
                _making.discard(submission.id)


def _read(data: bytes, what: str) -> dict[str, str]:
    try:
        return kept_files(data).files
    except AdjacencyError as exc:
        raise LeagueError(f"{what} cannot be read: {exc}") from None


def keep(store: LeagueStore, submission: Submission) -> tuple[bytes, bytes]:
    """Make and keep a version's digest (when it is accepted); its packed prints and
    code. While it is made, a request for the version's code view is answered
    :class:`BeingPrepared`."""
    with making(submission):
        return _keep(store, submission)


def _keep(store: LeagueStore, submission: Submission) -> tuple[bytes, bytes]:
    what = f"version {submission.version}"
    prints, code = made_apart(store.submissions.data(submission.id), what)
    store.digests.keep(submission.id, prints, code)
    return prints, code


def code_of(store: LeagueStore, submission: Submission) -> tuple[dict[str, Any], str]:
    """A version's code as shown, from its digest: its ``pictures`` and ``left_out``
    (the stored zip's), and its files as JSON text (a list of path and highlighted
    lines), kept as text so that an answer splices it in instead of parsing and writing
    again what may be megabytes. :class:`BeingPrepared` while it is made, and for a
    version that has none yet (accepted before digests were kept, or whose making a
    stopping server ended), whose making then starts in a thread of its own
    (:func:`_make_later`); :class:`~.league_file.LeagueError` for a version whose zip
    that making found unreadable."""
    stored = store.digests.code(submission.id)
    if stored is None:
        with _making_lock:
            failed = _unreadable.get(submission.id)
        if failed is not None:
            raise LeagueError(failed)
        _make_later(store.database.path, submission)
        raise BeingPrepared(
            f"the code of version {submission.version} is being prepared: ask "
            "again in a few seconds",
            params={"version": submission.version},
        )
    head, _, files = zlib.decompress(stored).decode().partition("\n")
    found: dict[str, Any] = json.loads(head)
    return found, files


def _make_later(db: Path, submission: Submission) -> None:
    """Start making ``submission``'s digest in a thread of its own (with a connection to
    the league file ``db`` of its own), unless a thread makes it already."""
    with _making_lock:
        if submission.id in _making:
            return
        _making.add(submission.id)  # claimed here, so that a second request starts none

    def run() -> None:
        try:
            with LeagueStore(db, create=False) as store:
                if store.digests.code(submission.id) is None:  # made since the first look
                    team = store.members.member(submission.member_id).name
                    say(log, logging.INFO, "digest-made", team=team, version=submission.version)
                    _keep(store, submission)
        except DigestStopped:
            pass  # made when next asked for, after the next start
        except LeagueError as exc:  # its zip unreadable: said to the next request
            with _making_lock:
                _unreadable[submission.id] = str(exc)
        except Exception:
            log.exception("the digest of version %d failed", submission.id)
        finally:
            with _making_lock:
                _making.discard(submission.id)

    threading.Thread(target=run, name=f"league-digest-{submission.id}", daemon=True).start()


def prints_of(store: LeagueStore, submission: Submission) -> ProjectPrints:
    """A version's fingerprints, from its digest (made now if it has none)."""
    stored = store.digests.prints(submission.id)
    if stored is None:
        team = store.members.member(submission.member_id).name
        say(log, logging.INFO, "digest-made", team=team, version=submission.version)
        stored = keep(store, submission)[0]
    return unpack(stored)


def files_of(store: LeagueStore, submission: Submission) -> dict[str, str]:
    """A version's kept files as text (for the passages of a listed pair)."""
    return _read(store.submissions.data(submission.id), f"version {submission.version}")


def corpus_prints(data: bytes, what: str) -> bytes:
    """The packed prints of a corpus entry's zip ``data`` (``what`` names it in an error)."""
    return pack(project_prints(_read(data, what)))


def corpus_files(store: LeagueStore, name: str) -> dict[str, str]:
    """A corpus entry's files as text."""
    return _read(store.digests.data(name), f"the corpus' {name}")
