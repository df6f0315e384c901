"""The pages' JavaScript type check (``make jscheck``: Debian's TypeScript compiler over
tsconfig.json, run by ``make test``) covers every module of both servers' static
folders, passes on them, and fails, naming the file and the line, on a module that
imports a name its dependency does not export or calls a method no object has."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.node

ROOT = Path(__file__).resolve().parents[2]
TSC = "/usr/bin/tsc"


def tsc(project: Path) -> subprocess.CompletedProcess[str]:
    if not Path(TSC).exists():
        pytest.fail("TypeScript's compiler is missing at /usr/bin/tsc: tools/provision-typescript")
    return subprocess.run(
        [TSC, "-p", str(project), "--pretty", "false"],
        capture_output=True, text=True, timeout=50, check=False,
    )  # fmt: skip


def test_every_page_module_is_checked_and_passes() -> None:
    listed = subprocess.run(
        [TSC, "-p", str(ROOT / "tsconfig.json"), "--listFilesOnly"],
        capture_output=True, text=True, timeout=50, check=True,
    ).stdout.split()  # fmt: skip
    checked = {Path(name).resolve() for name in listed if "/node_modules/" not in name}
    modules = {p.resolve() for p in (ROOT / "src" / "adjacency").glob("*/static/**/*.js")}
    assert len(modules) > 40 and modules <= checked, sorted(map(str, modules - checked))
    answer = tsc(ROOT / "tsconfig.json")
    assert answer.returncode == 0, answer.stdout + answer.stderr


def test_the_dom_helpers_are_written_once() -> None:
    """``$``, ``$$``, ``byId``, ``el`` and the SVG makers live in ``dom.js`` alone: a
    page's module imports them rather than writing its own."""
    own = re.compile(r"^(?:export )?(?:const (?:\$|\$\$|byId|el) = |function (?:el|svg)\()", re.M)
    copies = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "src" / "adjacency").glob("*/static/**/*.js"))
        if path.name != "dom.js" and own.search(path.read_text(encoding="utf-8"))
    ]
    assert copies == []


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ('import { translte } from "/static/js/i18n.js";\ntranslte();', "TS2724"),
        (
            'import { $ } from "/static/js/dom.js";\n$("#x").focus();\ndocument.bodi.append("x");',
            "TS2339",
        ),
    ],
    ids=["a misspelt import", "a misspelt property"],
)
def test_a_planted_mistake_fails_the_check_naming_its_line(
    tmp_path: Path, line: str, error: str
) -> None:
    """The same configuration over a copy of the static folders with one module
    added: the check fails on it, at its line."""
    config = json.loads((ROOT / "tsconfig.json").read_text(encoding="utf-8"))
    for room in ("web", "serving", "league"):
        shutil.copytree(ROOT / "src" / "adjacency" / room / "static",
                        tmp_path / "src" / "adjacency" / room / "static")  # fmt: skip
    planted = tmp_path / "src" / "adjacency" / "league" / "static" / "planted.js"
    planted.write_text(line + "\n", encoding="utf-8")
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    answer = tsc(tmp_path / "tsconfig.json")
    assert answer.returncode != 0
    errors = [row for row in answer.stdout.splitlines() if "error TS" in row]
    assert len(errors) == 1 and "planted.js(" in errors[0] and error in errors[0], errors
