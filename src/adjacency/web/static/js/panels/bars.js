// The two player bars around the board: name, kind, whose turn, squares held. The bar of
// the colour drawn at the bottom of the board (orientation.js) is the bottom one.

import { pieceSvg } from "../board.js";
import { countCells } from "../format.js";
import { barOf, bottomColor } from "../orientation.js";

const $ = (selector) => document.querySelector(selector);
const BARS = [["#bar-bottom", "x"], ["#bar-top", "o"]]; // before any game: X at the bottom

export function renderBars(game, cells, ply) {
  const s = game.state;
  const bottom = bottomColor(game);
  const counts = countCells(cells);
  const moverAtPly = ply < s.boards.length - 1 ? s.moves[ply].color : s.turn;
  const over = ply === s.moves.length && s.status === "over";
  for (const color of ["x", "o"]) {
    const bar = $(barOf(color, bottom));
    const p = s[color];
    const toMove = !over && moverAtPly === color;
    bar.className = `player-bar side-${color}${toMove ? " to-move" : ""}`;
    const kind = p.kind === "bot" ? (p.level_name ? `Bot · level ${p.level} ${p.level_name}` : `Bot · ${p.spec}`) : "Person";
    bar.replaceChildren();
    const who = document.createElement("div");
    who.className = "who";
    who.innerHTML = `<div class="name"></div><div class="kind"></div>`;
    who.querySelector(".name").textContent = p.name;
    who.querySelector(".kind").textContent = kind;
    bar.append(pieceSvg(color, "piece-icon"), who);
    if (toMove) {
      const tag = document.createElement("span");
      tag.className = "turn-tag";
      const thinking = game.thinking && game.thinking.info.color === color && ply === s.moves.length;
      tag.textContent = thinking ? "thinking" : "to move";
      bar.appendChild(tag);
    }
    const score = counts[color === "x" ? 0 : 1];
    const sc = document.createElement("div");
    sc.className = "score";
    sc.textContent = String(score);
    sc.setAttribute("aria-label", `${color.toUpperCase()} has ${score} squares`);
    bar.appendChild(sc);
  }
}

// Before any game: the start position as a backdrop, the bars inviting a new game.
export function renderEmptyBars(cells) {
  const counts = countCells(cells);
  for (const [id, color] of BARS) {
    const bar = $(id);
    bar.className = `player-bar side-${color}`;
    bar.replaceChildren(pieceSvg(color, "piece-icon"));
    const who = document.createElement("div");
    who.className = "who";
    who.innerHTML = `<div class="name">${color.toUpperCase()}</div><div class="kind">press New game to start</div>`;
    const score = document.createElement("div");
    score.className = "score";
    score.textContent = String(counts[color === "x" ? 0 : 1]);
    bar.append(who, score);
  }
}
