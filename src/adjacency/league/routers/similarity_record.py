"""An event's similarity report kept as a record (:mod:`..grading.report_record`):
saved by the teacher (``POST .../similarity/record``: the report made now, at the
threshold asked), read back with the marks on its pairs and what changed since
(``GET``), and each pair marked reviewed, cleared or flagged with a note (``PUT
.../similarity/marks``).

The admin token only (401 without, 403 with a member's); an unknown event is 404; a
mark on a pair the record does not list, or before a record was saved, is 400 with the
reason, and nothing changes. Saving and marking are logged as the teacher's actions.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from ...serving.logs import say
from ..grading.class_similarity import class_report
from ..grading.report_record import PRINTS, changes, summary
from ..grading.similarity import THRESHOLD
from ..http.auth import require_admin
from ..http.deps import heavy_read, store_of
from ..league_file import LeagueStore
from ..models import ERRORS
from ..store.report_rows import MAX_NOTE
from . import PREFIX
from .events import _event_named

log = logging.getLogger("adjacency.league.teacher")
"""The teacher's own actions (kind ``teacher``, as :mod:`.teacher` logs them)."""

router = APIRouter(prefix=PREFIX, tags=["code"], responses=ERRORS)
ADMIN = [Depends(require_admin)]


class SavedPair(BaseModel):
    """A pair of the record, with the teacher's mark on it (``null``: none yet)."""

    a: str
    b: str
    a_version: int | None
    b_version: int | None
    best: float
    mark: Literal["reviewed", "cleared", "flagged"] | None = None
    note: str = ""
    marked: float | None = Field(default=None, description="when it was marked")


class Changes(BaseModel):
    """What the report made now lists otherwise than the record."""

    new: list[dict[str, Any]]
    gone: list[dict[str, Any]]
    versions: list[dict[str, Any]]


class SavedReport(BaseModel):
    """An event's record: ``made`` (Unix seconds; null: none saved), the prints'
    version it was made with and the one used now, its threshold, its pairs with their
    marks, and what changed since."""

    event: str
    made: float | None
    prints: str | None
    prints_now: str
    threshold: float | None
    pairs: list[SavedPair]
    changes: Changes | None


class MarkBody(BaseModel):
    """A mark on a pair of the record."""

    a: str = Field(min_length=1, max_length=80)
    b: str = Field(min_length=1, max_length=80)
    mark: Literal["reviewed", "cleared", "flagged"]
    note: str = Field(default="", max_length=MAX_NOTE)


def _saved(store: LeagueStore, event_name: str, template: str | None) -> dict[str, Any]:
    """The record of the event with its marks and what changed since."""
    event = store.events.named(event_name)
    found = store.reports.record(event.id)
    if found is None:
        return {"event": event.name, "made": None, "prints": None, "prints_now": PRINTS,
                "threshold": None, "pairs": [], "changes": None}  # fmt: skip
    marks = store.reports.marks(event.id)
    pairs = []
    for pair in found.pairs:
        mark, note, at = marks.get((pair["a"], pair["b"]), (None, "", None))
        pairs.append({**pair, "mark": mark, "note": note, "marked": at})
    now = summary(class_report(store, event, found.threshold, template))
    return {
        "event": event.name,
        "made": found.made,
        "prints": found.prints,
        "prints_now": PRINTS,
        "threshold": found.threshold,
        "pairs": pairs,
        "changes": changes(found.pairs, now),
    }


Template = Annotated[str | None, Query(max_length=80)]
"""The base by name: a corpus entry's or a member's
(:func:`~..grading.class_similarity.class_report`)."""


@router.post(
    "/admin/events/{name}/similarity/record", response_model=SavedReport, dependencies=ADMIN
)
async def save_record(
    request: Request,
    name: str,
    threshold: Annotated[float, Query(gt=0, le=1)] = THRESHOLD,
    template: Template = None,
) -> dict[str, Any]:
    """Save the event's report made now, at ``threshold``, as its record."""
    event = _event_named(request, name)

    def save(store: LeagueStore) -> dict[str, Any]:
        pairs = summary(class_report(store, event, threshold, template))
        store.reports.save(event.id, PRINTS, threshold, pairs)
        return _saved(store, event.name, template)

    done = await heavy_read(request, save)
    say(log, logging.INFO, "teacher-saved-similarity", event=event.name)
    return done


@router.get(
    "/admin/events/{name}/similarity/record", response_model=SavedReport, dependencies=ADMIN
)
async def read_record(request: Request, name: str, template: Template = None) -> dict[str, Any]:
    """The event's record, its marks, and what the report made now changes."""
    event = _event_named(request, name)
    return await heavy_read(request, lambda store: _saved(store, event.name, template))


@router.put("/admin/events/{name}/similarity/marks", response_model=SavedPair, dependencies=ADMIN)
async def mark_pair(request: Request, name: str, body: MarkBody) -> dict[str, Any]:
    """Mark a pair of the event's record reviewed, cleared or flagged, with a note."""
    event = _event_named(request, name)
    store = store_of(request)
    at = store.reports.mark(event.id, body.a, body.b, body.mark, body.note)
    found = store.reports.record(event.id)
    marks = store.reports.marks(event.id)
    for pair in found.pairs if found is not None else []:
        if {pair["a"], pair["b"]} == {body.a, body.b}:
            mark, note, _ = marks[(pair["a"], pair["b"])]
            say(log, logging.INFO, f"teacher-marked-{mark}", a=pair["a"], b=pair["b"],
                event=event.name)  # fmt: skip
            return {**pair, "mark": mark, "note": note, "marked": at}
    raise AssertionError("a marked pair is listed")  # mark() refused it otherwise
