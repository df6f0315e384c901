"""C++ submissions through the real league server (HTTP, its builder, bubblewrap,
Debian's g++ inside the build's sandbox; the C++ kit's way from ``adjacency league
submit`` to rated games is tests/hosting/test_hosted_kits.py's, with the other kits): a
compile error is refused with g++'s words naming the team's file and line
(no path of the server's); and a C++ program that tries to write outside its sandbox, at
its build (an ``#include`` of a host file) and in its games, is contained: the include is
not found, every write fails, and the host's files are unchanged."""

from __future__ import annotations

from pathlib import Path

from hosted_helpers import (
    ENGINES,
    accepted,
    decided,
    files_zip,
    finished_games,
    new_league,
    served,
)
from hostile_code import tree_digest
from league_helpers import add_member, upload, wait_until
from sandbox_helpers import own_sandboxes

BROKEN = """#include <iostream>
int main() {
    std::cout << "aepok" << std::endl
    return 0;
}
"""
"""A C++ engine missing a semicolon on line 3."""


def test_a_cpp_compile_error_is_refused_with_the_teams_file_and_line(folder: Path) -> None:
    league = new_league(folder)
    token = add_member(league, "team1")
    with served(league) as (url, _):
        assert upload(url, files_zip({"team/bot/main.cpp": BROKEN}), token).status == 201
        refused = decided(url, token)
    assert refused["status"] == "refused"
    detail = refused["detail"]
    assert detail.startswith("g++ -O2 failed:"), detail
    assert "bot/main.cpp:3:" in detail and "error:" in detail  # the top folder taken off
    assert str(folder) not in detail and "/box" not in detail and "/tmp/" not in detail


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
    league = new_league(folder, base=3.0)
    host_file = folder / "untouchable.txt"
    host_file.write_text("the host's own file\n")
    host_file.chmod(0o666)  # writable by anyone on the host: only the sandbox stops a write
    skip = (league.name, league.name + "-wal", league.name + "-shm", league.name + ".builds")
    before = tree_digest(folder, skip)
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
    assert tree_digest(folder, skip) == before
    assert host_file.read_text() == "the host's own file\n"
