"""tools/docs_screenshots.py, which makes the README's and docs' screenshots, still works."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from browser_helpers import CHROMIUM, MISSING

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "docs_screenshots.py"

pytestmark = pytest.mark.browser


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_tool_writes_every_screenshot_as_a_real_picture(tmp_path: Path) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.fail(MISSING) if os.environ.get("CI") else pytest.skip(MISSING)
    from importlib import util

    spec = util.spec_from_file_location("docs_screenshots", TOOL)
    assert spec and spec.loader
    tool = util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    run = subprocess.run(
        [sys.executable, str(TOOL), "--out", str(tmp_path / "shots")],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    for name in tool.SHOTS:
        path = tmp_path / "shots" / name
        assert f"wrote {path}" in run.stdout
        width, height = png_size(path)
        assert width == 1280 and height >= 860, (name, width, height)
        assert path.stat().st_size > 10_000, name  # a drawn page, not a blank one


def test_the_tool_says_what_is_missing_without_a_traceback(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(TOOL), "--out"], capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "--out: expected one argument" in run.stderr
