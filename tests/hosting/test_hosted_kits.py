"""Programs named by their entry file through the real league server (HTTP, its builder,
bubblewrap, Debian's python3, node, g++ and gcc): every language's starter kit (the
languages' table's; tests/hosting/test_compiled_programs.py has the compiled ones' other
tests), unedited and zipped as a team would, go from ``adjacency league submit`` to
accepted and to rated games ending on the board; a minimal protocol program is chosen by
its manifest where the project holds two; a syntax error is refused with the
byte-compiler's words, a program needing an npm package at the check with the reason, a
manifest naming a language the league does not build with its rule; and a hostile Python
or JavaScript bot ends as the Java ones do (its probes fail, its fork bomb loses on time,
nothing of it is left), a Python one's memfds never mapped at its memory limit."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import pytest

from adjacency.cli import main
from adjacency.hosting.languages import LANGUAGES, PROGRAMS
from adjacency.league.league_file import LeagueStore, StoredGame
from adjacency.ratings.glicko import Glicko
from adjacency.sandbox import Reason
from hosted_helpers import (
    ENGINES,
    accepted,
    decided,
    files_zip,
    finished_games,
    guarded_league,
    kit_zip,
    new_league,
    served,
    side_ended,
    verdict_on,
)
from hostile_code import tree_digest
from league_helpers import add_member, upload, wait_until
from sandbox_helpers import host_pids_with, own_sandboxes, sightings

pytestmark = pytest.mark.node


@pytest.mark.parametrize(
    ("language", "entry"), [(name, PurePosixPath(LANGUAGES[name].kit).name) for name in PROGRAMS]
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
        assert upload(url, files_zip(files), token).status == 201
        refused = decided(url, token, 1)
        assert refused["status"] == "refused"
        assert "more than one bot" in refused["detail"]
        # The project's one top folder is taken off when it is packed, as a Download ZIP's.
        assert "  minimal_engine.py: speaks the engine protocol" in refused["detail"]
        assert "  old_engine.py: speaks the engine protocol" in refused["detail"]
        assert '"language": "python"' in refused["detail"]  # the manifest that would choose
        files["bots/adjacency-bot.json"] = json.dumps(manifest)
        assert upload(url, files_zip(files), token).status == 201
        version = accepted(url, token)
        assert version["version"] == 2
        assert version["detail"].startswith("python minimal_engine.py: 4 positions")
        (game, *_) = finished_games(league, "team1", 1)
        assert game.termination == "normal", game.detail


def test_a_python_syntax_error_is_refused_with_the_compilers_words(folder: Path) -> None:
    broken = "import sys\nprint('aepok')\ndef choose(grid:\n    return None\n"
    refused = verdict_on(folder, {"team/engine.py": broken})
    assert refused["status"] == "refused"
    detail = refused["detail"]
    assert detail.startswith("python3 -m py_compile failed:"), detail
    assert 'File "/box/engine.py", line 3' in detail  # the top folder taken off
    assert "SyntaxError: " in detail and "Traceback" not in detail


def test_a_javascript_program_needing_an_npm_package_is_refused_at_the_check(
    folder: Path,
) -> None:
    program = (
        "const _ = require('lodash');\n"
        "process.stdin.on('data', () => console.log(_.identity('aepok')));\n"
    )
    files = {
        "bot/engine.js": program,
        "bot/package.json": '{"dependencies": {"lodash": "^4.17.21"}}',
        "bot/node_modules/lodash/index.js": "module.exports = { identity: (x) => x };",
    }
    refused = verdict_on(folder, files)
    assert refused["status"] == "refused"
    detail = refused["detail"]
    assert detail.startswith("javascript engine.js: the bot could not start:"), detail
    assert "Cannot find module 'lodash'" in detail
    assert "the league installs no npm or pip package" in detail


def test_a_manifest_naming_an_unbuilt_language_is_refused_with_its_rule(folder: Path) -> None:
    files = {"engine.rb": "puts 'aepok'\n", "adjacency-bot.json": '{"language": "ruby"}'}
    refused = verdict_on(folder, files)
    assert refused["status"] == "refused"
    assert refused["detail"] == (
        "adjacency-bot.json: 'language' 'ruby' is not built here: " + ", ".join(sorted(LANGUAGES))
    )


HOSTILE = '''import os, socket, sys, time

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
        if MODE == "memfd":  # four processes, each writing 100 memfds it never maps
            os.fork()
            os.fork()
            held = []
            for _ in range(100):
                fd = os.memfd_create("hidden")
                for _ in range(8):  # 8 MiB: its largest file
                    os.write(fd, b"x" * (1 << 20))
                held.append(fd)
            time.sleep(3600)
        worked = attack()
        if worked:
            print(worked, file=sys.stderr)
            return "a1", 0  # X's start square: occupied, an illegal answer
    return PLAIN(grid, side)


engine.choose = choose
engine.main()
'''
"""A hostile Python program over the minimal engine, on O's second move (``MODE``): probes
(it answers illegally when one worked), a fork bomb, or 3.2 GiB of memfds written and
never mapped, which no process's resident memory shows (4 processes x 100 x 8 MiB)."""

HOSTILE_JS = """'use strict';
const fs = require('node:fs');
const net = require('node:net');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { parsePosition } = require('./board');

function connects(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => { socket.destroy(); resolve(false); }, 1000);
    socket.on('connect', () => { clearTimeout(timer); socket.destroy(); resolve(true); });
    socket.on('error', () => { clearTimeout(timer); resolve(false); });
  });
}

async function attack() { // whether any probe worked (each must fail in the sandbox)
  const worked = [];
  for (const port of [PORT, 22]) if (await connects(port)) worked.push(`connect ${port}`);
  for (const path of ['DB', 'BUILDS', '/etc/shadow']) {
    try {
      if (fs.statSync(path).isDirectory()) fs.readdirSync(path);
      else fs.readFileSync(path);
      worked.push(`read ${path}`);
    } catch {}
  }
  for (const path of ['/box/evil', '/evil', '/usr/evil', 'HOSTFILE']) {
    try {
      fs.appendFileSync(path, 'x');
      worked.push(`write ${path}`);
    } catch {}
  }
  return worked;
}

async function choose(board) {
  const pieces = board.grid.flat().filter((cell) => cell !== '.').length;
  if (board.turn === 'o' && pieces >= 11) { // O's second move: never in the check
    if (MODE === 'fork') {
      for (;;) {
        try {
          spawn('/bin/sleep', ['1004'], { stdio: 'ignore' }).on('error', () => {});
        } catch {}
      }
    }
    const worked = await attack();
    if (worked.length) {
      console.error(worked);
      return 'a1'; // X's start square: occupied, an illegal answer
    }
  }
  return board.legalMoves()[0];
}

let board = parsePosition(['startpos']);
async function handle(line) {
  const words = line.trim().split(/\\s+/);
  if (words[0] === 'aep') console.log('id name hostile\\nid author a team\\naepok');
  else if (words[0] === 'isready') console.log('readyok');
  else if (words[0] === 'position') board = parsePosition(words.slice(1));
  else if (words[0] === 'go') console.log(`bestmove ${await choose(board)}`);
  else if (words[0] === 'quit') process.exit(0);
}

let done = Promise.resolve();
const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on('line', (line) => { done = done.then(() => handle(line)); });
input.on('close', () => done.then(() => process.exit(0)));
"""
"""The same in JavaScript over the kit's board (``board.js``), its probes through ``net``
and ``fs``, its fork bomb a ``child_process`` spawn loop (``sleep 1004``)."""


def hostile_files(
    language: str, mode: str, url: str, league: Path, host_file: Path
) -> dict[str, str]:
    """The hostile bot's project in ``language`` for ``mode`` (probe, fork, or memfd in
    Python), aimed at the
    league at ``url`` with its file ``league`` and a host file it must not change."""
    builds = league.with_name(league.name + ".builds")
    program = HOSTILE if language == "python" else HOSTILE_JS
    code = (
        program.replace("PORT", url.rsplit(":", 1)[1])
        .replace("DB", str(league))
        .replace("BUILDS", str(builds))
        .replace("HOSTFILE", str(host_file))
        .replace("MODE", repr(mode))
    )
    if language == "python":
        helper = ("minimal_engine.py", (ENGINES / "minimal_engine.py").read_text("utf-8"))
        main_file = "hostile.py"
    else:
        helper = ("board.js", (ENGINES / "javascript" / "board.js").read_text("utf-8"))
        main_file = "hostile.js"
    manifest = json.dumps({"language": language, "main": main_file})
    return {main_file: code, helper[0]: helper[1], "adjacency-bot.json": manifest}


MODES = {"python": ("probe", "fork", "memfd"), "javascript": ("probe", "fork")}
"""The hostile bots each language's test uploads (a team each): memfds in Python alone,
whose standard library creates them."""


@pytest.mark.parametrize(("language", "marker"), [("python", 1003), ("javascript", 1004)])
def test_a_hostile_bot_fails_in_its_sandbox_and_leaves_nothing(
    folder: Path, language: str, marker: int
) -> None:
    """Hostile teams of ``language`` each upload a bot that behaves in the check and
    turns on O's second move: its probes fail (the game ends on the board); its fork
    bomb's sleepers run, in its sandbox, and it loses on time; its memfds (Python), which
    no process maps, are counted by its sandbox's group, so the kernel stops it at its
    limit: it loses the game by its memory, in those words, its sandbox never held more
    than its limit (memory and /tmp together: the most the host lost to it), and nothing
    of it is left while the league plays on. Nothing outside its sandbox changed."""
    league, host_file, digest = guarded_league(folder)
    before = digest()
    tokens = {mode: add_member(league, f"team-{mode}") for mode in MODES[language]}
    sleeper = f"sleep\x00{marker}"  # its own marker (not the Java bots' nor the other kit's)
    with served(league) as (url, app), sightings(sleeper) as seen:
        builds = league.with_name(league.name + ".builds")
        for mode, token in tokens.items():
            files = hostile_files(language, mode, url, league, host_file)
            assert upload(url, files_zip(files), token).status == 201
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
            elif mode == "fork":
                assert game.result == "x" and game.termination == "time forfeit", game
                assert game.detail.startswith(f"{name} "), game.detail
            else:  # its memfds: stopped at its limit, which bounds what the host lost
                limits = LANGUAGES[language].limits
                assert game.result == "x" and game.detail.startswith(f"{name} "), game
                words = f"used more than its memory ({limits.memory_bytes >> 20} MiB)"
                assert words in game.detail, game.detail
                pid, outcome = side_ended(app, game.id, f"{name}'s memfds")
                assert outcome is not None and outcome.reason is Reason.MEMORY, outcome
                assert 0 < outcome.memory_peak <= limits.memory_bytes + limits.tmp_bytes
                assert outcome.leftovers == 0 and pid is not None
        assert tree_digest(builds) == built
        assert seen == {sleeper}  # the fork bomb's sleepers did run, in its sandbox...
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
    # ...and none is left once its sandbox ended
    wait_until(lambda: not host_pids_with(sleeper), 20, "no process left")
    assert digest() == before
    assert host_file.read_text() == "the host's own file\n"
