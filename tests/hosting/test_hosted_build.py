"""A submission built, checked and played in the sandbox (adjacency.hosting), through the
real bubblewrap, javac and JVM: the course project as a team has it is built unedited and
accepted; a project whose bot needs Java 19 is built by ecj and checked on the newer
runtime, and refused naming the feature where the server has none; a project that does
not compile is refused with javac's own words; bots that loop, answer illegally or crash
are refused with the position they failed on; and where no sandbox can start, nothing is
built."""

from __future__ import annotations

import contextlib
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjacency.hosting.check import check_bot, check_positions
from adjacency.hosting.java_build import BuildFailed
from adjacency.hosting.kinds import WINDOWS_ONLY, build_submission
from adjacency.hosting.newer_jdk import JAVA_ARG, NEWER_JAVA_ENV, newer_jdk
from adjacency.hosting.player import hosted_bot
from adjacency.hosting.sandbox_build import HostedBuild
from adjacency.sandbox import SandboxUnavailable
from sandbox_helpers import reachable_folder

pytestmark = pytest.mark.jvm

REPO = Path(__file__).resolve().parents[2]
COURSE_PROJECT = REPO / "examples" / "engines" / "java" / "course-project"

OTHER_FILES = {
    "javafx-sdk-17/lib/javafx.controls.jar": b"PK\x03\x04 never read",
    "javafx-sdk-17/bin/glass.dll": b"MZ never read",
    "Laporan.pdf": b"%PDF never read",
}


def project_zip(sources: dict[str, str], top: str = "tubes-main/") -> bytes:
    """A team's project as GitHub's Download ZIP gives it: a top folder, the sources and
    the JavaFX SDK's binaries, a report."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in sources.items():
            archive.writestr(top + name, text)
        for name, data in OTHER_FILES.items():
            archive.writestr(top + name, data)
    return buffer.getvalue()


def course_sources() -> dict[str, str]:
    return {
        f"src/{path.name}": path.read_text(encoding="utf-8")
        for path in sorted((COURSE_PROJECT / "src").glob("*.java"))
    }


@pytest.fixture
def folder(sandbox_box: Path) -> Iterator[Path]:
    """A build folder the sandbox's users can reach (after checking the sandbox starts)."""
    with reachable_folder("adjacency-hosting-test-") as made:
        yield made / "build-1"


def accepted_by_the_check(built: HostedBuild) -> None:
    """The built bot passes the league's check on a 6x6 board, 2 s a move, run as its
    kind runs it."""
    verdict = check_bot(
        lambda: hosted_bot(built.folder, built.bot, built.args, kind=built.kind),
        rows=6,
        cols=6,
        rounds=6,
        seconds=2.0,
        kind=built.kind,
    )
    assert verdict.accepted, verdict.detail
    assert "4 positions answered legally" in verdict.detail


def test_the_course_project_builds_unedited_and_passes_the_check(folder: Path) -> None:
    built = build_submission(project_zip(course_sources()), folder, windows=False)
    assert (built.kind, built.bot, built.args) == ("java", "Bot", [])
    assert "tubes-main/javafx-sdk-17/bin/glass.dll" in built.left_out
    accepted_by_the_check(built)


JAVA_19_POOL = (
    "try (java.util.concurrent.ExecutorService pool ="
    " java.util.concurrent.Executors.newSingleThreadExecutor()) {"
    " pool.submit(() -> buttons.length); }"
)
"""What a bot written on a student's JDK 19+ does: an ``ExecutorService`` closed by
try-with-resources (``AutoCloseable`` from Java 19), which ``javac`` 17 refuses."""


def test_a_bot_that_needs_java_19_is_built_and_checked_on_the_newer_java(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the kit's adapter (a league that plays no window): refused with the feature
    named where the server has no newer Java, else built by ``ecj`` for it, its Java
    recorded before its arguments, and checked on that runtime in the sandbox (its
    classes and ``ExecutorService.close`` are Java 19's: Java 17 runs neither)."""
    jdk = newer_jdk()
    assert jdk is not None, "the newer Java: pip install -e '.[newjava]' and apt-get install ecj"
    sources = course_sources()
    head = "public int[] move(Button[][] buttons, int roundsLeft, boolean isX) {"
    assert head in sources["src/Bot.java"]
    sources["src/Bot.java"] = sources["src/Bot.java"].replace(head, f"{head}\n{JAVA_19_POOL}")
    project = project_zip(sources)
    with monkeypatch.context() as alone:  # the server's Java 17 alone
        alone.setenv(NEWER_JAVA_ENV, str(folder.parent / "no-newer-java"))
        with pytest.raises(BuildFailed) as refused:
            build_submission(project, folder.parent / "alone", windows=False)
    told = str(refused.value)
    assert (
        "its sources need Java 19 or newer, and this server builds and runs them with "
        "Java 17: Bot.java:" in told
    ), told
    assert ": an ExecutorService in try-with-resources (AutoCloseable from Java 19)." in told
    assert "javac failed:" in told and "ecj" not in told
    built = build_submission(project, folder, windows=False)
    assert (built.kind, built.bot, built.args) == ("java", "Bot", [f"{JAVA_ARG}{jdk.java}"])
    assert built.label == f"bot Bot on Java {jdk.java}"
    accepted_by_the_check(built)


def test_a_project_that_does_not_compile_is_refused_with_javacs_words(folder: Path) -> None:
    sources = course_sources()
    sources["src/Bot.java"] = sources["src/Bot.java"].replace("int empty = 0;", "int empty = 0")
    with pytest.raises(BuildFailed) as refused:
        build_submission(project_zip(sources), folder, windows=False)
    message = str(refused.value)
    assert message.startswith(WINDOWS_ONLY), message  # a league that plays no window
    assert "javac failed:" in message and "Bot.java" in message
    assert "';' expected" in message


BROKEN_MOVES = {
    "loops": "while (true) { Math.sqrt(buttons.length); }",
    "illegal": "return new int[] {buttons.length - 1, 0};",  # X's start square: occupied
    "crashes": 'throw new IllegalStateException("the team\'s bug");',
}


@pytest.mark.parametrize("kind", sorted(BROKEN_MOVES))
def test_a_bot_that_loops_answers_illegally_or_crashes_is_refused_with_the_position(
    folder: Path, kind: str
) -> None:
    source = (
        "import javafx.scene.control.Button;\n"
        "public class Bot {\n"
        "    public int[] move(Button[][] buttons, int roundsLeft, boolean isX) {\n"
        f"        {BROKEN_MOVES[kind]}\n"
        "    }\n"
        "}\n"
    )
    built = build_submission(project_zip({"src/Bot.java": source}), folder, windows=True)
    verdict = check_bot(
        lambda: hosted_bot(built.folder, built.bot, built.args),
        rows=6,
        cols=6,
        rounds=6,
        seconds=1.0,
        kind=built.kind,
    )
    assert not verdict.accepted
    first = check_positions(6, 6, 6)[0]
    assert verdict.detail.startswith(f"position 1 of 4 ({first.fen()}, X to move): "), verdict
    # A loop is late: its CPU past its clock and the grace, or its own wall time past them
    # (whichever the machine's load lets it reach first).
    expected = {
        "loops": ("used more than its 1 s of cpu", "of wall time of its own, more than its 1.50 s"),
        "illegal": ("your bot chose a1, which is occupied",),
        "crashes": ("exit",),
    }[kind]
    assert any(words in verdict.detail.lower() for words in expected), verdict.detail


def test_the_checked_positions_cover_both_colours_and_the_end() -> None:
    positions = check_positions(8, 8, 28)
    assert {p.turn for p in positions} == {"x", "o"}
    assert positions[0].plies_left == 56 and positions[-1].plies_left == 2
    assert check_positions(8, 8, 28) == positions  # the same for every team


def test_nothing_is_built_where_the_sandbox_cannot_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, sandbox_box: Path
) -> None:
    """Not even a compile the build cache keeps for the same files is copied."""
    import adjacency.sandbox.available as available

    project = project_zip(course_sources())
    cache = tmp_path / "cache"
    with contextlib.suppress(BuildFailed):  # its window is refused; its compile is kept
        build_submission(project, sandbox_box / "kept", windows=True, cache=cache)
    real = available.check
    missing = str(tmp_path / "no-bwrap")
    monkeypatch.setattr(available, "check", lambda: real(bwrap=missing))
    with pytest.raises(SandboxUnavailable, match="apt-get install bubblewrap"):
        build_submission(project, tmp_path / "build", windows=True, cache=cache)
    assert not list((tmp_path / "build" / "build").rglob("*.class"))
