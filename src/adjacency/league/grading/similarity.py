"""Similarity across teams, file by file: every file of one project against every file of
another by their fingerprints (:mod:`.fingerprints`), the class's skeleton left out, the
file pairs above a threshold shown with their shared passages side by side.

Why files and not whole projects: a course project's bot is one file among its window,
the skeleton the course gave and its other bots, so a bot copied whole is a small share
of either project (a fifth or less) while it is most of its own file. A pair of files is
what a copy is.

Contract of :func:`compare_prints` (:func:`compare` fingerprints the files first):

- a project is a team's fingerprints, file by file (made once per version when it is
  accepted and stored: :mod:`.version_digest`);
- the skeleton is the base code by its source when there is one: exactly the
  fingerprints of the ``template`` (the code the teacher gave the class, or a corpus
  entry named as the base), nothing else, so a copy shared by any number of teams is
  still a copy. Without a base the majority rule is in force (:attr:`Report.majority`):
  every fingerprint found in more than :data:`COMMON_SHARE` of the class's projects and
  in at least :data:`COMMON_LEAST` of them (a starter kit nobody uploaded), and the
  files holding them are listed for the teacher to review (:attr:`Report.common`);
  skeleton fingerprints count for no pair;
- a file pair's shares: of file A's fingerprints (skeleton left out), the fraction file
  B has too (:attr:`FilePair.a_share`), and the same the other way; a file pair is
  listed when it shares at least ``least`` fingerprints (so two small files alike in a
  few statements are not a copy) and either share reaches the ``threshold`` (a file
  copied into a larger one is found from its own side);
- a file pair is listed too, whatever its shares, when it holds a matched block
  (:func:`.matched_blocks.blocks`): a stretch of at least ``block_tokens`` tokens and
  ``block_lines`` lines on both sides that the two files have token for token (names,
  strings and numbers as :func:`~.fingerprints.tokens` reads them), none of it the
  skeleton, as JPlag's minimum match lists a function copied into a larger file of one's own;
- a project pair is listed when one of its file pairs is; pairs are ranked by their
  best file pair's larger share, and carry the projects' own shares beside (the same
  fractions over the whole projects);
- each listed file pair's passages: the shared fingerprints' stretches of code in those
  two files, as whole lines, merged where they overlap or touch on both sides, the
  longest first, at most :data:`MOST_PASSAGES` a file pair;
- a ``corpus`` (earlier years' projects) is compared with every team of the class, never
  with itself, and counts for no skeleton.

The cost is a pass over the stored prints (an index of each fingerprint's files), a
count per file pair sharing a fingerprint, the tokens of the files whose pairs share
enough prints to hold a block (each file read once a report), and passages for listed
pairs only.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from .fingerprints import K, Print, ProjectPrints, W, project_prints
from .matched_blocks import BLOCK_LINES, BLOCK_TOKENS, Block, Read, blocks, shown_lines

THRESHOLD = 0.5
"""The default file share from which a file pair is listed (set from measurement: see
docs/league.md, "Similarity across teams")."""
LEAST_SHARED = 20
"""The fewest shared fingerprints of a listed file pair (some 70 tokens, a dozen lines
of Java)."""
COMMON_SHARE = 0.5
"""Without a base, a fingerprint in more than this share of the projects is the class's
skeleton (most teams: 4 of 6, 5 of 9; a ring of half the class is still listed)."""
COMMON_LEAST = 3
"""... and in at least this many projects (two teams alike are what the report is for)."""
MOST_BASE_FILES = 50
"""The most files listed as holding the majority's code."""
MOST_FILE_PAIRS = 6
"""The most file pairs listed for a project pair."""
MOST_PASSAGES = 12
"""The most passages shown for a file pair."""
Files = Mapping[str, str]
"""A project: its files' paths and texts."""


@dataclass(frozen=True)
class Passage:
    """A stretch of code two files share: the file and lines (1-based, inclusive) on
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
class FilePair:
    """A file of each project compared: the share of each one's fingerprints (skeleton
    left out) the other has, how many they share, their passages and their matched
    blocks (longest first)."""

    a_file: str
    b_file: str
    a_share: float
    b_share: float
    shared: int
    passages: list[Passage] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    @property
    def share(self) -> float:
        """The larger of the two shares: what the file pair is ranked by."""
        return max(self.a_share, self.b_share)


@dataclass(frozen=True)
class Pair:
    """Two projects compared: their whole projects' shares (skeleton left out), the
    fingerprints they share, and the file pairs listed (best first)."""

    a: str
    b: str
    a_share: float
    b_share: float
    shared: int
    files: list[FilePair] = field(default_factory=list)
    best: float = 0.0
    """The best file pair's larger share among those sharing enough fingerprints,
    listed or not."""

    @property
    def share(self) -> float:
        """What the pair is ranked by: its best file pair's larger share."""
        return self.best


@dataclass(frozen=True)
class CommonFile:
    """A file the majority rule took code from (no base uploaded): its path, the teams
    whose file of that path holds the majority's fingerprints, and the most of them one
    of those files holds, and what share of that file they are."""

    path: str
    teams: list[str]
    prints: int
    share: float


@dataclass(frozen=True)
class Report:
    """Every pair of projects (best file share first), the threshold and floors, how
    many fingerprints were the skeleton and by which rule (a base's, or the majority's
    with the files it took code from), the corpus compared against."""

    teams: list[str]
    threshold: float
    least: int
    skeleton: int
    pairs: list[Pair]
    corpus: list[str] = field(default_factory=list)
    majority: bool = False
    """Whether the majority rule made the skeleton (no base was given)."""
    common: list[CommonFile] = field(default_factory=list)
    """With the majority rule, the files it took code from (most prints first)."""
    block_tokens: int = BLOCK_TOKENS
    block_lines: int = BLOCK_LINES

    @property
    def listed(self) -> list[Pair]:
        """The pairs with a file pair listed."""
        return [pair for pair in self.pairs if pair.files]


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


Span = tuple[int, int, int, int]
"""A passage's lines: first and last on side A, first and last on side B."""


def _touch(one: Span, two: Span) -> bool:
    """Whether two passages overlap or touch on both sides (then they are one)."""
    return (
        one[0] <= two[1] + 1
        and two[0] <= one[1] + 1
        and one[2] <= two[3] + 1
        and two[2] <= one[3] + 1
    )


def _join(one: Span, two: Span) -> Span:
    return (min(one[0], two[0]), max(one[1], two[1]), min(one[2], two[2]), max(one[3], two[3]))


def _merged(spans: list[Span]) -> list[Span]:
    """``spans`` joined wherever two overlap or touch on both sides, until none does."""
    runs: list[Span] = []
    for span in sorted(spans):  # in order on side A: most joins are with the last run
        if runs and _touch(runs[-1], span):
            runs[-1] = _join(runs[-1], span)
        else:
            runs.append(span)
    joined = True
    while joined:  # runs out of order on side B (methods moved) may still meet
        joined = False
        for i, j in itertools.combinations(range(len(runs)), 2):
            if _touch(runs[i], runs[j]):
                runs[i] = _join(runs[i], runs.pop(j))
                joined = True
                break
    return runs


def _passages(
    a_path: str, a_text: str, a_prints: list[Print],
    b_path: str, b_text: str, b_prints: list[Print],
    shared: set[int],
) -> list[Passage]:  # fmt: skip
    """The shared stretches of two files (each fingerprint's first place on each side)
    as whole lines, merged where they overlap or touch on both sides; the longest
    first."""
    first_b: dict[int, Print] = {}
    for mark in b_prints:
        first_b.setdefault(mark.hash, mark)
    seen: set[int] = set()
    spans: list[Span] = []
    for mark in a_prints:
        if mark.hash in shared and mark.hash not in seen:
            seen.add(mark.hash)
            other = first_b[mark.hash]
            a_lines = _line(a_text, mark.start), _line(a_text, mark.end)
            spans.append((*a_lines, _line(b_text, other.start), _line(b_text, other.end)))
    runs = sorted(_merged(spans), key=lambda span: (span[0] - span[1], span[0]))
    return [
        Passage(
            a_path, a1, a2, shown_lines(a_text, a1, a2), b_path, b1, b2, shown_lines(b_text, b1, b2)
        )
        for a1, a2, b1, b2 in runs[:MOST_PASSAGES]
    ]


def _hashes(prints: ProjectPrints, skeleton: set[int]) -> dict[str, set[int]]:
    out = {path: {mark.hash for mark in found} - skeleton for path, found in prints.items()}
    return {path: found for path, found in out.items() if found}


def _majority(prints: Mapping[str, ProjectPrints]) -> set[int]:
    """The fingerprints found in more than :data:`COMMON_SHARE` of the projects and in
    at least :data:`COMMON_LEAST` of them."""
    counts: Counter[int] = Counter()
    for project in prints.values():
        counts.update({mark.hash for found in project.values() for mark in found})
    need = max(COMMON_LEAST, int(COMMON_SHARE * len(prints)) + 1)
    return {h for h, n in counts.items() if n >= need}


def _common_files(
    prints: Mapping[str, ProjectPrints], majority: set[int], least: int
) -> list[CommonFile]:
    """The files holding at least ``least`` of the majority's fingerprints, by path:
    the teams, the most such prints in one of them and their share of that file."""
    by_path: dict[str, list[tuple[str, int, float]]] = {}
    for team, project in prints.items():
        for path, found in project.items():
            own = {mark.hash for mark in found}
            common = len(own & majority)
            if common >= least:
                by_path.setdefault(path, []).append((team, common, common / len(own)))
    out = [
        CommonFile(
            path,
            sorted(team for team, _, _ in held),
            max(n for _, n, _ in held),
            max(share for _, _, share in held),
        )
        for path, held in by_path.items()
    ]
    out.sort(key=lambda f: (-f.prints, f.path))
    return out[:MOST_BASE_FILES]


Key = tuple[str, str, str, str]
"""A file pair: a project, its file, the other project, its file."""


def _counted(by_file: Mapping[str, dict[str, set[int]]], earlier: set[str]) -> Counter[Key]:
    """The fingerprints each file pair of two projects shares (through an index of each
    fingerprint's files), a class project first; corpus entries never with each other."""
    places: dict[int, list[tuple[str, str]]] = {}
    for name, found in by_file.items():
        for path, hashes in found.items():
            for h in hashes:
                places.setdefault(h, []).append((name, path))
    order = {name: (name in earlier, name) for name in by_file}
    counted: Counter[Key] = Counter()
    for where in places.values():
        for i, (one, one_path) in enumerate(where):
            for two, two_path in where[i + 1 :]:
                if one == two or (one in earlier and two in earlier):
                    continue
                if order[one] <= order[two]:
                    counted[one, one_path, two, two_path] += 1
                else:
                    counted[two, two_path, one, one_path] += 1
    return counted


class _Texts:
    """The projects' texts and reads asked for by one report, each once."""

    def __init__(self, files: Callable[[str], Files]) -> None:
        self._files = files
        self._texts: dict[str, Files] = {}
        self._reads: dict[tuple[str, str], Read] = {}

    def files(self, name: str) -> Files:
        if name not in self._texts:
            self._texts[name] = self._files(name)
        return self._texts[name]

    def read(self, name: str, path: str) -> Read:
        if (name, path) not in self._reads:
            self._reads[name, path] = Read.of(path, self.files(name)[path])
        return self._reads[name, path]


@dataclass(frozen=True)
class _Rules:
    """What lists a file pair: its share, its prints shared, its blocks' size."""

    threshold: float
    least: int
    block_tokens: int
    block_lines: int
    skeleton: set[int]

    @property
    def block_prints(self) -> int:
        """The fewest shared prints a block of ``block_tokens`` tokens gives (the
        winnowing guarantee: one in each window of :data:`W` k-grams)."""
        return max(1, (self.block_tokens - K + 1) // W)


def _listed(
    a: str, b: str, found: list[FilePair], rules: _Rules,
    prints: Mapping[str, ProjectPrints], by_file: Mapping[str, dict[str, set[int]]],
    texts: _Texts,
) -> list[FilePair]:  # fmt: skip
    """The file pairs of ``a`` and ``b`` at or above the threshold, or holding a matched
    block, with their passages and blocks (best share first)."""
    out = []
    for pair in found:
        by_share = pair.shared >= rules.least and pair.share >= rules.threshold
        if not by_share and pair.shared < rules.block_prints:
            continue
        matched = blocks(
            texts.read(a, pair.a_file), prints[a][pair.a_file],
            texts.read(b, pair.b_file), prints[b][pair.b_file],
            rules.skeleton, rules.block_tokens, rules.block_lines,
        )  # fmt: skip
        if not by_share and not matched:
            continue
        shared = by_file[a][pair.a_file] & by_file[b][pair.b_file]
        passages = _passages(
            pair.a_file, texts.files(a)[pair.a_file], prints[a][pair.a_file],
            pair.b_file, texts.files(b)[pair.b_file], prints[b][pair.b_file],
            shared,
        )  # fmt: skip
        found_pair = FilePair(pair.a_file, pair.b_file, pair.a_share, pair.b_share, pair.shared)
        out.append(replace(found_pair, passages=passages, blocks=matched))
        if len(out) == MOST_FILE_PAIRS:
            break
    return out


def _check(threshold: float, least: int, block_tokens: int, block_lines: int) -> None:
    """:class:`ValueError` for a rule outside its range."""
    if not 0 < threshold <= 1:
        raise ValueError(f"the threshold is a share in (0, 1], not {threshold}")
    if least < 1:
        raise ValueError(f"the least shared fingerprints is 1 or more, not {least}")
    if block_tokens < K:
        raise ValueError(f"a matched block is {K} tokens or more, not {block_tokens}")
    if block_lines < 1:
        raise ValueError(f"a matched block is 1 line or more, not {block_lines}")


def _skeleton(
    prints: Mapping[str, ProjectPrints], base: ProjectPrints | None, least: int
) -> tuple[set[int], list[CommonFile]]:
    """The skeleton: the base's prints exactly, else the majority's and the files they
    were taken from."""
    if base is not None:
        return {mark.hash for found in base.values() for mark in found}, []
    majority = _majority(prints)
    return majority, _common_files(prints, majority, least)


def compare_prints(
    prints: Mapping[str, ProjectPrints],
    files: Callable[[str], Files],
    template: ProjectPrints | None = None,
    threshold: float = THRESHOLD,
    least: int = LEAST_SHARED,
    corpus: Mapping[str, ProjectPrints] | None = None,
    block_tokens: int = BLOCK_TOKENS,
    block_lines: int = BLOCK_LINES,
) -> Report:
    """The class's projects (team name to its stored prints) compared file by file, and
    each with the ``corpus``: see the module. ``template`` is the base (its prints are
    the skeleton, and the majority rule is off); ``files(name)`` gives a project's texts
    (a team's or a corpus entry's), asked only for the pairs that may be listed."""
    _check(threshold, least, block_tokens, block_lines)
    earlier = dict(corpus or {})
    clash = sorted(set(earlier) & set(prints))
    if clash:
        raise ValueError(f"a corpus entry has a team's name: {clash[0]}")
    skeleton, common = _skeleton(prints, template, least)
    rules = _Rules(threshold, least, block_tokens, block_lines, skeleton)
    everyone = {**prints, **earlier}
    by_file = {name: _hashes(found, skeleton) for name, found in everyone.items()}
    own = {name: set().union(*found.values()) for name, found in by_file.items()}
    candidates: dict[tuple[str, str], list[FilePair]] = {}
    floor = min(least, rules.block_prints)
    for (a, a_path, b, b_path), count in _counted(by_file, set(earlier)).items():
        if count >= floor:
            a_share = count / len(by_file[a][a_path])
            b_share = count / len(by_file[b][b_path])
            found = FilePair(a_path, b_path, a_share, b_share, count)
            candidates.setdefault((a, b), []).append(found)
    teams = sorted(prints)
    names = teams + sorted(earlier)
    texts = _Texts(files)
    pairs = []
    for i, a in enumerate(teams):
        for b in names[i + 1 :]:
            ranked = sorted(candidates.get((a, b), []), key=lambda f: (-f.share, -f.shared))
            listed = _listed(a, b, ranked, rules, everyone, by_file, texts)
            both = own[a] & own[b]
            a_share = len(both) / len(own[a]) if own[a] else 0.0
            b_share = len(both) / len(own[b]) if own[b] else 0.0
            best = max((f.share for f in ranked if f.shared >= least), default=0.0)
            pairs.append(Pair(a, b, a_share, b_share, len(both), listed, best))
    pairs.sort(key=lambda pair: (-pair.share, -pair.shared, pair.a, pair.b))
    return Report(
        teams, threshold, least, len(skeleton), pairs, sorted(earlier),
        template is None, common, block_tokens, block_lines,
    )  # fmt: skip


def compare(
    projects: Mapping[str, Files],
    template: Files | None = None,
    threshold: float = THRESHOLD,
    least: int = LEAST_SHARED,
    corpus: Mapping[str, Files] | None = None,
    block_tokens: int = BLOCK_TOKENS,
    block_lines: int = BLOCK_LINES,
) -> Report:
    """:func:`compare_prints` of ``projects`` (team name to files) and ``corpus``,
    fingerprinted here."""
    texts = {**(corpus or {}), **projects}
    return compare_prints(
        {team: project_prints(found) for team, found in projects.items()},
        texts.__getitem__,
        None if template is None else project_prints(template),
        threshold,
        least,
        {name: project_prints(found) for name, found in (corpus or {}).items()},
        block_tokens,
        block_lines,
    )
