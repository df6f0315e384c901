// The leaderboard page: standings and live games, refreshed every two seconds.
import { el, getJson, memberLink } from "./league.js";

function eloText(row) {
  if (row.elo == null) return "–";
  const fmt = (v) => (v == null ? "?" : Math.round(v));
  return `${fmt(row.elo)} [${fmt(row.elo_low)}, ${fmt(row.elo_high)}]`;
}

async function refresh() {
  const [info, rows, live] = await Promise.all([
    getJson("/api/league"),
    getJson("/api/league/standings"),
    getJson("/api/league/live"),
  ]);
  const s = info.settings;
  document.getElementById("settings").textContent =
    `${s.rows}x${s.cols}, ${s.rounds} rounds, ${s.time_control}; ` +
    `${info.members} members, ${info.connected} bots connected, ${info.live} games in play`;
  const body = document.querySelector("#standings tbody");
  body.replaceChildren(
    ...rows.map((row, i) =>
      el(
        "tr",
        { "data-name": row.name },
        el("td", {}, i + 1),
        el("td", {}, memberLink(row.name), " ", el("span", { class: "kind" }, row.kind === "person" ? "person" : row.kind === "house" ? "house bot" : "bot")),
        el("td", { class: `num rating${row.provisional ? " provisional" : ""}` }, `${Math.round(row.rating)}${row.provisional ? "?" : ""}`),
        el("td", { class: "num games" }, row.games),
        el("td", { class: "num" }, `${row.wins}-${row.draws}-${row.losses}`),
        el("td", { class: "num" }, eloText(row)),
        el("td", { class: row.online ? "online" : "" }, row.revoked ? "revoked" : row.online ? "online" : "offline"),
      ),
    ),
  );
  document.getElementById("live").replaceChildren(
    ...live.map((g) =>
      el("li", {}, el("a", { href: `/watch/${g.id}` }, `game ${g.id}: ${g.x} – ${g.o}`), ` (${g.moves.length} plies)`),
    ),
  );
}

async function loop() {
  try {
    await refresh();
  } catch (error) {
    document.getElementById("settings").textContent = `cannot reach the server: ${error.message}`;
  }
  setTimeout(loop, 2000);
}
loop();
