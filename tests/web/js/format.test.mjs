// How the pages name players and say a game's state (js/levels.js, js/format.js),
// without a browser, in English and Bahasa Indonesia: a seat left with the server's
// default English name ("Player X", "Novice bot") is named in the page's language, the
// reader's own seat "You"; names someone chose stay; the one-line account of a game
// (whose move, who won and how) in the page's words. The browser keeps the journey that
// the Games list and the board agree (tests/web/test_browser_games_names.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { message, pageModules } from "./stage.mjs";

const person = (name) => ({ kind: "human", name });
const bot = (level) => ({ kind: "bot", name: `${level} bot`, level_name: level });

/** A game of 6x6 between `x` and `o`, `extra` over its fields. */
function game(x, o, extra = {}) {
  return { id: "g", x, o, status: "playing", turn: "x", score: [2, 2], mode: "human-bot", ...extra };
}

for (const language of ["en", "id"]) {
  const modules = await pageModules(language, ["levels.js", "format.js"]);
  const { shownName } = modules["levels.js"];
  const { label, named, describe, termination, formatSquares } = modules["format.js"];
  const say = (key, params) => message(language, key, params);
  const novice = say("new.bot-name", { level: say("level.Novice") });

  test(`${language}: default names are the page's, the reader's own seat is You`, () => {
    assert.equal(shownName(person("Player X"), "x"), say("new.player", { side: "X" }));
    // A person's default name is their seat's, whichever colour it was made for.
    assert.equal(shownName(person("Player O"), "x"), say("new.player", { side: "X" }));
    assert.equal(shownName(person("Player X"), "x", true), say("new.you"));
    assert.equal(shownName(bot("Novice"), "o"), novice);
    assert.equal(shownName(person("Ann"), "x", true), "Ann"); // chosen: kept
    assert.equal(shownName({ kind: "bot", name: "alphabeta:depth=3" }, "o"), "alphabeta:depth=3");
    // A level the catalogue does not know keeps the server's English word.
    assert.equal(shownName(bot("Plug-in"), "o"), say("new.bot-name", { level: "Plug-in" }));
  });

  test(`${language}: the server's English names in a text become the page's labels`, () => {
    const s = game(person("Player X"), bot("Novice"));
    assert.equal(label(s, "o"), `O (${novice})`);
    assert.equal(
      named(s, "X (Player X) resigned; O (Novice bot) wins."),
      `X (${say("new.player", { side: "X" })}) resigned; O (${novice}) wins.`,
    );
  });

  test(`${language}: the account of a game says whose move it is and who won how`, () => {
    const s = game(person("Ann"), bot("Novice"));
    const ann = "X (Ann)";
    assert.equal(describe({ ...s, message: null }), say("describe.click", { player: ann }));
    const o = `O (${novice})`;
    assert.equal(describe({ ...s, turn: "o", thinking: true }), say("describe.thinking", { player: o }));
    assert.equal(describe({ ...s, turn: "o" }), say("describe.to-move", { player: o }));
    const over = { ...s, status: "over", score: [20, 16] };
    assert.equal(describe({ ...over, result: "x", termination: "normal" }), say("describe.wins", { player: ann, score: "20-16" }));
    assert.equal(
      describe({ ...over, result: "o", termination: "time forfeit" }),
      say("describe.wins-by", { player: o, how: say("termination.time-forfeit") }),
    );
    assert.equal(describe({ ...over, result: "draw", termination: "normal" }), say("describe.draw", { score: "20-16" }));
    assert.equal(describe({ ...over, result: null, termination: "aborted" }), say("describe.stopped"));
    assert.equal(termination("an engine's own words"), "an engine's own words");
    assert.match(formatSquares(3.375), /3[.,]4/);
  });
}

test("on English pages the server's message is shown, its default names the page's", async () => {
  const { "format.js": { describe } } = await pageModules("en", ["format.js"]);
  const s = game(person("Player X"), bot("Novice"), { message: "Waiting for a free slot: O (Novice bot)." });
  assert.equal(describe(s), "Waiting for a free slot: O (Novice bot).");
  const { "format.js": { describe: inIndonesian } } = await pageModules("id", ["format.js"]);
  assert.equal(inIndonesian(s), message("id", "describe.click", { player: `X (${message("id", "new.player", { side: "X" })})` }));
});
