// The league's code view asking again for a view the server is still preparing
// (league/static/prepared.js), without a browser: the server's Retry-After followed,
// else a doubling wait, each bounded; "being prepared" said at each; the first other
// answer handed on; and a bounded number of asks.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  FIRST, MOST, TRIES, retryAfter, waitBefore, whenPrepared,
} from "../../../src/adjacency/league/static/prepared.js";

const PREPARING = { detail: "the code of version 2 is being prepared", code: "being_prepared" };

function preparing(retry) {
  const headers = retry == null ? {} : { "Retry-After": retry };
  return new Response(JSON.stringify(PREPARING), { status: 503, headers });
}

function view() {
  return new Response(JSON.stringify({ files: [] }), { status: 200 });
}

/** A server answering `answers` in turn (then the last again); what the page slept and said. */
function rig(answers) {
  const asked = [];
  const slept = [];
  const said = [];
  let clock = 0;
  const ask = async () => {
    asked.push(clock);
    return answers[Math.min(asked.length - 1, answers.length - 1)]();
  };
  const options = {
    preparing: (body) => said.push(body.detail),
    sleep: async (ms) => { slept.push(ms); clock += ms; },
    now: () => clock,
  };
  return { ask, options, asked, slept, said };
}

test("the server's Retry-After is followed, and the view handed on once made", async () => {
  const { ask, options, asked, slept, said } = rig([() => preparing("3"), () => preparing("2"), view]);
  const response = await whenPrepared(ask, options);
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { files: [] });
  assert.deepEqual(slept, [3000, 2000]);
  assert.deepEqual(asked, [0, 3000, 5000]);
  assert.deepEqual(said, [PREPARING.detail, PREPARING.detail]);
});

test("without a Retry-After the wait doubles from FIRST, never past MOST", async () => {
  const { ask, options, slept } = rig([preparing, preparing, preparing, preparing, preparing,
    preparing, view]);
  await whenPrepared(ask, options);
  assert.deepEqual(slept, [1, 2, 4, 8, 16, 32].map((n) => Math.min(MOST, FIRST * n)));
  assert.ok(slept.every((ms) => ms <= MOST));
});

test("a Retry-After longer than MOST waits MOST; a date is read against the clock", () => {
  assert.equal(waitBefore(1, "3600", 0), MOST);
  assert.equal(retryAfter("Thu, 01 Jan 1970 00:00:04 GMT", 1000), 3000);
  assert.equal(retryAfter("soon", 0), null);
  assert.equal(waitBefore(3, "soon", 0), FIRST * 4); // unreadable: the page's own wait
});

test("other answers are handed on at once, errors and other 503s included", async () => {
  for (const answer of [
    () => new Response(JSON.stringify({ detail: "no such version", code: "not_found" }), { status: 404 }),
    () => new Response(JSON.stringify({ detail: "down", code: "unavailable" }), { status: 503 }),
    () => new Response("not json", { status: 503 }),
  ]) {
    const { ask, options, asked, said } = rig([answer]);
    const response = await whenPrepared(ask, options);
    assert.equal(asked.length, 1);
    assert.deepEqual(said, []);
    assert.ok(response.status >= 400);
    await response.text(); // still readable by the page
  }
});

test("the asks are bounded: the last 'being prepared' is handed on as the answer", async () => {
  const { ask, options, asked } = rig([preparing]);
  const response = await whenPrepared(ask, options);
  assert.equal(asked.length, TRIES);
  assert.equal(response.status, 503);
  assert.deepEqual(await response.json(), PREPARING); // the page says it as its error
});
