// The puzzle page (js/puzzles/main.js) without a browser, in English and Bahasa
// Indonesia: the page as the server writes it (templates/puzzles.html) on the stage, its
// API answered here. A puzzle solved says so; solved after a wrong move and a retry, or
// after a hint, it says which; the history names a try by its themes and its day in the
// page's language; the dashboard's charts (the server's SVG) are worded by the page, and
// its strengths and improvement areas say "none yet" where there are none. The browser
// keeps the journeys, once each (tests/web/test_puzzles_browser.py).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

import { FakeElement, message, pageModules } from "./stage.mjs";

const TEMPLATE = fileURLToPath(new URL("../../../src/adjacency/web/templates/puzzles.html", import.meta.url));

// The words the browser journeys asserted, as the catalogues should have them.
const SOLVED = { en: "Solved!", id: "Terpecahkan!" };
const AFTER_MISS = {
  en: "Solved, after a miss: your first try counted as a loss.",
  id: "Terpecahkan, setelah meleset: percobaan pertama Anda dihitung kalah.",
};
const AFTER_HINT = {
  en: "Solved, with a hint: your first try counted as a loss.",
  id: "Terpecahkan, dengan petunjuk: percobaan pertama Anda dihitung kalah.",
};
const NONE_YET = { en: "none yet", id: "belum ada" };
const PERFORMANCE = { en: "performance", id: "performa" };
const MAY_5 = { en: "May 5", id: "5 Mei" }; // the browsers' short dates in en-US and id-ID
const THEMES = ["corner", "parity"];
const FIRST = Date.UTC(2026, 4, 5, 12) / 1000; // noon, UTC: May 5 in any time zone near it

const VOID = new Set(["area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"]);

/** `html`'s elements and text appended to `parent` (enough for the page's own markup). */
function parse(html, parent) {
  const stack = [parent];
  const tag = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w-]*)((?:"[^"]*"|'[^']*'|[^>"'])*)>|([^<]+)/g;
  for (const m of html.matchAll(tag)) {
    const top = stack[stack.length - 1];
    if (m[4] !== undefined) {
      if (m[4].trim()) top.appendChild(document.createTextNode(m[4].replace(/&amp;/g, "&")));
    } else if (m[2] && m[1]) {
      stack.pop();
    } else if (m[2]) {
      const node = top.appendChild(new FakeElement(m[2]));
      for (const a of m[3].matchAll(/([\w:-]+)(?:="([^"]*)")?/g)) node.setAttribute(a[1], a[2] ?? "");
      node.hidden = node.hasAttribute("hidden");
      if (!VOID.has(m[2].toLowerCase()) && !/\/\s*$/.test(m[3])) stack.push(node);
    }
  }
}

// What the page asks of its elements beyond the stage's: focus, markup, a modal dialog.
FakeElement.prototype.focus = function focus() { document.activeElement = this; };
Object.defineProperty(FakeElement.prototype, "innerHTML", {
  set(html) { this.replaceChildren(); parse(html, this); },
  get() { return this.textContent; },
});
FakeElement.prototype.showModal = function showModal() { this.open = true; };
FakeElement.prototype.close = function close() { this.open = false; };

/** A fresh document holding the puzzle page's body, as the template writes it. */
function puzzlePage() {
  const page = new document.constructor();
  const body = readFileSync(TEMPLATE, "utf8").split("{% block body %}")[1].split("{% endblock %}")[0];
  page.body.appendChild(new FakeElement("div")).id = "announcer";
  parse(body.replace(/{%[\s\S]*?%}|{{[\s\S]*?}}/g, ""), page.body);
  page.querySelector("#dashboard-period").value = "all";
  for (const picker of ["#theme", "#length", "#phase"]) page.querySelector(picker).value = "";
  return page;
}

const EMPTY = "3/3/3 x 9";

/** The API as the page asks it, answered from `api` (what a test sets). */
function server(api) {
  const puzzle = (id) => ({ id, position: EMPTY, rows: 3, cols: 3, turn: "x", moves: 2,
    rating: { rating: 1500 }, player: { rating: api.player }, tried: false });
  const ratings = (score) => ({ rated: true, unrated: null,
    player_before: { rating: 1500 }, player_after: { rating: 1500 + 20 * (2 * score - 1) },
    puzzle_before: { rating: 1500 }, puzzle_after: { rating: 1500 - 20 * (2 * score - 1) } });
  return (path, body) => {
    if (/^\/api\/puzzles\/(themes|lengths|phases)$/.test(path)) return [];
    if (path === "/api/puzzles/history") return api.history;
    if (path.startsWith("/api/puzzles/next")) return puzzle(`p${(api.served += 1)}`);
    const [, id, action] = /^\/api\/puzzles\/(\w+)(?:\/(\w+))?$/.exec(path);
    if (!action) return puzzle(id);
    if (action === "hint") return { region: ["a1", "b1"], move: null, ratings: ratings(0) };
    const moves = body.moves;
    if (moves[moves.length - 1] === "c3") return { outcome: "wrong", reply: "b3", ratings: ratings(0) };
    if (moves.length === 1) return { outcome: "correct", reply: "b2" };
    api.history = [{ id, themes: THEMES, win: api.win, solved: true, first: FIRST }];
    return { outcome: "solved", solution: ["a1", "b2", "c1"], themes: THEMES, ratings: ratings(Number(api.win)) };
  };
}

/** The dashboard's charts as the server draws them: each theme played at `performance`. */
function charts(api, query) {
  if (query.startsWith("rating")) {
    return `<svg data-points="1" data-last="1480"><text class="rating-date" data-at="${FIRST}">2026-05-05</text></svg>`;
  }
  if (!api.history.length) return "<svg></svg>";
  const rows = THEMES.map((theme) => `<g class="theme-row" data-theme="${theme}" data-performance="${api.performance}">`
    + `<text data-i18n="puzzle.theme.${theme}">${theme}</text><text class="theme-performance">${api.performance}</text></g>`);
  return `<svg><text class="theme-head" data-i18n="puzzle.performance">performance</text>${rows.join("")}</svg>`;
}

/** The page in `language`, loaded on its own document, its first puzzle shown. */
async function opened(language) {
  await pageModules(language, []); // the stage set, before the page's own fetch
  const catalogues = globalThis.fetch;
  const api = { player: 1500, history: [], served: 0, win: true, performance: 2000 };
  const answer = server(api);
  const page = puzzlePage();
  const fetch = async (url, options = {}) => {
    const path = String(url);
    if (path.startsWith("/static/")) return catalogues(url);
    if (path.startsWith("/api/puzzles/dashboard.svg?by=") || path === "/api/puzzles/rating.svg") {
      const text = charts(api, path.split("/").pop());
      return { ok: true, status: 200, text: async () => text };
    }
    const data = answer(path.split("#")[0], options.body ? JSON.parse(options.body) : undefined);
    return { ok: true, status: 200, json: async () => data };
  };
  globalThis.fetch = fetch;
  globalThis.document = page;
  globalThis.history = { replaceState() {} };
  window.location.pathname = "/puzzles/p0";
  await pageModules(language, ["puzzles/main.js"]);
  const $ = (selector) => page.querySelector(selector);
  await until(() => $("#board [data-square=a1]") && text($("#player-rating")) === "1500", "the first puzzle");
  await sleep(50); // its history and dashboard asked for, on this language's document
  /** The page's document and fetch are this language's while a test of it runs. */
  const on = () => { globalThis.document = page; globalThis.fetch = fetch; };
  return { api, $, on };
}

/** Wait until `ready()`: the page's requests and its reply's pause. The 30 s bound only
 * ends a page that never gets there; a loaded machine may take seconds for a step. */
async function until(ready, what) {
  const deadline = Date.now() + 30_000;
  while (!ready()) {
    if (Date.now() > deadline) assert.fail(`the page never showed ${what}`);
    await sleep(10);
  }
}

const click = (node) => node.dispatchEvent({ type: "click" });
const text = (node) => node.textContent;

// Both pages loaded before any test runs: each test then puts its own page on the stage.
const pages = { en: await opened("en"), id: await opened("id") };

for (const language of ["en", "id"]) {
  const page = pages[language];
  const { $, api } = page;
  const say = (key, params) => message(language, key, params);
  const square = (name) => $(`#board [data-square=${name}]`);
  const filled = (name) => square(name).querySelector("svg.piece") !== null;

  /** Play the shown puzzle's solution by clicks, its reply drawn between. */
  async function solve() {
    await until(() => $("#board").querySelector("[data-square=a1]") && !$("#board").classList.contains("locked"), "a puzzle");
    click(square("a1"));
    await until(() => filled("b2") && !$("#board").classList.contains("locked"), "the reply");
    click(square("c1"));
    await until(() => text($("#prompt")) === SOLVED[language], "the puzzle solved");
  }

  /** The next puzzle, by Next. */
  async function next() {
    click($("#btn-next"));
    await until(() => !filled("a1") && $("#btn-analyse").hidden, "the next puzzle");
  }

  test(`${language}: a puzzle solved says so; the history names it by its themes and day`, async () => {
    page.on();
    api.win = true;
    api.performance = 2000; // above the player's rating: both themes strengths
    await solve();
    assert.equal(text($("#prompt")), say("puzzle.solved-title"));
    assert.equal(text($("#feedback")), say("puzzle.solved"));
    assert.equal(text($("#line")), say("puzzle.line", { line: "a1 b2 c1" }));
    await until(() => $("#history").children.length === 1 && !$("#dashboard-verdict").hidden, "the history");
    const themes = THEMES.map((theme) => say(`puzzle.theme.${theme}`));
    const row = text($("#history a"));
    assert.ok(themes.every((theme) => row.includes(theme)) && row.includes(MAY_5[language]), row);
    assert.equal(text($("#dashboard [data-by=theme] .theme-head")), PERFORMANCE[language]);
    const drawn = $("#dashboard [data-by=theme]").querySelectorAll(".theme-row text[data-i18n]").map(text);
    assert.deepEqual(drawn, themes);
    assert.equal(text($("#rating-chart .rating-date")), MAY_5[language]);
    for (const theme of themes) assert.ok(text($("#dashboard-strengths")).includes(theme));
    assert.equal(text($("#dashboard-improve")), NONE_YET[language]);
  });

  test(`${language}: solved after a wrong move and a retry, it says after a miss`, async () => {
    page.on();
    await next();
    api.win = false;
    api.performance = 1000; // below the player's rating: both themes to improve
    click(square("c3"));
    await until(() => filled("b3") && !$("#btn-retry").hidden, "the refutation");
    assert.equal(text($("#feedback")), say("puzzle.wrong", { move: "c3", reply: "b3" }));
    click($("#btn-retry"));
    assert.equal(text($("#feedback")), say("puzzle.try-again"));
    await solve();
    assert.equal(text($("#feedback")), AFTER_MISS[language]);
    await until(() => !$("#dashboard-verdict").hidden && text($("#dashboard-strengths")) === NONE_YET[language], "the verdict");
    for (const theme of THEMES) assert.ok(text($("#dashboard-improve")).includes(say(`puzzle.theme.${theme}`)));
  });

  test(`${language}: solved after a hint, it says with a hint, not after a miss`, async () => {
    page.on();
    await next();
    click($("#btn-hint"));
    await until(() => square("a1").classList.contains("region"), "the hint's region");
    assert.equal(text($("#feedback")), say("puzzle.hint-region"));
    await solve();
    assert.equal(text($("#feedback")), AFTER_HINT[language]);
  });
}
