"""A team's file names are never options to a compiler or tool.

The attack: an upload holds a file named ``@./o.cpp`` whose text is ``-wrapper
/bin/sh,w.h``, another named ``@./@./o.cpp``, and a shell script ``w.h``. Named on
``g++``'s command line as they are, the first two are response files (files of options),
and the team's script runs at every compiler step. For every kind the league builds, the
upload is refused at the intake with the rule and the name, before any sandbox starts.
And where a name did slip past the intake, every build's command line names the team's
files as paths from a folder (``./`` or absolute), never as an option.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

from adjacency.hosting import sandbox_build
from adjacency.hosting.intake import Intake, IntakeRefused, take_in
from adjacency.hosting.java_build import BuildFailed
from adjacency.hosting.kinds import build_submission
from adjacency.hosting.languages import operand
from adjacency.hosting.scripts import Program
from adjacency.sandbox import Outcome, Reason
from adjacency.sandbox.limits import Limits
from adjacency.sandbox.process import SandboxedProcess
from hosted_helpers import files_zip

WRAPPER = '#!/bin/sh\ntouch /tmp/attack-ran\nexec "$@"\n'
"""``w.h``: what ``g++ -wrapper /bin/sh,w.h`` would run at each compiler step."""

ATTACK = {
    "@./o.cpp": "-wrapper /bin/sh,w.h\n",
    "@./@./o.cpp": "-wrapper /bin/sh,w.h\n",
    "w.h": WRAPPER,
}
"""The attack's files, beside each kind's own program."""

BOT = "public class Bot {\n    public int[] move() { return new int[] {0, 0}; }\n}\n"
APP = (
    "import javafx.application.Application;\nimport javafx.stage.Stage;\n"
    "public class App extends Application {\n"
    "    public void start(Stage stage) {}\n"
    "    public static void main(String[] args) { launch(args); }\n}\n"
)
ENGINE = "# answers aep with aepok\n"

PROGRAMS: dict[str, dict[str, str]] = {
    "java": {"src/Bot.java": BOT},
    "cpp": {"engine.cpp": f"// {ENGINE}int main() {{ return 0; }}\n"},
    "javafx": {
        "src/App.java": APP,
        "adjacency-bot.json": json.dumps({"language": "javafx"}),
    },
    "python": {"engine.py": ENGINE},
    "javascript": {"engine.js": f"// {ENGINE}"},
}
"""Each kind's program (what makes the upload that kind), the attack put beside it."""


@pytest.mark.parametrize("kind", sorted(PROGRAMS))
def test_the_response_file_attack_is_refused_at_the_intake(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[list[str]] = []

    def no_sandbox(self: SandboxedProcess) -> None:
        started.append(list(self.argv))
        raise AssertionError("a sandbox started for a refused upload")

    monkeypatch.setattr(SandboxedProcess, "start", no_sandbox)
    data = files_zip({**PROGRAMS[kind], **ATTACK})
    with pytest.raises(IntakeRefused) as refused:
        build_submission(data, tmp_path / "v1", windows=True)
    words = str(refused.value)
    assert "rule 'no option-like names'" in words
    assert "'@./o.cpp'" in words or "'@./@./o.cpp'" in words
    assert "rename it" in words
    assert started == []
    built = tmp_path / "v1" / "build"
    assert not built.exists() or not any(p.is_file() for p in built.rglob("*"))


@pytest.mark.parametrize(
    ("name", "part"),
    [("-o.py", "-o.py"), ("src/-x/Bot.java", "-x"), ("@args", None), ("a/@b/c.css", "@b")],
)
def test_a_kept_name_with_an_option_mark_is_refused_in_a_folder_too(
    tmp_path: Path, name: str, part: str | None
) -> None:
    project = tmp_path / "project"
    (project / name).parent.mkdir(parents=True, exist_ok=True)
    (project / name).write_text("x = 1\n")
    (project / "Bot.java").write_text(BOT)
    if part is None:  # not a kept file (no source suffix): left out, never named
        assert name in take_in(project).left_out
        return
    with pytest.raises(IntakeRefused, match=f"rule 'no option-like names'.*'{part}'"):
        take_in(project)


def test_left_out_files_and_installed_packages_may_have_such_names(tmp_path: Path) -> None:
    data = files_zip(
        {
            "engine.py": ENGINE,
            "node_modules/@types/node/index.js": "//",
            "-notes.txt": "notes",
        }
    )
    (tmp_path / "p.zip").write_bytes(data)
    intake = take_in(tmp_path / "p.zip")
    assert sorted(intake.left_out) == ["-notes.txt", "node_modules/@types/node/index.js"]


def test_operand_names_every_file_from_a_folder() -> None:
    assert operand("-x.py") == "./-x.py"
    assert operand("@./o.cpp") == "./@./o.cpp"
    assert operand("/box/engine.py") == "/box/engine.py"
    assert operand("./a.cpp") == "./a.cpp"


SLIPPED = {"-v.py": "python", "-v.js": "javascript", "@o.cpp": "cpp"}
"""Names a build gets only if they slipped past the intake, one per checked or compiled
language."""


@pytest.mark.parametrize("name", sorted(SLIPPED))
def test_a_name_that_slipped_through_is_still_no_option(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    language = SLIPPED[name]
    argvs: list[list[str]] = []

    def capture(argv: list[str], *args: object, **kwargs: object) -> Outcome:
        argvs.append(list(argv))
        return Outcome(Reason.EXITED, 0, 0.0, 0.0, 0, 0, Limits())

    def compile_capture(argv: list[str], *args: object, **kwargs: object) -> None:
        argvs.append(list(argv))

    monkeypatch.setattr(sandbox_build, "run", capture)
    monkeypatch.setattr(sandbox_build, "compile_in_sandbox", compile_capture)
    intake = Intake(sources={name: b"x\n"})
    program = Program(language, name, [])
    build = sandbox_build.build_compiled if language == "cpp" else sandbox_build.build_program
    # The compiler's stand-in writes no program (a refusal then): only its argv matters.
    with contextlib.suppress(BuildFailed):
        build(intake, program, tmp_path / "out")
    [argv] = argvs
    named = [word for word in argv if word.endswith(name)]
    assert named, argv
    assert all(word.startswith(("./", "/")) for word in named), argv
    assert not any(word.startswith(("-", "@")) and word.endswith(name) for word in argv)


def test_javac_names_the_sources_by_absolute_paths_in_its_argument_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argvs: list[list[str]] = []

    def compile_capture(argv: list[str], *args: object, **kwargs: object) -> None:
        argvs.append(list(argv))

    monkeypatch.setattr(sandbox_build, "compile_in_sandbox", compile_capture)
    work = tmp_path / "work"
    work.mkdir()
    (work / "-Bot.java").write_text(BOT)
    sandbox_build.SandboxToolchain().compile([work / "-Bot.java"], tmp_path / "classes", work)
    [argv] = argvs
    assert not any(word.endswith("-Bot.java") for word in argv)
    listing = (work / "sources.txt").read_text().splitlines()
    assert '"/box/-Bot.java"' in listing
    assert all(line.startswith('"/') for line in listing)


def test_the_attack_past_the_intake_runs_nothing_in_the_real_build(sandbox_box: Path) -> None:
    """Were the intake's rule gone, the real build in the sandbox reads ``@./o.cpp`` as a
    source file (``./@./o.cpp``), never as a file of options: the team's script never
    runs, and the build is refused with the compiler's words about that file."""
    script = '#!/bin/sh\necho "ATTACK-RAN" >&2\nexec "$@"\n'
    texts = {**ATTACK, "w.h": script, "engine.cpp": "int main() { return 0; }\n"}
    sources = {name: text.encode() for name, text in texts.items()}
    program = Program("cpp", "engine.cpp", [])
    with pytest.raises(BuildFailed) as failed:
        sandbox_build.build_compiled(Intake(sources=sources), program, sandbox_box / "out")
    words = str(failed.value)
    assert "ATTACK-RAN" not in words
    assert "./@./o.cpp" in words and "./@./@./o.cpp" in words
    assert not (sandbox_box / "out" / "bin" / "engine").exists()
