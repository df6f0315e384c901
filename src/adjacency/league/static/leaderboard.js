// The leaderboard page: standings and live games, refreshed every two seconds.
import { el, getJson, memberLink } from "./league.js";

// Every number signed and whole, as `adjacency league standings` prints them; the
// interval in a span of its own (on a phone it goes under the value).
function eloText(row) {
  if (row.elo == null) return [row.games ? "needs a win and a loss" : "–"];
  const fmt = (v) => (v == null ? "?" : `${v >= 0 ? "+" : "−"}${Math.abs(Math.round(v))}`);
  return [`${fmt(row.elo)} `, el("span", { class: "elo-range" }, `[${fmt(row.elo_low)}, ${fmt(row.elo_high)}]`)];
}

const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;

function row(r, i) {
  return el(
    "tr",
    { "data-name": r.name },
    el("td", {}, i + 1),
    el("td", {}, memberLink(r.name), " ", el("span", { class: "kind" }, r.kind === "person" ? "person" : r.kind === "house" ? "house bot" : "bot")),
    el("td", { class: `num rating${r.provisional ? " provisional" : ""}` }, `${Math.round(r.rating)}${r.provisional ? "?" : ""}`),
    el("td", { class: "num games" }, r.games),
    el("td", { class: "num wdl" }, `${r.wins}-${r.draws}-${r.losses}`),
    el("td", { class: "num" }, ...eloText(r)),
    el("td", { class: r.online ? "online" : "" }, r.revoked ? "revoked" : r.online ? "online" : "offline"),
  );
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
    `${count(info.members, "member", "members")}, ${count(info.connected, "bot", "bots")} connected, ` +
    `${count(info.live, "game", "games")} in play`;
  // The standings list the established members first, then the provisional ones apart.
  const established = rows.filter((r) => !r.provisional);
  const provisional = rows.filter((r) => r.provisional);
  const body = document.querySelector("#standings tbody");
  const apart = provisional.length
    ? [el("tr", { class: "provisional-head" }, el("td", { colspan: 7 }, "Provisional: fewer than 10 rated games or an uncertain rating"))]
    : [];
  body.replaceChildren(
    ...established.map(row),
    ...apart,
    ...provisional.map((r, i) => row(r, established.length + i)),
  );
  document.getElementById("live").replaceChildren(
    ...live.map((g) =>
      el("li", {}, el("a", { href: `/watch/${g.id}` }, `game ${g.id}: ${g.x} – ${g.o}`), ` (${count(g.moves.length, "ply", "plies")})`),
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
