"""Python and JavaScript submissions through the real league server (HTTP, its builder,
bubblewrap, Debian's python3 and node): the two starter kits, unedited and zipped as a
team would, go from ``adjacency league submit`` to accepted and to rated games ending on
the board; a minimal protocol program is chosen by its manifest where the project holds
two; a syntax error is refused with the byte-compiler's words, a program needing an npm
package at the check with the reason, a manifest naming a language the league does not
build with its rule; and a hostile Python bot ends as the Java ones do (its probes fail,
its fork bomb loses on time, nothing of it is left)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.league.store import LeagueStore, StoredGame
from adjacency.ratings.glicko import Glicko
from hosted_helpers import REPO, accepted, decided, finished_games, new_league, served
from hostile_code import tree_digest
from league_helpers import add_member, upload, wait_until
from sandbox_helpers import host_pids_with, own_sandboxes

pytestmark = pytest.mark.node

ENGINES = REPO / "examples" / "engines"


def kit_zip(language: str, target: Path) -> Path:
    """The starter kit ``examples/engines/LANGUAGE`` zipped as a team would: every file
    under its folder's name, its README included."""
    kit = ENGINES / language
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(kit.rglob("*")):
            if path.is_file():
                archive.write(path, f"{language}-kit/{path.relative_to(kit).as_posix()}")
    return target


def zipped(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("language", "entry"), [("python", "engine.py"), ("javascript", "engine.js")]
)
def test_a_starter_kit_goes_from_submit_to_rated_games_on_the_board(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str, entry: str
) -> None:
    league = new_league(folder, base=2.0)
    token = add_member(league, "team1")
    token_file = tmp_path / "team1.token"
    token_file.write_text(token)
    project = kit_zip(language, tmp_path / f"{language}-kit.zip")
    with served(league) as (url, _):
        command = ["league", "submit", url, str(project), "--token-file", str(token_file)]
        assert main(command) == 0
        assert "version 1 (a new version)" in capsys.readouterr().out
        version = accepted(url, token)
        assert version["detail"].startswith(f"{language} {entry}: 4 positions answered legally")
        games = finished_games(league, "team1", 2)  # a colour-swapped pair, no client
        with LeagueStore(league, create=False) as store:
            team = store.members.member_named("team1")
            (stored,) = store.submissions.versions(team.id)
            for game in games[:2]:
                assert game.termination == "normal", game.detail  # ended on the board
                played = store.submissions.played(game.id)
                hosted_side = "x" if game.x_id == team.id else "o"
                assert played == ((stored.id, None) if hosted_side == "x" else (None, stored.id))
            assert {g.x_id for g in games[:2]} == {team.id, store.members.member_named("greedy").id}
            after = store.ratings.current_ratings()[team.id]
        assert after.rd < Glicko().rd  # rated
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


def test_a_minimal_protocol_program_is_chosen_by_its_manifest_and_plays(folder: Path) -> None:
    league = new_league(folder, base=2.0)
    token = add_member(league, "team1")
    minimal = (ENGINES / "minimal_engine.py").read_text(encoding="utf-8")
    files = {"bots/minimal_engine.py": minimal, "bots/old_engine.py": minimal}
    manifest = {"language": "python", "main": "minimal_engine.py", "args": []}
    with served(league) as (url, _):
        assert upload(url, zipped(files), token).status == 201
        refused = decided(url, token, 1)
        assert refused["status"] == "refused"
        assert "more than one bot" in refused["detail"]
        assert "bots/minimal_engine.py: speaks the engine protocol" in refused["detail"]
        assert "bots/old_engine.py: speaks the engine protocol" in refused["detail"]
        assert '"language": "python"' in refused["detail"]  # the manifest that would choose
        files["bots/adjacency-bot.json"] = json.dumps(manifest)
        assert upload(url, zipped(files), token).status == 201
        version = accepted(url, token)
        assert version["version"] == 2
        assert version["detail"].startswith("python bots/minimal_engine.py: 4 positions")
        (game, *_) = finished_games(league, "team1", 1)
        assert game.termination == "normal", game.detail


def test_a_python_syntax_error_is_refused_with_the_compilers_words(folder: Path) -> None:
    league = new_league(folder)
    token = add_member(league, "team1")
    broken = "import sys\nprint('aepok')\ndef choose(grid:\n    return None\n"
    with served(league) as (url, _):
        assert upload(url, zipped({"team/engine.py": broken}), token).status == 201
        refused = decided(url, token)
    assert refused["status"] == "refused"
    detail = refused["detail"]
    assert detail.startswith("python3 -m py_compile failed:"), detail
    assert 'File "/box/team/engine.py", line 3' in detail
    assert "SyntaxError: " in detail and "Traceback" not in detail


def test_a_javascript_program_needing_an_npm_package_is_refused_at_the_check(
    folder: Path,
) -> None:
    league = new_league(folder)
    token = add_member(league, "team1")
    program = (
        "const _ = require('lodash');\n"
        "process.stdin.on('data', () => console.log(_.identity('aepok')));\n"
    )
    files = {
        "bot/engine.js": program,
        "bot/package.json": '{"dependencies": {"lodash": "^4.17.21"}}',
        "bot/node_modules/lodash/index.js": "module.exports = { identity: (x) => x };",
    }
    with served(league) as (url, _):
        assert upload(url, zipped(files), token).status == 201
        refused = decided(url, token)
    assert refused["status"] == "refused"
    detail = refused["detail"]
    assert detail.startswith("javascript bot/engine.js: the bot could not start:"), detail
    assert "Cannot find module 'lodash'" in detail
    assert "the league installs no npm or pip package" in detail
    assert "1 of them installed packages, never loaded" in detail


def test_a_manifest_naming_an_unbuilt_language_is_refused_with_its_rule(folder: Path) -> None:
    league = new_league(folder)
    token = add_member(league, "team1")
    files = {"engine.rb": "puts 'aepok'\n", "adjacency-bot.json": '{"language": "ruby"}'}
    with served(league) as (url, _):
        assert upload(url, zipped(files), token).status == 201
        refused = decided(url, token)
    assert refused["status"] == "refused"
    assert refused["detail"] == (
        "adjacency-bot.json: 'language' 'ruby' is not built here: java, javascript, python"
    )


HOSTILE = '''import os, socket, sys

import minimal_engine as engine

PLAIN = engine.choose


def attack():
    """Whether any probe worked (each must fail in the sandbox)."""
    worked = []
    for port in (PORT, 22):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            worked.append(f"connect {port}")
        except OSError:
            pass
    for path in ("DB", "BUILDS", "/etc/shadow"):
        try:
            os.listdir(path) if os.path.isdir(path) else open(path, "rb").read(1)
            worked.append(f"read {path}")
        except OSError:
            pass
    for path in ("/box/evil", "/evil", "/usr/evil", "HOSTFILE"):
        try:
            with open(path, "a") as out:
                out.write("x")
            worked.append(f"write {path}")
        except OSError:
            pass
    return worked


def choose(grid, side):
    pieces = sum(cell != "." for row in grid for cell in row)
    if side == "o" and pieces >= 11:  # O's second move: never in the check
        if MODE == "fork":
            while True:
                try:
                    if os.fork() == 0:
                        os.execv("/bin/sleep", ["sleep", "1003"])
                except OSError:
                    pass
        worked = attack()
        if worked:
            print(worked, file=sys.stderr)
            return "a1", 0  # X's start square: occupied, an illegal answer
    return PLAIN(grid, side)


engine.choose = choose
engine.main()
'''
"""A hostile Python program over the minimal engine: probes (it answers illegally when
one worked) or a fork bomb (``MODE``), on O's second move."""


def test_a_hostile_python_bot_fails_in_its_sandbox_and_leaves_nothing(folder: Path) -> None:
    league = new_league(folder, base=3.0)
    host_file = folder / "untouchable.txt"
    host_file.write_text("the host's own file\n")
    host_file.chmod(0o666)  # writable by anyone on the host: only the sandbox stops a write
    skip = (league.name, league.name + "-wal", league.name + "-shm", league.name + ".builds")
    before = tree_digest(folder, skip)
    tokens = {mode: add_member(league, f"team-{mode}") for mode in ("probe", "fork")}
    minimal = (ENGINES / "minimal_engine.py").read_text(encoding="utf-8")
    manifest = json.dumps({"language": "python", "main": "hostile.py"})
    with served(league) as (url, _):
        builds = league.with_name(league.name + ".builds")
        for mode, token in tokens.items():
            code = (
                HOSTILE.replace("PORT", url.rsplit(":", 1)[1])
                .replace("DB", str(league))
                .replace("BUILDS", str(builds))
                .replace("HOSTFILE", str(host_file))
                .replace("MODE", repr(mode))
            )
            files = {
                "hostile.py": code,
                "minimal_engine.py": minimal,
                "adjacency-bot.json": manifest,
            }
            assert upload(url, zipped(files), token).status == 201
        for token in tokens.values():
            accepted(url, token)  # it behaved in the check
        built = tree_digest(builds)
        for mode in tokens:
            name = f"team-{mode}"

            def as_o(name: str = name) -> StoredGame | None:
                with LeagueStore(league, create=False) as store:
                    member = store.members.member_named(name)
                    done = store.games.games(member_id=member.id, status="finished")
                return next(
                    (g for g in sorted(done, key=lambda g: g.id) if g.o_id == member.id), None
                )

            game: StoredGame = wait_until(as_o, 55, f"a game of {name} as O")
            if mode == "probe":  # every probe failed: it answered legally to the end
                assert game.termination == "normal", (game.termination, game.detail)
            else:
                assert game.result == "x" and game.termination == "time forfeit", game
                assert game.detail.startswith(f"{name} "), game.detail
        assert tree_digest(builds) == built
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
    # its own marker (1003 s: not the Java hostile bots' 1000), gone once its sandbox ended
    wait_until(lambda: not host_pids_with("sleep\x001003"), 20, "no process left")
    assert tree_digest(folder, skip) == before
    assert host_file.read_text() == "the host's own file\n"
