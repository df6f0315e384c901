// A team's page: with its bot token (asked once, kept in this tab's sessionStorage, sent
// as Authorization: Bearer), send a new version of its code (a zip, as the body of
// POST /api/league/submissions) and follow every version's build and check: its status
// and the server's account (javac's words, the position a check failed on) under it.
// Each version lists the finished games it played and the points it scored in them.
// The page asks again every 3 s while a version waits to be built or checked.
import { decimal, errorText, lang, t } from "/static/js/i18n.js";
import { el } from "./league.js";
import { byId as $ } from "/static/js/dom.js";
import { requestError } from "/static/js/request-error.js";

const KEY = "adjacency.team-token";
const API = "/api/league/submissions";
const MAX_BYTES = 256 * 1024 * 1024;
let timer = null;

function stored() {
  try { return sessionStorage.getItem(KEY) || ""; } catch (err) { return ""; }
}

let memory = stored();

function keep(value) {
  try {
    if (value) sessionStorage.setItem(KEY, value);
    else sessionStorage.removeItem(KEY);
  } catch (err) { /* private mode: the token lives only in this page */ }
  memory = value;
}

function say(text) { $("status").textContent = text; }

// A request of the team's (GET, or POST of a file); its answer, else an Error.
async function call(file) {
  const headers = { Authorization: `Bearer ${memory}` };
  const options = { headers };
  if (file !== undefined) {
    Object.assign(headers, { "Content-Type": "application/zip", "X-Filename": file.name.replace(/[^A-Za-z0-9._ -]/g, "_") });
    Object.assign(options, { method: "POST", body: file });
  }
  const response = await fetch(API, options);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw requestError(errorText(answer, String(response.status)), response.status);
  }
  return answer;
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang === "id" ? "id-ID" : "en-GB");
}

function drawVersions(versions) {
  const body = $("versions").tBodies[0];
  const rows = [];
  for (const v of versions) {
    rows.push(el("tr", {},
      el("td", { class: "num" }, String(v.version)),
      el("td", { class: `status-${v.status}` }, t(`team.status.${v.status}`)),
      el("td", { class: "breakable" }, when(v.created)),
      el("td", { class: "breakable" }, v.filename),
      el("td", { class: "num" }, v.games.toLocaleString(lang)),
      el("td", { class: "num" }, decimal(v.points, 1, 0))));
    if (v.detail) {
      // the server's account, as it gave it (javac's own words): a region keyboards reach
      const account = el("pre", { class: "team-detail", tabindex: "0", "aria-label": t("team.detail", { version: v.version }) }, v.detail);
      const cell = el("td", { colspan: "6" }, account);
      rows.push(el("tr", { class: "team-detail-row" }, cell));
    }
  }
  body.replaceChildren(...rows);
  $("no-versions").hidden = versions.length > 0;
}

async function refresh() {
  if (!memory) return;
  try {
    const answer = await call();
    $("token-form").hidden = true;
    $("signed-in").hidden = false;
    $("team").hidden = false;
    $("team-name").textContent = t("team.signed-in", { name: answer.name });
    drawVersions(answer.submissions);
    const waiting = answer.submissions.some((v) => v.status === "received" || v.status === "building");
    clearTimeout(timer);
    if (waiting) timer = setTimeout(refresh, 3000);
  } catch (error) {
    if (error.status === 401 || error.status === 403) {
      keep("");
      $("token-form").hidden = false;
      $("signed-in").hidden = true;
      $("team").hidden = true;
    }
    say(t("team.failed", { error: error.message }));
  }
}

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  keep($("token").value.trim());
  $("token").value = "";
  say("");
  refresh();
});

$("token-form").dataset.ready = "true"; // the form is handled here from now on

$("forget").addEventListener("click", () => {
  keep("");
  clearTimeout(timer);
  $("token-form").hidden = false;
  $("signed-in").hidden = true;
  $("team").hidden = true;
  say(t("team.signed-out"));
});

$("upload-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("zip").files[0];
  if (!file) return;
  if (file.size > MAX_BYTES) {
    say(t("team.upload.too-big", { size: (file.size / 1048576).toFixed(1) }));
    return;
  }
  say(t("team.upload.sending"));
  try {
    const answer = await call(file);
    const version = answer.submission.version;
    say(t(answer.new ? "team.upload.new" : "team.upload.same", { version }));
    $("zip").value = "";
  } catch (error) {
    say(t("team.failed", { error: error.message }));
  }
  refresh();
});

refresh();
