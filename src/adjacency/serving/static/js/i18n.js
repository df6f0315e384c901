// The pages' languages: one message catalogue per language (/static/i18n/<lang>.json,
// shared by the play page, the lab and the league's pages), the language picked by the
// browser (navigator.languages: Indonesian for "id", otherwise English) unless the
// visible switch (#lang) chose one, which this browser remembers (localStorage).
//
// Contract: importing this module loads the chosen catalogue (and English, the fallback)
// before any importer runs, sets <html lang>, translates the static markup and wires the
// switch. Markup names its text by key: data-i18n="key" (the element's text),
// data-i18n-html (its content, for prose with inline <strong> or <kbd>),
// data-i18n-title, data-i18n-aria-label, data-i18n-placeholder, data-i18n-content
// (attributes). Code calls t("key", {param: value}); a message may be plural, an object
// of Intl.PluralRules forms ("one", "other") chosen by the parameter `count`. A key
// missing from a catalogue falls back to English, then to the key itself.

import { $$ } from "./dom.js";

const KEY = "adjacency.lang";

// The languages with a catalogue, each named in itself (the switch's options).
export const LANGUAGES = { en: "English", id: "Bahasa Indonesia" };

function stored() {
  try { return localStorage.getItem(KEY); } catch (err) { return null; } // private mode
}

// The language this page shows: the switch's remembered choice, else the browser's first
// language we have a catalogue for, else English.
export function chosenLanguage() {
  const choice = stored();
  if (choice && choice in LANGUAGES) return choice;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const primary = String(tag).toLowerCase().split("-")[0];
    if (primary in LANGUAGES) return primary;
  }
  return "en";
}

async function load(lang) {
  try {
    const response = await fetch(`/static/i18n/${lang}.json`);
    return response.ok ? await response.json() : {};
  } catch (err) {
    return {}; // the page still works, in keys, then English
  }
}

export const lang = chosenLanguage();
const [messages, english] = await Promise.all([load(lang), lang === "en" ? null : load("en")]);
const fallback = english || messages;
const plurals = new Intl.PluralRules(lang);

// The message `key` with `{name}` placeholders filled from `params`.
export function t(key, params = {}) {
  let text = key in messages ? messages[key] : key in fallback ? fallback[key] : key;
  if (text && typeof text === "object") {
    text = text[plurals.select(Number(params.count))] ?? text.other;
  }
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? format(params[name]) : whole));
}

// Whether the catalogues have `key` (so a caller can fall back to text of its own).
export function has(key) {
  return key in messages || key in fallback;
}

function format(value) {
  return typeof value === "number" ? value.toLocaleString(lang) : String(value);
}

// `value` with `digits` decimals (at least `fewest`) in the page's language ("3.4" in
// English, "3,4" in Indonesian), without grouping: the decimals that tables, clocks and
// tooltips show.
export function decimal(value, digits, fewest = digits) {
  return Number(value).toLocaleString(lang, {
    minimumFractionDigits: fewest, maximumFractionDigits: digits, useGrouping: false });
}

// "g4, h3 and a1" in the page's language.
export function listText(items) {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items.map(String));
}

// A malformed request's problems (a 422's `errors`) field by field, "rows: ..." joined
// by "; ", or null when there are none or one has no catalogue message (`field.<code>`).
function fieldProblems(errors) {
  if (!Array.isArray(errors) || !errors.length) return null;
  if (!errors.every((e) => e && has(`field.${e.code}`))) return null;
  return errors.map((e) => {
    const problem = t(`field.${e.code}`, e.params || {});
    return e.field ? `${e.field}: ${problem}` : problem;
  }).join("; ");
}

// The text of an API error: on a page in another language than English, its code's
// message (filled with its params) when the catalogue has one, and for a malformed
// request its problems field by field; else the server's own English detail (which says
// more than any catalogue entry).
export function errorText(body, fallbackText) {
  const code = body && typeof body.code === "string" ? body.code : null;
  if (code === "malformed" && lang !== "en") {
    const problems = fieldProblems(body.errors);
    if (problems) return t("error.malformed", { problems });
  } else if (code && lang !== "en" && has(`error.${code}`)) return t(`error.${code}`, body.params || {});
  if (body && typeof body.detail === "string" && body.detail) return body.detail;
  return fallbackText;
}

// The text of a game's (or a challenge's) `detail`, the server's English sentence of how
// it ended: on a page in another language, its `detail_code`'s message (filled with its
// `detail_params`) when the catalogue has one; else the English (an engine's own words
// have no code, and say more than nothing).
export function detailText(item) {
  if (!item || !item.detail) return "";
  const key = `detail.${item.detail_code}`;
  if (item.detail_code && lang !== "en" && has(key)) return t(key, item.detail_params || {});
  return item.detail;
}

const ATTRIBUTES = ["title", "aria-label", "placeholder", "content"];

// Put the catalogue's text into the markup under `root` (see the contract above).
export function translate(root = document) {
  for (const node of $$("[data-i18n]", root)) node.textContent = t(node.dataset.i18n);
  // Prose with inline markup (<strong>, <kbd>): the catalogue is this server's own file.
  for (const node of $$("[data-i18n-html]", root)) node.innerHTML = t(node.dataset.i18nHtml);
  for (const name of ATTRIBUTES) {
    for (const node of root.querySelectorAll(`[data-i18n-${name}]`)) {
      node.setAttribute(name, t(node.getAttribute(`data-i18n-${name}`)));
    }
  }
}

// Fill the <select> `select` with the languages (the pages write the same options in
// their HTML, so the select has its width before this runs and the top bar does not
// shift); a choice is remembered and the page reloads in it (every text, static or
// drawn, then comes from the one catalogue).
export function languageSwitch(select) {
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
    const option = new Option(name, code, false, code === lang);
    option.lang = code;
    return option;
  }));
  select.value = lang;
  select.addEventListener("change", () => {
    try { localStorage.setItem(KEY, select.value); } catch (err) { /* private mode */ }
    window.location.reload();
  });
}

document.documentElement.lang = lang;
translate(document);
const picker = document.querySelector("#lang");
if (picker) languageSwitch(picker);
