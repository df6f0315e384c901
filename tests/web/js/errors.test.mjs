// How a page words the server's errors (js/i18n.js: errorText, detailText) without a
// browser: in Indonesian an error's code is worded from the catalogue with its params, a
// malformed request (422) field by field joined by "; "; where the catalogue lacks the
// code or a field's problem, or the page is English, the server's own English detail.
// The browser reads every code the server sends through the page's own client
// (tests/web/test_browser_error_codes.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { message, pageModules } from "./stage.mjs";

const { "i18n.js": id } = await pageModules("id", ["i18n.js"]);
const { "i18n.js": en } = await pageModules("en", ["i18n.js"]);

const MALFORMED = {
  code: "malformed",
  detail: "malformed request: o.kind: must be one of 'human', 'bot'; rows: must be at least 4",
  errors: [
    { field: "o.kind", code: "not_allowed", params: { limit: "'human', 'bot'" } },
    { field: "rows", code: "too_small", params: { limit: 4 } },
  ],
};

test("a malformed request is worded field by field in Indonesian", () => {
  const problems = [
    `o.kind: ${message("id", "field.not_allowed", { limit: "'human', 'bot'" })}`,
    `rows: ${message("id", "field.too_small", { limit: 4 })}`,
  ].join("; ");
  assert.equal(id.errorText(MALFORMED, "?"), message("id", "error.malformed", { problems }));
  // A problem with no field is said alone.
  const whole = { code: "malformed", errors: [{ field: "", code: "missing" }], detail: "x" };
  assert.equal(id.errorText(whole, "?"), message("id", "error.malformed", { problems: message("id", "field.missing") }));
});

test("a field problem the catalogue lacks keeps the server's English for the whole request", () => {
  const odd = { ...MALFORMED, errors: [...MALFORMED.errors, { field: "x", code: "no_such_code" }] };
  assert.equal(id.errorText(odd, "?"), MALFORMED.detail);
  assert.equal(id.errorText({ ...MALFORMED, errors: [] }, "?"), MALFORMED.detail);
});

test("an error's code is worded with its params; an unknown code keeps the detail", () => {
  const missing = { code: "game_not_found", params: { game: "tidak-ada" }, detail: "no game with id 'tidak-ada'" };
  assert.equal(id.errorText(missing, "?"), message("id", "error.game_not_found", { game: "tidak-ada" }));
  assert.equal(id.errorText({ code: "no_such_code", detail: "English words" }, "?"), "English words");
  assert.equal(id.errorText(null, "the fallback"), "the fallback");
  assert.equal(id.errorText({ detail: "" }, "the fallback"), "the fallback");
});

test("an English page shows the server's own detail, which says more", () => {
  assert.equal(en.errorText(MALFORMED, "?"), MALFORMED.detail);
  const missing = { code: "game_not_found", params: { game: "g" }, detail: "no game with id 'g'" };
  assert.equal(en.errorText(missing, "?"), "no game with id 'g'");
});

test("how a game ended is worded by its detail code, else the server's English", () => {
  const resigned = { detail: "X (Ani) resigned", detail_code: "resigned", detail_params: { player: "X (Ani)" } };
  assert.equal(id.detailText(resigned), message("id", "detail.resigned", { player: "X (Ani)" }));
  assert.equal(en.detailText(resigned), "X (Ani) resigned");
  assert.equal(id.detailText({ detail: "the engine's own words", detail_code: null }), "the engine's own words");
  assert.equal(id.detailText({ detail: "" }), "");
});
