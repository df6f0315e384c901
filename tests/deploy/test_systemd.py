"""The systemd units of deploy/: verified by ``systemd-analyze verify``, their command
lines read by the real parser, and the nightly backup's command run for real.

``systemd-analyze verify`` checks that each unit's executables exist, so the units are
verified with the installed command's path (/opt/adjacency/venv/bin/adjacency, where
docs/deploy.md installs it) replaced by this environment's ``adjacency``; any warning
(an unknown key, a bad value) fails the test. tools/provision-deploy installs systemd
where ``systemd-analyze`` is missing (never skipped).
"""

from __future__ import annotations

import contextlib
import datetime
import os
import resource
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.cli import build_parser
from deploy_helpers import (
    ADMIN_TOKEN_FILE,
    DEPLOY,
    INSTALLED,
    LEAGUE_DB,
    LEAGUE_PORT,
    directive,
    replaced,
)
from league_helpers import make_league
from sandbox_helpers import reachable_folder

UNITS = ("adjacency-league.service", "adjacency-backup.service", "adjacency-backup.timer")


def command() -> str:
    """This environment's ``adjacency`` command (the one beside its Python)."""
    found = Path(sys.executable).parent / "adjacency"
    assert found.exists(), found
    return str(found)


def test_the_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    for name in UNITS:
        text = (DEPLOY / name).read_text()
        if INSTALLED in text:
            text = replaced(text, {INSTALLED: command()})
        (tmp_path / name).write_text(text)
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is missing: install Debian's systemd (tools/provision-deploy)")
    done = subprocess.run(
        [analyze, "verify", *UNITS],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    assert directive(DEPLOY / "adjacency-backup.timer", "OnCalendar") == "*-*-* 03:00:00"


def test_the_league_unit_serves_with_flags_the_cli_has() -> None:
    unit = DEPLOY / "adjacency-league.service"
    argv = shlex.split(directive(unit, "ExecStart"))
    assert argv[0] == INSTALLED
    args = build_parser().parse_args(argv[1:])  # an unknown flag exits here
    assert (args.command, args.league_command) == ("league", "serve")
    assert str(args.db) == LEAGUE_DB and str(args.admin_token_file) == ADMIN_TOKEN_FILE
    assert (args.host, str(args.port)) == ("127.0.0.1", LEAGUE_PORT)
    assert args.forwarded_allow_ips == "127.0.0.1"  # Caddy's X-Forwarded-For is believed
    assert directive(unit, "Restart") == "on-failure"
    assert directive(unit, "User") == "adjacency"
    assert directive(unit, "WorkingDirectory") == str(Path(LEAGUE_DB).parent)
    assert directive(unit, "NoNewPrivileges") == "yes"
    assert directive(unit, "ProtectSystem") == "strict"
    assert str(Path(LEAGUE_DB).parent) in directive(unit, "ReadWritePaths").split()
    for name in ("Caddyfile", "Caddyfile.internal"):
        assert f"reverse_proxy 127.0.0.1:{LEAGUE_PORT}\n" in (DEPLOY / name).read_text()


def test_the_nightly_backup_command_backs_the_league_up(tmp_path: Path) -> None:
    state = tmp_path / "state"
    (state / "backups").mkdir(parents=True)
    make_league(state / "league.db")
    unit = DEPLOY / "adjacency-backup.service"
    start = replaced(
        directive(unit, "ExecStart"),
        {INSTALLED: command(), LEAGUE_DB: str(state / "league.db")},
    )
    start = start.replace("/var/lib/adjacency/backups/", f"{state / 'backups'}/")
    argv = [a.replace("%%", "%") for a in shlex.split(start)]  # systemd's escape of %
    for _ in range(2):  # the second run of the day replaces the first's copy
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Backed up ")
    copy = state / "backups" / f"league-{datetime.date.today():%Y-%m-%d}.db"
    assert [p.name for p in (state / "backups").iterdir()] == [copy.name]
    with contextlib.closing(sqlite3.connect(copy)) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    cleanup = shlex.split(directive(unit, "ExecStartPost"))
    cleanup = [a.replace("/var/lib/adjacency/backups", str(state / "backups")) for a in cleanup]
    assert subprocess.run(cleanup, timeout=60).returncode == 0
    assert copy.exists()  # today's copy is not 14 days old


SANDBOX_NAMESPACES = {
    "--unshare-user": "user",
    "--unshare-pid": "pid",
    "--unshare-net": "net",
    "--unshare-ipc": "ipc",
    "--unshare-uts": "uts",
    "--unshare-cgroup-try": "cgroup",
}
"""bubblewrap's flags and the namespace each makes (systemd's names); every sandbox also
makes a mount namespace (``mnt``)."""

OVER_PROC = ("ProtectKernelTunables", "ProtectKernelLogs")
"""Settings that mount over parts of ``/proc`` (what :func:`over_proc` does by hand)."""


def sandbox_argv(folder: Path) -> list[str]:
    """The sandbox's real command line around ``/bin/true``, on an empty submission."""
    from adjacency.sandbox import command_line
    from adjacency.sandbox.limits import Limits

    folder.chmod(0o755)
    soft, _ = resource.getrlimit(resource.RLIMIT_NPROC)  # a limit it may set, not raise
    processes = 100_000 if soft == resource.RLIM_INFINITY else soft
    return command_line.command(
        ["/bin/true"], submission=folder, limits=Limits(), processes=processes
    )


def test_the_league_unit_lets_the_sandbox_make_its_namespaces_and_keeps_its_hardening(
    tmp_path: Path,
) -> None:
    unit = DEPLOY / "adjacency-league.service"
    made = {SANDBOX_NAMESPACES[a] for a in sandbox_argv(tmp_path) if a in SANDBOX_NAMESPACES}
    assert made == set(SANDBOX_NAMESPACES.values())  # a new flag needs its namespace here
    allowed = set(directive(unit, "RestrictNamespaces").split())
    assert allowed == made | {"mnt"}
    keys = {line.split("=", 1)[0] for line in unit.read_text().splitlines() if "=" in line}
    for key in (*OVER_PROC, "ProtectHostname", "PrivateUsers", "SystemCallFilter"):
        assert key not in keys, f"{key} stops bubblewrap (the unit's comments say why)"
    assert "AF_NETLINK" in directive(unit, "RestrictAddressFamilies").split()
    for key, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "PrivateDevices": "yes",
        "ProtectKernelModules": "yes",
        "ProtectControlGroups": "yes",
        "RestrictSUIDSGID": "yes",
        "CapabilityBoundingSet": "",
        "UMask": "0077",
    }.items():
        assert directive(unit, key) == value, key


def over_proc(setting: str) -> str:
    """The mounts ``setting`` makes over ``/proc``, as shell commands (systemd's own
    ``ProtectKernelTunables`` makes ``/proc/sys`` read-only; ``ProtectKernelLogs`` hides
    ``/proc/kmsg``)."""
    return {
        "": "true",
        "ProtectKernelTunables": "mount --bind /proc/sys /proc/sys"
        " && mount -o remount,bind,ro /proc/sys",
        "ProtectKernelLogs": "mount --bind /dev/null /proc/kmsg",
    }[setting]


@pytest.mark.parametrize("setting", ["", *OVER_PROC])
def test_a_mount_over_proc_stops_the_sandbox_which_is_why_the_unit_has_none(
    tmp_path: Path, setting: str
) -> None:
    """The sandbox's real command line in a mount namespace of its own (as a service's),
    with what each setting the unit leaves out mounts over ``/proc``: the sandbox starts
    without them and cannot with either one."""
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "--propagation", "private",
         "sh", "-c", f'{over_proc(setting)} && exec "$@"', "sh", *sandbox_argv(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    if not setting:
        assert done.returncode == 0, done.stderr
    else:
        assert done.returncode != 0
        assert "Can't mount proc on /newroot/proc: Operation not permitted" in done.stderr


def test_the_units_privileges_let_the_sandbox_start() -> None:
    """The unit's ``NoNewPrivileges=yes`` and empty ``CapabilityBoundingSet=``, set by
    util-linux's ``setpriv`` around the sandbox's real command line, under a user that
    is not root (as the unit's ``User=adjacency``): it starts (bubblewrap needs no
    privilege of the service's, only the namespaces the unit allows)."""
    unit = DEPLOY / "adjacency-league.service"
    assert directive(unit, "NoNewPrivileges") == "yes"
    assert directive(unit, "CapabilityBoundingSet") == ""
    assert directive(unit, "User") != "root"
    user = ["--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    with reachable_folder("adjacency-unit-") as folder:
        done = subprocess.run(
            ["setpriv", *user, "--no-new-privs", "--bounding-set=-all", "--inh-caps=-all",
             *sandbox_argv(folder)],
            capture_output=True, text=True, timeout=60, cwd="/",
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
