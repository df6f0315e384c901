"""The similarity report on planted copies (tests/similarity_planted.py): the base left
out by its source, never by a majority, so a ring of any size is listed; the majority
rule only without a base, saying so and naming its files; a function copied into a
larger file listed by its matched block whatever the files' shares."""

from __future__ import annotations

import pytest

from adjacency.league.grading.fingerprints import K, project_prints
from adjacency.league.grading.matched_blocks import BLOCK_LINES, BLOCK_TOKENS, Read, blocks
from adjacency.league.grading.similarity import THRESHOLD, compare, compare_prints
from code_projects import GREEDY, SKELETON
from similarity_planted import one_function as planted_function
from similarity_planted import ring6, ring_most, single_function, template


def test_a_base_is_left_out_by_its_source_and_a_ring_of_most_of_the_class_is_listed() -> None:
    planted = ring_most()  # one file in 5 of 9 teams
    prints = {team: project_prints(files) for team, files in planted.teams.items()}
    based = compare_prints(prints, planted.teams.__getitem__, project_prints(template()))
    assert {(p.a, p.b) for p in based.listed} == planted.copies
    assert not based.majority and based.common == []
    # no base: most teams' code is the skeleton, and the report says which files held it
    ruled = compare_prints(prints, planted.teams.__getitem__)
    assert ruled.majority and not {(p.a, p.b) for p in ruled.listed} & planted.copies
    common = {f.path: f for f in ruled.common}
    ring = {"src/mc/RolloutBot.java", *(f"src/copied/Rollout{n}.java" for n in range(4))}
    assert ring <= set(common), sorted(common)
    assert common["src/mc/RolloutBot.java"].teams == ["zeta"]
    assert common["src/adjacency/Board.java"].share > 0.9  # the course's board, in all


def test_a_ring_of_half_the_class_is_listed_without_a_base() -> None:
    planted = ring6()  # one file in 3 of 6 teams: half, not most
    report = compare(planted.teams)
    assert report.majority
    assert {(p.a, p.b) for p in report.listed} == planted.copies


def test_a_function_copied_into_a_larger_file_is_listed_by_its_matched_block() -> None:
    planted = planted_function()  # theta's 48 lines in epsilon's game state, 6 renamed
    function, copy = single_function()
    assert len(function.splitlines()) == 48
    prints = {team: project_prints(files) for team, files in planted.teams.items()}
    base = project_prints(template())
    report = compare_prints(prints, planted.teams.__getitem__, base)
    assert {(p.a, p.b) for p in report.listed} == planted.copies == {("epsilon", "theta")}
    (found,) = report.listed[0].files
    files = (found.a_file, found.b_file)
    assert files == ("src/engine/GameState.java", "src/strategy/RegionBot.java")
    assert found.share < THRESHOLD  # listed by its block, not by the files' shares
    longest = found.blocks[0]
    assert longest.tokens >= BLOCK_TOKENS and longest.lines >= BLOCK_LINES
    epsilon = planted.teams["epsilon"][found.a_file]
    theta = planted.teams["theta"][found.b_file]
    lines = epsilon.splitlines()
    assert longest.a_text == "\n".join(lines[longest.a_first - 1 : longest.a_last])
    assert longest.a_text in copy and longest.b_text in function  # inside the function
    assert longest.b_text == "\n".join(theta.splitlines()[longest.b_first - 1 : longest.b_last])
    # the shares alone miss it
    shares_only = compare_prints(prints, planted.teams.__getitem__, base, block_tokens=10**6)
    assert shares_only.listed == []


def test_a_block_leaves_the_base_out() -> None:
    a = Read.of("A.java", SKELETON + GREEDY)
    b = Read.of("B.java", SKELETON)
    a_prints = project_prints({"A.java": SKELETON + GREEDY})["A.java"]
    b_prints = project_prints({"B.java": SKELETON})["B.java"]
    (whole,) = blocks(a, a_prints, b, b_prints, set())
    assert whole.b_first == 1 and whole.b_last >= len(SKELETON.splitlines()) - 1
    base = {mark.hash for mark in b_prints}
    assert blocks(a, a_prints, b, b_prints, base) == []


def test_a_block_rule_outside_its_range_is_refused() -> None:
    with pytest.raises(ValueError, match=f"{K} tokens or more"):
        compare({}, block_tokens=K - 1)
    with pytest.raises(ValueError, match="1 line or more"):
        compare({}, block_lines=0)
