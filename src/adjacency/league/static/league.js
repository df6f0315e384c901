// Shared helpers of the league pages: JSON requests, FEN to board cells, text.
import { decimal, errorText, has, t } from "/static/js/i18n.js";
import { el } from "/static/js/dom.js";

export { el }; // the pages' element maker, for the league's pages that import it from here

export async function getJson(url, options = {}) {
  const response = await fetch(url, options);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(body, `${response.status}`));
  return body;
}

export function postJson(url, body, secret) {
  const headers = { "Content-Type": "application/json" };
  if (secret) headers.Authorization = `Bearer ${secret}`;
  return getJson(url, { method: "POST", headers, body: JSON.stringify(body) });
}

/** The squares of a position text in index order a1, b1, ... (as the board view wants). */
export function cellsOfFen(fen) {
  const ranks = fen.split(" ")[0].split("/").reverse();
  let cells = "";
  for (const rank of ranks) {
    for (const ch of rank) cells += /[0-9]/.test(ch) ? ".".repeat(Number(ch)) : ch;
  }
  return cells;
}


// A member's name as a link to its page; on a phone a long name ends in an ellipsis
// (league.css) rather than breaking mid-word, the whole name in its title.
export function memberLink(name) {
  return el("a", { href: `/bot/${encodeURIComponent(name)}`, class: "member", title: name }, name);
}

// A Bradley-Terry Elo and its interval, every number signed and whole with a true minus,
// as `adjacency league standings` prints them: "+12 [−30, +54]" (the leaderboard, the
// event page).
// An image the server gives only with a token (``headers``: its Authorization), shown at
// its own size once loaded, as a data: address (the pages' policy allows images so, never
// blob:); removed where the server has none.
export function fetchedImage(path, alt, headers) {
  const image = el("img", { alt, width: "640", height: "400" });
  fetch(path, { headers }).then(async (response) => {
    if (!response.ok) { image.remove(); return; }
    const reader = new FileReader();
    const read = new Promise((done) => reader.addEventListener("load", done, { once: true }));
    reader.readAsDataURL(await response.blob());
    await read;
    image.addEventListener("load", () => {
      image.width = image.naturalWidth;
      image.height = image.naturalHeight;
    }, { once: true });
    image.src = String(reader.result);
  }).catch(() => image.remove());
  return image;
}

// A <details> whose <pre> is filled, once opened, with the text at ``path`` (fetched with
// ``headers``): a refused program's last output, read only when asked for.
export function fetchedText(summary, label, path, headers) {
  const text = el("pre", { class: "team-detail", tabindex: "0", "aria-label": label });
  const box = el("details", { class: "team-output" }, el("summary", {}, summary), text);
  let asked = false;
  box.addEventListener("toggle", () => {
    if (!box.open || asked) return;
    asked = true;
    fetch(path, { headers }).then(async (response) => {
      text.textContent = response.ok ? await response.text() : "";
    }).catch(() => { asked = false; });
  });
  return box;
}

export function eloValue(value) {
  return value == null ? "?" : `${value >= 0 ? "+" : "−"}${Math.abs(Math.round(value))}`;
}

export function eloInterval(low, high) {
  return `[${eloValue(low)}, ${eloValue(high)}]`;
}

export function resultText(game) {
  if (game.status === "playing") return t("league.game.playing");
  if (game.status === "aborted") return t("league.game.aborted");
  const token = { x: "1-0", o: "0-1", draw: "½-½" }[game.result] || "*";
  const why = game.termination && game.termination !== "normal" ? ` (${termination(game.termination)})` : "";
  return token + why;
}

// An event's format or status ("swiss", "running", ...) in the page's language.
export function eventWord(kind, value) {
  const key = `league.event.${kind}.${value}`;
  return has(key) ? t(key) : value;
}

// An event's own pace as its summaries end with it (", at least 0.5 s a move"), or ""
// when it follows the server's.
export function paceText(ev) {
  return ev.pace === null || ev.pace === undefined ? "" : `, ${t("event.pace", { seconds: decimal(ev.pace, 2, 0) })}`;
}

// How a game ended ("time forfeit", ...) in the page's language.
export function termination(value) {
  const key = `termination.${value.replace(/ /g, "-")}`;
  return has(key) ? t(key) : value;
}

export function seconds(value) {
  return value == null ? "–" : `${decimal(value, 1)} s`;
}

// A secret kept in this tab (sessionStorage under `key`, until the tab is closed):
// `value` is "" when none is kept; `keep(value)` keeps a new one ("" forgets it). Where
// the browser refuses storage (private mode) it lives only in this page.
export class TabToken {
  constructor(key) {
    this.key = key;
    try { this.value = sessionStorage.getItem(key) || ""; } catch (err) { this.value = ""; }
  }

  keep(value) {
    try {
      if (value) sessionStorage.setItem(this.key, value);
      else sessionStorage.removeItem(this.key);
    } catch (err) { /* private mode: the token lives only in this page */ }
    this.value = value;
  }
}
