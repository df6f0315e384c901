"""Programs of the compiled languages (C++ and C) through the real league server (HTTP,
its builder, bubblewrap, Debian's g++ and gcc inside the build's sandbox; each kit's way
from ``adjacency league submit`` to rated games is tests/hosting/test_hosted_kits.py's,
with every language's kit): a compile error is refused with the compiler's words naming
the team's file and line (no path of the server's); a C program split into two
translation units and a header (``.h``, a suffix C shares with C++) is built as C and
plays, its header never taken for its entry file though it quotes the handshake; and a
C++ program that tries to write outside its sandbox, at its build (an ``#include`` of a
host file) and in its games, is contained: the include is not found, every write fails,
and the host's files are unchanged."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from adjacency.hosting.intake import take_in
from adjacency.hosting.java_build import BuildFailed
from adjacency.hosting.languages import LANGUAGES, PROGRAMS, Compiled
from adjacency.hosting.sandbox_build import build_compiled
from adjacency.hosting.scripts import choose
from hosted_helpers import (
    ENGINES,
    accepted,
    decided,
    files_zip,
    finished_games,
    guarded_league,
    served,
    verdict_on,
)
from league_helpers import add_member, upload, wait_until
from sandbox_helpers import own_sandboxes

BROKEN = {
    "cpp": (
        "main.cpp",
        '#include <iostream>\nint main() {\n    std::cout << "aepok"\n    return 0;\n}\n',
    ),
    "c": ("main.c", '#include <stdio.h>\nint main(void) {\n    puts("aepok")\n    return 0;\n}\n'),
}
"""An engine of each compiled language missing a semicolon on line 3."""


COMPILED = [name for name in PROGRAMS if isinstance(LANGUAGES[name].build, Compiled)]
"""The compiled languages of the table (a new one needs its broken engine above)."""


@pytest.mark.parametrize("language", COMPILED)
def test_a_compile_error_is_refused_with_the_teams_file_and_line(
    folder: Path, language: str
) -> None:
    name, source = BROKEN[language]
    refused = verdict_on(folder, {f"team/bot/{name}": source})
    assert refused["status"] == "refused"
    detail = refused["detail"]
    assert detail.startswith(f"{LANGUAGES[language].tool} failed:"), detail
    assert f"bot/{name}:3:" in detail and "error:" in detail  # the top folder taken off
    assert str(folder) not in detail and "/box" not in detail and "/tmp/" not in detail


def test_a_compiler_that_exits_0_without_writing_the_program_is_refused_for_it(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled build's contract: the compiler is told where to write the program,
    and a run that writes none there is refused, however it exited."""
    project = folder / "project"
    project.mkdir()
    (project / "main.c").write_text("int main(void) { return 0; } /* aepok */\n")
    silent = replace(LANGUAGES["c"], build=Compiled(lambda units, output: ["/usr/bin/true"]))
    monkeypatch.setitem(LANGUAGES, "c", silent)
    intake = take_in(project)
    program = choose(intake)
    assert program is not None and program.language == "c"
    with pytest.raises(BuildFailed, match=r"^gcc -O2 wrote no program: engine is not in its"):
        build_compiled(intake, program, folder / "build")


AUTHOR_H = """#ifndef AUTHOR_H
#define AUTHOR_H
/* The team's name, which the engine gives after "id author" (before "aepok"). */
const char *author(void);
#endif
"""

AUTHOR_C = '#include "author.h"\n\nconst char *author(void) { return "team one"; }\n'


def split_c_kit() -> str:
    """The C kit with its author taken from a second translation unit through a header."""
    kit = (ENGINES / LANGUAGES["c"].kit).read_text(encoding="utf-8")
    said = 'printf("id name greedy (C)\\nid author the adjacency project\\naepok\\n");'
    assert kit.count(said) == 1 and kit.count("#include <string.h>\n") == 1
    kit = kit.replace(said, 'printf("id name greedy (C)\\nid author %s\\naepok\\n", author());')
    return kit.replace("#include <string.h>\n", '#include <string.h>\n\n#include "author.h"\n')


def test_a_c_program_with_a_header_and_two_units_is_built_as_c_and_plays(folder: Path) -> None:
    files = {
        "team/bot/greedy_engine.c": split_c_kit(),
        "team/bot/author.h": AUTHOR_H,
        "team/bot/author.c": AUTHOR_C,
    }
    version = verdict_on(folder, files)
    assert version["status"] == "accepted", version["detail"]
    assert version["detail"].startswith("c bot/greedy_engine.c: 4 positions answered legally")


ATTACK = """
#include <cstdio>

namespace {
bool wrote_outside() {  // whether any write worked (each must fail in the sandbox)
    const char* targets[] = {"HOSTFILE", "/box/evil", "/evil", "/usr/evil", "/out/evil"};
    bool wrote = false;
    for (const char* path : targets) {
        if (FILE* out = std::fopen(path, "a")) {
            wrote = (std::fputs("x", out) >= 0 && std::fclose(out) == 0) || wrote;
        }
    }
    return wrote;
}
}  // namespace
"""
"""Appends to a host file, its own folder, the root, the system and its build's output."""


def hostile_kit(host_file: Path) -> str:
    """The C++ kit that tries :data:`ATTACK` at every ``go`` and answers X's start square
    (occupied: an illegal answer) where a write worked."""
    kit = (ENGINES / "cpp" / "main.cpp").read_text(encoding="utf-8")
    chosen = "pending = choose(board);"
    assert kit.count(chosen) == 1 and kit.count("int main()") == 1
    kit = kit.replace(chosen, 'pending = wrote_outside() ? Choice{"a1", 0} : choose(board);')
    return kit.replace("int main()", ATTACK.replace("HOSTFILE", str(host_file)) + "int main()")


INCLUDER = '#include "HOSTFILE"\nint main() { return 0; } // aepok\n'
"""A C++ engine whose build includes a host file (readable by anyone on the host)."""


def test_a_cpp_program_writing_outside_its_sandbox_is_contained(folder: Path) -> None:
    league, host_file, digest = guarded_league(folder)
    before = digest()
    token = add_member(league, "team1")
    includer = INCLUDER.replace("HOSTFILE", str(host_file))
    with served(league) as (url, _):
        assert upload(url, files_zip({"main.cpp": includer}), token).status == 201
        refused = decided(url, token, 1)
        assert refused["status"] == "refused"
        assert "main.cpp:1:" in refused["detail"], refused["detail"]
        assert "No such file or directory" in refused["detail"], refused["detail"]
        hostile = hostile_kit(host_file)
        assert upload(url, files_zip({"main.cpp": hostile}), token).status == 201
        accepted(url, token)  # every write failed in the check, or it would answer a1
        (game, *_) = finished_games(league, "team1", 1)
        assert game.termination == "normal", game.detail  # no write worked in its games
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
    assert digest() == before
    assert host_file.read_text() == "the host's own file\n"
