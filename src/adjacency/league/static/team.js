// A team's page: with its bot token (asked once, kept in this tab's sessionStorage, sent
// as Authorization: Bearer), send a new version of its code (a zip, as the body of
// POST /api/league/submissions) and follow every version's build and check: its status
// and the server's account (javac's words, the position a check failed on) under it.
// Each version lists the finished games it played and the points it scored in them, and
// under it those games one by one (GET /api/league/submissions/N/games): the result and,
// where the team's program failed, the reason in the server's whole words (the exception
// with the team's file and line, the time it used, the square it named). A refused
// version can be built again (POST /api/league/submissions/N/build). A version played
// through its own JavaFX window shows that window as the server's dry run drew it
// (GET .../N/window.png) and its form's choices as selects, set to what it plays with
// (GET .../N/form, a refused version's too, with who moves first among its choices);
// another choice is the team's next version (POST .../N/choice). A
// refused program shows its window and its board at the check's failed move
// (GET .../N/board.png), and a game it lost by its own failure its board then
// (GET .../N/games/G/board.png, shown when asked) and its program's last output then
// (GET .../N/games/G/output.txt, fetched when opened). An
// upload may ask to be played so (X-Program: javafx). The page asks again
// every 3 s while a version waits to be built or checked and every 10 s otherwise (while
// the tab is shown), so verdicts and games appear as they arrive.
import { decimal, errorText, lang, t } from "/static/js/i18n.js";
import { TabToken, el, fetchedImage, fetchedText } from "./league.js";
import { computing, drawCards } from "./report-card.js";
import { byId as $ } from "/static/js/dom.js";
import { requestError } from "/static/js/request-error.js";

const kept = new TabToken("adjacency.team-token"); // the token, kept in this tab
const API = "/api/league/submissions";
const MAX_BYTES = 256 * 1024 * 1024;
let timer = null;
const GAMES_SHOWN = 3; // the newest versions whose games are listed
const open = new Set(); // the versions whose games the reader opened
const programs = new Map(); // version -> its window's panel, kept across redraws (a choice half made stays)
const MOVES_FIRST = "who moves first"; // the choice naming the control that says who moves first
const refusals = new Map(); // version -> the pictures of a refused program, fetched once
const outputs = new Map(); // version -> the last output of a refused program, fetched once

function say(text) { $("status").textContent = text; }

// A request of the team's (GET, POST of a file, or POST of JSON ``json``); its answer,
// else an Error.
async function call(file, path = API, method = undefined, json = undefined) {
  const response = await send(file, path, method, json);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw requestError(errorText(answer, String(response.status)), response.status);
  }
  return answer;
}

function send(file, path, method, json) {
  const headers = { Authorization: `Bearer ${kept.value}` };
  const options = { headers };
  if (file !== undefined) {
    Object.assign(headers, { "Content-Type": "application/zip", "X-Filename": file.name.replace(/[^A-Za-z0-9._ -]/g, "_") });
    if ($("as-program").checked) headers["X-Program"] = "javafx";
    Object.assign(options, { method: "POST", body: file });
  }
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    Object.assign(options, { method: "POST", body: JSON.stringify(json) });
  }
  if (method !== undefined) Object.assign(options, { method });
  return fetch(path, options);
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
    if (v.detail || v.status === "refused") {
      // the server's account, as it gave it (javac's own words): a region keyboards reach
      const account = el("pre", { class: "team-detail", tabindex: "0", "aria-label": t("team.detail", { version: v.version }) }, v.detail);
      const cell = el("td", { colspan: "6" }, account);
      if (v.status === "refused") {
        const again = el("button", { type: "button", class: "secondary" }, t("team.build-again", { version: v.version }));
        again.addEventListener("click", () => buildAgain(v.version));
        cell.append(again);
        if (v.window || v.board) cell.append(refusedPictures(v));
        if (v.output) cell.append(refusedOutput(v));
      }
      rows.push(el("tr", { class: "team-detail-row" }, cell));
    }
    if (v.program && versions.indexOf(v) < GAMES_SHOWN) {
      const panel = programPanel(v.version, v.status === "refused");
      if (panel) rows.push(panel);
    }
    if (v.games > 0 && versions.indexOf(v) < GAMES_SHOWN) {
      const games = el("details", { class: "team-games", "data-version": String(v.version) },
        el("summary", {}, t("team.games.summary", { version: v.version, count: v.games.toLocaleString(lang) })));
      games.open = open.has(v.version);
      games.addEventListener("toggle", () => {
        if (games.open) open.add(v.version); else open.delete(v.version);
        if (games.open) drawGames(games, v.version);
      });
      if (games.open) drawGames(games, v.version);
      rows.push(el("tr", { class: "team-games-row" }, el("td", { colspan: "6" }, games)));
    }
  }
  body.replaceChildren(...rows);
  $("no-versions").hidden = versions.length > 0;
}

// The row of ``version``'s window and choice (a program played through its window), once
// its form is known (null until then); asked once per version.
function programPanel(version, refused) {
  if (programs.has(version)) return programs.get(version);
  programs.set(version, null);
  loadProgram(version, refused);
  return null;
}

// A refused program's pictures (its window, its board at the check's failed move), kept
// across redraws so each is fetched once.
function refusedPictures(v) {
  if (!refusals.has(v.version)) {
    const shown = el("div", { class: "team-pictures" });
    if (v.window) shown.append(picture(`${API}/${v.version}/window.png`, t("team.program.picture", { version: v.version })));
    if (v.board) shown.append(picture(`${API}/${v.version}/board.png`, t("team.picture.board", { version: v.version })));
    refusals.set(v.version, shown);
  }
  return refusals.get(v.version);
}

// A refused program's last output (what it printed before its check failed), fetched when
// opened and kept across redraws.
function refusedOutput(v) {
  if (!outputs.has(v.version)) {
    outputs.set(v.version, fetchedText(t("team.output", { version: v.version }),
      t("team.output.label", { version: v.version }), `${API}/${v.version}/output.txt`,
      { Authorization: `Bearer ${kept.value}` }));
  }
  return outputs.get(v.version);
}

// A picture of the team's, fetched with its token.
function picture(path, alt) {
  return fetchedImage(path, alt, { Authorization: `Bearer ${kept.value}` });
}

// A refused version's panel shows no window: its refusal's pictures above do.
async function loadProgram(version, refused) {
  let form;
  try {
    form = await call(undefined, `${API}/${version}/form`);
  } catch (error) {
    programs.delete(version); // asked again on the next look
    return;
  }
  const details = el("details", { class: "team-program", "data-version": String(version) },
    el("summary", {}, t("team.program.summary", { version, choice: form.choice })));
  if (!refused) details.append(picture(`${API}/${version}/window.png`, t("team.program.picture", { version })));
  if (form.controls.length === 0) {
    details.append(el("p", { class: "muted" }, t("team.program.none")));
  } else {
    const chooser = el("form", { class: "team-choice" });
    for (const control of form.controls) {
      const id = `choice-${version}-${form.controls.indexOf(control)}`;
      // the league's own choice of the control that says who moves first, in the page's words
      const first = control.name === MOVES_FIRST;
      const select = el("select", { id, name: control.name },
        ...control.options.map((o, k) => el("option", { value: o }, first && k === 0 ? t("team.program.first-none") : o)));
      select.value = control.chosen;
      select.dataset.chosen = control.chosen;
      chooser.append(el("label", { for: id }, first ? t("team.program.first") : control.label), select);
    }
    chooser.append(el("button", { type: "submit" }, t("team.program.choose")));
    chooser.addEventListener("submit", (event) => {
      event.preventDefault();
      const choose = {};
      // what the team changed: what it left keeps its choice
      for (const select of chooser.querySelectorAll("select")) {
        if (select.value !== select.dataset.chosen) choose[select.name] = select.value;
      }
      chooseAgain(version, choose);
    });
    details.append(chooser);
  }
  programs.set(version, el("tr", { class: "team-program-row" }, el("td", { colspan: "6" }, details)));
  refresh();
}

async function chooseAgain(version, choose) {
  try {
    const answer = await call(undefined, `${API}/${version}/choice`, undefined, { choose });
    const made = answer.submission.version;
    say(t(answer.new ? "team.program.sent" : "team.program.same", { version: made }));
  } catch (error) {
    say(t("team.failed", { error: error.message }));
  }
  refresh();
}

// The result of a game for the team that played ``color`` in it.
function outcome(game, color) {
  if (game.status === "playing") return t("team.games.playing");
  if (game.status === "aborted") return t("team.games.aborted");
  if (game.result === "draw") return t("team.games.draw");
  return t(game.result === color ? "team.games.won" : "team.games.lost");
}

async function drawGames(holder, version) {
  let games;
  try {
    games = await call(undefined, `${API}/${version}/games`);
  } catch (error) {
    say(t("team.failed", { error: error.message }));
    return;
  }
  const name = $("team-name").dataset.name;
  const head = el("tr", {}, ...["game", "color", "opponent", "result", "end"].map((c) => el("th", { scope: "col" }, t(`team.games.col.${c}`))));
  const rows = games.map((g) => {
    const color = g.x === name ? "x" : "o";
    const opponent = color === "x" ? g.o : g.x;
    const end = el("td", { class: "breakable" }, el("span", { class: "team-game-end" }, g.detail || ""));
    if (g.board) {
      // its board at its failed move, fetched when asked
      const show = el("button", { type: "button", class: "secondary team-game-board" }, t("team.games.board"));
      show.addEventListener("click", () => {
        show.replaceWith(picture(`${API}/${version}/games/${g.id}/board.png`, t("team.games.board-picture", { game: g.id })));
      }, { once: true });
      end.append(show);
    }
    if (g.output) {
      // its program's last output at that move, fetched when opened
      end.append(fetchedText(t("team.games.output", { game: g.id }),
        t("team.games.output.label", { game: g.id }), `${API}/${version}/games/${g.id}/output.txt`,
        { Authorization: `Bearer ${kept.value}` }));
    }
    return el("tr", {},
      el("td", { class: "num" }, el("a", { href: `/watch/${g.id}` }, String(g.id))),
      el("td", {}, color.toUpperCase()),
      el("td", { class: "breakable" }, opponent),
      el("td", {}, outcome(g, color)),
      end);
  });
  const table = el("table", { class: "league team-games-table" }, el("thead", {}, head), el("tbody", {}, ...rows));
  holder.querySelector("table")?.remove();
  holder.append(table);
}

async function buildAgain(version) {
  try {
    await call(undefined, `${API}/${version}/build`, "POST");
    say(t("team.build-again.sent", { version }));
  } catch (error) {
    say(t("team.failed", { error: error.message }));
  }
  refresh();
}

async function refresh() {
  if (!kept.value) return;
  try {
    const answer = await call();
    $("token-form").hidden = true;
    $("signed-in").hidden = false;
    $("team").hidden = false;
    $("team-name").textContent = t("team.signed-in", { name: answer.name });
    $("team-name").dataset.name = answer.name;
    drawVersions(answer.submissions);
    const waiting = answer.submissions.some((v) => v.status === "received" || v.status === "building");
    clearTimeout(timer);
    timer = setTimeout(later, waiting ? 3000 : 10000);
  } catch (error) {
    if (error.status === 401 || error.status === 403) {
      kept.keep("");
      $("token-form").hidden = false;
      $("signed-in").hidden = true;
      $("team").hidden = true;
    }
    say(t("team.failed", { error: error.message }));
  }
}

// The next look, while the tab is shown (a hidden tab looks again once shown).
function later() {
  if (document.hidden) document.addEventListener("visibilitychange", refresh, { once: true });
  else refresh();
}

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  kept.keep($("token").value.trim());
  $("token").value = "";
  say("");
  refresh();
});

$("token-form").dataset.ready = "true"; // the form is handled here from now on

// The report cards of the team's versions (GET /api/league/cards): shown when asked,
// asked again while one is being made.
let cardsTimer = null;
async function showCards() {
  clearTimeout(cardsTimer);
  try {
    const answer = await call(undefined, "/api/league/cards");
    $("cards-box").replaceChildren(drawCards(answer));
    $("cards-box").hidden = false;
    if (computing(answer)) cardsTimer = setTimeout(showCards, 15000);
  } catch (error) {
    say(t("team.failed", { error: error.message }));
  }
}
$("cards-show").addEventListener("click", showCards);

$("forget").addEventListener("click", () => {
  kept.keep("");
  clearTimeout(timer);
  programs.clear();
  refusals.clear();
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
    // the same kept files: these very bytes, or another zip whose other files are left out
    const same = answer.same_bytes === false ? "team.upload.same-files" : "team.upload.same";
    say(t(answer.new ? "team.upload.new" : same, { version }));
    $("zip").value = "";
  } catch (error) {
    say(t("team.failed", { error: error.message }));
  }
  refresh();
});

refresh();
