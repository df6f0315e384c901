"""Similarity across teams by winnowing: copies disguised by renames, reordering and new
comments are found, projects written apart are not, and the class's skeleton counts for
no pair."""

from __future__ import annotations

import itertools

import pytest

from adjacency.league.fingerprints import GUARANTEE, K, fingerprints, tokens, winnow
from adjacency.league.similarity import compare
from code_projects import CLIMBER, GREEDY, MINIMAX, SKELETON, disguised


def hashes(path: str, text: str) -> set[int]:
    return {mark.hash for mark in fingerprints(path, text)}


def test_tokens_forget_names_literals_comments_and_layout() -> None:
    one = 'int total = 3; // sum\nString s = "a";'
    two = "int   sum=42;/* other */ String t =\n 'b';"
    assert [t.text for t in tokens("A.java", one)] == [t.text for t in tokens("B.java", two)]
    expected = ["int", "N", "=", "0", ";", "N", "N", "=", "S", ";"]
    assert [t.text for t in tokens("A.java", one)] == expected
    first = tokens("A.java", one)[1]
    assert one[first.start : first.end] == "total"  # offsets are the file's own


def test_winnowing_keeps_the_guarantee_and_the_noise_threshold() -> None:
    text = MINIMAX
    stream = tokens("A.java", text)
    prints = winnow(stream)
    # every window of W hashes has a chosen one: no gap of more than W k-grams
    starts = [next(i for i, t in enumerate(stream) if t.start == p.start) for p in prints]
    assert all(b - a <= GUARANTEE - K + 1 for a, b in itertools.pairwise(starts))
    assert winnow(stream[: K - 1]) == []  # shorter than the noise threshold: nothing
    assert len(winnow(stream[:K])) == 1
    with pytest.raises(ValueError, match="k >= 1"):
        winnow(stream, k=0)


def test_a_copy_with_renames_reordering_and_new_comments_is_flagged() -> None:
    copy = disguised(MINIMAX)
    assert "SmartAgent" in copy and "MinimaxBot" not in copy  # the disguise took
    assert copy.index("cloneBoard(Board") < copy.index("opponentOf(char")  # reordered
    report = compare(
        {
            "alpha": {"src/MinimaxBot.java": MINIMAX, "src/Board.java": SKELETON},
            "beta": {"Agent.java": copy, "Board.java": SKELETON},
            "gamma": {"Greedy.java": GREEDY, "Board.java": SKELETON},
            "delta": {"Climber.java": CLIMBER, "Board.java": SKELETON},
        }
    )
    listed = report.listed
    assert [(p.a, p.b) for p in listed] == [("alpha", "beta")]
    pair = listed[0]
    assert pair.a_share > 0.8 and pair.b_share > 0.8, pair
    assert pair.passages, "a listed pair shows its shared passages"
    longest = pair.passages[0]
    assert longest.a_file == "src/MinimaxBot.java" and longest.b_file == "Agent.java"
    assert longest.a_text in MINIMAX and longest.b_text in copy
    assert longest.b_text == "\n".join(copy.splitlines()[longest.b_first - 1 : longest.b_last])
    assert longest.a_last - longest.a_first >= 5  # whole stretches, not single lines
    # the skeleton all four share (found in every project) is no pair's similarity
    assert report.skeleton >= len(hashes("Board.java", SKELETON))
    others = {(p.a, p.b): p.share for p in report.pairs if (p.a, p.b) != ("alpha", "beta")}
    assert all(share < 0.2 for share in others.values()), others


def test_projects_written_apart_are_not_flagged() -> None:
    report = compare({"a": {"M.java": MINIMAX}, "g": {"G.java": GREEDY}, "c": {"C.java": CLIMBER}})
    assert report.listed == []
    assert all(pair.share < 0.2 for pair in report.pairs), report.pairs
    assert all(pair.passages == [] for pair in report.pairs)


def test_a_template_the_teacher_marks_is_left_out_of_two_teams_that_share_only_it() -> None:
    projects = {
        "a": {"Board.java": SKELETON, "G.java": GREEDY},
        "b": {"Board.java": SKELETON, "C.java": CLIMBER},
    }
    # two teams: nothing is common to "most" of them, so the skeleton makes them alike
    assert compare(projects).listed != []
    marked = compare(projects, template={"Board.java": SKELETON})
    assert marked.listed == [] and marked.skeleton >= len(hashes("Board.java", SKELETON))


def test_a_threshold_outside_a_share_is_refused() -> None:
    with pytest.raises(ValueError, match="threshold"):
        compare({}, threshold=0)
