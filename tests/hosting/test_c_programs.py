"""C submissions through the real league server (HTTP, its builder, bubblewrap, Debian's
gcc inside the build's sandbox; the C kit's way from ``adjacency league submit`` to rated
games is tests/hosting/test_hosted_kits.py's, with every language's kit): a program split
into two translation units and headers (``.h``, a suffix C shares with C++) is built
as C and plays, its header never taken for its entry file though it quotes the
handshake; and a compile error is refused with gcc's words naming the team's file and
line (no path of the server's)."""

from __future__ import annotations

from pathlib import Path

from adjacency.hosting.languages import LANGUAGES
from hosted_helpers import ENGINES, accepted, decided, files_zip, new_league, served
from league_helpers import add_member, upload

KIT = ENGINES / LANGUAGES["c"].kit

AUTHOR_H = """#ifndef AUTHOR_H
#define AUTHOR_H
/* The team's name, which the engine gives after "id author" (before "aepok"). */
const char *author(void);
#endif
"""

AUTHOR_C = '#include "author.h"\n\nconst char *author(void) { return "team one"; }\n'


def split_kit() -> str:
    """The C kit with its author taken from a second translation unit through a header."""
    kit = KIT.read_text(encoding="utf-8")
    said = 'printf("id name greedy (C)\\nid author the adjacency project\\naepok\\n");'
    assert kit.count(said) == 1 and kit.count("#include <string.h>\n") == 1
    kit = kit.replace(said, 'printf("id name greedy (C)\\nid author %s\\naepok\\n", author());')
    return kit.replace("#include <string.h>\n", '#include <string.h>\n\n#include "author.h"\n')


def test_a_c_program_with_headers_and_two_units_is_built_as_c_and_plays(folder: Path) -> None:
    league = new_league(folder)
    token = add_member(league, "team1")
    files = {
        "team/bot/greedy_engine.c": split_kit(),
        "team/bot/author.h": AUTHOR_H,
        "team/bot/author.c": AUTHOR_C,
    }
    with served(league) as (url, _):
        assert upload(url, files_zip(files), token).status == 201
        version = accepted(url, token)
    assert version["detail"].startswith("c bot/greedy_engine.c: 4 positions answered legally")


BROKEN = '#include <stdio.h>\nint main(void) {\n    puts("aepok")\n    return 0;\n}\n'
"""A C engine missing a semicolon on line 3."""


def test_a_c_compile_error_is_refused_with_the_teams_file_and_line(folder: Path) -> None:
    league = new_league(folder)
    token = add_member(league, "team1")
    with served(league) as (url, _):
        assert upload(url, files_zip({"team/bot/main.c": BROKEN}), token).status == 201
        refused = decided(url, token)
    assert refused["status"] == "refused"
    detail = refused["detail"]
    assert detail.startswith("gcc -O2 failed:"), detail
    assert "bot/main.c:3:" in detail and "error:" in detail  # the top folder taken off
    assert str(folder) not in detail and "/box" not in detail and "/tmp/" not in detail
