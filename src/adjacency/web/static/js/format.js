// Small text helpers shared by the panels.

import { decimal, detailText, has, lang, t } from "./i18n.js";
import { shownName } from "./levels.js";

// A side and its player's name as the page shows it: "X (Pemain X)".
export function label(state, color) {
  return `${color.toUpperCase()} (${shownName(state[color], color)})`;
}

// The server's English `text` about the game `s` with each side it names by a default
// name ("O (Player O)", "X (Club bot)": the names the server gives a seat left blank, in
// English) named as label() names that side: in the page's language, on its seat.
export function named(s, text) {
  let out = text;
  for (const color of ["x", "o"]) {
    const side = color.toUpperCase();
    const defaults = s[color].kind === "bot"
      ? (s[color].level_name ? [`${s[color].level_name} bot`] : [])
      : ["Player X", "Player O"];
    for (const name of defaults) out = out.split(`${side} (${name})`).join(label(s, color));
  }
  return out;
}

// The termination's detail of the finished game `s` in the page's language (its code's
// message, else the server's English), its players named as label() names them.
export function endDetail(s) {
  const params = {};
  for (const [key, value] of Object.entries(s.detail_params || {})) {
    params[key] = typeof value === "string" ? named(s, value) : value;
  }
  return named(s, detailText({ ...s, detail: s.termination_detail, detail_params: params }));
}

export function countCells(cells) {
  let x = 0;
  let o = 0;
  for (const c of cells) {
    if (c === "x") x++;
    else if (c === "o") o++;
  }
  return [x, o];
}

export function formatEval(score) {
  if (score === null || score === undefined) return "";
  const side = score > 0 ? "X" : score < 0 ? "O" : "even";
  return side === "even" ? t("eval.even") : `${side} +${decimal(Math.abs(score), 1)}`;
}

// A number of squares for people: whole numbers as they are, others to one decimal
// (searches give fractional values: "3.4", never "3.375").
export function formatSquares(value) {
  const rounded = Math.round(value * 10) / 10;
  const text = Number.isInteger(rounded) ? String(rounded) : decimal(rounded, 1);
  return t("format.squares", { count: rounded, n: text });
}

// How a game ended ("resignation", "time forfeit", ...) in the page's language.
export function termination(value) {
  const key = `termination.${value.replace(/ /g, "-")}`;
  return has(key) ? t(key) : value;
}

// The one-line account of a game, whose turn or the result and why: the server's
// `message` on English pages (it has details the state lacks: an engine's own words,
// a bot waiting for a free slot), its catalogue version in other languages, with the
// termination's detail when the catalogue has its code; the catalogue's words also where
// the state has no message (your own move drawn before the server's state, guess.js).
export function describe(s) {
  if (lang === "en" && s.message) return named(s, s.message);
  const score = s.score.join("-");
  if (s.status === "over") {
    const detail = s.detail_code ? ` ${endDetail(s)}` : "";
    if (s.result === null) return t("describe.stopped") + detail;
    if (s.result === "draw") return t("describe.draw", { score });
    const winner = label(s, s.result);
    if (s.termination === "normal") return t("describe.wins", { player: winner, score });
    return t("describe.wins-by", { player: winner, how: termination(s.termination) }) + detail;
  }
  const player = label(s, s.turn);
  if (s[s.turn].kind === "bot") {
    if (s.thinking) return t("describe.thinking", { player });
    if (s.mode === "bot-bot" && s.paused) return t("describe.paused", { player });
    return t("describe.to-move", { player });
  }
  return t("describe.click", { player });
}
