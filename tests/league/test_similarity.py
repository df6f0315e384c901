"""Similarity across teams by winnowing: copies disguised by renames, reordering and new
comments are found, projects written apart are not, and the class's skeleton counts for
no pair."""

from __future__ import annotations

import itertools

import pytest

from adjacency.league.grading.fingerprints import (
    GUARANTEE,
    K,
    fingerprints,
    pack,
    project_prints,
    tokens,
    unpack,
    winnow,
)
from adjacency.league.grading.similarity import LEAST_SHARED, THRESHOLD, compare
from code_projects import CLIMBER, GREEDY, MINIMAX, SKELETON, disguised
from similarity_class import PLANTED, STATE, course_class, planted_state, template


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
    assert [(f.a_file, f.b_file) for f in pair.files] == [("src/MinimaxBot.java", "Agent.java")]
    assert pair.files[0].passages, "a listed file pair shows its shared passages"
    longest = pair.files[0].passages[0]
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
    assert all(pair.files == [] for pair in report.pairs)


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


def test_the_planted_copies_are_the_top_file_pairs_and_unrelated_teams_are_not_listed() -> None:
    """The default threshold and floor, on course-shaped projects: (b) a whole minimax
    bot disguised inside another project, (c) a 183-line file copied with two lines
    changed; nothing else of seven teams written apart is listed."""
    assert len(STATE.splitlines()) > 180 and len(planted_state().splitlines()) == 183
    for skeleton in (None, template()):  # common to most teams, or the league's template
        report = compare(course_class(), skeleton)
        listed = report.listed
        assert {(p.a, p.b) for p in listed} == PLANTED, [(p.a, p.b, p.share) for p in listed]
        tops = {(p.a, p.b): p.files[0] for p in listed}
        minimax = tops["alpha", "delta"]
        assert (minimax.a_file, minimax.b_file) == (
            "src/adjacency/MinimaxBot.java",
            "src/ai/SmartAgent.java",
        )
        state = tops["epsilon", "zeta"]
        assert (state.a_file, state.b_file) == (
            "src/engine/GameState.java",
            "src/core/GameState.java",
        )
        for found in (minimax, state):
            assert found.share >= 0.85 and found.shared >= LEAST_SHARED, found
        # the project pair's own figure beside: a bot is a fraction of its project
        pair = next(p for p in listed if (p.a, p.b) == ("alpha", "delta"))
        assert pair.b_share < 0.5 <= minimax.b_share
        # unrelated pairs: nothing listed, and far below the threshold where they share
        # enough fingerprints to be counted at all
        others = [p for p in report.pairs if (p.a, p.b) not in PLANTED]
        assert all(p.files == [] and p.best < THRESHOLD for p in others), others


def test_passages_are_merged_and_point_into_the_files_that_share_the_most() -> None:
    report = compare(course_class(), template())
    pair = next(p for p in report.listed if (p.a, p.b) == ("epsilon", "zeta"))
    # epsilon's evaluator reuses a part of its game state: no file pair of its is above
    assert [f.a_file for f in pair.files] == ["src/engine/GameState.java"]
    passages = pair.files[0].passages
    assert 1 <= len(passages) <= 3, [(p.a_first, p.a_last, p.b_first, p.b_last) for p in passages]
    for one, two in itertools.combinations(passages, 2):  # none overlaps another on both sides
        a_apart = one.a_last < two.a_first or two.a_last < one.a_first
        b_apart = one.b_last < two.b_first or two.b_last < one.b_first
        assert a_apart or b_apart, (one, two)
    assert passages[0].a_last - passages[0].a_first > 100  # one long stretch, two lines changed


def test_a_corpus_is_compared_with_the_class_never_with_itself() -> None:
    classes = course_class()
    earlier = {"2025/one": classes["alpha"], "2025/two": classes["alpha"]}
    now = {name: classes[name] for name in ("beta", "delta", "eta")}
    report = compare(now, template(), corpus=earlier)
    assert report.corpus == ["2025/one", "2025/two"]
    assert {(p.a, p.b) for p in report.listed} == {("delta", "2025/one"), ("delta", "2025/two")}
    assert all(p.a in now for p in report.pairs)  # the corpus' own pair is never compared
    with pytest.raises(ValueError, match="team's name"):
        compare(now, corpus={"beta": classes["beta"]})


def test_stored_prints_read_back_as_made_and_garbage_is_refused() -> None:
    prints = project_prints({"A.java": MINIMAX, "B.java": GREEDY, "Tiny.java": "int a;"})
    assert set(prints) == {"A.java", "B.java"}  # a file with no print is left out
    assert unpack(pack(prints)) == prints
    with pytest.raises(ValueError, match="cannot be read"):
        unpack(b"not zlib")
