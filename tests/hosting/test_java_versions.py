"""Which newer Java a project needs, read from the server's own ``javac`` 17
(:mod:`adjacency.hosting.java_versions`): sources written for a later JDK are compiled
here for real, and each error of a later Java's shape is named with its file, line and
Java; a team's own error is named as nothing of the kind."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from adjacency.hosting.java_versions import needs, newer_java

pytestmark = pytest.mark.jvm

LATER = """\
import java.util.*;
import java.util.concurrent.*;

public class Later {
    static int pick(Object o) {
        return switch (o) { case Integer i -> i; default -> 0; };
    }

    public static void main(String[] args) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            pool.submit(() -> 1);
        }
        List<Integer> moves = new ArrayList<>(List.of(1, 2));
        System.out.println(moves.getFirst() + moves.reversed().size());
        Thread.ofVirtual().start(() -> {});
        System.out.println(Math.clamp(5, 1, 3));
        Deque<Integer> open = new ArrayDeque<>();
        System.out.println(open.getFirst());
    }
}
"""


def javac(tmp_path: Path, name: str, source: str) -> str:
    """What this machine's ``javac`` says of ``source`` (it must refuse it)."""
    (tmp_path / f"{name}.java").write_text(source)
    java = shutil.which("javac")
    assert java is not None
    done = subprocess.run([java, f"{name}.java"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode != 0, done.stdout
    return done.stdout + done.stderr


def test_a_later_javas_features_are_named_with_their_line_and_java(tmp_path: Path) -> None:
    # javac 17 stops at the preview switch before it resolves names: one pass each
    switch = javac(tmp_path, "Later", LATER)
    assert [(n.where, n.java) for n in needs(switch)] == [("Later.java:6", 21)]
    rest = javac(tmp_path, "Later", LATER.replace(
        "switch (o) { case Integer i -> i; default -> 0; }", "0"))  # fmt: skip
    found = needs(rest)
    assert [(n.where, n.java) for n in found] == [
        ("Later.java:10", 19),
        ("Later.java:14", 21),
        ("Later.java:14", 21),
        ("Later.java:15", 21),
        ("Later.java:16", 21),
    ], found
    assert "ExecutorService in try-with-resources" in found[0].feature
    said = newer_java(rest)
    assert said is not None
    assert said.startswith("its sources need Java 21 or newer, and this server builds and runs")
    assert "Later.java:10: an ExecutorService in try-with-resources" in said


def test_a_teams_own_error_is_no_later_java(tmp_path: Path) -> None:
    own = javac(tmp_path, "Own", "public class Own {\n    int x = y;\n    void f() { g(); }\n}\n")
    assert "cannot find symbol" in own
    assert needs(own) == [] and newer_java(own) is None
