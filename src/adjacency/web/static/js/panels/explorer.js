// The opening explorer, under the engine lines: for the shown position, the moves played
// from it in the stored games (this server's finished games and, when the server reads
// one, a league's), most played first, each with its games, how they ended (X wins ·
// draws · O wins, in per cent) and the average final margin (X − O), and the proven
// book's value where the book holds the position. A move is a button: it plays the move
// into the variation tree (onMove). Each answer is one cheap request (no engine work), so
// it follows every position the analysis panel shows.

import { decimal, t } from "../i18n.js";
import { request } from "../api.js";
import { $ } from "../dom.js";

function percent(part, whole) {
  return whole ? Math.round((100 * part) / whole) : 0;
}

function margin(value) {
  if (value === 0) return "0";
  return `${value > 0 ? "+" : "−"}${decimal(Math.abs(value), 1, 0)}`;
}

function bookText(value) {
  return value === 0 ? t("analysis.draw-perfect")
    : t("analysis.wins-perfect", { side: value > 0 ? "X" : "O", count: Math.abs(value) });
}

export class ExplorerPanel {
  constructor({ onMove = (_fen, _move) => {} } = {}) {
    this.onMove = onMove;
    this.fen = null;
    this.controller = null;
  }

  // Show the explorer's moves from `fen` (the newest request wins; an older answer is dropped).
  async load(fen) {
    if (this.controller) this.controller.abort();
    const controller = new AbortController();
    this.controller = controller;
    this.fen = fen;
    const box = $("#explorer");
    box.dataset.state = "loading";
    $("#explorer-note").textContent = t("explorer.loading");
    let data;
    try {
      data = await request("GET", `/api/explorer?fen=${encodeURIComponent(fen)}`);
    } catch (err) {
      if (this.controller !== controller) return;
      $("#explorer-note").textContent = err.message;
      $("#explorer-body").replaceChildren();
      $("#explorer-table").hidden = true;
      box.dataset.state = "error";
      return;
    }
    if (this.controller !== controller) return;
    this.render(fen, data);
    box.dataset.state = "ready";
    box.dataset.fen = fen;
  }

  render(fen, data) {
    const body = $("#explorer-body");
    body.replaceChildren();
    $("#explorer-book").textContent = data.book === null ? ""
      : t("explorer.book", { text: bookText(data.book), moves: data.book_moves.join(", ") });
    $("#explorer-note").textContent = data.games
      ? t("explorer.count", { count: data.games, plies: data.plies })
      : t("explorer.none", { plies: data.plies });
    $("#explorer-table").hidden = data.moves.length === 0;
    for (const move of data.moves) {
      const row = document.createElement("tr");
      row.dataset.move = move.move;
      const head = document.createElement("th");
      head.scope = "row";
      const play = document.createElement("button");
      play.type = "button";
      play.className = "explorer-move";
      play.textContent = move.move;
      play.title = t("analysis.line.play", { move: move.move });
      play.addEventListener("click", () => this.onMove(fen, move.move));
      head.appendChild(play);
      if (move.book !== null) {
        const mark = document.createElement("span");
        mark.className = "explorer-best";
        mark.textContent = "★";
        mark.title = t("explorer.best");
        mark.setAttribute("aria-label", t("explorer.best"));
        head.append(" ", mark);
      }
      const games = document.createElement("td");
      games.textContent = String(move.games);
      const results = document.createElement("td");
      const [x, d, o] = [move.x_wins, move.draws, move.o_wins].map((n) => percent(n, move.games));
      const bar = document.createElement("span");
      bar.className = "explorer-bar";
      bar.setAttribute("aria-hidden", "true");
      for (const [share, kind] of [[x, "x"], [d, "d"], [o, "o"]]) {
        const part = document.createElement("i");
        part.className = `part-${kind}`;
        part.style.width = `${share}%`;
        bar.appendChild(part);
      }
      const words = document.createElement("span");
      words.className = "explorer-split";
      words.textContent = t("explorer.split", { x, d, o });
      results.append(bar, words);
      const average = document.createElement("td");
      average.textContent = margin(move.margin);
      row.append(head, games, results, average);
      body.appendChild(row);
    }
  }

  stop() {
    if (this.controller) this.controller.abort();
    this.controller = null;
    this.fen = null;
  }
}
