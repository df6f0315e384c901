"""The analysis board's study API: lines of the variation tree, the tree written as a
record and read back, a new game from a position, another move judged as the review
judges moves.

Oracles: the rules core (each line replayed with Position.play, the flips of
Position.flips), the core's record reader, and the suite's brute force (:mod:`oracles`)
for the judged moves' exact values.
"""

from __future__ import annotations

import itertools
from typing import Any

from fastapi.testclient import TestClient

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import Node, game_to_text, record_from_text
from adjacency.lab.review import INACCURACY
from oracles import exact_value, move_values
from web_helpers import a_game_with_mistakes

HUMANS = {"x": {"kind": "human"}, "o": {"kind": "human"}}


def test_a_line_answers_each_position_as_the_rules_play_it(client: TestClient) -> None:
    position = Position.start(5, 5, 4)
    moves = []
    walk = position
    for _ in range(5):
        moves.append(walk.legal_moves()[-1])
        walk = walk.play(moves[-1])
    answer = client.post("/api/analysis/line", json={"fen": position.fen(), "moves": moves})
    assert answer.status_code == 200, answer.text
    walk = position
    for move, shown in zip(moves, answer.json()["positions"], strict=True):
        assert (shown["move"], shown["color"]) == (move, walk.turn)
        assert shown["flips"] == walk.flips(move)
        walk = walk.play(move)
        assert (shown["fen"], shown["turn"], shown["plies"]) == (
            walk.fen(),
            walk.turn,
            walk.plies_left,
        )
        assert shown["cells"].count("x") == walk.x.bit_count()


def test_a_line_with_an_illegal_move_is_refused_naming_it(client: TestClient) -> None:
    position = Position.start(4, 4, 2)
    taken = "a1" if position.x & 1 or position.o & 1 else "z9"
    answer = client.post("/api/analysis/line", json={"fen": position.fen(), "moves": [taken]})
    assert answer.status_code == 400
    assert taken in answer.json()["detail"]


def test_a_new_game_starts_from_a_given_position(client: TestClient) -> None:
    position = Position.start(6, 6, 6).play("c3")
    body = {"x": {"kind": "human"}, "o": {"kind": "bot", "level": 1}, "start": position.fen()}
    state = client.post("/api/games", json=body).json()
    assert (state["rows"], state["cols"]) == (6, 6)
    assert state["boards"][0].count("x") == position.x.bit_count()
    assert state["plies_left"] + len(state["moves"]) == position.plies_left
    impossible = client.post("/api/games", json={**body, "start": "6/6/6/6/6/6 x 4"})
    assert impossible.status_code == 400
    assert "pieces" in impossible.json()["detail"]


def _tree(nodes: list[Node]) -> list[dict[str, Any]]:
    return [{"square": n.square, "children": _tree(n.children)} for n in nodes]


def test_a_variation_tree_is_written_as_a_record_and_read_back(client: TestClient) -> None:
    start = Position.start(4, 4, 2)
    state = client.post("/api/games", json={**HUMANS, "rows": 4, "cols": 4, "rounds": 2}).json()
    path = f"/api/games/{state['id']}"
    played = []
    walk = start
    for _ in range(2):
        played.append(walk.legal_moves()[0])
        client.post(f"{path}/moves", json={"square": played[-1]})
        walk = walk.play(played[-1])
    other = start.legal_moves()[1]
    reply = start.play(other).legal_moves()[0]
    tree = [
        Node(played[0], children=[Node(played[1])]),
        Node(other, children=[Node(reply)]),
    ]
    answer = client.post("/api/analysis/record", json={"game": state["id"], "tree": _tree(tree)})
    assert answer.status_code == 200, answer.text
    record = answer.json()["record"]
    assert f"(1. {other} {reply})" in record
    game, read = record_from_text(record)
    assert _tree(read) == _tree(tree) and [m.square for m in game.moves] == played
    back = client.post("/api/analysis/tree", json={"record": record}).json()
    assert back == {"start": start.fen(), "tree": _tree(tree), "nodes": _flat(tree)}
    # A promoted variation is the record's main line, from the game's start.
    promoted = client.post(
        "/api/analysis/record", json={"game": state["id"], "tree": _tree(tree[::-1])}
    ).json()["record"]
    game, read = record_from_text(promoted)
    assert [m.square for m in game.moves] == [other, reply] and _tree(read) == _tree(tree[::-1])
    bad = client.post(
        "/api/analysis/record", json={"start": start.fen(), "tree": [{"square": "z9"}]}
    )
    assert bad.status_code == 400 and "z9" in bad.json()["detail"]
    broken = client.post("/api/analysis/tree", json={"record": record[: record.index(")")]})
    assert broken.status_code == 400 and "not closed" in broken.json()["detail"]


def _flat(nodes: list[Node]) -> list[dict[str, Any]]:
    """The tree as flat moves, each with the index of the move it follows (-1: the
    start), in the record's order of lines (written out recursively here)."""
    flat: list[dict[str, Any]] = []

    def walk(children: list[Node], parent: int) -> None:
        for node in children:
            flat.append({"square": node.square, "parent": parent})
            walk(node.children, len(flat) - 1)

    walk(nodes, -1)
    return flat


def test_a_study_of_a_whole_game_with_a_long_variation_is_written_and_read(
    client: TestClient,
) -> None:
    """An 8x8 game of 56 plies with a 14-ply variation from ply 30: the nested format
    (one JSON level a move) is refused past the request's nesting bound, the flat one
    writes it at any depth, and reading the record back gives the same moves."""
    game = Game(Position.start(8, 8, 28), "Ann", "Bob")
    while not game.position.is_over:
        game.play(
            game.position.legal_moves()[len(game.moves) % 3 % len(game.position.legal_moves())]
        )
    state = client.post("/api/games/import", json={"record": game_to_text(game)}).json()
    line = [Node(m.square) for m in game.moves]
    for parent, child in itertools.pairwise(line):
        parent.children.append(child)
    walk = game.positions[30]
    variation: list[Node] = []
    while len(variation) < 14:
        choices = walk.legal_moves()
        square = (
            choices[-1] if choices[-1] != game.moves[30].square or len(variation) else choices[0]
        )
        variation.append(Node(square))
        walk = walk.play(square)
    for parent, child in itertools.pairwise(variation):
        parent.children.append(child)
    line[29].children.append(variation[0])
    tree = [line[0]]
    nested = client.post("/api/analysis/record", json={"game": state["id"], "tree": _tree(tree)})
    assert nested.status_code == 422 and "nested deeper" in nested.json()["detail"]
    answer = client.post("/api/analysis/record", json={"game": state["id"], "nodes": _flat(tree)})
    assert answer.status_code == 200, answer.text
    record = answer.json()["record"]
    played, read = record_from_text(record)
    assert [m.square for m in played.moves] == [m.square for m in game.moves]
    assert _flat(read) == _flat(tree)
    back = client.post("/api/analysis/tree", json={"record": record})
    assert back.status_code == 200 and back.json()["nodes"] == _flat(tree)
    # a move that follows no move listed before it is refused, naming it
    bad = [{"square": "a1", "parent": -1}, {"square": "b1", "parent": 1}]
    refused = client.post("/api/analysis/record", json={"game": state["id"], "nodes": bad})
    assert refused.status_code == 400 and "move 1 of the tree follows move 1" in refused.text


def test_another_move_is_judged_with_the_exact_values(client: TestClient) -> None:
    start, moves, dropped = a_game_with_mistakes()
    record = Game(start, "Ann", "Bob")
    for move in moves:
        record.play(move)
    state = client.post("/api/games/import", json={"record": game_to_text(record)}).json()
    ply = dropped[0] - 1
    position = record.positions[ply]
    values = move_values(position)
    best = max(values.values())
    for move in (moves[ply], max(values, key=lambda m: values[m])):
        answer = client.post(f"/api/games/{state['id']}/judge", json={"ply": ply, "move": move})
        assert answer.status_code == 200, answer.text
        judged = answer.json()
        sign = 1 if position.turn == "x" else -1
        assert judged["exact"] and judged["depth"] is None
        assert judged["loss"] == best - values[move]
        assert judged["value"] == sign * values[move]
        assert judged["best_value"] == sign * exact_value(position)
        kept = (values[move] > 0) - (values[move] < 0) >= (best > 0) - (best < 0)
        assert judged["accepted"] == (best - values[move] < INACCURACY and kept)
    assert client.post(
        f"/api/games/{state['id']}/judge", json={"ply": 99, "move": "a1"}
    ).status_code in (400, 422)
