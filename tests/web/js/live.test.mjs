// The live game follows the stream's happenings (js/live.js): a `moved` told before a
// state is what makes the page animate and announce the move, `took_back` drops the
// review, `ended` shows the result; a state told nothing (the first one, one after a
// reconnection) is compared with the last shown. The server's side of the stream is
// tested in tests/web/test_happenings.py.

import assert from "node:assert/strict";
import { test } from "node:test";

import { pageModules } from "./stage.mjs";

class FakeSource {
  static last = null;
  constructor(url) {
    this.url = url;
    this.listeners = {};
    this.readyState = 1;
    FakeSource.last = this;
  }
  addEventListener(type, run) { (this.listeners[type] ||= []).push(run); }
  close() { this.readyState = 2; }
  send(type, data) {
    for (const run of this.listeners[type] || []) run({ data: JSON.stringify(data) });
  }
}
FakeSource.CLOSED = 2;
globalThis.EventSource = FakeSource;

const { "live.js": { LiveGame } } = await pageModules("en", ["live.js"]);

function state(version, squares, extra = {}) {
  const moves = squares.map((square, i) => ({ number: i + 1, color: i % 2 ? "o" : "x", square, flips: [] }));
  return {
    id: "g", version, status: "playing", rows: 3, cols: 3, turn: moves.length % 2 ? "o" : "x",
    x: { kind: "human", name: "Ann" }, o: { kind: "bot", name: "Bot" },
    moves, boards: [".........", ...moves.map(() => ".........")], plies_left: 4, score: [0, 0],
    thinking: null, clock: null, rematch: null, ...extra,
  };
}

function following() {
  const seen = { moves: [], animated: [], over: 0 };
  const game = new LiveGame({
    onChange: ({ animate }) => seen.animated.push(animate),
    onOver: () => { seen.over += 1; },
    onThinking: () => {},
    onMove: (move) => seen.moves.push(move.square),
  });
  game.apply(state(1, []), { animate: false });
  game.connect("g");
  return { game, seen, source: FakeSource.last };
}

test("a move told by the stream is animated and announced once", () => {
  const { game, seen, source } = following();
  source.send("moved", { side: "x", square: "a1", seconds: 0.5, ply: 1, version: 2 });
  source.send("state", state(2, ["a1"]));
  assert.deepEqual(seen.moves, ["a1"]);
  assert.equal(seen.animated.at(-1), true);
  // A later state told nothing new (a thinking update): no move, no animation.
  source.send("state", state(3, ["a1"], { thinking: { color: "o", elapsed: 0.1 } }));
  assert.deepEqual(seen.moves, ["a1"]);
  assert.equal(seen.animated.at(-1), false);
  assert.equal(game.state.version, 3);
});

test("the happenings of another version are not taken for the state's", () => {
  const { seen, source } = following();
  source.send("moved", { side: "x", square: "a1", seconds: 0.5, ply: 1, version: 9 });
  source.send("took_back", { plies: 1, moves: 0, version: 2 });
  source.send("state", state(2, ["a1"]));
  assert.deepEqual(seen.moves, []); // the stream said moves were taken back, not played
});

test("moves taken back drop the review; an end told shows the result once", () => {
  const { game, seen, source } = following();
  source.send("moved", { side: "x", square: "a1", seconds: 0.5, ply: 1, version: 2 });
  source.send("state", state(2, ["a1"]));
  game.review = { 1: { value: 0 } };
  source.send("took_back", { plies: 1, moves: 0, version: 3 });
  source.send("state", state(3, []));
  assert.equal(game.review, null);
  source.send("moved", { side: "x", square: "b2", seconds: 0.5, ply: 1, version: 4 });
  source.send("ended", { result: "x", termination: "normal", version: 4 });
  source.send("state", state(4, ["b2"], { status: "over" }));
  assert.equal(seen.over, 1);
  assert.deepEqual(seen.moves, ["a1", "b2"]);
  source.send("state", state(5, ["b2"], { status: "over", rematch: null }));
  assert.equal(seen.over, 1);
});

test("a state after a reconnection is shown as it is, nothing announced", () => {
  const { seen, source } = following();
  for (const run of source.listeners.error) run({});
  source.send("moved", { side: "x", square: "a1", seconds: 0.5, ply: 1, version: 2 });
  source.send("state", state(2, ["a1"]));
  assert.deepEqual(seen.moves, []);
  assert.equal(seen.animated.at(-1), false);
});

test("this browser's guessed move confirmed by the server is not announced again", () => {
  const { game, seen, source } = following();
  game.viewer = { seats: ["x"], owner: true, invite: false };
  game.state.human_to_move = true;
  game.state.preview = { a1: [] };
  const move = game.guess("a1");
  assert.equal(move.square, "a1");
  assert.deepEqual(seen.moves, ["a1"]);
  source.send("moved", { side: "x", square: "a1", seconds: 0.5, ply: 1, version: 2 });
  source.send("state", state(2, ["a1"]));
  assert.deepEqual(seen.moves, ["a1"]);
});
