"""A refused program's last output kept in the league file
(:class:`~adjacency.league.store.output_rows.OutputsRepo`): its last 64 KiB of UTF-8,
cut at a character; a team's newest kept, the oldest dropped beyond the bound."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from adjacency.league.league_file import LeagueStore
from adjacency.league.store.output_rows import KEPT, MAX_BYTES, last_bytes
from league_helpers import make_league


@given(st.text(), st.integers(0, 64))
def test_the_last_bytes_are_the_text_s_end_within_the_bound(text: str, limit: int) -> None:
    kept = last_bytes(text, limit)
    assert len(kept.encode("utf-8")) <= limit or kept == text
    assert text.endswith(kept)
    whole = len(text.encode("utf-8")) <= limit
    assert (kept == text) is whole or text == ""


def test_a_team_keeps_its_newest_outputs_each_bounded(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueStore(db, create=False) as store:
        team, _ = store.members.add_member("team1", "bot")
        added = [
            store.submissions.add(team.id, f"zip {k}".encode(), f"v{k}.zip")
            for k in range(KEPT + 2)
        ]
        ids = [submission.id for submission, _ in added]
        assert not store.outputs.keep(team.id, ids[0], "")  # nothing printed: nothing kept
        for k, submission in enumerate(ids):
            assert store.outputs.keep(team.id, submission, f"version {k}\n" + "é" * MAX_BYTES)
        kept = store.outputs.kept(ids)
        assert kept == {(i, 0) for i in ids[2:]}  # the two oldest dropped
        text = store.outputs.output(ids[-1])
        assert text is not None and len(text.encode("utf-8")) <= MAX_BYTES
        assert text.endswith("é") and "version" not in text  # its end, cut at a character
        assert store.outputs.output(ids[0]) is None


def test_a_version_keeps_its_check_s_output_and_each_lost_game_s(tmp_path: Path) -> None:
    """A version's check (game 0) and each game it lost keep an output of their own,
    read back by version and game; the team's bound counts them all."""
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueStore(db, create=False) as store:
        team, _ = store.members.add_member("team1", "bot")
        submission = store.submissions.add(team.id, b"zip", "v.zip")[0].id
        assert store.outputs.keep(team.id, submission, "at its check")
        for game in range(1, KEPT + 1):
            assert store.outputs.keep(team.id, submission, f"in game {game}", game)
        assert store.outputs.output(submission, 7) == "in game 7"
        assert store.outputs.output(submission, KEPT + 1) is None
        kept = store.outputs.kept([submission])
        assert kept == {(submission, game) for game in range(1, KEPT + 1)}  # the oldest out
        assert store.outputs.output(submission) is None
        assert store.outputs.keep(team.id, submission, "again", 7)  # one per game: replaced
        assert store.outputs.output(submission, 7) == "again"
        assert len(store.outputs.kept([submission])) == KEPT
