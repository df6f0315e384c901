"""tools/openapi_compare.py, run as its users run it: it dumps both servers' OpenAPI
documents from this checkout, and holds a new dump to an old one (every operation and
schema unchanged, additions listed), exiting 1 when something existing changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "openapi_compare.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    return subprocess.run(
        [sys.executable, str(TOOL), *args], capture_output=True, text=True, env=env, timeout=50
    )


def document(operations: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for name, operation in operations.items():
        method, path = name.split(" ")
        paths.setdefault(path, {})[method.lower()] = operation
    return {"openapi": "3.1.0", "paths": paths, "components": {"schemas": schemas}}


def write(folder: Path, name: str, dump: dict[str, Any]) -> str:
    path = folder / name
    path.write_text(json.dumps(dump))
    return str(path)


def test_a_change_to_an_existing_operation_or_schema_is_named_and_fails(tmp_path: Path) -> None:
    old = {
        "web": document(
            {"GET /a": {"description": "one"}, "POST /a": {"description": "make"}},
            {"A": {"type": "object"}, "B": {"type": "string"}},
        ),
        "league": document({"GET /l": {"description": "l"}}, {}),
    }
    new = {
        "web": document(
            {
                "GET /a": {"description": "two"},
                "POST /a": {"description": "make"},
                "GET /b": {"description": "new"},
            },
            {"A": {"type": "object"}},
        ),
        "league": document({"GET /l": {"description": "l"}}, {"C": {"type": "integer"}}),
    }
    said = run("compare", write(tmp_path, "old.json", old), write(tmp_path, "new.json", new))
    assert said.returncode == 1, said.stderr
    lines = said.stdout.splitlines()
    assert "web operations: 1 unchanged, 1 changed, 1 added, 0 removed" in lines
    assert "  changed GET /a:" in lines and '    /description: "one" -> "two"' in lines
    assert "  added GET /b" in lines
    assert "web schemas: 1 unchanged, 0 changed, 0 added, 1 removed" in lines
    assert "  removed B" in lines
    assert "league schemas: 0 unchanged, 0 changed, 1 added, 0 removed" in lines
    assert lines[-1] == "the API changed"


def test_this_checkouts_documents_hold_to_themselves(tmp_path: Path) -> None:
    dump = tmp_path / "now.json"
    said = run("dump", str(dump))
    assert said.returncode == 0, said.stderr
    assert said.stdout.startswith("web: ")
    documents = json.loads(dump.read_text())
    assert set(documents) == {"web", "league"}
    assert "/api/games" in documents["web"]["paths"]
    assert "/api/league/games" in documents["league"]["paths"]
    again = run("compare", str(dump), str(dump))
    assert again.returncode == 0 and again.stdout.splitlines()[-1].startswith("every old")
    assert " 0 changed, 0 added, 0 removed" in again.stdout


def test_a_missing_file_or_wrong_arguments_are_told_plainly(tmp_path: Path) -> None:
    missing = run("compare", str(tmp_path / "no.json"), str(tmp_path / "no.json"))
    assert missing.returncode == 2 and "No such file" in missing.stderr
    assert "Traceback" not in missing.stderr
    wrong = run("frobnicate")
    assert wrong.returncode == 2 and wrong.stderr.startswith("usage: ")
