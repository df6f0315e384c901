// The saved-games dialog: this browser's games, to resume, replay or delete.

import { api } from "../api.js";
import { lang, t } from "../i18n.js";
import { shownName } from "../levels.js";
import { notice } from "../notice.js";
import { $, smallButton } from "../dom.js";

function resultText(g) {
  if (g.status === "playing") return t("games.playing");
  if (g.status === "damaged") return t("games.damaged");
  const score = g.score.join("–");
  if (g.result === "x" || g.result === "o") return t("games.wins", { side: g.result.toUpperCase(), score });
  if (g.result === "draw") return t("games.draw", { score });
  return t("games.stopped");
}

// A seat's name as the board names it (levels.js shownName): a default name in the page's
// language, "You" for the one seat this browser plays.
function seatName(g, color) {
  if (!g.players) return g[color];
  const own = g.seats.length === 1 && g.seats[0] === color;
  return shownName(g.players[color], color, own);
}

function when(updated) {
  const date = new Date(updated * 1000);
  const today = date.toDateString() === new Date().toDateString();
  return today
    ? date.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString(lang, { month: "short", day: "numeric" });
}

export async function showGames(game) {
  const dialog = $("#dlg-games");
  const box = $("#games-list");
  box.textContent = t("common.loading");
  if (!dialog.open) dialog.showModal();
  let games;
  try {
    games = await api.games();
  } catch (err) {
    box.textContent = err.message;
    return;
  }
  if (!games.length) {
    box.innerHTML = `<p class="none"></p>`;
    box.firstChild.textContent = t("games.none");
    return;
  }
  const table = document.createElement("table");
  table.innerHTML = "<thead><tr><th>X</th><th>O</th><th></th><th></th><th></th><th></th><th><span class=\"sr-only\"></span></th></tr></thead>";
  const heads = table.querySelectorAll("th");
  ["games.size", "games.plies", "games.result", "games.played"].forEach((key, i) => { heads[i + 2].textContent = t(key); });
  heads[6].firstChild.textContent = t("games.actions"); // read, not shown: the buttons say what they do
  const body = document.createElement("tbody");
  for (const g of games) {
    const tr = document.createElement("tr");
    if (g.status === "damaged") tr.className = "damaged";
    const x = seatName(g, "x");
    const o = seatName(g, "o");
    const cells = [[x, "name"], [o, "name"], [`${g.rows}×${g.cols} · ${g.rounds}`, "nowrap"],
      [String(g.plies), ""], [resultText(g), "nowrap"], [when(g.updated), "nowrap"]];
    for (const [text, cls] of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      if (cls === "name") td.title = text;
      tr.appendChild(td);
    }
    const td = document.createElement("td");
    td.className = "act";
    if (g.status !== "damaged") {
      td.appendChild(smallButton(g.status === "playing" ? t("games.resume") : t("games.replay"), async () => {
        dialog.close();
        try {
          await game.open(g.id, { viewPly: g.status === "playing" ? null : 0 });
        } catch (err) {
          notice(err.message);
        }
      }));
    }
    const del = smallButton(t("games.delete"), async () => {
      try {
        await api.remove(g.id);
        if (game.state && game.state.id === g.id) notice(t("games.deleted"));
        showGames(game);
      } catch (err) {
        notice(err.message);
      }
    });
    del.setAttribute("aria-label", t("games.delete.label", { x, o }));
    td.appendChild(del);
    tr.appendChild(td);
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.replaceChildren(table);
}
