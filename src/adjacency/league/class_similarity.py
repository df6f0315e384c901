"""The similarity report of a class as it stands in the league file: the stored prints
of the versions its teams play compared file by file (:func:`.similarity.compare_prints`),
the skeleton and the corpus taken from the league.

Two scopes: an event's teams (each plays its latest version accepted before the
event's upload deadline, if it has one) or the whole league's teams (each its latest
accepted version). A team with no accepted version is named, not compared.
"""

from __future__ import annotations

from dataclasses import dataclass

from .events.event_store import Event
from .fingerprints import ProjectPrints, unpack
from .league_file import LeagueError, LeagueStore
from .similarity import THRESHOLD, Report, compare_prints
from .store.digest_rows import TEMPLATE
from .store.records import Member
from .store.submission_rows import Submission
from .version_digest import corpus_files, files_of, prints_of


@dataclass(frozen=True)
class ClassReport:
    """A report with what it compared: each team's version played, the teams without
    code, and what was left out as the skeleton (a member's name, ``league`` for the
    league's template, or ``None``)."""

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


def class_report(
    store: LeagueStore,
    event: Event | None,
    threshold: float = THRESHOLD,
    template: Member | None = None,
) -> ClassReport:
    """The report of the event's teams (``None``: the league's), the skeleton left out
    (``template``'s latest version, else the league's template) and the corpus compared.
    :class:`LeagueError` when ``template`` has no version uploaded."""
    deadline = None if event is None else store.submissions.deadline(event.id)
    prints: dict[str, ProjectPrints] = {}
    playing: dict[str, Submission] = {}
    without = []
    for member in _teams(store, event):
        if template is not None and member.id == template.id:
            continue
        found = store.submissions.playing(member.id, deadline)
        if found is None:
            without.append(member.name)
            continue
        prints[member.name] = prints_of(store, found)
        playing[member.name] = found
    skeleton, marked = None, None
    if template is not None:
        own = store.submissions.versions(template.id)
        if not own:
            raise LeagueError(f"the template {template.name} has no version uploaded")
        skeleton, marked = prints_of(store, own[0]), template.name
    else:
        kept = store.digests.entries("template")
        if kept:
            skeleton, marked = unpack(kept[TEMPLATE]), "league"
    earlier = {name: unpack(data) for name, data in store.digests.entries("earlier").items()}
    earlier = {name: found for name, found in earlier.items() if name not in prints}

    def files(name: str) -> dict[str, str]:
        if name in playing:
            return files_of(store, playing[name])
        return corpus_files(store, name)

    report = compare_prints(prints, files, skeleton, threshold, corpus=earlier)
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
