// The polite announcer (js/polite.js) without a browser: only the changed parts are
// said, at most once a second, the latest summary kept while it waits.

import assert from "node:assert/strict";
import { test } from "node:test";

import { GAP, Polite, changedParts } from "../../../src/adjacency/web/static/js/polite.js";

/** A Polite on a clock the test turns: its words, and the timers it set. */
function rig() {
  const clock = { now: 0, timers: [] };
  const said = [];
  const polite = new Polite({
    say: (text) => said.push([clock.now, text]),
    now: () => clock.now,
    later: (run, ms) => {
      const timer = { at: clock.now + ms, run };
      clock.timers.push(timer);
      return timer;
    },
    cancel: (timer) => { clock.timers = clock.timers.filter((t) => t !== timer); },
  });
  const advance = (ms) => {
    const until = clock.now + ms;
    for (;;) {
      const due = clock.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      clock.timers = clock.timers.filter((t) => t !== due);
      clock.now = due.at;
      due.run();
    }
    clock.now = until;
  };
  return { polite, said, advance };
}

test("only the parts that changed are said", () => {
  assert.deepEqual(changedParts({}, { exact: "", best: "g3 +2" }), ["g3 +2"]);
  assert.deepEqual(changedParts({ best: "g3 +2" }, { exact: "X wins", best: "g3 +2" }), ["X wins"]);
  assert.deepEqual(changedParts({ best: "g3 +2" }, { best: "g3 +2" }), []);
});

test("at most once a second, the latest summary said when the second has passed", () => {
  const { polite, said, advance } = rig();
  polite.offer({ best: "g3 +1.0" });
  advance(100);
  polite.offer({ best: "g3 +1.5" }); // deeper: waits
  advance(100);
  polite.offer({ best: "h4 +2.0" }); // deeper still: replaces it
  advance(GAP);
  assert.deepEqual(said, [[0, "g3 +1.0"], [GAP, "h4 +2.0"]]);
  // The same summary again and again (a depth that changes no line): nothing said.
  for (let i = 0; i < 10; i++) {
    polite.offer({ best: "h4 +2.0" });
    advance(300);
  }
  assert.equal(said.length, 2);
  polite.offer({ exact: "X wins by 2", best: "h4 +2.0" }); // only the new part
  advance(GAP);
  assert.deepEqual(said.at(-1)[1], "X wins by 2");
  for (let i = 1; i < said.length; i++) assert.ok(said[i][0] - said[i - 1][0] >= GAP, said);
});

test("a new position says its summary afresh, still a second after the last words", () => {
  const { polite, said, advance } = rig();
  polite.offer({ best: "g3 +1.0" });
  polite.offer({ best: "g4 +1.0" }); // waiting when the position changes
  polite.reset();
  advance(2 * GAP);
  assert.deepEqual(said, [[0, "g3 +1.0"]]); // the old position's words are dropped
  polite.offer({ best: "g3 +1.0" });
  assert.deepEqual(said.at(-1), [2 * GAP, "g3 +1.0"]); // said again: another position
  polite.reset();
  polite.offer({ best: "a1 0.0" });
  assert.equal(said.length, 2); // within the second: waits
  advance(GAP);
  assert.deepEqual(said.at(-1), [3 * GAP, "a1 0.0"]);
});
