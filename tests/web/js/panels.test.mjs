// The play page's smaller panels without a browser, in English and Bahasa Indonesia: a
// reviewed move's mark and tooltip (the loss rounded to a tenth, exact or estimated and
// how), the clocks' text (tenths under ten seconds, then minutes, then hours) and the
// running clock's time, and what a screen reader is told of a move and of a low clock
// (once per move and side). The browser keeps the journeys that show them
// (tests/web/test_browser_game_page.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, message, pageModules } from "./stage.mjs";

for (const language of ["en", "id"]) {
  const loaded = await pageModules(language, ["panels/moves.js", "panels/clocks.js", "announce.js"]);
  const { markReviewed } = loaded["panels/moves.js"];
  const { formatClock } = loaded["panels/clocks.js"];
  const { moveText, warnLowClock } = loaded["announce.js"];
  const say = (key, params) => message(language, key, params);
  const comma = language === "id" ? "," : ".";

  test(`${language}: a reviewed move's tooltip rounds the loss and says how it is known`, () => {
    const button = new FakeElement("button");
    button.setAttribute("aria-label", "c3: round 1");
    markReviewed(button, { mark: "inaccuracy", loss: 3.375, best: "zz", exact: false, depth: 7 });
    const named = say("review.inaccuracy");
    const loss = `3${comma}4 ${language === "id" ? "kotak" : "squares"}`;
    const sure = say("review.estimated", { depth: 7 });
    assert.equal(button.title, `${say("review.title.best", { mark: named, loss, best: "zz" })} (${sure})`);
    assert.equal(button.getAttribute("aria-label"), `c3: round 1, ${named}, ${sure}`);
    assert.equal(button.querySelector(".mark").textContent, "?!");
    assert.deepEqual([button.dataset.mark, button.dataset.exact], ["inaccuracy", "false"]);
    assert.ok(button.classList.contains("mark-estimated"));
    const exact = new FakeElement("button");
    markReviewed(exact, { mark: "blunder", loss: 2, exact: true });
    assert.ok(exact.title.endsWith(`(${say("review.exact")})`), exact.title);
    assert.ok(exact.classList.contains("mark-exact") && exact.classList.contains("mark-blunder"));
    const searched = new FakeElement("button");
    markReviewed(searched, { mark: "mistake", loss: 1, exact: false, depth: null });
    assert.ok(searched.title.endsWith(`(${say("review.estimated.search")})`), searched.title);
    const unmarked = new FakeElement("button");
    markReviewed(unmarked, { mark: null, loss: 0 });
    assert.equal(unmarked.children.length, 0);
    assert.equal(unmarked.dataset.mark, undefined);
  });

  test(`${language}: the clock shows tenths under ten seconds, then minutes and hours`, () => {
    assert.equal(formatClock(9.44), `9${comma}4`);
    assert.equal(formatClock(-1), `0${comma}0`);
    assert.equal(formatClock(10), "0:10");
    assert.equal(formatClock(59.2), "1:00"); // whole seconds round up
    assert.equal(formatClock(600), "10:00");
    assert.equal(formatClock(3725), "1:02:05");
  });

  test(`${language}: a move is said with what it converted; a low clock once a move`, () => {
    assert.equal(moveText({ color: "o", square: "g3", flips: [] }), say("announce.move", { side: "O", square: "g3" }));
    const said = moveText({ color: "x", square: "g3", flips: ["g4", "h3"] });
    const and = language === "id" ? "dan" : "and";
    assert.equal(said, say("announce.move.converted", { side: "X", square: "g3", converted: `g4 ${and} h3` }));
    const state = { id: `low-${language}`, moves: [{}], x: { kind: "human", name: "Ann" }, o: { kind: "human", name: "Bob" } };
    const announcer = document.querySelector("#announcer");
    announcer.textContent = "";
    warnLowClock(state, "x", 8.2);
    const low = announcer.textContent;
    assert.ok(low.includes("X (Ann)") && low.includes("9"), low);
    announcer.textContent = "";
    warnLowClock(state, "x", 7.1); // the same move and side: said already
    assert.equal(announcer.textContent, "");
    warnLowClock(state, "o", 7.1);
    assert.ok(announcer.textContent.includes("O (Bob)"), announcer.textContent);
    announcer.textContent = "";
    warnLowClock({ ...state, moves: [{}, {}] }, "x", 5);
    assert.ok(announcer.textContent.includes("5"), announcer.textContent);
  });
}
