// The side column's "more below" sign (js/panels/more.js) without a browser: a column whose
// sizes the test sets, observers that see attribute writes as the DOM's do, and frames the
// test runs one at a time. An idle page asks for no frame once its sign is placed.

import assert from "node:assert/strict";
import { test } from "node:test";

import { pageModules } from "./stage.mjs";

/** A column, its sign and the page's frames and observers, as the DOM would keep them. */
function rig({ scrollHeight = 500, clientHeight = 500 } = {}) {
  const frames = [];
  const observers = [];
  globalThis.requestAnimationFrame = (run) => frames.push(run);
  globalThis.ResizeObserver = class { observe() {} disconnect() {} };
  globalThis.MutationObserver = class {
    constructor(callback) { this.callback = callback; observers.push(this); }
    observe() {}
    disconnect() {}
  };
  const listeners = {};
  const column = {
    scrollHeight, clientHeight, scrollTop: 0, children: [],
    addEventListener: (type, run) => { listeners[type] = run; },
  };
  // The DOM's rule for a reflected boolean: true sets the attribute (a mutation even when
  // it was set already), false removes it (a mutation only when it was there).
  let present = false;
  let writes = 0;
  const mutated = () => queueMicrotask(() => observers.forEach((o) => o.callback([])));
  const sign = {
    get hidden() { return present; },
    set hidden(value) {
      writes += 1;
      if (value || present) mutated();
      present = Boolean(value);
    },
  };
  const button = { addEventListener() {} }; // its press scrolls: a journey of the browser's
  /** Run the frames asked for (and those they ask for), at most `limit`: how many ran. */
  const runFrames = async (limit = 20) => {
    let ran = 0;
    await Promise.resolve();
    while (frames.length && ran < limit) {
      frames.shift()();
      ran += 1;
      await new Promise((settle) => setImmediate(settle)); // the mutations' microtasks
    }
    return ran;
  };
  return { column, sign, button, listeners, frames, runFrames, writes: () => writes };
}

const { watchMoreBelow } = (await pageModules("en", ["panels/more.js"]))["panels/more.js"];

test("an idle column that does not scroll asks for no frame once its sign is hidden", async () => {
  const page = rig();
  watchMoreBelow(page.column, page.sign, page.button);
  const ran = await page.runFrames();
  assert.equal(page.sign.hidden, true);
  assert.ok(ran <= 1, `${ran} frames ran for a page that did nothing`);
  assert.equal(page.frames.length, 0, "a frame is still asked for");
  assert.equal(page.writes(), 1, "the sign was written again with the same value");
});

test("the sign shows while more lies below and goes at the column's end", async () => {
  const page = rig({ scrollHeight: 900, clientHeight: 500 });
  watchMoreBelow(page.column, page.sign, page.button);
  await page.runFrames();
  assert.equal(page.sign.hidden, false);
  page.column.scrollTop = 399.5; // under a pixel left: fractional layouts leave that much
  page.listeners.scroll();
  // Its frame hides the sign, a change the observer sees: one frame more, then none.
  assert.ok((await page.runFrames()) <= 2);
  assert.equal(page.sign.hidden, true);
  assert.equal(page.frames.length, 0);
  page.column.scrollTop = 100;
  page.listeners.scroll();
  await page.runFrames();
  assert.equal(page.sign.hidden, false);
});
