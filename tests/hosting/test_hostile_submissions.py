"""Hostile submissions through the real league server: each is uploaded by a team as a
Java course project, and the server's builder builds and checks it in the sandbox
(bubblewrap, a uid of its own, limits). For each: the verdict and its stated reason, no
process of this test's sandboxes left afterwards (other leagues may run sandboxes on the
same machine meanwhile), and no file outside the sandbox changed (the league's folder
and a file of the host).

The attacks (:mod:`hostile_code`) run on every move here, so the check meets them: an
attack that fails in the sandbox leaves an accepted bot, one that stops the bot a refusal
naming how. The attacks that only probe (a connection, a read, a write outside, a
daemon, a C compiler at play, a native library it wrote loaded) run together in one bot,
each in a block of its own that names it on standard error when it worked, so one build
and one check meet them all; the probes that spend the sandbox's resources (its disk,
its memory, its output) each have a bot of their own, so that none is stopped by what
another left. The attacks that stop the bot are checked in a league of a 1 s clock (the
check's seconds a move are the league's where shorter), so a sleeper or a loop is
stopped at that clock's cap, not the course's 5 s.
"""

from __future__ import annotations

import contextlib
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from hosted_helpers import decided
from hostile_code import DAEMON, FAILURES, PROBES, fill, project, together, tree_digest
from league_helpers import add_member, make_league, request, thread_server, upload, wait_until
from sandbox_helpers import host_pids_with, own_sandboxes, reachable_folder

pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("hostile-submissions")]


class League:
    """The served league, its folder, and a host file the attacks aim at."""

    def __init__(self, url: str, db: Path, host_file: Path) -> None:
        self.url, self.db, self.host_file = url, db, host_file
        self.teams = 0

    def fill(self, body: str) -> str:
        return fill(body, self.url, self.db, self.host_file)

    def verdict(self, data: bytes) -> dict[str, Any]:
        """Upload ``data`` as a new team's code; its verdict once the builder gives it."""
        self.teams += 1
        token = add_member(self.db, f"team{self.teams}")
        answer = upload(self.url, data, token)
        assert answer.status == 201, answer
        return decided(self.url, token)

    def refused(self, data: bytes) -> str:
        """Upload ``data`` as a new team's code, refused at once by the intake's rule
        (400, nothing kept): the refusal's words."""
        self.teams += 1
        token = add_member(self.db, f"team{self.teams}")
        answer = upload(self.url, data, token)
        assert answer.status == 400, answer
        listed = request(self.url + "/api/league/submissions", token=token).body
        assert listed["submissions"] == []
        return str(answer.body["detail"])


def verdict_id(store: LeagueStore, verdict: dict[str, Any]) -> int:
    """The stored id of the version a verdict names (by its hash, unique per team)."""
    rows = store.database.query("SELECT id FROM submissions WHERE sha256 = ?", (verdict["sha256"],))
    return int(rows[0][0])


@contextlib.contextmanager
def served_league(folder_prefix: str, host_file: Path, base: float) -> Iterator[League]:
    """A 6x6, 4-round league of ``base`` seconds a game (the check's seconds a move where
    under 5) served with its builder in a folder the sandbox's users can reach."""
    from adjacency.sandbox import check

    check()
    with reachable_folder(folder_prefix) as folder:
        db = folder / "league.db"
        make_league(db, rows=6, cols=6, rounds=4, base=base, increment=0.0)
        # Built and checked only: the accepted probes do not go on to play each other
        # (tests/hosting/test_hostile_games.py plays them in games).
        with thread_server(db, house_games=False, builds=True, hosted_games=False) as url:
            yield League(url, db, host_file)


@pytest.fixture(scope="module")
def host_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file of the host the attacks aim at."""
    made = tmp_path_factory.mktemp("host") / "untouchable.txt"
    made.write_text("the host's own file\n")
    made.chmod(0o666)  # writable by anyone on the host: only the sandbox stops a write
    return made


@pytest.fixture(scope="module")
def league(host_file: Path) -> Iterator[League]:
    """A league whose check gives a move the course's 5 s."""
    with served_league("adjacency-hostile-", host_file, 60.0) as served:
        yield served


@pytest.fixture(scope="module")
def quick_league(host_file: Path) -> Iterator[League]:
    """A league of a 1 s clock, whose check gives a move 1 s: where a bot is stopped."""
    with served_league("adjacency-hostile-quick-", host_file, 1.0) as served:
        yield served


@contextlib.contextmanager
def left_untouched(league: League) -> Iterator[None]:
    """The league's folder (but its database and builds) and the host file are as they
    were, and no sandboxed process this test process started is left, after an attack
    (the sandboxes of other tests and leagues on the machine are theirs to wait for)."""
    folder = league.db.parent
    skip = (league.db.name, league.db.name + "-wal", league.db.name + "-shm")
    before = tree_digest(folder, (*skip, league.db.name + ".builds"))
    host = league.host_file.read_bytes()
    yield
    wait_until(lambda: not own_sandboxes(), 20, "every sandboxed process to end")
    assert tree_digest(folder, (*skip, league.db.name + ".builds")) == before
    assert league.host_file.read_bytes() == host


@pytest.fixture
def untouched(league: League) -> Iterator[None]:
    """:func:`left_untouched` of :func:`league`."""
    with left_untouched(league):
        yield


CONTAINED = (
    "connect to the league's own port",
    "connect to another loopback port",
    "read the league database",
    "read another team's submission",
    "read the system's secrets",
    "write outside its temporary folder",
    "a double-forked daemon",
    "speak the protocol through native code",
)
"""The probes that spend nothing of the sandbox's: run together in one bot."""

SPENDING = sorted(set(PROBES) - set(CONTAINED))
"""The probes that spend the sandbox's disk, memory or output: a bot each."""


def test_the_probes_that_spend_nothing_fail_together_in_one_accepted_bot(
    league: League, untouched: None
) -> None:
    """Every probe of :data:`CONTAINED` on every checked move of one bot: accepted, so
    each failed (one that worked makes its move illegal, and names itself)."""
    verdict = league.verdict(project(league.fill(together(CONTAINED))))
    assert verdict["status"] == "accepted", verdict
    assert not host_pids_with(DAEMON.replace(" ", "\0"))  # no daemon of this test's


@pytest.mark.parametrize("attack", SPENDING)
def test_an_attack_that_fails_in_the_sandbox_leaves_an_accepted_harmless_bot(
    league: League, untouched: None, attack: str
) -> None:
    verdict = league.verdict(project(league.fill(PROBES[attack])))
    assert verdict["status"] == "accepted", verdict["detail"]


@pytest.mark.parametrize("attack", sorted(FAILURES))
def test_an_attack_that_stops_the_bot_is_refused_with_the_reason(
    quick_league: League, attack: str
) -> None:
    body, reasons = FAILURES[attack]
    with left_untouched(quick_league):
        verdict = quick_league.verdict(project(quick_league.fill(body)))
    assert verdict["status"] == "refused", verdict
    assert verdict["detail"].startswith("bot Bot: position 1 of 4"), verdict["detail"]
    assert any(r.lower() in verdict["detail"].lower() for r in reasons), verdict["detail"]


def test_a_native_library_in_the_zip_is_never_loaded(league: League, untouched: None) -> None:
    body = 'try { System.loadLibrary("evil"); worked = true; } catch (Throwable e) {}'
    native = {"lib/libevil.so": b"\x7fELF not a library", "evil.dll": b"MZ", "evil.jar": b"PK"}
    verdict = league.verdict(project(body, native))
    assert verdict["status"] == "accepted", verdict["detail"]
    with LeagueStore(league.db) as store:  # the league keeps the sources alone
        kept = zipfile.ZipFile(io.BytesIO(store.submissions.data(verdict_id(store, verdict))))
        assert not [n for n in kept.namelist() if n.endswith((".so", ".dll", ".jar"))]
    builds = league.db.with_name(league.db.name + ".builds")
    assert not [p for p in builds.rglob("*") if p.suffix in (".so", ".dll", ".jar")]


@pytest.mark.parametrize(
    ("entries", "rule"),
    [
        ({"../../outside/Bot.java": b"class Bot {}"}, "no .. in names"),
        ({"/etc/Bot.java": b"class Bot {}"}, "no absolute names"),
        (
            {"src/Bot.java": b"class Bot {}", "src/Big.java": b"\0" * (64 << 20)},
            "compression ratio",
        ),
    ],
)
def test_a_hostile_zip_is_refused_by_rule_before_anything_is_read(
    league: League, untouched: None, entries: dict[str, bytes], rule: str
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(zipfile.ZipInfo(name), data, zipfile.ZIP_DEFLATED)
    detail = league.refused(buffer.getvalue())
    assert f"rule '{rule}'" in detail, detail


def test_a_link_in_the_zip_is_refused(league: League, untouched: None) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("src/Bot.java", "public class Bot {}")
        link = zipfile.ZipInfo("src/secret.java")
        link.create_system = 3
        link.external_attr = 0o120777 << 16  # a symbolic link
        archive.writestr(link, str(league.db))
    assert "rule 'no links or devices'" in league.refused(buffer.getvalue())
