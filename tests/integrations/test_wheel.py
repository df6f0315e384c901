"""The built wheel and sdist: contents, metadata, and the wheel working in a fresh venv.

The fresh virtual environment gets the wheel with ``pip install --no-deps``; its
dependencies come from this environment's site-packages through a ``.pth``
path line (which adds the directory without running that directory's own
``.pth`` files, so this checkout's editable install stays invisible and
``adjacency`` is imported from the wheel). The metadata test checks that the
wheel requires exactly the runtime set, so the dependencies used are the ones a
real ``pip install adjacency-game`` resolves. The venv gets the wheel by that name, the
name the docs give, from the build folder: the name installs this project.
benchmarks/bench_install.py measures a full install from PyPI, with sizes and times
per extra.
"""

from __future__ import annotations

import email
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjacency import DISTRIBUTION, __version__
from adjacency.puzzles.model import SHIPPED

REPO = Path(__file__).resolve().parents[2]
# One worker builds the wheel and the venv once for all these tests (make test: --dist loadgroup).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]

RUNTIME = {
    "numpy",
    "numba",
    "fastapi",
    "uvicorn",
    "rich",
    "pillow",
    "websockets",
    "jinja2",
    "segno",
    "pygments",
}
EXTRAS = {"dev", "ray", "rl", "jax", "openspiel", "plots", "docs", "newjava"}


def run(
    *args: str | Path,
    timeout: float = 600,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> str:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd
    )
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``python -m build`` on a copy of the sources (the checkout gets no build files)."""
    root = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, root / name)
    shutil.copytree(
        REPO / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", out, root)
    return out


def only(folder: Path, pattern: str) -> Path:
    found = list(folder.glob(pattern))
    assert len(found) == 1, found
    return found[0]


def test_the_docs_give_the_wheels_name_and_size(dist: Path) -> None:
    wheel = only(dist, "adjacency_game-*-py3-none-any.whl")
    guide = (Path(__file__).resolve().parents[2] / "docs" / "integrations.md").read_text()
    assert f"`{wheel.name}`" in guide
    sizes = [float(mb) for mb in re.findall(r"The wheel itself is ([0-9.]+) MB", guide)]
    assert sizes and abs(sizes[0] - wheel.stat().st_size / 1e6) <= 0.1, (sizes, wheel.stat())


def test_the_wheel_holds_the_package_and_its_data_and_nothing_else(dist: Path) -> None:
    wheel = only(dist, "adjacency_game-*-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        message = email.message_from_bytes(archive.read(metadata))
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        scripts = archive.read(entry_points).decode()
    assert "adjacency/py.typed" in names
    assert "adjacency/web/templates/index.html" in names
    assert "adjacency/league/templates/index.html" in names
    assert "adjacency/serving/templates/_base.html" in names
    assert "adjacency/serving/static/js/board.js" in names
    assert "adjacency/serving/static/style.css" in names
    assert "adjacency/league/openings/balanced-28.txt" in names
    assert "adjacency/solving/data/solutions.db" in names  # solutions show, anywhere
    for shipped in SHIPPED:  # load_shipped() reads every one
        assert f"adjacency/puzzles/data/{shipped}" in names
    assert "adjacency/rl/aec.py" in names and "adjacency/openspiel/spiel_game.py" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith((".nbi", ".nbc", ".pyc"))]
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "docs/"))]
    requires = message.get_all("Requires-Dist") or []
    runtime = {re.split(r"[<>=!~ ;\[]", r)[0].lower() for r in requires if "extra ==" not in r}
    assert runtime == RUNTIME
    assert set(message.get_all("Provides-Extra") or []) == EXTRAS
    assert "adjacency = adjacency.cli:main" in scripts
    assert "openspiel = adjacency.openspiel:OpenSpielBot [openspiel]" in scripts  # plugin bots
    sdist = only(dist, "adjacency_game-*.tar.gz")
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
    assert any(m.endswith("src/adjacency/core/position.py") for m in members)
    assert any(m.endswith("/README.md") for m in members)


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv without pip (ensurepip takes ~20 s); this environment's pip installs into it."""
    home = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", home)
    python = home / "bin" / "python"
    purelib = Path(
        run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip()
    )
    (purelib / "dependencies-from-the-test-environment.pth").write_text(
        sysconfig.get_path("purelib") + "\n"
    )
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--no-deps",
        "--ignore-installed",  # this environment's editable copy, seen through the .pth
        "--no-index",
        "--find-links",
        dist,
        DISTRIBUTION,
    )
    return home


def venv_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NUMBA_CACHE"))}
    env["HOME"] = str(tmp)  # no user state from this machine
    return env


def test_the_installed_wheel_runs_the_command_line(venv: Path, tmp_path: Path) -> None:
    env = venv_env(tmp_path)
    where = run(
        venv / "bin" / "python", "-c", "import adjacency; print(adjacency.__file__)", env=env
    )
    assert where.startswith(str(venv)), where
    assert "usage: adjacency" in run(venv / "bin" / "adjacency", "--help", env=env)
    assert run(venv / "bin" / "adjacency", "--version", env=env).strip() == (
        f"adjacency {__version__}"
    )
    assert "backup" in run(venv / "bin" / "adjacency", "league", "--help", env=env)
    move = run(
        venv / "bin" / "adjacency", "move", "engine", "--time", "0.5", env=env, timeout=900
    ).split()[0]
    start_moves = run(
        venv / "bin" / "python",
        "-c",
        "from adjacency import Position; print(' '.join(Position.start().legal_moves()))",
        env=env,
    ).split()
    assert move in start_moves
    table = run(venv / "bin" / "adjacency", "solutions", "show", env=env, cwd=tmp_path)
    assert "8x8" in table  # the shipped solved table, outside any checkout


@pytest.fixture
def server(venv: Path, tmp_path: Path, held_port: int) -> Iterator[str]:
    port = held_port
    process = subprocess.Popen(
        [
            venv / "bin" / "adjacency",
            "play",
            "--no-browser",
            "--port",
            str(port),
            "--db",
            tmp_path / "games.sqlite3",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=venv_env(tmp_path),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=2).close()
                break
            except OSError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                assert time.monotonic() < deadline, "the web server did not start in 120 s"
                time.sleep(0.25)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_installed_wheel_serves_the_web_app(server: str) -> None:
    with urllib.request.urlopen(server + "/", timeout=10) as response:
        page = response.read().decode()
        assert response.status == 200 and "<html" in page.lower()
    with urllib.request.urlopen(server + "/static/style.css", timeout=10) as response:
        assert response.status == 200 and response.read()
    # the shipped puzzles of every build are in the wheel and served: both phases
    with urllib.request.urlopen(server + "/api/puzzles/phases", timeout=60) as response:
        phases = {row["phase"] for row in json.loads(response.read())}
    assert {"endgame", "middlegame"} <= phases
