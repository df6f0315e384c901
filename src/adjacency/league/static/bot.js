// A member's page: rating history plot, score against each opponent, recent games,
// time use and failures.
import { t } from "/static/js/i18n.js";
import { el, getJson, memberLink, resultText } from "./league.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const name = decodeURIComponent(location.pathname.split("/").pop());

function plot(history) {
  const svg = document.getElementById("history");
  svg.replaceChildren();
  if (!history.length) return;
  const values = history.flatMap((h) => [h.rating - 2 * h.rd, h.rating + 2 * h.rd]);
  const low = Math.min(...values), high = Math.max(...values);
  const x = (i) => (history.length === 1 ? 300 : (i / (history.length - 1)) * 590 + 5);
  const y = (v) => 215 - ((v - low) / Math.max(1, high - low)) * 210;
  const band = document.createElementNS(SVG_NS, "polygon");
  const upper = history.map((h, i) => `${x(i)},${y(h.rating + 2 * h.rd)}`);
  const lower = history.map((h, i) => `${x(i)},${y(h.rating - 2 * h.rd)}`).reverse();
  band.setAttribute("points", [...upper, ...lower].join(" "));
  band.setAttribute("class", "band");
  const line = document.createElementNS(SVG_NS, "polyline");
  line.setAttribute("points", history.map((h, i) => `${x(i)},${y(h.rating)}`).join(" "));
  svg.append(band, line);
}

async function refresh() {
  const data = await getJson(`/api/league/members/${encodeURIComponent(name)}`);
  document.getElementById("name").textContent = `${data.name} (${data.kind === "house" ? t("member.house", { spec: data.spec }) : t(`league.kind.${data.kind === "person" ? "person" : "bot"}`)})`;
  const last = data.history[data.history.length - 1];
  const failures = Object.entries(data.failures).map(([k, v]) => `${v} ${k}`).join(", ") || t("member.failures.none");
  document.getElementById("summary").textContent =
    t("member.summary", { rating: last ? Math.round(last.rating) : 1500, rd: last ? Math.round(2 * last.rd) : 700,
      games: t("member.rated-games", { count: data.history.length }), seconds: data.seconds_per_move ?? "–", failures,
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
        el("td", {}, resultText(g)),
        el("td", {}, g.detail || ""),
        el("td", {}, el("a", { href: `/api/league/games/${g.id}/record` }, t("member.download"))),
      ),
    ),
  );
}

async function loop() {
  try {
    await refresh();
  } catch (error) {
    document.getElementById("summary").textContent = error.message;
  }
  setTimeout(loop, 5000);
}
loop();
