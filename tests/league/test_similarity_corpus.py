"""The similarity corpus filled from earlier years through the command line
(``adjacency league corpus``: a folder of zips, an earlier league file), then compared
with the class through the real server's report; refusals change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from cli_helpers import run
from league_helpers import (
    ADMIN,
    add_member,
    keep,
    make_league,
    project,
    request,
    thread_server,
    upload,
)
from similarity_class import course_class, template


def test_earlier_years_are_imported_and_compared_with_the_class(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    teams = course_class()
    db, earlier = tmp_path / "league.db", tmp_path / "2024.db"
    make_league(earlier, base=60.0, increment=0.0)
    add_member(earlier, "epsilon")
    keep(earlier, "epsilon", project(teams["epsilon"]))  # zeta copied from it
    folder = tmp_path / "2025"
    folder.mkdir()
    (folder / "alpha.zip").write_bytes(project(teams["alpha"]))  # delta copied from it
    (folder / "eta.zip").write_bytes(project(teams["eta"]))
    make_league(db, base=60.0, increment=0.0)
    now = {name: teams[name] for name in ("beta", "delta", "zeta")}
    for name, files in now.items():
        add_member(db, name)
        keep(db, name, project(files))
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, list(now))

    status, out, _ = run(capsys, "league", "corpus", "--db", str(db), "--label", "2025",
                         "--zips", str(folder))  # fmt: skip
    assert status == 0 and "kept 2025/alpha" in out and "2 earlier projects" in out
    status, out, _ = run(capsys, "league", "corpus", "--db", str(db), "--label", "2024",
                         "--league", str(earlier))  # fmt: skip
    assert status == 0 and "kept 2024/epsilon" in out
    # a label imported already, a label of other characters, a missing folder: refused
    for argv, said in (
        (["--label", "2025", "--zips", str(folder)], "2025/alpha already"),
        (["--label", "../x", "--zips", str(folder)], "label"),
        (["--label", "2023", "--zips", str(tmp_path / "none")], "not a folder"),
    ):
        status, _, err = run(capsys, "league", "corpus", "--db", str(db), *argv)
        assert status == 2 and said in err and "Traceback" not in err, err
    with LeagueStore(db) as store:
        assert sorted(store.digests.entries("earlier")) == [
            "2024/epsilon",
            "2025/alpha",
            "2025/eta",
        ]

    report = "/api/league/admin/events/cup/similarity"
    with thread_server(db, house_games=False) as url:
        # an earlier project named as the base: left out by its source, not compared
        based = request(url + report + "?template=2025/eta", token=ADMIN).body
        assert based["template"] == "2025/eta" and based["majority"] is False
        assert based["corpus"] == ["2024/epsilon", "2025/alpha"] and based["common"] == []
        missing = request(url + report + "?template=2025/none", token=ADMIN)
        assert missing.status == 404, missing.body
        sent = upload(url, project(template()), ADMIN, "/api/league/admin/similarity/template")
        assert sent.status == 201  # the course's skeleton, once
        body = request(url + report, token=ADMIN).body
    assert body["majority"] is False and body["template"] == "league"
    assert (body["block_tokens"], body["block_lines"]) == (80, 10)
    assert body["corpus"] == ["2024/epsilon", "2025/alpha", "2025/eta"]
    pairs = {(p["a"], p["b"]): p for p in body["pairs"]}
    assert set(pairs) == {("delta", "2025/alpha"), ("zeta", "2024/epsilon")}
    top = pairs["zeta", "2024/epsilon"]["files"][0]
    assert (top["a_file"], top["b_file"]) == (
        "src/core/GameState.java",
        "src/engine/GameState.java",
    )
    assert pairs["delta", "2025/alpha"]["corpus"] is True
