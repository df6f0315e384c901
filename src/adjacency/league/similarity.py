"""Similarity across teams: every pair of projects compared by their fingerprints
(:mod:`.fingerprints`), the class's shared skeleton left out, the pairs above a
threshold shown with their shared passages side by side.

Contract of :func:`compare`:

- a project is a team's files (path to text); its fingerprints are those of all its
  files together, as a set of hashes;
- the skeleton is every fingerprint of the ``template`` project (the code the teacher
  gave the class), and every fingerprint found in :data:`COMMON_SHARE` or more of the
  projects and in at least :data:`COMMON_LEAST` of them (code common to most teams: a
  starter kit nobody marked, the rules everybody had to write the same way); skeleton
  fingerprints count for no pair;
- a pair's shares: of team A's fingerprints (skeleton left out), the fraction that team
  B has too (:attr:`Pair.a_share`), and the same the other way; a pair is listed above
  the ``threshold`` when either share reaches it (a small project copied into a large
  one is found from the small one's side);
- each listed pair's passages: the shared fingerprints' stretches of code, merged when
  they touch on both sides, as whole lines, at most :data:`MOST_PASSAGES` a pair, the
  longest first.

Everything is in memory; the cost is a tokenising pass over each project and a set
intersection per pair (30 teams are 435 pairs).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from .fingerprints import fingerprints

THRESHOLD = 0.5
"""The default share from which a pair is listed."""
COMMON_SHARE = 0.5
"""A fingerprint in this share of the projects (or more) is the class's skeleton."""
COMMON_LEAST = 3
"""... and in at least this many projects (two teams alike are what the report is for)."""
MOST_PASSAGES = 20
"""The most passages shown for a pair."""
MOST_LINES = 200
"""The most lines shown of one side of a passage."""
GAP = 2
"""Characters between two stretches that still join them into one passage."""

Files = Mapping[str, str]
"""A project: its files' paths and texts."""


@dataclass(frozen=True)
class Passage:
    """A stretch of code two projects share: the file and lines (1-based, inclusive) on
    each side and those lines' text."""

    a_file: str
    a_first: int
    a_last: int
    a_text: str
    b_file: str
    b_first: int
    b_last: int
    b_text: str


@dataclass(frozen=True)
class Pair:
    """Two projects compared: the shares of each one's fingerprints the other has
    (skeleton left out), the shared fingerprints, and (listed pairs only) the passages."""

    a: str
    b: str
    a_share: float
    b_share: float
    shared: int
    passages: list[Passage] = field(default_factory=list)

    @property
    def share(self) -> float:
        """The larger of the two shares: what the pair is listed and sorted by."""
        return max(self.a_share, self.b_share)


@dataclass(frozen=True)
class Report:
    """Every pair of projects (largest share first), the threshold, how many
    fingerprints were the skeleton."""

    teams: list[str]
    threshold: float
    skeleton: int
    pairs: list[Pair]

    @property
    def listed(self) -> list[Pair]:
        """The pairs at or above the threshold."""
        return [pair for pair in self.pairs if pair.share >= self.threshold]


@dataclass(frozen=True)
class _Located:
    path: str
    start: int
    end: int


def _prints(files: Files) -> dict[int, list[_Located]]:
    """A project's fingerprints: each hash and where it lies (files in path order)."""
    found: dict[int, list[_Located]] = {}
    for path in sorted(files):
        for mark in fingerprints(path, files[path]):
            found.setdefault(mark.hash, []).append(_Located(path, mark.start, mark.end))
    return found


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _lines(text: str, first: int, last: int) -> str:
    lines = text.splitlines()[first - 1 : last]
    return "\n".join(lines[:MOST_LINES])


def _passages(
    a_files: Files, b_files: Files, a: dict[int, list[_Located]], b: dict[int, list[_Located]],
    shared: set[int],
) -> list[Passage]:  # fmt: skip
    """The shared stretches, each hash's first place on each side, joined while they
    touch on both sides, as whole lines; the longest first."""
    spans = sorted(
        ((a[h][0], b[h][0]) for h in shared),
        key=lambda span: (span[0].path, span[0].start, span[1].path, span[1].start),
    )
    runs: list[tuple[_Located, _Located]] = []
    for left, right in spans:
        if runs:
            last_left, last_right = runs[-1]
            if (
                left.path == last_left.path
                and right.path == last_right.path
                and left.start <= last_left.end + GAP
                and last_right.start - GAP <= right.start <= last_right.end + GAP
            ):
                runs[-1] = (
                    _Located(left.path, last_left.start, max(last_left.end, left.end)),
                    _Located(right.path, last_right.start, max(last_right.end, right.end)),
                )
                continue
        runs.append((left, right))
    runs.sort(key=lambda run: run[0].end - run[0].start, reverse=True)
    out = []
    for left, right in runs[:MOST_PASSAGES]:
        a_text, b_text = a_files[left.path], b_files[right.path]
        a_first, a_last = _line(a_text, left.start), _line(a_text, left.end)
        b_first, b_last = _line(b_text, right.start), _line(b_text, right.end)
        out.append(
            Passage(
                left.path,
                a_first,
                a_last,
                _lines(a_text, a_first, a_last),
                right.path,
                b_first,
                b_last,
                _lines(b_text, b_first, b_last),
            )
        )
    return out


def compare(
    projects: Mapping[str, Files],
    template: Files | None = None,
    threshold: float = THRESHOLD,
) -> Report:
    """Every pair of ``projects`` (team name to files) compared: see the module."""
    if not 0 < threshold <= 1:
        raise ValueError(f"the threshold is a share in (0, 1], not {threshold}")
    prints = {team: _prints(files) for team, files in projects.items()}
    skeleton = set(_prints(template)) if template else set()
    counts = Counter(h for found in prints.values() for h in found)
    least = max(COMMON_LEAST, math.ceil(COMMON_SHARE * len(prints)))
    skeleton |= {h for h, n in counts.items() if n >= least}
    own = {team: set(found) - skeleton for team, found in prints.items()}
    teams = sorted(projects)
    pairs = []
    for i, a in enumerate(teams):
        for b in teams[i + 1 :]:
            shared = own[a] & own[b]
            a_share = len(shared) / len(own[a]) if own[a] else 0.0
            b_share = len(shared) / len(own[b]) if own[b] else 0.0
            passages = []
            if max(a_share, b_share) >= threshold:
                passages = _passages(projects[a], projects[b], prints[a], prints[b], shared)
            pairs.append(Pair(a, b, a_share, b_share, len(shared), passages))
    pairs.sort(key=lambda pair: (-pair.share, pair.a, pair.b))
    return Report(teams, threshold, len(skeleton), pairs)
