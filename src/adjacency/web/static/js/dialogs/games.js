// The saved-games dialog: this browser's games, to resume, replay or delete.

import { api } from "../api.js";
import { notice } from "../notice.js";

const $ = (selector) => document.querySelector(selector);

function resultText(g) {
  if (g.status === "playing") return "in progress";
  if (g.status === "damaged") return "damaged";
  const score = g.score.join("–");
  if (g.result === "x") return `X wins ${score}`;
  if (g.result === "o") return `O wins ${score}`;
  if (g.result === "draw") return `draw ${score}`;
  return "stopped";
}

function when(updated) {
  const date = new Date(updated * 1000);
  const today = date.toDateString() === new Date().toDateString();
  return today
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString([], { month: "short", day: "numeric" });
}

function button(text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn small";
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

export async function showGames(game) {
  const dialog = $("#dlg-games");
  const box = $("#games-list");
  box.textContent = "Loading…";
  if (!dialog.open) dialog.showModal();
  let games;
  try {
    games = await api.games();
  } catch (err) {
    box.textContent = err.message;
    return;
  }
  if (!games.length) {
    box.innerHTML = `<p class="none">No saved games yet.</p>`;
    return;
  }
  const table = document.createElement("table");
  table.innerHTML = "<thead><tr><th>X</th><th>O</th><th>Size · rounds</th><th>Plies</th><th>Result</th><th>Played</th><th></th></tr></thead>";
  const body = document.createElement("tbody");
  for (const g of games) {
    const tr = document.createElement("tr");
    if (g.status === "damaged") tr.className = "damaged";
    const cells = [[g.x, "name"], [g.o, "name"], [`${g.rows}×${g.cols} · ${g.rounds}`, "nowrap"],
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
      td.appendChild(button(g.status === "playing" ? "Resume" : "Replay", async () => {
        dialog.close();
        try {
          await game.open(g.id, { viewPly: g.status === "playing" ? null : 0 });
        } catch (err) {
          notice(err.message);
        }
      }));
    }
    const del = button("Delete", async () => {
      try {
        await api.remove(g.id);
        if (game.state && game.state.id === g.id) notice("That game was deleted.");
        showGames(game);
      } catch (err) {
        notice(err.message);
      }
    });
    del.setAttribute("aria-label", `Delete game ${g.x} vs ${g.o}`);
    td.appendChild(del);
    tr.appendChild(td);
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.replaceChildren(table);
}
