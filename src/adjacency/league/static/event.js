// The event page: crosstable (each cell a pair's result, linking to its games, and the
// points of the row's byes), standings, games in progress and the next round; refreshed
// every 2 s. The server sends the page with the table in <noscript> for a browser
// without JavaScript. Its projector view (`?view=projector`, a link on the page) puts
// the crosstable first, the event's name in its heading, so a projected screen shows it
// without scrolling while the live boards play under it.
import { decimal, t } from "/static/js/i18n.js";
import { el, eloInterval, eloValue, eventWord, getJson, memberLink, paceText, postJson } from "./league.js";
import { byId } from "/static/js/dom.js";

const name = decodeURIComponent(location.pathname.split("/").pop());
const api = `/api/league/events/${encodeURIComponent(name)}`;
const FILES = ["table.csv", "table.json", "crosstable.csv", "games.txt"];
const projector = new URLSearchParams(location.search).get("view") === "projector";

// The projector view: the crosstable section moved to the top of the page (in the
// document, not only on screen: a screen reader reads what the screen shows first).
function setView() {
  const toggle = byId("view-toggle");
  if (!projector) return;
  document.body.classList.add("projector");
  const main = document.querySelector("main");
  main.prepend(byId("crosstable-section"));
  toggle.textContent = t("event.view.normal");
  toggle.href = location.pathname;
}

// Points (whole or half): "2", "1½", "½".
function points(value) {
  const whole = Math.floor(value);
  const half = value - whole >= 0.5 ? "½" : "";
  return whole || !half ? `${whole}${half}` : half;
}

// A tie-break (Sonneborn-Berger, Buchholz: quarters happen) in one format, the page's
// decimals: "19.5", "45.75", "20".
function tieBreak(value) {
  return decimal(value, 2, 0);
}

// A pair's cell: the row's points and the column's from their games together, "1½–½"
// (the legend under the table says so), "abs" after it when a team's absence decided
// one of their games (both absent: both lost, "0–0 abs"), "ff" when one was never played
// (a forfeit of a team withdrawn after pairing); a bye counts in its own column.
function pairText(cell, theirs, absent, unplayed) {
  const mark = (absent ? ` ${t("event.absent-mark")}` : "")
    + (unplayed ? ` ${t("event.unplayed-mark")}` : "");
  return `${points(cell[0])}–${points(theirs ? theirs[0] : cell[1] - cell[0])}${mark}`;
}

function renderCrosstable(cross) {
  const table = byId("crosstable");
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, t("league.col.name")),
    ...cross.names.map((_, i) => el("th", { class: "num" }, String(i + 1))),
    el("th", { class: "num" }, t("event.col.byes")));
  const rows = cross.names.map((rowName, i) => el("tr", {},
    el("td", {}, String(i + 1)), el("td", {}, memberLink(rowName)),
    ...cross.cells[i].map((cell, j) => {
      if (i === j) return el("td", { class: "num self" }, "×");
      if (!cell) return el("td", { class: "num", "data-cell": `${i}-${j}` }, "");
      const games = cross.games[i][j];
      const absent = cross.absent ? cross.absent[i][j] : 0;
      const unplayed = cross.unplayed && cross.unplayed.length ? cross.unplayed[i][j] : 0;
      const text = pairText(cell, cross.cells[j][i], absent, unplayed);
      const link = games.length ? el("a", { href: `/watch/${games[games.length - 1]}` }, text) : text;
      const attrs = { class: "num filled", "data-cell": `${i}-${j}` };
      const titles = [];
      if (absent) titles.push(t("event.absent-title", { count: absent }));
      if (unplayed) titles.push(t("event.unplayed-title", { count: unplayed }));
      if (titles.length) attrs.title = titles.join("; ");
      return el("td", attrs, link);
    }),
    el("td", { class: "num" }, points(cross.byes[i]))));
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

function renderStandings(data) {
  const swiss = data.event.format === "swiss";
  const breaks = swiss ? ["Buchholz", t("event.col.median")] : ["S-B"];
  const head = el("tr", {}, ...["#", t("league.col.name"), t("member.col.points"), t("league.col.games"),
    t("event.col.byes"), t("event.col.unplayed"), ...breaks,
    t("event.col.pairs"), "Elo (95%)", t("event.col.margin")]
    .map((h, k) => el("th", { class: k > 1 ? "num" : "" }, h)));
  const rows = data.standings.map((r) => el("tr", { class: r.withdrawn ? "provisional" : "" },
    el("td", {}, String(r.rank)),
    el("td", {}, memberLink(r.name), r.withdrawn ? ` ${t("event.withdrawn")}` : ""),
    el("td", { class: "num" }, points(r.points)),
    el("td", { class: "num" }, String(r.games)),
    el("td", { class: "num" }, String(r.byes)),
    el("td", { class: "num" }, String(r.unplayed || 0)),
    ...(swiss ? [r.buchholz, r.median_buchholz] : [r.sonneborn_berger])
      .map((v) => el("td", { class: "num" }, tieBreak(v))),
    el("td", { class: "num" }, r.pentanomial.join(" ")),
    el("td", { class: "num" }, r.elo == null ? "" : `${eloValue(r.elo)} ${eloInterval(r.elo_low, r.elo_high)}`),
    el("td", { class: "num" }, r.margin == null ? "" : decimal(r.margin, 1))));
  byId("standings").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

function renderLists(data) {
  const live = data.live.map((g) => el("li", {}, el("a", { href: `/watch/${g.id}` }, `${g.x} – ${g.o}`)));
  byId("live").replaceChildren(...(live.length ? live : [el("li", {}, t("member.failures.none"))]));
  // a finished event pairs nothing more; a Swiss pairs its next round when this one ends
  const none = data.event.status === "finished" ? t("event.finished-no-next")
    : data.event.format === "swiss" ? t("event.paired-later") : t("member.failures.none");
  let next = [el("li", { id: "next-none" }, none)];
  if (data.next && data.next.length) {
    next = data.next.map((b) => el("li", {}, b.b ? `${b.a} – ${b.b}` : t("event.bye", { name: b.a })));
  }
  byId("next").replaceChildren(...next);
}

// A person's place in an event open to people: signed in on the play page (its secret
// in this browser), Join or Leave until the start; afterwards, whether they play in it
// (their games are on the play page) or, not in it, that nobody joins once it started.
// A visitor not signed in is told how to join until the start, nothing after. The
// button marks itself ready once its handler is attached.
const PERSON_KEY = "adjacency-league-person";
let entry = null; // the person's place, as /entry last answered

function person() {
  try {
    return JSON.parse(localStorage.getItem(PERSON_KEY) || "null");
  } catch {
    return null;
  }
}

async function showEntry(ev) {
  const section = byId("entry");
  const mine = person();
  section.hidden = !ev.people || (!mine && ev.status !== "scheduled");
  if (section.hidden) return;
  const button = byId("entry-button");
  if (!mine) {
    byId("entry-text").textContent = t("event.entry.sign-in");
    button.hidden = true;
    return;
  }
  if (!entry || entry.status !== ev.status) {
    try {
      entry = await getJson(`${api}/entry`, { headers: { Authorization: `Bearer ${mine.secret}` } });
    } catch (error) {
      byId("entry-message").textContent = error.message;
      return;
    }
  }
  const started = entry.status !== "scheduled";
  let text;
  if (entry.joined) text = t(started ? "event.entry.playing" : "event.entry.joined", { name: mine.name, count: entry.people_joined });
  else text = t(started ? "event.entry.started" : "event.entry.open", { count: entry.people_joined });
  byId("entry-text").textContent = text;
  button.hidden = started;
  button.textContent = t(entry.joined ? "event.entry.leave" : "event.entry.join");
}

byId("entry-button").addEventListener("click", async () => {
  const mine = person();
  if (!mine || !entry) return;
  const action = entry.joined ? "leave" : "join";
  try {
    entry = await postJson(`${api}/${action}`, {}, mine.secret);
    byId("entry-message").textContent = t(entry.joined ? "event.entry.done-join" : "event.entry.done-leave");
  } catch (error) {
    byId("entry-message").textContent = error.message;
    entry = null;
  }
  await refresh();
});
byId("entry-button").dataset.ready = "true";

async function refresh() {
  try {
    const data = await getJson(api);
    const ev = data.event;
    document.title = `${ev.name} · ${t("event.title")}`;
    byId("title").textContent = ev.name;
    if (projector) byId("crosstable-title").textContent = t("event.crosstable.of", { name: ev.name });
    const round = data.rounds.length;
    const where = round ? t("event.round-of", { round: Math.min(round, ev.rounds), count: ev.rounds })
      : ev.rounds ? t("event.rounds", { count: ev.rounds }) : t("event.rounds-later");
    const unrated = paceText(ev) + (ev.rated ? "" : `, ${t("event.unrated")}`);
    const waiting = ev.waiting ? ` (${t("event.waiting", { reason: ev.waiting })})` : "";
    byId("summary").textContent =
      `${eventWord("format", ev.format)}, ${where}, ${eventWord("status", ev.paused ? "paused" : ev.status)}${waiting}, ${ev.time_control}${unrated}`;
    // a team whose code changed mid-event: its games were not all played by one version
    const changed = ev.changed_versions || [];
    byId("versions-changed").hidden = !changed.length;
    byId("versions-changed").textContent = changed.length ? t("event.versions-changed", {
      teams: changed.map((c) => t("event.versions-of", { name: c.name, versions: c.versions.join(", ") })).join("; ") }) : "";
    byId("downloads").replaceChildren(`${t("event.downloads")} `,
      ...FILES.flatMap((f, k) => [k ? " · " : "", el("a", { href: `${api}/${f}`, download: "" }, f)]));
    renderCrosstable(data.crosstable);
    renderStandings(data);
    byId("tiebreaks").textContent = t(ev.format === "swiss" ? "event.tiebreaks.swiss" : "event.tiebreaks.round-robin");
    renderLists(data);
    await showEntry(ev);
  } catch (error) {
    byId("summary").textContent = t("event.unavailable", { error: error.message });
  }
}

setView();
refresh();
setInterval(refresh, 2000);
