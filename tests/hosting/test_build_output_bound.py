"""A build's class files are bounded in total (the real build in the sandbox, javac):
a few KiB of source whose folded string constants make megabytes of class files is
refused naming the bound, so one build adds a bounded number of bytes to its team's."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from adjacency.hosting import sandbox_build
from adjacency.hosting.java_build import BuildFailed
from adjacency.hosting.kinds import build_submission

pytestmark = pytest.mark.jvm

BOT = """public class Bot {
    public int[] move(javafx.scene.control.Button[][] b, int roundsLeft, boolean isX) {
        for (int i = 0; i < b.length; i++)
            for (int j = 0; j < b[i].length; j++)
                if (b[i][j].getText().isEmpty()) return new int[] {i, j};
        return null;
    }
}
"""


def _folded() -> str:
    """Under 5 KiB of source, 3.2 MB of class file: 100 constants of 32 KiB each."""
    lines = ["class Folded {", '  static final String S0 = "0123456789abcdef0123456789abcdef";']
    lines += [f"  static final String S{i} = S{i - 1} + S{i - 1};" for i in range(1, 11)]
    lines += [f'  static final String F{j} = S10 + "{j}";' for j in range(100)]
    return "\n".join([*lines, "}"]) + "\n"


def test_class_files_past_the_bound_are_refused(
    sandbox_box: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("src/Bot.java", BOT)
        archive.writestr("src/Folded.java", _folded())
    # The test's own bound (absent before the bound existed: then nothing refuses).
    monkeypatch.setattr(sandbox_build, "CLASSES_BYTES", 2 << 20, raising=False)
    with pytest.raises(BuildFailed, match=r"the compiled classes take 3\.\d MiB, more than 2 MiB"):
        build_submission(buffer.getvalue(), sandbox_box / "build-1", windows=True)
