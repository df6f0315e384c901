"""The report cards' background work (:mod:`.report_card`): games reviewed in a child
process at the lowest priority, and each version's card kept until its games change.

Why apart and lowest: a review is seconds of engine search per game, work nobody waits
for. Run in the server's process it would compete with the threads that answer requests
and with the games' sandboxes for the cores; so each batch of games is reviewed in a
child process (:func:`review_apart`) niced to :data:`NICE` (19, the lowest), and where
the sandbox's cgroups are delegated, in the builds' folder
(:attr:`~adjacency.sandbox.cgroup.Priority.BUILD`), which runs only on what the games and
checks leave, its memory capped at :data:`MEMORY`. One batch at a time, from one thread
(:class:`CardKeeper`), so the cards never take more than one core, and that core only
when nothing else wants it.

Kept: each game's review, in the server's memory (a game reviewed once serves both of
its sides' cards), and each version's card with what it was made from
(:func:`~.report_card.card_basis`: its games and the review's settings), in memory and
in the league file (:mod:`~adjacency.league.store.card_rows`), so that a restarted server
serves every card already made without reviewing a game again (:meth:`CardKeeper.card`).
A version that has played a game since, or had one voided, has another basis: its card
is made again (its games reviewed again after a restart) and replaces the kept one.

The child reads ``{"depth", "nodes", "games": {id: record}}`` as JSON on its standard
input and writes ``{id: [move, ...]}`` (:func:`~.report_card.reviewed_moves`) on its
standard output.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import resource
import sys
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from ...core.errors import AdjacencyError, StoreError
from ...sandbox import cgroup
from ..league_file import LeagueError, LeagueStore
from .apart import Children
from .report_card import (
    CARD_DEPTH,
    CARD_SOLVE_NODES,
    CardGame,
    card,
    card_basis,
    reviewed_moves,
)

NICE = 19
"""The child's niceness: the lowest priority a process can have."""
MEMORY = 1 << 30
"""Bytes the child may hold, where its cgroup can be capped."""
BATCH = 4
"""Games reviewed by one child: a stopping server loses at most that many reviews."""

log = logging.getLogger("adjacency.league.cards")


class CardFailed(AdjacencyError):
    """A batch of games was not reviewed (the child failed or was ended)."""


def review_apart(
    records: dict[int, str], depth: int = CARD_DEPTH, solve_nodes: int = CARD_SOLVE_NODES
) -> dict[int, list[dict[str, Any]]]:
    """The reviewed moves of each game of ``records`` (id to record text), made in a
    child process at the lowest priority (see the module); :class:`CardFailed` when
    the child fails or is ended (:func:`stop_all`)."""
    asked = {"depth": depth, "nodes": solve_nodes, "games": records}
    argv = [sys.executable, "-m", __name__]
    ended = _children.run(argv, json.dumps(asked).encode(), cgroup.Priority.BUILD, MEMORY)
    if ended.returncode != 0 or ended.stopped:
        raise CardFailed(
            f"the review of games {sorted(records)} failed (status {ended.returncode}): "
            + ended.err.decode(errors="replace").strip()[-500:]
        )
    answer = json.loads(ended.out)
    return {int(game_id): moves for game_id, moves in answer.items()}


_children = Children()
"""The review children of this process in hand."""


def stop_all() -> int:
    """End every review child of this process (a stopping server); how many."""
    return _children.stop_all()


Review = Callable[[dict[int, str]], dict[int, list[dict[str, Any]]]]


class CardKeeper:
    """Each version's card, made in the background and kept until its games change.

    :meth:`card` answers at once: the card kept for exactly these games (in memory, else
    in the league file), or ``None`` while it is being made (the version is queued; its
    games are reviewed by one thread, :data:`BATCH` at a time, through ``review``,
    :func:`review_apart` by default). ``db``: the league file where that thread keeps
    each card it makes, through a connection of its own (``None``: memory only)."""

    def __init__(self, review: Review | None = None, db: Path | None = None) -> None:
        self._review = review_apart if review is None else review
        self._db = db
        self._reviews: dict[int, list[dict[str, Any]]] = {}
        self._failed: set[int] = set()
        """Games whose review failed alone: counted in a card's games, not its moves."""
        self._cards: dict[int, tuple[str, dict[str, Any]]] = {}
        """Each version's last card made or read here, with its basis."""
        self._asked: dict[int, tuple[int, list[CardGame]]] = {}
        self._queue: queue.Queue[int | None] = queue.Queue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self.failures: list[str] = []
        """The last reasons a batch failed (the teacher's log says them too)."""

    def card(
        self,
        submission_id: int,
        version: int,
        games: list[CardGame],
        store: LeagueStore | None = None,
    ) -> dict[str, Any] | None:
        """The card of version ``version`` (``submission_id``) for exactly ``games``, or
        ``None`` while it is made (queued now if it was not). ``store``: the league
        file's, where a card made before from the same basis (by this server or an
        earlier one) is read, and where a card made now is kept."""
        basis = card_basis(version, games)
        with self._lock:
            kept = self._cards.get(submission_id)
            if kept is not None and kept[0] == basis:
                return kept[1]
        stored = store.cards.card(submission_id, basis) if store is not None else None
        with self._lock:
            if stored is not None:
                self._cards[submission_id] = (basis, stored)
                return stored
            if all(g.id in self._reviews or g.id in self._failed for g in games):
                reviews = {g.id: self._reviews[g.id] for g in games if g.id in self._reviews}
                made = card(version, games, reviews)
                self._cards[submission_id] = (basis, made)
            else:
                queued = submission_id in self._asked
                self._asked[submission_id] = (version, games)
                if not queued:
                    self._queue.put(submission_id)
                if self._thread is None and not self._stopping:
                    self._thread = threading.Thread(target=self._work, name="cards", daemon=True)
                    self._thread.start()
                return None
        if store is not None:
            self._keep(store, submission_id, basis, made)
        return made

    def _keep(
        self, store: LeagueStore, submission_id: int, basis: str, made: dict[str, Any]
    ) -> None:
        """Keep ``made`` in the league file; where it cannot be written (a full disk)
        it is served from memory meanwhile, and made again after a restart."""
        try:
            store.cards.keep(submission_id, basis, made)
        except StoreError as exc:
            log.warning("report cards: the card of version %d was not kept: %s",
                        submission_id, exc)  # fmt: skip

    def pending(self) -> int:
        """Versions waiting for their card."""
        with self._lock:
            return len(self._asked)

    def _work(self) -> None:
        opened = None
        try:
            opened = LeagueStore(self._db, create=False) if self._db is not None else None
        except (LeagueError, StoreError) as exc:  # served from memory, made again after
            log.warning("report cards: the league file cannot keep them: %s", exc)
        with opened if opened is not None else nullcontext():
            self._serve(opened)

    def _serve(self, store: LeagueStore | None) -> None:
        """Make the queued cards until stopped, each kept in ``store`` if given."""
        while True:
            submission_id = self._queue.get()
            if submission_id is None:
                return
            with self._lock:
                asked = self._asked.get(submission_id)
            if asked is None:
                continue
            version, games = asked
            with self._lock:
                done = set(self._reviews) | self._failed
            missing = {g.id: g.record for g in games if g.id not in done}
            ids = sorted(missing)
            for start in range(0, len(ids), BATCH):
                if not self._batch({i: missing[i] for i in ids[start : start + BATCH]}):
                    return  # stopping
            with self._lock:
                if self._asked.get(submission_id) == asked:
                    del self._asked[submission_id]
            self.card(submission_id, version, games, store)

    def _batch(self, records: dict[int, str]) -> bool:
        """Review ``records``; a batch that fails is tried again one game at a time, and
        a game that fails alone is kept as failed (logged; its card counts it in its
        games, not its moves), so it is not tried on every ask. False once stopping."""
        try:
            done = self._review(records)
        except (CardFailed, OSError, ValueError) as exc:
            if self._stopping:
                return False
            if len(records) > 1:
                return all(self._batch({i: r}) for i, r in records.items())
            log.warning("report cards: %s", exc)
            with self._lock:
                self.failures = [*self.failures[-9:], str(exc)]
                self._failed.update(records)
            return True
        with self._lock:
            self._reviews.update(done)
        return True

    def stop(self) -> None:
        """Stop the work: the thread ends after the child in hand is ended."""
        with self._lock:
            self._stopping = True
            thread = self._thread
        self._queue.put(None)
        stop_all()
        if thread is not None:
            thread.join(timeout=10)


def main() -> int:
    """The child (see the module): reviews the games on standard input."""
    os.nice(NICE)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    asked = json.loads(sys.stdin.buffer.read())
    started = time.process_time()
    answer = {
        game_id: reviewed_moves(record, int(asked["depth"]), int(asked["nodes"]))
        for game_id, record in asked["games"].items()
    }
    sys.stdout.write(json.dumps(answer))
    sys.stdout.flush()
    print(
        f"reviewed {len(answer)} games in {time.process_time() - started:.1f} s CPU",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
