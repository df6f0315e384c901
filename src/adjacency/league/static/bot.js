// A member's page: rating history plot (with axes: ratings and dates), score against each
// opponent, its games a page at a time, time use and failures.
import { detailText, t } from "/static/js/i18n.js";
import { el, getJson, memberLink, resultText, termination } from "./league.js";
import { byId, svg } from "/static/js/dom.js";

const name = decodeURIComponent(location.pathname.split("/").pop());
const PAGE = 20; // games per page of the recent games
let offset = 0; // how many newer games come before the page shown

// The plot's area inside the 600 x 240 viewBox: room on the left for the ratings and
// below for the dates.
const AREA = { left: 64, right: 592, top: 10, bottom: 212 };


// Round tick values between low and high: steps of 1, 2 or 5 times a power of ten.
function ticks(low, high, count = 4) {
  const raw = Math.max(1, (high - low) / count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const values = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) values.push(v);
  return values;
}

const day = (seconds) => new Date(seconds * 1000).toISOString().slice(0, 10);

function plot(history) {
  const chart = byId("history");
  chart.replaceChildren();
  if (!history.length) return;
  const values = history.flatMap((h) => [h.rating - 2 * h.rd, h.rating + 2 * h.rd]);
  const low = Math.min(...values), high = Math.max(...values);
  const width = AREA.right - AREA.left, height = AREA.bottom - AREA.top;
  const x = (i) => (history.length === 1 ? AREA.left + width / 2 : AREA.left + (i / (history.length - 1)) * width);
  const y = (v) => AREA.bottom - ((v - low) / Math.max(1, high - low)) * height;
  const axes = svg("g", { class: "axes" });
  axes.append(svg("line", { x1: AREA.left, y1: AREA.top, x2: AREA.left, y2: AREA.bottom }));
  axes.append(svg("line", { x1: AREA.left, y1: AREA.bottom, x2: AREA.right, y2: AREA.bottom }));
  for (const value of ticks(low, high)) {
    axes.append(svg("line", { class: "grid", x1: AREA.left, y1: y(value), x2: AREA.right, y2: y(value) }));
    axes.append(svg("text", { x: AREA.left - 6, y: y(value) + 4, "text-anchor": "end" }, value));
  }
  const dated = [...new Set([0, Math.floor((history.length - 1) / 2), history.length - 1])];
  for (const i of dated) {
    const anchor = dated.length > 1 && i === 0 ? "start" : i === history.length - 1 && dated.length > 1 ? "end" : "middle";
    axes.append(svg("text", { x: x(i), y: AREA.bottom + 20, "text-anchor": anchor }, day(history[i].at)));
  }
  const upper = history.map((h, i) => `${x(i)},${y(h.rating + 2 * h.rd)}`);
  const lower = history.map((h, i) => `${x(i)},${y(h.rating - 2 * h.rd)}`).reverse();
  const band = svg("polygon", { points: [...upper, ...lower].join(" "), class: "band" });
  const line = svg("polyline", { points: history.map((h, i) => `${x(i)},${y(h.rating)}`).join(" ") });
  chart.append(band, axes, line);
}

// The rating, its deviation (rd, as the standings print it) and the 95% interval it gives.
function ratingText(last) {
  const rating = last ? last.rating : 1500, rd = last ? last.rd : 350;
  const round = Math.round;
  // Ratings as plain numerals, as the standings print them (no thousands separator).
  const n = (v) => String(round(v));
  return t("member.rating", { rating: n(rating), rd: n(rd), low: n(rating - 2 * rd), high: n(rating + 2 * rd) });
}

function pager(data) {
  const shown = data.recent.length;
  byId("recent-range").textContent = data.recent_total
    ? t("member.range", { first: data.recent_offset + 1, last: data.recent_offset + shown, total: data.recent_total })
    : t("member.no-games");
  byId("newer").disabled = data.recent_offset === 0;
  byId("older").disabled = data.recent_offset + shown >= data.recent_total;
}

async function refresh() {
  const data = await getJson(`/api/league/members/${encodeURIComponent(name)}?offset=${offset}&limit=${PAGE}`);
  byId("name").textContent = `${data.name} (${data.kind === "house" ? t("member.house", { spec: data.spec }) : t(`league.kind.${data.kind === "person" ? "person" : "bot"}`)})`;
  const last = data.history[data.history.length - 1];
  const failures = Object.entries(data.failures).map(([k, v]) => `${v} ${termination(k)}`).join(", ") || t("member.failures.none");
  byId("summary").textContent =
    t("member.summary", { rating: ratingText(last),
      games: t("member.rated-games", { count: data.rated_games }), seconds: data.seconds_per_move ?? "–", failures,
      online: t(data.online ? "league.online" : "league.offline") });
  plot(data.history);
  document.querySelector("#opponents tbody").replaceChildren(
    ...data.opponents.map((o) => el("tr", {}, el("td", {}, memberLink(o.name)), el("td", { class: "num" }, o.games), el("td", { class: "num" }, o.points))),
  );
  document.querySelector("#recent tbody").replaceChildren(
    ...data.recent.map((g) =>
      el(
        "tr",
        {},
        el("td", {}, el("a", { href: `/watch/${g.id}` }, g.id)),
        el("td", {}, memberLink(g.x)),
        el("td", {}, memberLink(g.o)),
        el("td", { class: "nowrap" }, resultText(g)),
        el("td", {}, detailText(g)),
        el("td", {}, el("a", { href: `/api/league/games/${g.id}/record` }, t("member.download"))),
      ),
    ),
  );
  pager(data);
}

let timer = null;
let runs = 0; // a page button starts a new run; an older run's answer schedules nothing

async function loop() {
  clearTimeout(timer);
  const run = ++runs;
  try {
    await refresh();
  } catch (error) {
    byId("summary").textContent = error.message;
  }
  if (run === runs) timer = setTimeout(loop, 5000);
}

for (const [id, step] of /** @type {[string, number][]} */ ([["newer", -PAGE], ["older", PAGE]])) {
  byId(id).addEventListener("click", () => {
    offset = Math.max(0, offset + step);
    loop();
  });
}
loop();
