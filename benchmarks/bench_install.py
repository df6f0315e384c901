"""Install size and time of the runtime set and of each extra, in fresh virtual environments.

Builds the wheel once (``python -m build``), then for each set creates a new venv
and times ``pip install 'WHEEL[extra]'`` from the package index with pip's cache
disabled (every run downloads, like a first install), and measures the venv's
site-packages on disk. For an extra, the time and size reported are those of
installing it on top of the runtime set (the difference between the two venvs).

    .venv/bin/python benchmarks/bench_install.py [--extras rl,openspiel,ray,dev] [--keep DIR]

Needs network access to the package index; takes minutes (ray and the dev tools are large).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def size_of(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def install(wheel: Path, extra: str, where: Path) -> tuple[float, int]:
    """Seconds to pip install the wheel (with ``extra``) in a new venv; its site-packages size."""
    subprocess.run([sys.executable, "-m", "venv", where], check=True)
    python = where / "bin" / "python"
    target = f"{wheel}[{extra}]" if extra else str(wheel)
    began = time.monotonic()
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-cache-dir", target], check=True
    )
    seconds = time.monotonic() - began
    site = next((where / "lib").glob("python3*/site-packages"))
    baseline = sum(size_of(site / name) for name in ("pip", "setuptools") if (site / name).exists())
    return seconds, size_of(site) - baseline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extras", default="rl,openspiel,ray,dev")
    parser.add_argument("--keep", type=Path, help="keep the venvs in this folder")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="adjacency-install-"))
    root.mkdir(parents=True, exist_ok=True)
    dist = root / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", dist, REPO],
        check=True,
        capture_output=True,
    )
    wheel = next(dist.glob("adjacency_game-*.whl"))
    print(f"wheel {wheel.name}: {wheel.stat().st_size / 1e6:.2f} MB")
    seconds, size = install(wheel, "", root / "runtime")
    print(f"runtime set: {seconds:6.1f} s, {size / 1e6:7.1f} MB")
    for extra in filter(None, args.extras.split(",")):
        extra_seconds, extra_size = install(wheel, extra, root / extra)
        print(
            f"[{extra}]: {extra_seconds:6.1f} s, {extra_size / 1e6:7.1f} MB in all; "
            f"{(extra_size - size) / 1e6:+7.1f} MB over the runtime set"
        )
    if args.keep is None:
        shutil.rmtree(root)


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
