"""Where the sandbox cannot start, the error is one line that names the fix, and nothing
runs: no program is ever started without the sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency import sandbox
from adjacency.sandbox import command_line
from sandbox_helpers import reachable_folder


def test_without_bubblewrap_the_error_names_the_package(tmp_path: Path) -> None:
    missing = str(tmp_path / "bwrap")
    with pytest.raises(sandbox.SandboxUnavailable) as raised:
        sandbox.check(bwrap=missing)
    message = str(raised.value)
    assert "\n" not in message and message.endswith("fix: apt-get install bubblewrap")


def test_without_user_namespaces_the_error_names_the_setting(sandbox_box: Path) -> None:
    """A bubblewrap that fails the way Debian's does where the kernel forbids
    unprivileged user namespaces (its own message, word for word)."""
    refusing = sandbox_box / "bwrap"
    refusing.write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely because the"
        " kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n"
    )
    refusing.chmod(0o755)
    with pytest.raises(sandbox.SandboxUnavailable) as raised:
        sandbox.check(bwrap=str(refusing))
    message = str(raised.value)
    assert "\n" not in message and "non-privileged user namespaces" in message
    assert "kernel.unprivileged_userns_clone=1" in message


def test_a_program_is_refused_not_run_where_the_sandbox_cannot_start(
    tmp_path: Path, sandbox_box: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(command_line, "BWRAP", str(tmp_path / "bwrap"))
    with reachable_folder() as output:
        for start in (
            lambda: sandbox.run(["/bin/touch", "/out/ran"], submission=sandbox_box, output=output),
            lambda: sandbox.SandboxedProcess(
                ["/bin/touch", "/out/ran"], submission=sandbox_box, output=output
            ).start(),
        ):
            with pytest.raises(sandbox.SandboxUnavailable, match="apt-get install bubblewrap"):
                start()
        assert list(output.iterdir()) == []
