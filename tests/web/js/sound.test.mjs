// The sounds (js/sound.js) without a browser: the audio context is made while the page
// is idle after it loads, never at the first move (making one starts the browser's audio
// service and held the first move's drawing 150-500 ms), and made only once; made before
// a gesture it is not resumed then, and the first sound resumes it. A move before the idle
// time makes it after the frame that paints the move. Sound off makes none.

import assert from "node:assert/strict";
import { test } from "node:test";

const SOUND = "../../../src/adjacency/web/static/js/sound.js";

/** The globals sound.js touches, its audio contexts counted, the idle work held until the
 * test runs it; then a fresh copy of the module imported. */
async function staged({ stored = null, loaded = true } = {}) {
  const stage = { made: [], idle: [], onLoad: [], frames: [] };
  class FakeContext {
    constructor() {
      this.state = "suspended";
      this.resumed = 0;
      this.currentTime = 0;
      this.destination = {};
      stage.made.push(this);
    }
    resume() { this.resumed += 1; this.state = "running"; return Promise.resolve(); }
    createOscillator() {
      return { frequency: { setValueAtTime() {} }, connect: (next) => next, start() {}, stop() {} };
    }
    createGain() {
      const gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { gain, connect: (next) => next };
    }
  }
  globalThis.localStorage = { getItem: () => stored, setItem() {} };
  globalThis.document = { readyState: loaded ? "complete" : "loading" };
  globalThis.requestAnimationFrame = (run) => stage.frames.push(run);
  globalThis.window = {
    AudioContext: FakeContext,
    matchMedia: () => ({ matches: false }),
    requestIdleCallback: (run) => stage.idle.push(run),
    addEventListener: (kind, run) => kind === "load" && stage.onLoad.push(run),
  };
  stage.sound = await import(`${SOUND}?copy=${Math.random()}`);
  return stage;
}

test("the context is made while idle after the load, before any move", async () => {
  const stage = await staged();
  assert.equal(stage.made.length, 0); // nothing at import
  assert.equal(stage.idle.length, 1);
  stage.idle.shift()();
  assert.equal(stage.made.length, 1);
  assert.equal(stage.made[0].resumed, 0); // no gesture yet: left suspended
  stage.sound.moveSound(3);
  stage.sound.moveSound(0);
  assert.equal(stage.made.length, 1); // the moves reuse it
  assert.equal(stage.made[0].state, "running"); // the first sound resumed it
});

test("a page still loading waits for its load event", async () => {
  const stage = await staged({ loaded: false });
  assert.equal(stage.idle.length, 0);
  stage.onLoad.shift()();
  stage.idle.shift()();
  assert.equal(stage.made.length, 1);
});

test("with sound off no context is made, by the idle work or a move", async () => {
  const stage = await staged({ stored: "off" });
  stage.idle.shift()();
  stage.sound.moveSound(2);
  assert.equal(stage.made.length, 0);
});

test("a move before the idle time makes the context only after its frame", async () => {
  const stage = await staged();
  stage.sound.moveSound(1);
  assert.equal(stage.made.length, 0); // the move's drawing does not wait for it
  stage.frames.shift()();
  await new Promise((done) => setTimeout(done, 5)); // the task queued after the frame
  assert.equal(stage.made.length, 1);
  assert.equal(stage.made[0].state, "running");
});
