"""The similarity report of a class as it stands in the league file: the stored prints
of the versions its teams play compared file by file (:func:`.similarity.compare_prints`),
the skeleton and the corpus taken from the league.

The base, left out of every pair by its source: a member's latest upload or a corpus
entry named for the report, else the league's template; with none of them the
majority rule is in force (:attr:`.similarity.Report.majority`).

Two scopes: an event's teams (each plays its latest version accepted before the
event's upload deadline, if it has one) or the whole league's teams (each its latest
accepted version). A team with no accepted version is named, not compared.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...serving.errors import GameNotFound
from ..events.event_store import Event
from ..league_file import LeagueError, LeagueStore
from ..store.digest_rows import TEMPLATE
from ..store.records import Member
from ..store.submission_rows import Submission
from .fingerprints import ProjectPrints, unpack
from .matched_blocks import BLOCK_LINES, BLOCK_TOKENS
from .similarity import THRESHOLD, Report, compare_prints
from .version_digest import corpus_files, files_of, prints_of


@dataclass(frozen=True)
class ClassReport:
    """A report with what it compared: each team's version played, the teams without
    code, and what was left out as the base (a member's or a corpus entry's name,
    ``league`` for the league's template, or ``None``: the majority rule)."""

    report: Report
    playing: dict[str, Submission]
    without: list[str]
    template: str | None


def _teams(store: LeagueStore, event: Event | None) -> list[Member]:
    """The teams of the scope: the event's members, or every member of the league,
    bots only (a house bot or a person has no code)."""
    if event is None:
        found = [m for m in store.members.members() if not m.removed]
    else:
        found = [store.members.member(m) for m in store.events.members(event.id)]
    return [m for m in found if m.kind == "bot"]


def _base(
    store: LeagueStore, template: Member | str | None
) -> tuple[ProjectPrints | None, str | None, Member | None]:
    """The base's prints, its name and the member it is: ``template`` (a member's
    latest upload; a name: the corpus entry so named, else the member), else the
    league's template, else none."""
    if isinstance(template, str):
        kept = store.digests.entries("earlier")
        if template in kept:
            return unpack(kept[template]), template, None
        name = template
        try:
            template = store.members.member_named(name)
        except LeagueError:
            raise GameNotFound(f"no member or corpus entry named {name[:80]!r}") from None
    if template is not None:
        own = store.submissions.versions(template.id)
        if not own:
            raise LeagueError(f"the template {template.name} has no version uploaded")
        return prints_of(store, own[0]), template.name, template
    kept = store.digests.entries("template")
    if kept:
        return unpack(kept[TEMPLATE]), "league", None
    return None, None, None


def class_report(
    store: LeagueStore,
    event: Event | None,
    threshold: float = THRESHOLD,
    template: Member | str | None = None,
    block_tokens: int = BLOCK_TOKENS,
    block_lines: int = BLOCK_LINES,
) -> ClassReport:
    """The report of the event's teams (``None``: the league's), the base left out
    (``template``: a member's latest version, or by name a corpus entry's or a
    member's; else the league's template; else the majority rule) and the rest of the
    corpus compared. :class:`LeagueError` when the member has no version uploaded,
    :class:`~adjacency.serving.errors.GameNotFound` for a name neither is."""
    deadline = None if event is None else store.submissions.deadline(event.id)
    skeleton, marked, base = _base(store, template)
    prints: dict[str, ProjectPrints] = {}
    playing: dict[str, Submission] = {}
    without = []
    for member in _teams(store, event):
        if base is not None and member.id == base.id:
            continue
        found = store.submissions.playing(member.id, deadline)
        if found is None:
            without.append(member.name)
            continue
        prints[member.name] = prints_of(store, found)
        playing[member.name] = found
    earlier = {name: unpack(data) for name, data in store.digests.entries("earlier").items()}
    earlier = {
        name: found for name, found in earlier.items() if name not in prints and name != marked
    }

    def files(name: str) -> dict[str, str]:
        if name in playing:
            return files_of(store, playing[name])
        return corpus_files(store, name)

    report = compare_prints(
        prints, files, skeleton, threshold, corpus=earlier,
        block_tokens=block_tokens, block_lines=block_lines,
    )  # fmt: skip
    return ClassReport(report, playing, sorted(without), marked)


def closest(report: Report) -> dict[str, tuple[float, str]]:
    """Each compared team's highest file share with any other project (a team or a
    corpus entry) and that project's name: its best file pair among those sharing
    enough prints (:attr:`.similarity.Pair.best`), listed at the threshold or not; a
    team with no such file pair is absent."""
    best: dict[str, tuple[float, str]] = {}
    for pair in report.pairs:
        if pair.best <= 0:
            continue
        for me, other in ((pair.a, pair.b), (pair.b, pair.a)):
            if me in report.teams and pair.best > best.get(me, (0.0, ""))[0]:
                best[me] = (pair.best, other)
    return best
