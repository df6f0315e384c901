// The two player bars around the board: name, kind, whose turn, squares held. The bar of
// the colour drawn at the bottom of the board (orientation.js) is the bottom one.

import { pieceSvg } from "../board.js";
import { countCells } from "../format.js";
import { t } from "../i18n.js";
import { barOf, bottomColor } from "../orientation.js";
import { levelName, shownName } from "../levels.js";
import { $ } from "../dom.js";

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
    const kind = p.kind === "bot" ? (p.level_name ? t("bars.bot-level", { level: p.level, name: levelName(p.level_name) })
      : t("bars.bot-spec", { spec: p.spec })) : t("bars.person");
    bar.replaceChildren();
    const who = document.createElement("div");
    who.className = "who";
    who.innerHTML = `<div class="name"></div><div class="kind"></div>`;
    who.querySelector(".name").textContent = shownName(p, color);
    who.querySelector(".kind").textContent = kind;
    bar.append(pieceSvg(color, "piece-icon"), who);
    if (toMove) {
      const tag = document.createElement("span");
      tag.className = "turn-tag";
      const thinking = game.thinking && game.thinking.info.color === color && ply === s.moves.length;
      tag.textContent = thinking ? t("bars.thinking") : t("bars.to-move");
      bar.appendChild(tag);
    }
    const score = counts[color === "x" ? 0 : 1];
    const sc = document.createElement("div");
    sc.className = "score";
    sc.textContent = String(score);
    sc.setAttribute("aria-label", t("bars.score", { side: color.toUpperCase(), count: score }));
    bar.appendChild(sc);
  }
}

// Before any game: the start position as a backdrop, the bars inviting a new game.
export function renderEmptyBars(cells) {
  renderSideBars(cells, null, t("bars.press-new"));
}

// The analysis board's position without players: each side's squares, the side to move
// (`turn`, null when no ply is left) tagged.
export function renderPositionBars(cells, turn) {
  renderSideBars(cells, turn, "");
}

function renderSideBars(cells, turn, kind) {
  const counts = countCells(cells);
  for (const [id, color] of BARS) {
    const bar = $(id);
    bar.className = `player-bar side-${color}${turn === color ? " to-move" : ""}`;
    bar.replaceChildren(pieceSvg(color, "piece-icon"));
    const who = document.createElement("div");
    who.className = "who";
    who.innerHTML = `<div class="name">${color.toUpperCase()}</div><div class="kind"></div>`;
    who.querySelector(".kind").textContent = kind;
    bar.appendChild(who);
    if (turn === color) {
      const tag = document.createElement("span");
      tag.className = "turn-tag";
      tag.textContent = t("bars.to-move");
      bar.appendChild(tag);
    }
    const score = document.createElement("div");
    score.className = "score";
    score.textContent = String(counts[color === "x" ? 0 : 1]);
    bar.appendChild(score);
  }
}
