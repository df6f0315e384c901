"""A similarity report kept as a record, and what changed since it was saved.

The record holds the report's listed pairs as the teacher saw them: the two projects,
the versions compared (``None`` for a corpus entry) and the best file share. What
changed since is the same summary of the report made now, at the record's threshold,
compared pair by pair: pairs listed now and not then (``new``), listed then and not now
(``gone``: a version changed, a team left, the template or corpus changed), and pairs
in both whose versions differ (``versions``: a team uploaded since). The prints'
version (:data:`PRINTS`) names how the fingerprints were made: a record made with
other prints says so, as its shares are not comparable.
"""

from __future__ import annotations

from typing import Any

from .class_similarity import ClassReport
from .fingerprints import K, W

PRINTS = f"winnowing k={K} w={W}"
"""The version of the fingerprints a record was made with."""


def summary(found: ClassReport) -> list[dict[str, Any]]:
    """The listed pairs of a report as a record keeps them, best first."""
    return [
        {
            "a": pair.a,
            "b": pair.b,
            "a_version": found.playing[pair.a].version,
            "b_version": found.playing[pair.b].version if pair.b in found.playing else None,
            "best": round(pair.best, 4),
        }
        for pair in found.report.listed
    ]


def _key(pair: dict[str, Any]) -> tuple[str, str]:
    return (pair["a"], pair["b"])


def changes(saved: list[dict[str, Any]], now: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """What changed from the ``saved`` pairs to those listed ``now`` (the module)."""
    then = {_key(p): p for p in saved}
    current = {_key(p): p for p in now}
    return {
        "new": [p for k, p in current.items() if k not in then],
        "gone": [p for k, p in then.items() if k not in current],
        "versions": [
            {**p, "was": [then[k]["a_version"], then[k]["b_version"]]}
            for k, p in current.items()
            if k in then
            and (p["a_version"], p["b_version"]) != (then[k]["a_version"], then[k]["b_version"])
        ],
    }
