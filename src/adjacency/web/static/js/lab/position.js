// Positions for the lab page: position text (FEN) parsed, moves played by the rules
// (place on an empty square, convert the orthogonal opponent neighbours), and a board
// drawn as SVG with optional heat-map values, numbered squares and a marked square.

import { t } from "../i18n.js";
import { svg as el } from "../dom.js";

const FILES = "abcdefgh";

export function parseFen(fen) {
  const [placement, turn, plies] = fen.trim().split(/\s+/);
  const ranks = placement.split("/");
  const rows = ranks.length;
  const grid = ranks.map((rank) => rank.replace(/\d+/g, (n) => ".".repeat(Number(n))));
  const cols = grid[0].length;
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const text = grid[rows - 1 - r]; // rank 1 first
    for (let f = 0; f < cols; f++) cells.push(text[f]);
  }
  return { rows, cols, cells, turn, plies: Number(plies) };
}

export function squareName(index, cols) {
  return `${FILES[index % cols]}${Math.floor(index / cols) + 1}`;
}

export function squareIndex(name, cols) {
  return (Number(name.slice(1)) - 1) * cols + FILES.indexOf(name[0]);
}

// The squares a move on `name` converts in `position`: its orthogonal neighbours that
// hold the opponent's pieces.
export function flips(position, name) {
  const { rows, cols, cells, turn } = position;
  const them = turn === "x" ? "o" : "x";
  const index = squareIndex(name, cols);
  const r = Math.floor(index / cols);
  const f = index % cols;
  const found = [];
  for (const [dr, df] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    const rr = r + dr;
    const ff = f + df;
    if (rr >= 0 && rr < rows && ff >= 0 && ff < cols && cells[rr * cols + ff] === them) {
      found.push(squareName(rr * cols + ff, cols));
    }
  }
  return found;
}

export function play(position, name) {
  const { rows, cols } = position;
  const cells = position.cells.slice();
  const me = position.turn;
  for (const square of [name, ...flips(position, name)]) cells[squareIndex(square, cols)] = me;
  return { rows, cols, cells, turn: me === "x" ? "o" : "x", plies: position.plies - 1 };
}

export function playLine(position, moves) {
  return moves.reduce((p, m) => play(p, m), position);
}


// heat: {square: value}; labels: {square: text}; mark: a square name outlined.
export function boardSvg(position, { heat = null, labels = null, mark = null } = {}) {
  const { rows, cols, cells } = position;
  const size = 40;
  const pad = 16;
  const svg = el("svg", {
    viewBox: `0 0 ${cols * size + pad} ${rows * size + pad}`,
    role: "img",
    "aria-label": t("lab.board"),
  });
  const values = heat ? Object.values(heat) : [];
  const low = Math.min(...values);
  const high = Math.max(...values);
  for (let index = 0; index < rows * cols; index++) {
    const r = Math.floor(index / cols);
    const f = index % cols;
    const x = pad + f * size;
    const y = (rows - 1 - r) * size;
    const name = squareName(index, cols);
    let fill = (r + f) % 2 ? "#f3efe6" : "#e4dccb";
    if (heat && name in heat) {
      const share = high > low ? (heat[name] - low) / (high - low) : 1;
      fill = `hsl(${Math.round(220 - 220 * share)}, 70%, ${Math.round(82 - 22 * share)}%)`;
    }
    const square = el("rect", { x, y, width: size, height: size, fill, "data-square": name });
    square.appendChild(el("title", {}, heat && name in heat ? `${name}: ${heat[name]}` : name));
    svg.appendChild(square);
    const piece = cells[index];
    if (piece === "x") {
      svg.appendChild(el("path", {
        d: `M${x + 10} ${y + 10} L${x + 30} ${y + 30} M${x + 30} ${y + 10} L${x + 10} ${y + 30}`,
        stroke: "#c62828", "stroke-width": 5, "stroke-linecap": "round",
      }));
    } else if (piece === "o") {
      svg.appendChild(el("circle", {
        cx: x + 20, cy: y + 20, r: 11, fill: "none", stroke: "#1565c0", "stroke-width": 5,
      }));
    }
    if (heat && name in heat && piece === ".") {
      svg.appendChild(el("text", { x: x + 20, y: y + 25, "text-anchor": "middle", "font-size": 12 },
        String(heat[name])));
    }
    if (labels && name in labels) {
      svg.appendChild(el("text", {
        x: x + 20, y: y + 25, "text-anchor": "middle", "font-size": 14, "font-weight": 700,
        fill: "#000",
      }, labels[name]));
    }
    if (mark === name) {
      svg.appendChild(el("rect", {
        x: x + 2, y: y + 2, width: size - 4, height: size - 4, fill: "none", stroke: "#f57c00",
        "stroke-width": 4,
      }));
    }
  }
  for (let f = 0; f < cols; f++) {
    svg.appendChild(el("text", { x: pad + f * size + 20, y: rows * size + 12, "text-anchor": "middle",
      "font-size": 10 }, FILES[f]));
  }
  for (let r = 0; r < rows; r++) {
    svg.appendChild(el("text", { x: 6, y: (rows - 1 - r) * size + 24, "font-size": 10 }, String(r + 1)));
  }
  return svg;
}
