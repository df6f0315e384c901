"""Print the two HTTP servers' OpenAPI documents and compare two dumps of them: the
check that a change keeps every API as it was.

Both apps are built as the tests build them (the browser game's on a new game store,
the league's on a new 6x6 league in a temporary folder); nothing is served and nothing
of the checkout is written.

Usage (with the checkout's ``src`` first on ``PYTHONPATH``)::

    python tools/openapi_compare.py dump OUT.json   # both documents; prints their summary
    python tools/openapi_compare.py show DUMP.json  # a dump's operations and schemas
    python tools/openapi_compare.py compare OLD.json NEW.json

``compare`` holds the new documents to the old: every operation (a path's method) and
every component schema of the old document must be in the new one, unchanged (the same
JSON, keys in any order); those only in the new are additions, listed. It prints the
counts per app (unchanged, changed, added, removed), what changed (the JSON paths that
differ, old and new value), and exits 1 when anything existing changed or went.
To compare with an older commit, dump there with this file and that commit's code::

    git worktree add /tmp/old COMMIT
    PYTHONPATH=/tmp/old/src python tools/openapi_compare.py dump /tmp/old.json
    PYTHONPATH=src python tools/openapi_compare.py dump /tmp/new.json
    python tools/openapi_compare.py compare /tmp/old.json /tmp/new.json
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
"""The keys of an OpenAPI path item that are operations."""

ADMIN = "adjl_compare"
"""The admin token of the throwaway league the league's app is built on."""


def documents() -> dict[str, Any]:
    """Both apps' OpenAPI documents, ``{"web": ..., "league": ...}``."""
    from adjacency.league.http.app import create_app as league_app
    from adjacency.league.league_file import LeagueStore
    from adjacency.league.settings import LeagueSettings
    from adjacency.web.app import create_app as web_app

    with tempfile.TemporaryDirectory() as folder:
        league_db = Path(folder) / "league.db"
        with LeagueStore(league_db) as store:
            settings = LeagueSettings(rows=6, cols=6, rounds=4, base=4.0, increment=0.1)
            meta: Any = getattr(store, "meta", store)  # older checkouts: the store creates it
            meta.create(settings, ADMIN)
        web = web_app(Path(folder) / "web.db").openapi()
        league = league_app(league_db).openapi()
    return {"web": web, "league": league}


def parts(document: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A document's operations (``"METHOD path"``) and component schemas (by name)."""
    operations = {
        f"{method.upper()} {path}": item[method]
        for path, item in document.get("paths", {}).items()
        for method in METHODS
        if method in item
    }
    schemas = dict(document.get("components", {}).get("schemas", {}))
    return operations, schemas


def summary(dump: dict[str, Any]) -> str:
    """The operations and schemas of each app of ``dump``, one a line."""
    lines = []
    for app, document in dump.items():
        operations, schemas = parts(document)
        lines.append(f"{app}: {len(operations)} operations, {len(schemas)} schemas")
        lines += [f"  {name}" for name in sorted(operations)]
        lines += [f"  schema {name}" for name in sorted(schemas)]
    return "\n".join(lines)


def differences(old: Any, new: Any, where: str = "") -> list[str]:
    """Where ``old`` and ``new`` (JSON values) differ, as ``path: old -> new`` lines."""
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key in sorted(set(old) | set(new), key=str):
            here = f"{where}/{key}"
            if key not in new:
                found.append(f"{here}: {_short(old[key])} -> (gone)")
            elif key not in old:
                found.append(f"{here}: (none) -> {_short(new[key])}")
            else:
                found += differences(old[key], new[key], here)
        return found
    if old != new:
        return [f"{where or '/'}: {_short(old)} -> {_short(new)}"]
    return []


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def compare(old: dict[str, Any], new: dict[str, Any]) -> tuple[str, bool]:
    """The report of ``new`` held to ``old``, and whether everything old is unchanged."""
    lines: list[str] = []
    kept = True
    for app in old:
        if app not in new:
            lines.append(f"{app}: missing from the new dump")
            kept = False
            continue
        for label, before, after in zip(
            ("operations", "schemas"), parts(old[app]), parts(new[app]), strict=True
        ):
            same = [name for name in before if name in after and after[name] == before[name]]
            changed = [name for name in before if name in after and after[name] != before[name]]
            removed = [name for name in before if name not in after]
            added = [name for name in after if name not in before]
            lines.append(
                f"{app} {label}: {len(same)} unchanged, {len(changed)} changed, "
                f"{len(added)} added, {len(removed)} removed"
            )
            for name in sorted(changed):
                lines.append(f"  changed {name}:")
                lines += [f"    {d}" for d in differences(before[name], after[name])]
            lines += [f"  removed {name}" for name in sorted(removed)]
            lines += [f"  added {name}" for name in sorted(added)]
            kept = kept and not changed and not removed
    return "\n".join(lines), kept


def main(argv: list[str]) -> int:
    usage = "usage: openapi_compare.py dump OUT.json | show DUMP.json | compare OLD.json NEW.json"
    if len(argv) == 2 and argv[0] == "dump":
        dump = documents()
        Path(argv[1]).write_text(json.dumps(dump, indent=1, sort_keys=True) + "\n")
        print(summary(dump))
        return 0
    try:
        if len(argv) == 2 and argv[0] == "show":
            print(summary(json.loads(Path(argv[1]).read_text())))
            return 0
        if len(argv) == 3 and argv[0] == "compare":
            old, new = (json.loads(Path(name).read_text()) for name in argv[1:])
            report, kept = compare(old, new)
            print(report)
            print("every old operation and schema is unchanged" if kept else "the API changed")
            return 0 if kept else 1
    except (OSError, ValueError) as exc:  # no such file, not JSON
        print(f"openapi_compare.py: {exc}", file=sys.stderr)
        return 2
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
