// Your move at once (js/guess.js) without a browser: the state the page draws the
// moment its player moves, before the server has the move: the piece and the squares
// the server's preview says it converts, the score, the next side to move and its
// preview by the rules (a move converts the opponent's orthogonal neighbours), the
// clocks switched with the increment, the version kept so the server's next state
// replaces it; no guess for a square that is not a move. The browser keeps the journey
// (tests/web/test_browser_own_move.py: drawn while the request is held, then replaced).

import assert from "node:assert/strict";
import { test } from "node:test";

import { pageModules } from "./stage.mjs";

const { "guess.js": { guessState } } = await pageModules("en", ["guess.js"]);

// a3 b3 c3      . o .
// a2 b2 c2  =   o . .     X to move, 4 plies left
// a1 b1 c1      x . .
function playing(extra = {}) {
  return {
    id: "g", version: 7, status: "playing", rows: 3, cols: 3, turn: "x",
    x: { kind: "human", name: "Ann" }, o: { kind: "bot", name: "Novice bot", level_name: "Novice" },
    moves: [{ number: 1, color: "x", square: "a1", flips: [] }, { number: 2, color: "o", square: "a2", flips: [] },
      { number: 3, color: "x", square: "c1", flips: [] }, { number: 4, color: "o", square: "b3", flips: [] }],
    boards: [".........", "x........", "x..o.....", "x.xo.....", "x.xo...o."],
    plies_left: 4, score: [2, 2], message: "X (Ann) to move.", thinking: null, can_undo: true,
    preview: { b1: [], b2: [], c2: [], a3: ["a2"], c3: ["b3"] },
    clock: { base: 60, increment: 2, x: 50, o: 40, running: "x" },
    ...extra,
  };
}

test("the guessed state is the position after the move, the next side's to play", () => {
  const s = playing();
  const guess = guessState(s, "a3", () => 47.5);
  assert.equal(guess.boards.length, 6);
  assert.equal(guess.boards[5], "x.xx..xo.");
  assert.deepEqual(guess.moves.at(-1), {
    number: 5, color: "x", square: "a3", flips: ["a2"], seconds: null, eval: null, depth: null,
  });
  assert.deepEqual(guess.score, [4, 1]);
  assert.equal(guess.turn, "o");
  assert.equal(guess.plies_left, 3);
  assert.equal(guess.rounds_left, 2);
  assert.equal(guess.version, 7); // any state of the server's replaces it
  assert.equal(guess.message, null);
  assert.equal(guess.can_undo, false);
  assert.equal(guess.human_to_move, false); // O is the bot
  // O's preview: every empty square, with the X pieces each would convert.
  assert.deepEqual(guess.preview, { b1: ["c1", "a1"], b2: ["a2"], c2: ["c1"], c3: [] });
  assert.deepEqual(guess.clock, { base: 60, increment: 2, x: 49.5, o: 40, running: "o" });
  assert.equal(s.boards.length, 5, "the state it was guessed from is unchanged");
});

test("the last move leaves no preview and no running clock", () => {
  const guess = guessState(playing({ plies_left: 1 }), "b1", () => 10);
  assert.deepEqual(guess.preview, {});
  assert.equal(guess.clock.running, null);
  assert.equal(guess.human_to_move, false);
});

test("a paused clock gets no increment, a game without a clock keeps none", () => {
  assert.equal(guessState(playing({ clock: { base: 60, increment: 2, x: 50, o: 40, running: null } }), "b1", () => 50).clock.x, 50);
  assert.equal(guessState(playing({ clock: null }), "b1", () => 0).clock, null);
});

test("no guess for a square that is not a move, nor for a game not in play", () => {
  assert.equal(guessState(playing(), "a1", () => 0), null); // taken
  assert.equal(guessState(playing({ status: "over" }), "b1", () => 0), null);
  assert.equal(guessState(playing({ preview: null }), "b1", () => 0), null);
});
