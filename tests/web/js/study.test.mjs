// The study tools' logic (js/study.js) without a browser: the tree of a game's
// variations (the game's moves its line, variations grown from any node, promoted,
// made the main line, deleted; the moves taken back by an undo go with the variations
// under them), the tree as the API's flat moves and as lines, the position's text, the
// settings of a game continued against a bot, and the evaluation bar's words in English
// and Indonesian. The browser keeps the journeys (tests/web/test_browser_study.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, message, pageModules } from "./stage.mjs";

const NAMES = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];

/** The state of game `id` on a 3x3 board after `squares`, X first, nothing converted. */
function game(id, squares) {
  const boards = [".".repeat(9)];
  const moves = squares.map((square, i) => {
    const color = i % 2 ? "o" : "x";
    const cells = [...boards[boards.length - 1]];
    cells[NAMES.indexOf(square)] = color;
    boards.push(cells.join(""));
    return { color, square, flips: [] };
  });
  return { id, rows: 3, cols: 3, moves, boards, turn: squares.length % 2 ? "o" : "x", plies_left: 9 - squares.length };
}

/** A line of positions (the API's analysis line) from `node` through `squares`. */
function line(node, squares) {
  let turn = node.turn;
  return squares.map((move) => {
    const color = turn;
    turn = turn === "x" ? "o" : "x";
    return { move, color, flips: [], cells: node.cells, turn, plies: 0, fen: "" };
  });
}

const squares = (nodes) => nodes.map((n) => n.square);

const { "study.js": study } = await pageModules("en", ["study.js"]);
const { VariationTree, fenOf, continueSettings } = study;

test("a position's text is the core's: ranks from the top, runs as digits, side, plies", () => {
  assert.equal(fenOf(3, 3, ".........", "x", 9), "3/3/3 x 9");
  assert.equal(fenOf(3, 3, "x..o.....", "x", 7), "3/o2/x2 x 7");
  assert.equal(fenOf(2, 3, "x.o.o.", "o", 3), "1o1/x1o o 3");
});

test("the game's moves are the tree's line, each node with its position", () => {
  const tree = new VariationTree();
  tree.sync(game("g", ["a1", "a2"]));
  const first = tree.root.children[0];
  assert.equal(first.square, "a1");
  assert.equal(first.game, true);
  assert.equal(first.fen, "3/3/x2 o 8");
  assert.equal(tree.gameNode(2).square, "a2");
  assert.equal(tree.gameEnd, tree.gameNode(2));
  assert.equal(tree.hasVariations, false);
});

test("a variation grows beside the game's move, is promoted and deleted", () => {
  const tree = new VariationTree();
  tree.sync(game("g", ["a1", "a2"]));
  const end = tree.grow(tree.root, line(tree.root, ["c3", "b2"]));
  assert.deepEqual(squares(tree.root.children), ["a1", "c3"]); // the game's move leads
  assert.equal(end.square, "b2");
  assert.equal(end.ply, 2);
  assert.equal(tree.hasVariations, true);
  assert.equal(tree.grow(tree.root, line(tree.root, ["c3"])), tree.root.children[1]); // not twice
  assert.deepEqual(tree.flat(), [
    { square: "a1", parent: -1 }, { square: "a2", parent: 0 },
    { square: "c3", parent: -1 }, { square: "b2", parent: 2 },
  ]);
  assert.deepEqual(tree.leaves(), [["a1", "a2"], ["c3", "b2"]]);
  assert.equal(tree.promote(end), true);
  assert.deepEqual(squares(tree.root.children), ["c3", "a1"]);
  assert.equal(tree.promote(end), false); // already the first line
  assert.equal(tree.remove(tree.gameNode(1)), null); // the game's own moves stay
  assert.equal(tree.remove(tree.root.children[0]), tree.root);
  assert.deepEqual(squares(tree.root.children), ["a1"]);
  assert.equal(tree.hasVariations, false);
});

test("a nested variation is made the main line at every branching", () => {
  const tree = new VariationTree();
  tree.sync(game("g", ["a1", "a2", "b2"]));
  const nested = tree.grow(tree.gameNode(1), line(tree.gameNode(1), ["c3", "b1"]));
  const deeper = tree.grow(nested.parent, line(nested.parent, ["c1"]));
  assert.equal(tree.promoteToMain(deeper), true);
  assert.deepEqual(tree.leaves()[0], ["a1", "c3", "c1"]);
  assert.equal(tree.promoteToMain(deeper), false);
  // The game goes on: its next move stays behind the promoted line.
  tree.sync(game("g", ["a1", "c3", "c1"]));
  assert.equal(tree.gameNode(3).square, "c1");
});

test("an undo takes back the game's moves with the variations under them", () => {
  const tree = new VariationTree();
  tree.sync(game("g", ["a1", "a2", "b2"]));
  const kept = tree.grow(tree.root, line(tree.root, ["c3"]));
  tree.grow(tree.gameNode(2), line(tree.gameNode(2), ["c2"]));
  tree.sync(game("g", ["a1"]));
  assert.deepEqual(tree.leaves(), [["a1"], ["c3"]]);
  assert.equal(tree.contains(kept), true);
  tree.sync(game("other", ["b2"])); // another game: a tree of its own
  assert.deepEqual(tree.leaves(), [["b2"]]);
});

test("a game continued from a position: the person plays its side to move, from its text", () => {
  const tree = new VariationTree();
  tree.sync(game("g", ["a1"]));
  const node = tree.gameNode(1);
  assert.deepEqual(continueSettings(tree, node, "3"), {
    x: { kind: "bot", level: 3 }, o: { kind: "human" }, rows: 3, cols: 3, start: "3/3/x2 o 8",
  });
});

for (const language of ["en", "id"]) {
  const { "study.js": { renderEvalBar } } = await pageModules(language, ["study.js"]);
  const say = (key, params) => message(language, key, params);

  test(`${language}: the evaluation bar says the value, exact or estimated, and who is ahead`, () => {
    for (const id of ["evalbar", "evalbar-text"]) {
      if (!document.querySelector(`#${id}`)) document.body.appendChild(new FakeElement("div")).id = id;
    }
    const bar = document.querySelector("#evalbar");
    const text = document.querySelector("#evalbar-text");
    renderEvalBar({ value: 3, exact: true });
    const exact = `${say("evalbar.label")}: ${say("evalbar.exact", { value: "=+3" })}`;
    assert.equal(text.textContent, `${exact} · ${say("evalbar.ahead", { side: "X", count: "3" })}`);
    assert.equal(bar.getAttribute("aria-label"), `${exact}, ${say("evalbar.ahead", { side: "X", count: "3" })}`);
    assert.equal(bar.dataset.exact, "true");
    assert.equal(bar.classList.contains("exact"), true);
    renderEvalBar({ value: -2, exact: false, depth: 4 });
    assert.ok(text.textContent.includes(say("evalbar.estimated", { value: "−2", depth: 4 })), text.textContent);
    assert.ok(text.textContent.endsWith(say("evalbar.ahead", { side: "O", count: "2" })), text.textContent);
    assert.equal(bar.classList.contains("exact"), false);
    renderEvalBar({ value: 0, exact: true });
    assert.ok(text.textContent.endsWith(` · ${say("evalbar.even")}`), text.textContent);
    renderEvalBar(null);
    assert.equal(bar.hidden, true);
    assert.equal(text.hidden, true);
  });
}
