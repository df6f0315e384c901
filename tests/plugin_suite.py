"""Runs a small suite of its own in a child pytest with one of the suite's plugins, for the
tests of the plugins themselves (tests/hardening/test_skip_guard.py, test_time_guard.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def run_plugin_suite(
    tmp_path: Path,
    plugin: str,
    body: str,
    ci: str | None,
    args: tuple[str, ...] = (),
    **env_extra: str,
) -> subprocess.CompletedProcess[str]:
    """``body`` as ``test_small.py`` under ``tmp_path``, run with only ``plugin`` loaded
    (besides the installed plugins pytest loads itself), pytest's ``args``, ``CI`` set to
    ``ci`` (or unset) and the variables ``env_extra`` added."""
    (tmp_path / "test_small.py").write_text(body)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    env.update(env_extra)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", plugin, "-p", "no:cacheprovider",
         "-q", "--rootdir", str(tmp_path), "-c", os.devnull, *args, str(tmp_path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
