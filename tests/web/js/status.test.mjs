// The play page's status line (js/panels/status.js) without a browser, in English and
// Bahasa Indonesia: through a move against the bot and its reply, each state writes the
// line once, and never the words it already shows: the line is a live region, read
// again at every write. The browser keeps the journey of a move and F turning the board
// with the focus kept (tests/web/test_puzzle_runs_browser.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, message, pageModules } from "./stage.mjs";

/** The state of a 4-round game of a person (X) against the bot after `plies` moves. */
function state(plies, thinking = false) {
  return {
    id: "g", status: "playing", score: [plies, plies], moves: Array(plies).fill({}),
    turn: plies % 2 ? "o" : "x", thinking, rounds: 4, rounds_left: 4 - Math.floor(plies / 2),
    human_to_move: plies % 2 === 0, mode: "human-bot",
    x: { kind: "human", name: "Ann" }, o: { kind: "bot", level: 1, name: "Bot", level_name: "Club" },
  };
}

for (const language of ["en", "id"]) {
  const { "panels/status.js": { renderStatus } } = await pageModules(language, ["panels/status.js"]);

  test(`${language}: a move and the bot's reply write the status once each, never the same words`, () => {
    for (const id of ["status", "history-banner", "history-text"]) {
      if (!document.querySelector(`#${id}`)) document.body.appendChild(new FakeElement("div")).id = id;
    }
    const line = document.querySelector("#status");
    line.textContent = "";
    const written = [];
    const text = Object.getOwnPropertyDescriptor(FakeElement.prototype, "textContent");
    Object.defineProperty(line, "textContent", {
      get() { return text.get.call(this); },
      set(value) { written.push(String(value)); text.set.call(this, value); },
      configurable: true,
    });
    const game = { viewer: { seats: ["x"] }, live: true, canMove: true, hint: null, shownPly: 0 };
    for (const [s, canMove] of [[state(0), true], [state(0), true], [state(1, true), false], [state(1, true), false], [state(2), true]]) {
      Object.assign(game, { state: s, canMove });
      renderStatus(game);
    }
    assert.equal(written.length, 3, written.join(" | "));
    for (let i = 1; i < written.length; i += 1) assert.notEqual(written[i], written[i - 1]);
    const thinking = message(language, "describe.thinking", { player: "" }).trim();
    assert.ok(written[0].includes("X (Ann)") && written[1].includes(thinking), written.join(" | "));
    delete line.textContent;
  });
}
