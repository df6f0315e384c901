// The puzzle runs' accounting (js/puzzles/tally.js) without a browser: skips, the
// player's clock and its pauses, the combo, the end screen's figures, personal bests.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  RunClock, Tally, bestsOf, comboBonus, keptRuns, nextBonus, playerMoves, records,
} from "../../../src/adjacency/web/static/js/puzzles/tally.js";

const P = (id, rating = 1500) => ({ id, rating });

test("a streak has one skip, spent by passing an unsolved puzzle; then none is offered", () => {
  const run = new Tally("streak", new RunClock(Infinity, 0));
  assert.equal(run.pass(false), "skip");
  assert.equal(run.pass(true), "next"); // a solved puzzle is passed freely
  assert.equal(run.skip(P("a"), []), true);
  assert.equal(run.skips, 0);
  assert.equal(run.pass(false), "none");
  assert.equal(run.pass(true), "next");
  assert.equal(run.skip(P("b"), []), false); // nothing changes
  assert.deepEqual(run.puzzles.map((p) => [p.id, p.result]), [["a", "skipped"]]);
  assert.equal(run.score, 0);
});

test("a timed run has no skip: an unsolved puzzle is never passed", () => {
  const run = new Tally("timed", new RunClock(180_000, 0));
  assert.equal(run.pass(false), "none");
  assert.equal(run.skip(P("a"), ["a1"]), false);
  assert.equal(run.puzzles.length, 0);
  assert.equal(run.pass(true), "next");
});

test("a skip keeps the streak's combo; a miss ends it", () => {
  const run = new Tally("streak", new RunClock(Infinity, 0));
  run.finished(P("a"), true, ["a1", "b1", "c1"], false);
  run.skip(P("b"), []);
  run.finished(P("c"), true, ["a1"], false);
  assert.equal(run.combo, 2);
  run.finished(P("d"), false, ["a1", "b1"], true);
  assert.equal(run.combo, 0);
  assert.equal(run.bestCombo, 2);
  assert.equal(run.score, 2);
});

test("the clock stands through the page's pauses and runs on the player's turn", () => {
  const clock = new RunClock(180_000, 1000);
  clock.stand(5000); // a move sent at 4 s: the reply's pause, the next puzzle's load
  clock.stand(5200); // standing already: the first stop counts
  assert.equal(clock.left(99_000), 176_000);
  clock.run(5000 + 450 + 700); // the 450 ms reply and the 700 ms wait not charged
  assert.equal(clock.spent(7150), 5000);
  clock.run(8000); // running already: nothing changes
  assert.equal(clock.spent(8000), 5850);
  clock.add(-10_000); // a miss
  clock.add(3000); // a combo's bonus
  assert.equal(clock.left(8000), 180_000 - 7000 - 5850);
  assert.equal(clock.left(1_000_000), 0); // never below 0
  assert.equal(new RunClock(Infinity, 0).left(10 ** 9), Infinity);
});

test("the combo earns seconds at its steps, only in a timed run", () => {
  const earned = Object.fromEntries(
    Array.from({ length: 61 }, (_, n) => [n, comboBonus(n)]).filter(([, s]) => s),
  );
  assert.deepEqual(earned, { 5: 3, 12: 5, 20: 7, 30: 10, 40: 10, 50: 10, 60: 10 });
  assert.deepEqual(nextBonus(0), { at: 5, seconds: 3, from: 0 });
  assert.deepEqual(nextBonus(7), { at: 12, seconds: 5, from: 5 });
  assert.deepEqual(nextBonus(30), { at: 40, seconds: 10, from: 30 });
  assert.deepEqual(nextBonus(33), { at: 40, seconds: 10, from: 30 });
  const timed = new Tally("timed", new RunClock(180_000, 0));
  const streak = new Tally("streak", new RunClock(Infinity, 0));
  const bonuses = [timed, streak].map((run) =>
    Array.from({ length: 5 }, (_, i) => run.finished(P(`p${i}`), true, ["a1"], false)));
  assert.deepEqual(bonuses, [[0, 0, 0, 0, 3], [0, 0, 0, 0, 0]]);
});

test("a puzzle is kept once (the solution asked after a miss changes nothing)", () => {
  const run = new Tally("timed", new RunClock(180_000, 0));
  run.finished(P("a"), false, ["a1", "b1"], true);
  assert.equal(run.finished(P("a"), false, ["a1", "b1", "c1"], false), 0);
  assert.equal(run.puzzles.length, 1);
});

test("the end screen's figures", () => {
  const clock = new RunClock(180_000, 0);
  const run = new Tally("timed", clock);
  run.finished(P("a", 1510.4), true, ["a1", "b1", "c1"], false); // 2 moves, both right
  run.finished(P("b", 1620.6), true, ["a1"], false); // 1 move
  run.finished(P("c", 1900), false, ["a1", "b1", "c1", "d1"], true); // 2 moves, 1 wrong
  run.finished(P("d", 2000), false, [], false); // the solution shown at once: no move
  clock.stand(40_000);
  const figures = run.figures(90_000);
  assert.equal(figures.score, 2);
  assert.equal(figures.moves, 5);
  assert.equal(figures.accuracy, 80); // 4 of 5 right
  assert.equal(figures.bestCombo, 2);
  assert.equal(figures.time, 40); // the clock stood from 40 s
  assert.equal(figures.perPuzzle, 10);
  assert.equal(figures.highest, 1621); // the hardest solved, not the hardest tried
  assert.deepEqual(figures.missed.map((p) => p.id), ["c", "d"]);
  const none = new Tally("streak", new RunClock(Infinity, 0)).figures(0);
  assert.deepEqual([none.accuracy, none.perPuzzle, none.highest, none.moves], [null, null, null, 0]);
});

test("a skipped puzzle counts its moves but not as a puzzle finished", () => {
  const run = new Tally("streak", new RunClock(Infinity, 0));
  run.finished(P("a"), true, ["a1", "b1", "c1"], false);
  run.skip(P("b"), ["a1", "b1"]); // passed after a right move
  const figures = run.figures(30_000);
  assert.equal(figures.moves, 3);
  assert.equal(figures.accuracy, 100);
  assert.equal(figures.perPuzzle, 30);
});

test("the solver's moves are the line's even places", () => {
  assert.deepEqual([[], ["a1"], ["a1", "b1"], ["a1", "b1", "c1"]].map(playerMoves), [0, 1, 1, 2]);
});

test("personal bests per period, and the periods a run beats", () => {
  const now = new Date(2026, 10, 27, 15, 0).getTime(); // local time
  const day = 24 * 3600 * 1000;
  const runs = [
    { at: now - 30 * day, score: 20 },
    { at: now - 3 * day, score: 12 },
    { at: new Date(2026, 10, 27, 0, 30).getTime(), score: 7 },
  ];
  assert.deepEqual(bestsOf(runs, now), { day: 7, week: 12, all: 20 });
  assert.deepEqual(bestsOf([], now), { day: 0, week: 0, all: 0 });
  assert.deepEqual(bestsOf(runs, now, 25), { day: 7, week: 12, all: 25 });
  assert.deepEqual(records(runs, 8, now), ["day"]);
  assert.deepEqual(records(runs, 13, now), ["day", "week"]);
  assert.deepEqual(records(runs, 21, now), ["day", "week", "all"]);
  assert.deepEqual(records(runs, 7, now), []); // a tie is no record
  assert.deepEqual(records([], 0, now), []);
  assert.deepEqual(records([], 1, now), ["day", "week", "all"]);
});

test("runs read from storage: anything malformed left out", () => {
  assert.deepEqual(keptRuns("nope"), []);
  assert.deepEqual(keptRuns(null), []);
  assert.deepEqual(
    keptRuns([{ at: 1, score: 2, extra: 3 }, { at: "x", score: 1 }, null, { at: 5 }]),
    [{ at: 1, score: 2 }],
  );
});
