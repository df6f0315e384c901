"""What a sandboxed program can reach: no network, no host file outside its binds, no
write outside its private /tmp, a bounded /tmp, its own user (real bubblewrap, real
programs: the system's Python inside)."""

from __future__ import annotations

import hashlib
import os
import socket
import stat
from pathlib import Path

import pytest

from adjacency import sandbox
from adjacency.sandbox import identity
from adjacency.sandbox.limits import MIB
from sandbox_helpers import PYTHON, reachable_folder, write_program


def run_python(box: Path, text: str, **kwargs: object) -> sandbox.Outcome:
    program = write_program(box, "program.py", text)
    return sandbox.run([PYTHON, program], submission=box, **kwargs)  # type: ignore[arg-type]


def test_a_program_runs_as_a_user_of_its_own_and_sees_only_its_processes(
    sandbox_box: Path,
) -> None:
    outcome = run_python(
        sandbox_box,
        "import os\n"
        "print(os.getuid(), os.getcwd(), sorted(os.listdir('/')))\n"
        "print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))\n",
    )
    assert outcome.reason is sandbox.Reason.EXITED and outcome.returncode == 0, outcome
    first, second = outcome.stdout.decode().splitlines()
    uid, cwd, top = first.split(" ", 2)
    assert cwd == sandbox.SUBMISSION
    assert top == str(
        sorted(["bin", "box", "dev", "etc", "lib", "lib64", "proc", "sbin", "tmp", "usr"])
    )
    if identity.privileged():
        assert identity.FIRST_UID <= int(uid) < identity.FIRST_UID + identity.SLOTS
    else:
        assert int(uid) == os.getuid()
    # Its pid namespace: bubblewrap's init (1) and the program (2), nothing of the host.
    assert second == "[1, 2]"


def test_no_connection_reaches_a_listening_port_of_the_host(sandbox_box: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        port = listener.getsockname()[1]
        outcome = run_python(
            sandbox_box,
            "import socket\n"
            f"for host in ('127.0.0.1', 'localhost', '::1'):\n"
            "    try:\n"
            f"        socket.create_connection((host, {port}), timeout=5)\n"
            "        print(host, 'connected')\n"
            "    except OSError as exc:\n"
            "        print(host, 'refused', type(exc).__name__)\n",
        )
        assert outcome.returncode == 0, outcome
        lines = outcome.stdout.decode().splitlines()
        assert len(lines) == 3 and all(" refused " in line for line in lines), lines
        # Its attempts are over (it exited): nothing is waiting in the listener's queue.
        listener.setblocking(False)
        try:
            listener.accept()
            raise AssertionError("the sandbox connected to the host's port")
        except BlockingIOError:
            pass


def test_no_host_file_outside_the_binds_can_be_read(sandbox_box: Path) -> None:
    with reachable_folder() as outside:
        secret = outside / "secret.txt"
        secret.write_text("the league's secret\n")
        secret.chmod(0o644)  # readable by anyone on the host: hidden only by the sandbox
        here = Path(__file__).resolve()
        targets = [
            str(secret),
            "/etc/shadow",
            "/etc/passwd",
            "/root",
            "/home",
            "/work",
            str(here),
            "/var/lib",
            "/run",
        ]
        outcome = run_python(
            sandbox_box,
            "import sys\n"
            f"for path in {targets!r}:\n"
            "    try:\n"
            "        open(path).read()\n"
            "        print(path, 'READ')\n"
            "    except OSError as exc:\n"
            "        print(path, 'refused', exc.errno)\n",
        )
    lines = outcome.stdout.decode().splitlines()
    assert len(lines) == len(targets), outcome
    assert all(" refused " in line for line in lines), lines


def tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        digest.update(f"{path}:{info.st_mode}:{info.st_size}:{info.st_mtime_ns}".encode())
    return digest.hexdigest()


def test_writes_outside_its_tmp_fail_and_change_nothing(sandbox_box: Path) -> None:
    (sandbox_box / "data.txt").write_text("the submission\n")
    (sandbox_box / "data.txt").chmod(0o644)
    targets = [
        "/box/data.txt",
        "/box/new.txt",
        "/usr/new",
        "/etc/new",
        "/new",
        "/dev/new",
        "/lib/new",
        "/proc/new",
    ]
    program = write_program(
        sandbox_box,
        "program.py",
        f"for path in {targets!r}:\n"
        "    try:\n"
        "        open(path, 'w').write('x')\n"
        "        print(path, 'WRITTEN')\n"
        "    except OSError as exc:\n"
        "        print(path, 'refused', exc.errno)\n"
        "open('/tmp/mine', 'w').write('x')\n"
        "print('/tmp', open('/tmp/mine').read())\n",
    )
    before = tree_digest(sandbox_box)
    outcome = sandbox.run([PYTHON, program], submission=sandbox_box)
    lines = outcome.stdout.decode().splitlines()
    assert lines[-1] == "/tmp x", outcome
    assert all(" refused " in line for line in lines[:-1]), lines
    assert tree_digest(sandbox_box) == before
    assert not any(Path(p).exists() for p in ("/usr/new", "/etc/new", "/new", "/lib/new"))


FILL = """\
import errno, sys
per_file, written = int(sys.argv[1]), 0
for n in range(1000):
    try:
        with open(f"/tmp/fill{n}", "wb") as out:
            for _ in range(per_file // 65536):
                out.write(b"x" * 65536)
                out.flush()
                written += 65536
    except OSError as exc:
        print(errno.errorcode[exc.errno], written)
        break
"""
"""Writes files of ``argv[1]`` bytes into /tmp until a write fails: the error, the bytes."""


def test_filling_the_disk_stops_at_the_size_of_its_tmp(sandbox_box: Path) -> None:
    limits = sandbox.Limits(tmp_bytes=8 * MIB, file_bytes=4 * MIB)
    program = write_program(sandbox_box, "fill.py", FILL)
    # Files of 8 MiB: the first stops at 4 MiB (RLIMIT_FSIZE: EFBIG).
    outcome = sandbox.run([PYTHON, program, str(8 * MIB)], submission=sandbox_box, limits=limits)
    assert outcome.stdout.decode().split() == ["EFBIG", str(4 * MIB)], outcome
    # Files of 1 MiB: all of them stop at the tmpfs's 8 MiB (ENOSPC).
    outcome = sandbox.run([PYTHON, program, str(MIB)], submission=sandbox_box, limits=limits)
    code, written = outcome.stdout.decode().split()
    assert code == "ENOSPC" and 6 * MIB <= int(written) <= 8 * MIB, outcome


WRITES_AND_RUNS = """\
import ctypes, glob, os, shutil, subprocess

shutil.copy("/bin/true", "/tmp/true")
os.chmod("/tmp/true", 0o755)
try:
    subprocess.run(["/tmp/true"], check=True)
    print("exec ran")
except OSError as exc:
    print("exec", type(exc).__name__)
library = sorted(glob.glob("/usr/lib/*/libm.so.6"))[0]
shutil.copy(library, "/tmp/own.so")
try:
    ctypes.CDLL("/tmp/own.so")
    print("load ran")
except OSError:
    print("load refused")
with open("/tmp/move.c", "w") as source:
    source.write("int answer(void) { return 3; }\\n")
made = subprocess.run(
    ["gcc", "-shared", "-fPIC", "/tmp/move.c", "-o", "/tmp/move.so"], capture_output=True
)
print("compiled" if made.returncode == 0 else "no compiler")
"""
"""Writes a program and a native library into /tmp and runs them, then compiles one."""


@pytest.mark.parametrize("priority", list(sandbox.Priority), ids=lambda p: p.value)
def test_nothing_written_in_tmp_runs_and_no_compiler_is_there_at_play(
    sandbox_box: Path, priority: sandbox.Priority
) -> None:
    """A program that writes a program or a native library (its bytes from anywhere: a
    copy here, a JNI library in a JVM's hands) into its /tmp cannot run or load it: the
    tmpfs is noexec. Outside a build (a game, a check) no compiler is there either;
    a build's keeps its compiler, and still runs nothing it wrote."""
    outcome = sandbox.run(
        [PYTHON, write_program(sandbox_box, "runs.py", WRITES_AND_RUNS)],
        submission=sandbox_box,
        priority=priority,
    )
    assert outcome.returncode == 0, outcome.stderr.decode()
    built = "compiled" if priority is sandbox.Priority.BUILD else "no compiler"
    assert outcome.stdout.decode().split("\n")[:3] == [
        "exec PermissionError",
        "load refused",
        built,
    ], outcome.stdout


def test_an_output_folder_is_the_only_host_folder_it_writes(sandbox_box: Path) -> None:
    with reachable_folder() as output:
        outcome = sandbox.run(
            [
                "/bin/sh",
                "-c",
                "echo built > /out/result.txt && ln -s /etc/shadow /out/link"
                " && mkdir /out/sub && ln -s /etc /out/sub/etc && mkfifo /out/sub/pipe"
                " && { ln /usr/bin/env /out/hard 2>/dev/null || echo no hard link; }",
            ],
            submission=sandbox_box,
            output=output,
        )
        assert outcome.returncode == 0 and outcome.stdout == b"no hard link\n", outcome
        assert (output / "result.txt").read_text() == "built\n"
        # A link it made points, on the host, at the host's file: the host reads the
        # folder through regular_files, which leaves links out.
        assert stat.S_ISLNK((output / "link").lstat().st_mode)
        assert sandbox.regular_files(output) == [Path("result.txt")]


def test_a_submission_the_pools_users_cannot_reach_is_refused_with_the_fix(
    tmp_path: Path, sandbox_box: Path
) -> None:
    if not identity.privileged():
        return  # the caller's own user reaches its own folders: nothing to refuse
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    tmp_path.chmod(0o700)
    try:
        sandbox.run(["/bin/true"], submission=hidden)
    except sandbox.SandboxError as exc:
        assert "chmod o+x" in str(exc) and str(tmp_path) in str(exc)
    else:
        raise AssertionError("an unreachable submission was run")
    assert os.listdir(hidden) == []


def test_a_relative_submission_path_is_taken_from_the_callers_folder(
    sandbox_box: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (sandbox_box / "data.txt").write_text("here\n")
    (sandbox_box / "data.txt").chmod(0o644)
    monkeypatch.chdir(sandbox_box.parent)
    outcome = sandbox.run(["/bin/cat", "data.txt"], submission=Path(sandbox_box.name))
    assert outcome.stdout == b"here\n", outcome


X_PROBE = """\
import socket, sys

display = sys.argv[1]
for name, address in (
    ("abstract", "\\0/tmp/.X11-unix/X" + display),
    ("path", "/tmp/.X11-unix/X" + display),
):
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(address)
        print(name, "connected")
    except OSError as exc:
        print(name, type(exc).__name__)
    finally:
        probe.close()
squatter = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:  # listening in the display's place, to take its clients
    squatter.bind("\\0/tmp/.X11-unix/X" + display)
    print("listen bound")
except OSError as exc:
    print("listen", type(exc).__name__)
finally:
    squatter.close()
"""


def test_another_games_x_display_is_out_of_reach(sandbox_box: Path) -> None:
    """A display of another game (an Xvfb on the host, as a driven program's runs in its
    own sandbox) listens on a path socket and on an abstract one. From the host both
    connect (the probe can reach a display) and the display's name cannot be taken; from a
    sandbox neither connects and a listener of the same name binds only in the sandbox's
    own network namespace, where its abstract sockets live, out of every other's reach."""
    import subprocess

    reader, writer = os.pipe()
    host = subprocess.Popen(
        ["/usr/bin/Xvfb", "-displayfd", str(writer), "-nolisten", "tcp"],
        pass_fds=(writer,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    os.close(writer)
    try:
        with os.fdopen(reader) as said:
            display = said.readline().strip()
        assert display.isdigit(), "the host's Xvfb said no display"
        program = write_program(sandbox_box, "probe.py", X_PROBE)
        seen = subprocess.run(
            [PYTHON, str(sandbox_box / "probe.py"), display],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert seen.stdout.split("\n")[:3] == [
            "abstract connected",
            "path connected",
            "listen OSError",
        ], seen.stdout
        outcome = sandbox.run([PYTHON, program, display], submission=sandbox_box)
    finally:
        host.kill()
        host.wait()
    assert outcome.reason is sandbox.Reason.EXITED and outcome.returncode == 0, outcome
    assert outcome.stdout.decode().split("\n")[:3] == [
        "abstract ConnectionRefusedError",
        "path FileNotFoundError",
        "listen bound",
    ], outcome.stdout
