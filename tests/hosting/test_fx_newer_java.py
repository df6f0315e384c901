"""Programs whose sources need a later Java than the server's 17
(:mod:`adjacency.hosting.newer_jdk`): which Java a build gets, how its Java is kept before
its run arguments and read back, the command and the binds each kind runs it with (unit),
and the course-shaped ``java-19`` JavaFX program built by ``ecj`` for the newer runtime, its
form read and a game played with each colour through its window on that runtime, in the
sandbox. A bot built by the kit's adapter for the newer Java, and the refusal that names
the feature without it: tests/hosting/test_hosted_build.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjacency.hosting.fx_build import BUILD_FILE, FxBuild, build_fx, load_fx
from adjacency.hosting.fx_check import check_driven_program
from adjacency.hosting.fx_kind import look
from adjacency.hosting.fx_run import FX_BINDS, command_line, fx_bot
from adjacency.hosting.java_versions import SERVER_JAVA
from adjacency.hosting.kinds import KINDS
from adjacency.hosting.kinds import command_line as kind_command
from adjacency.hosting.newer_jdk import (
    JAVA_ARG,
    NEWER_JAVA_ENV,
    NEWER_JAVA_PATH,
    NewerJdk,
    jdk_for,
    newer_jdk,
    on_java,
    run_java,
)
from adjacency.sandbox import check
from fx_course_projects import NEEDS_JAVA_19, download_zip
from sandbox_helpers import reachable_folder

JDK = NewerJdk(Path("/opt/jdk"), 25, Path("/usr/share/java/ecj.jar"))

EXECUTOR = """\
src/Bot.java:12: error: incompatible types: try-with-resources not applicable to variable type
        try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
                             ^
    (ExecutorService cannot be converted to AutoCloseable)
1 error
"""

GET_FIRST = """\
Bot.java:7: error: cannot find symbol
        return moves.getFirst();
                    ^
  symbol:   method getFirst()
  location: variable moves of type List<Integer>
1 error
"""

OWN_ERROR = """\
Bot.java:3: error: incompatible types: String cannot be converted to int
        int x = "s";
                ^
1 error
"""


@pytest.mark.parametrize(
    ("output", "jdk", "chosen"),
    [
        (EXECUTOR, JDK, JDK),  # Java 19's feature, a Java 25 runtime: built for it
        (GET_FIRST, JDK, JDK),  # Java 21's library: ecj at 19 against the 25 library
        (EXECUTOR + GET_FIRST, NewerJdk(JDK.home, 20, JDK.ecj), None),  # 21 > 20
        (OWN_ERROR, JDK, None),  # the team's own error: javac's refusal stands
        (OWN_ERROR + EXECUTOR, JDK, JDK),  # a newer try; ecj then tells the own error
        (EXECUTOR, None, None),  # no newer runtime: the refusal stands
    ],
    ids=["java-19", "java-21-library", "too-new", "own-error", "both", "no-runtime"],
)
def test_the_newer_java_only_for_sources_that_need_it_and_it_has(
    output: str, jdk: NewerJdk | None, chosen: NewerJdk | None
) -> None:
    assert jdk_for(output, jdk) == chosen


def test_no_newer_java_without_its_runtime_release_or_a_later_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(NEWER_JAVA_ENV, str(tmp_path / "missing"))
    assert newer_jdk() is None
    home = tmp_path / "runtime"
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "java").write_text("")
    monkeypatch.setenv(NEWER_JAVA_ENV, str(home))
    assert newer_jdk() is None  # no release file: its version is unknown
    (home / "release").write_text(f'JAVA_VERSION="{SERVER_JAVA}.0.2"\n')
    assert newer_jdk() is None  # the server's own Java is no newer one
    (home / "release").write_text('IMPLEMENTOR="x"\nJAVA_VERSION="25.0.2"\n')
    found = newer_jdk()
    assert found is not None and (found.home, found.java) == (home, 25)


@pytest.mark.parametrize(
    ("java", "args", "kept"),
    [
        (SERVER_JAVA, [], []),  # the server's Java: nothing added
        (SERVER_JAVA, ["2"], ["2"]),
        (25, [], [f"{JAVA_ARG}25"]),
        (25, ["2", "x"], [f"{JAVA_ARG}25", "2", "x"]),
        # A team's own argument that looks like the mark is kept behind the Java's.
        (SERVER_JAVA, [f"{JAVA_ARG}25"], [f"{JAVA_ARG}{SERVER_JAVA}", f"{JAVA_ARG}25"]),
        (25, [f"{JAVA_ARG}x"], [f"{JAVA_ARG}25", f"{JAVA_ARG}x"]),
    ],
)
def test_a_builds_java_is_kept_before_its_arguments_and_read_back(
    java: int, args: list[str], kept: list[str]
) -> None:
    assert on_java(java, args) == kept
    assert run_java(kept) == (java, args)


def test_a_java_bot_built_for_the_newer_java_runs_on_it_and_its_sandbox_binds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    newer = kind_command("Bot", [f"{JAVA_ARG}25", "2"], "java")
    assert newer[0] == f"{NEWER_JAVA_PATH}/bin/java" and newer[-2:] == ["Bot", "2"]
    assert kind_command("Bot", ["2"], "java")[0] == "/usr/bin/java"
    home = tmp_path / "runtime"
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "java").write_text("")
    (home / "release").write_text('JAVA_VERSION="25.0.2"\n')
    monkeypatch.setenv(NEWER_JAVA_ENV, str(home))
    assert newer_jdk() is not None, "Debian's ecj: apt-get install ecj"
    assert dict(KINDS["java"].binds) == {NEWER_JAVA_PATH: home}
    assert FX_BINDS[NEWER_JAVA_PATH] == home  # read alone: dict() compiles the driver
    monkeypatch.setenv(NEWER_JAVA_ENV, str(tmp_path / "missing"))  # read at each sandbox
    assert dict(KINDS["java"].binds) == {} and NEWER_JAVA_PATH not in FX_BINDS


def test_a_build_for_the_newer_java_runs_on_it_and_any_other_on_the_servers() -> None:
    assert FxBuild(Path("/b"), "Main", 25).run_args() == [f"{JAVA_ARG}25"]
    assert FxBuild(Path("/b"), "Main").run_args() == []
    newer = " ".join(command_line("Main", [f"{JAVA_ARG}25", "--dry-run"]))
    assert f"exec {NEWER_JAVA_PATH}/bin/java -Djava.library.path=" in newer
    assert JAVA_ARG not in newer
    assert newer.endswith("--fds --dry-run -- Main 3>&1 4<&0 1>&2 0</dev/null"), newer
    server = " ".join(command_line("Main", ["--dry-run"]))
    assert "exec /usr/bin/java " in server and NEWER_JAVA_PATH not in server


@pytest.fixture(scope="module")
def folder(fx_tools: None) -> Iterator[Path]:
    check()  # the sandbox starts here (a failure names the fix)
    with reachable_folder("adjacency-fx-java-") as made:
        yield made


def test_a_program_that_needs_java_19_builds_and_plays_on_the_newer_java(folder: Path) -> None:
    jdk = newer_jdk()
    assert jdk is not None, "the newer Java: pip install -e '.[newjava]' and apt-get install ecj"
    project = download_zip(NEEDS_JAVA_19, folder / "java19.zip", sdk_bytes=1 << 10)
    build = build_fx(project, folder / "build")
    assert build.java == jdk.java
    assert json.loads((build.folder / BUILD_FILE).read_text())["java"] == jdk.java
    assert load_fx(build.folder) == build
    recipe, seen = look(build, folder / "dry", {})
    assert seen.form["controls"], seen.form
    verdict = check_driven_program(lambda: fx_bot(build, recipe), 20.0, rounds=2)
    assert verdict.accepted, verdict.detail
    assert "2 rounds with each colour against greedy" in verdict.detail
