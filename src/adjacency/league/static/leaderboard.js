// The leaderboard page: standings and live games, refreshed every two seconds.
import { t } from "/static/js/i18n.js";
import { el, eloInterval, eloValue, getJson, memberLink } from "./league.js";
import { byId } from "/static/js/dom.js";

// The Elo and its interval (league.js), the interval in a span of its own (on a phone it
// goes under the value).
function eloText(row) {
  if (row.elo == null) return [row.games ? t("league.elo.needs") : "–"];
  return [`${eloValue(row.elo)} `, el("span", { class: "elo-range" }, eloInterval(row.elo_low, row.elo_high))];
}

function row(r, i) {
  return el(
    "tr",
    { "data-name": r.name },
    el("td", {}, i + 1),
    el("td", {}, memberLink(r.name), " ", el("span", { class: "kind" }, t(`league.kind.${r.kind === "person" || r.kind === "house" ? r.kind : "bot"}`))),
    el("td", { class: `num rating${r.provisional ? " provisional" : ""}` }, `${Math.round(r.rating)}${r.provisional ? "?" : ""}`),
    el("td", { class: "num games" }, r.games),
    el("td", { class: "num wdl" }, `${r.wins}-${r.draws}-${r.losses}`),
    el("td", { class: "num" }, ...eloText(r)),
    el("td", { class: r.online ? "online" : "" }, t(r.revoked ? "league.revoked" : r.online ? "league.online" : "league.offline")),
  );
}

async function refresh() {
  const [info, rows, live] = await Promise.all([
    getJson("/api/league"),
    getJson("/api/league/standings"),
    getJson("/api/league/live"),
  ]);
  const s = info.settings;
  // The house bots play from the server itself: always there, though never "connected".
  const house = rows.filter((r) => r.kind === "house" && r.online && !r.revoked).length;
  byId("settings").textContent =
    t("league.settings", { rows: s.rows, cols: s.cols, rounds: s.rounds, time: s.time_control,
      members: t("league.members", { count: info.members }), bots: t("league.bots", { count: info.connected + house }),
      games: t("league.games", { count: info.live }) });
  // The standings list the established members first, then the provisional ones apart.
  const established = rows.filter((r) => !r.provisional);
  const provisional = rows.filter((r) => r.provisional);
  const body = document.querySelector("#standings tbody");
  const apart = provisional.length
    ? [el("tr", { class: "provisional-head" }, el("td", { colspan: 7 }, t("league.provisional")))]
    : [];
  body.replaceChildren(
    ...established.map(row),
    ...apart,
    ...provisional.map((r, i) => row(r, established.length + i)),
  );
  byId("live").replaceChildren(
    ...live.map((g) =>
      el("li", {}, el("a", { href: `/watch/${g.id}` }, t("league.live-game", { id: g.id, x: g.x, o: g.o })), ` (${t("league.plies", { count: g.moves.length })})`),
    ),
  );
}

async function loop() {
  try {
    await refresh();
  } catch (error) {
    byId("settings").textContent = t("league.unreachable", { error: error.message });
  }
  setTimeout(loop, 2000);
}
loop();
