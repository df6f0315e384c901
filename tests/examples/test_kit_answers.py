"""The starter kits' runners answer with the student's own move: a ``go`` piped with its
``quit`` right after (the READMEs' "try it" commands) waits for the bot's answer within
the budget instead of playing a stand-in, and an answer that is not an empty square goes
out as it is, for the controller to judge (an illegal move quoting it). Each kit, with a
bot written in its own language (the Java one compiled beside the kit)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kit_helpers import GUARD, kit_command, tool

pytestmark = pytest.mark.node

TRY_IT = "aep\nposition startpos rows 6 cols 6 rounds 6 moves c3\ngo movetime 1000\nquit\n"
"""The READMEs' "try it" input: the start of 6x6, X played c3, one second for O."""

BOTS = {
    "python": ("last.py", "def move(board, deadline):\n    return {answer}\n"),
    "javascript": ("last.js", "exports.move = (board) => {answer};\n"),
    "java": (
        "LastBot.java",
        "import adjacency.kit.*;\n\n"
        "public class LastBot implements Bot {{\n"
        "    public String move(Board board, Deadline deadline) {{\n"
        "        java.util.List<String> moves = board.legalMoves();\n"
        "        return {answer};\n    }}\n\n"
        "    static String report(Deadline deadline, String reported, String move) {{\n"
        "        deadline.report(reported, 1, 0);\n        return move;\n    }}\n}}\n",
    ),
}
LAST = {
    "python": "board.legal_moves()[-1]",
    "javascript": "board.legalMoves()[board.legalMoves().length - 1]",
    "java": "moves.get(moves.size() - 1)",
}


def student_bot(kit: str, answer: str, java_build: Path, tmp_path: Path) -> list[str]:
    """The command line of ``kit``'s runner playing a bot that answers ``answer`` (an
    expression in the kit's language)."""
    name, template = BOTS[kit]
    source = tmp_path / name
    source.write_text(template.format(answer=answer))
    if kit != "java":
        return kit_command(kit, str(source), java_build)
    built = tmp_path / "build"
    compile_it = [tool("javac"), "-cp", str(java_build), "-d", str(built), str(source)]
    done = subprocess.run(compile_it, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [tool("java"), "-cp", f"{java_build}:{built}", "adjacency.kit.Main", "LastBot"]


def answer_of(command: list[str]) -> tuple[str, str]:
    done = subprocess.run(command, input=TRY_IT, capture_output=True, text=True, timeout=GUARD)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1], done.stderr


@pytest.mark.parametrize("kit", ["python", "javascript", "java"])
def test_go_then_quit_answers_the_students_move_not_a_stand_in(
    kit: str, java_build: Path, tmp_path: Path
) -> None:
    line, _ = answer_of(student_bot(kit, LAST[kit], java_build, tmp_path))
    assert line == "bestmove d6"  # the last empty square (greedy's would be c2)


@pytest.mark.parametrize("kit", ["python", "javascript", "java"])
def test_an_answer_that_is_no_empty_square_goes_out_as_it_is(
    kit: str, java_build: Path, tmp_path: Path
) -> None:
    line, stderr = answer_of(student_bot(kit, '"zz99"', java_build, tmp_path))
    assert line == "bestmove zz99"
    assert "not an empty square" in stderr


def test_the_java_runners_last_info_line_describes_the_move_it_sends(
    java_build: Path, tmp_path: Path
) -> None:
    """A bot that reports one move and returns another: the runner sends the bot's own
    move, and says so in an ``info string`` line right before it."""
    answer = 'report(deadline, "b2", moves.get(moves.size() - 1))'
    command = student_bot("java", answer, java_build, tmp_path)
    done = subprocess.run(command, input=TRY_IT, capture_output=True, text=True, timeout=GUARD)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-3].startswith("info depth 1 score 0 time ") and lines[-3].endswith(" pv b2")
    assert lines[-2:] == [
        "info string the bot answers d6, not the last reported pv b2",
        "bestmove d6",
    ]
