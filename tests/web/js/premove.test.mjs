// The premove (js/premove.js) without a browser, in English and Bahasa Indonesia: only
// a clocked game in play, of which this browser holds the one seat not to move, queues
// a tap on an empty square; the queued square is marked, named and said; any tap or
// Escape cancels it; the opponent's move plays it at once where its square is still
// empty and drops it with a notice where the opponent took it; anything else (another
// game, an undo, the end) drops it quietly. The browser keeps the journeys
// (tests/web/test_browser_premove.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, keydown, message, pageModules } from "./stage.mjs";

const COLS = 3;
const NAMES = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];

/** A 3x3 board as premove.js and marks.js read it: its squares, their names and cells. */
function fakeBoard() {
  const el = new FakeElement("div");
  el.id = "board";
  const squares = new Map();
  for (const name of NAMES) {
    const sq = el.appendChild(new FakeElement("button"));
    sq.className = "sq";
    sq.dataset.square = name;
    sq.setAttribute("aria-label", `${name}, empty`);
    squares.set(name, sq);
  }
  return { el, squares, cells: null, indexOf: (name) => NAMES.indexOf(name) };
}

/** The state of game `id` after `moves` (each [square, colour]), X's seat: clocked. */
function state(id, moves, extra = {}) {
  const boards = [".".repeat(NAMES.length)];
  for (const [square, color] of moves) {
    const cells = [...boards[boards.length - 1]];
    cells[NAMES.indexOf(square)] = color;
    boards.push(cells.join(""));
  }
  const turn = moves.length % 2 === 0 ? "x" : "o";
  return { id, status: "playing", clock: { base: 600, increment: 0 }, turn, moves, boards, ...extra };
}

const made = []; // every Premove so far: each listens for Escape on the one document

/** A Premove of this browser's seat `seats` on a fresh board, showing `s` live. */
function rig(Premove, s, seats = ["x"]) {
  const board = fakeBoard();
  const game = { state: s, live: true, canMove: true, viewer: { seats } };
  const played = [];
  const premove = new Premove({ game, board, play: (square) => played.push(square) });
  made.push(premove);
  const show = (next) => {
    game.state = next;
    board.cells = next.boards[next.moves.length];
    premove.settle();
  };
  board.cells = s.boards[s.moves.length];
  const marked = () => [...board.el.querySelectorAll(".sq.premove")].map((sq) => sq.dataset.square);
  return { premove, game, board, played, show, marked };
}

const said = () => document.querySelector("#announcer").textContent;
const noticed = () => document.querySelector("#notice").textContent;

for (const language of ["en", "id"]) {
  const { "premove.js": { Premove } } = await pageModules(language, ["premove.js"]);
  const word = message(language, "premove.mark");

  test(`${language}: a tap on an empty square in the opponent's turn is queued, marked and said`, () => {
    const { premove, board, played, marked } = rig(Premove, state("g1", [["a1", "x"]]));
    assert.equal(premove.tap("b2"), true);
    assert.deepEqual(marked(), ["b2"]);
    const sq = board.squares.get("b2");
    assert.equal(sq.getAttribute("aria-label"), `b2, empty, ${word}`);
    assert.equal(sq.querySelectorAll(".mark-premove").length, 1); // the faint piece
    assert.equal(said(), message(language, "premove.queued", { square: "b2" }));
    assert.deepEqual(played, []);
  });

  test(`${language}: any tap cancels the queued premove and queues nothing`, () => {
    const { premove, board, marked } = rig(Premove, state("g1", [["a1", "x"]]));
    premove.tap("b2");
    assert.equal(premove.tap("b2"), true); // the marked square again
    assert.deepEqual(marked(), []);
    assert.equal(board.squares.get("b2").getAttribute("aria-label"), "b2, empty");
    assert.equal(board.squares.get("b2").querySelectorAll(".mark-premove").length, 0);
    assert.equal(said(), message(language, "premove.cancelled", { square: "b2" }));
    premove.tap("c3");
    assert.equal(premove.tap("a3"), true); // elsewhere: cancels c3, queues nothing
    assert.equal(premove.pending, null);
    assert.equal(said(), message(language, "premove.cancelled", { square: "c3" }));
  });

  test(`${language}: the opponent's move on the queued square drops it with a notice`, () => {
    const { premove, played, show, marked } = rig(Premove, state("g1", [["a1", "x"]]));
    premove.tap("b2");
    show(state("g1", [["a1", "x"], ["b2", "o"]]));
    assert.deepEqual(played, []);
    assert.deepEqual(marked(), []);
    assert.equal(premove.pending, null);
    assert.equal(noticed(), message(language, "premove.dropped", { square: "b2", side: "O" }));
  });
}

const { "premove.js": { Premove } } = await pageModules("en", ["premove.js"]);

test("the opponent's move elsewhere plays the premove at once, once", () => {
  const { premove, played, show, marked } = rig(Premove, state("g1", [["a1", "x"]]));
  premove.tap("c3");
  show(state("g1", [["a1", "x"]], { thinking: true })); // a new state, still their turn
  assert.deepEqual(played, []);
  assert.deepEqual(marked(), ["c3"]);
  show(state("g1", [["a1", "x"], ["b2", "o"]]));
  assert.deepEqual(played, ["c3"]);
  assert.deepEqual(marked(), []);
  show(state("g1", [["a1", "x"], ["b2", "o"]]));
  assert.deepEqual(played, ["c3"]);
});

test("only a clocked live game in play, the one seat held not to move, queues a tap", () => {
  const moved = [["a1", "x"]];
  const refused = {
    "no clock": rig(Premove, state("g1", moved, { clock: null })),
    "the game over": rig(Premove, state("g1", moved, { status: "over" })),
    "its own turn": rig(Premove, state("g1", [])),
    "both seats": rig(Premove, state("g1", moved), ["x", "o"]),
    "a watcher": rig(Premove, state("g1", moved), []),
    "a filled square": rig(Premove, state("g1", moved)),
  };
  const notLive = rig(Premove, state("g1", moved));
  notLive.game.live = false;
  refused["an earlier ply shown"] = notLive;
  for (const [why, { premove, marked }] of Object.entries(refused)) {
    const square = why === "a filled square" ? "a1" : "b2";
    assert.equal(premove.tap(square), false, why);
    assert.equal(premove.pending, null, why);
    assert.deepEqual(marked(), [], why);
  }
});

test("Escape cancels the queued premove, unless a dialog is open", () => {
  for (const earlier of made) earlier.cancel(); // one page has one Premove
  const { premove, marked } = rig(Premove, state("g1", [["a1", "x"]]));
  premove.tap("b2");
  const dialog = document.body.appendChild(new FakeElement("dialog"));
  dialog.setAttribute("open", "");
  const closing = keydown("Escape");
  document.dispatchEvent(closing);
  assert.equal(closing.defaultPrevented, false); // the dialog's Escape
  assert.deepEqual(marked(), ["b2"]);
  dialog.remove();
  document.dispatchEvent(keydown("Enter"));
  assert.deepEqual(marked(), ["b2"]);
  const escape = keydown("Escape");
  document.dispatchEvent(escape);
  assert.equal(escape.defaultPrevented, true);
  assert.deepEqual(marked(), []);
  assert.equal(premove.pending, null);
});

test("another game, an undo or the end drops the premove quietly", () => {
  const moved = [["a1", "x"]];
  const after = {
    "another game": state("g2", [["a1", "x"], ["c1", "o"]]),
    "an undo": state("g1", []),
    "the end": state("g1", [["a1", "x"], ["c1", "o"]], { status: "over" }),
  };
  for (const [why, next] of Object.entries(after)) {
    const { premove, played, show, marked } = rig(Premove, state("g1", moved));
    document.querySelector("#notice").textContent = "";
    premove.tap("b2");
    show(next);
    assert.equal(premove.pending, null, why);
    assert.deepEqual(played, [], why);
    assert.deepEqual(marked(), [], why);
    assert.equal(noticed(), "", why);
  }
});

test("a premove is not sent where the page may not move any more", () => {
  const { premove, game, played, show } = rig(Premove, state("g1", [["a1", "x"]]));
  premove.tap("b2");
  game.canMove = false;
  show(state("g1", [["a1", "x"], ["c1", "o"]]));
  assert.deepEqual(played, []);
  assert.equal(premove.pending, null);
});

test("the mark shows only while the board shows the game's live position", () => {
  const { premove, board, marked } = rig(Premove, state("g1", [["a1", "x"]]));
  premove.tap("b2");
  board.cells = state("g1", []).boards[0]; // the reader walked back a ply
  premove.paint();
  assert.deepEqual(marked(), []);
  board.cells = premove.game.state.boards[1];
  premove.paint();
  assert.deepEqual(marked(), ["b2"]);
});
