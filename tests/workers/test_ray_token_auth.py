"""Joining a real Ray cluster that uses token authentication, started with ``ray start``.

The cluster is a head and a second node started as a user would (``ray start --head``,
then ``ray start --address``), each with its own temporary directory and ports, in a
process group of its own, so the test stops exactly the processes it started and never
the session's other clusters. Its token lives in a private ``HOME`` (``~/.ray/auth_token``).
A private runtime's silence about authentication is checked by
``tests/workers/test_ray_executor.py``'s kill -9 test, which starts one anyway.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cli_helpers import run_process
from net_helpers import reserved_port

pytestmark = [pytest.mark.slow, pytest.mark.ray, pytest.mark.xdist_group("ray-token")]

RAY = Path(sys.executable).with_name("ray")
TOKEN = "adjacency-test-token-" + "0123456789abcdef" * 2


def clean_env(home: Path) -> dict[str, str]:
    """This environment without any Ray authentication setting, with ``home`` as HOME."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(home), RAY_USAGE_STATS_ENABLED="0")
    return env


@dataclass
class TokenCluster:
    address: str
    home: Path  # holds .ray/auth_token
    groups: list[int]


def start(args: list[str], env: dict[str, str], groups: list[int]) -> None:
    """``ray start ...`` in a new process group (its daemons inherit it), waited for."""
    proc = subprocess.Popen(
        [str(RAY), "start", *args, "--disable-usage-stats"],
        env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    groups.append(proc.pid)
    out, _ = proc.communicate(timeout=180)
    assert proc.returncode == 0, out


def stop(groups: list[int]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for group in groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, sig)
        time.sleep(2 if sig == signal.SIGTERM else 0)


@pytest.fixture(scope="module")
def cluster() -> Iterator[TokenCluster]:
    # Ray's socket paths must stay under 108 bytes: a short folder, not pytest's deep one.
    root = Path(tempfile.mkdtemp(prefix="rt-", dir="/tmp"))
    home = root / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text(TOKEN)
    env = clean_env(home)
    env["RAY_AUTH_MODE"] = "token"  # as `ray start --head` does by default where a token is saved
    groups: list[int] = []
    try:
        # The head's GCS on a port it picks (Ray's --port=0), read from the address
        # `ray start` writes into its temp folder; the dashboard on a port the test
        # holds (Ray checks it with SO_REUSEADDR, then listens there).
        with reserved_port() as dashboard:
            start(
                ["--head", "--port=0", "--num-cpus=0", "--include-dashboard=false",
                 f"--dashboard-port={dashboard}", f"--temp-dir={root / 'head'}",
                 "--node-ip-address=127.0.0.1"],
                env, groups,
            )  # fmt: skip
            written = (root / "head" / "ray_current_cluster").read_text().strip()
            address = f"127.0.0.1:{written.rsplit(':', 1)[1]}"  # Ray names another address
            start(
                [f"--address={address}", "--num-cpus=1", f"--temp-dir={root / 'node'}",
                 "--node-ip-address=127.0.0.1"],
                env, groups,
            )  # fmt: skip
            yield TokenCluster(address, home, groups)
    finally:
        stop(groups)
        shutil.rmtree(root, ignore_errors=True)


def adjacency(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_process(*args, env=env, cwd=cwd, timeout=300)


def test_a_match_joins_a_token_cluster_with_the_saved_token(
    cluster: TokenCluster, tmp_path: Path
) -> None:
    db = tmp_path / "token.db"
    run = adjacency(
        ["match", "random", "greedy", "--games", "4", "--rounds", "2", "--size", "6x6",
         "--db", str(db), "--executor", "ray", "--ray-address", cluster.address],
        clean_env(cluster.home), tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "InvalidAuthToken" not in run.stderr
    with sqlite3.connect(db) as con:
        (games,) = con.execute("SELECT COUNT(*) FROM games").fetchone()
    assert games == 4


def test_the_token_in_the_environment_is_used_too(cluster: TokenCluster, tmp_path: Path) -> None:
    env = clean_env(tmp_path)  # a HOME without the token file
    env["RAY_AUTH_TOKEN"] = TOKEN
    run = adjacency(
        ["match", "random", "greedy", "--games", "2", "--rounds", "2", "--size", "6x6",
         "--db", str(tmp_path / "env.db"), "--executor", "ray", "--ray-address", cluster.address],
        env, tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr


def test_without_the_token_one_line_names_token_authentication(
    cluster: TokenCluster, tmp_path: Path
) -> None:
    run = adjacency(
        ["match", "random", "greedy", "--games", "2", "--rounds", "2", "--size", "6x6",
         "--db", str(tmp_path / "none.db"), "--executor", "ray", "--ray-address", cluster.address],
        clean_env(tmp_path), tmp_path,
    )  # fmt: skip
    assert run.returncode == 3, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "token authentication" in lines[0]
    assert "RAY_AUTH_TOKEN" in lines[0]
    assert not (tmp_path / "none.db").exists() or _count(tmp_path / "none.db") == 0


def _count(db: Path) -> int:
    with sqlite3.connect(db) as con:
        try:
            (n,) = con.execute("SELECT COUNT(*) FROM games").fetchone()
        except sqlite3.OperationalError:
            return 0
    return int(n)
