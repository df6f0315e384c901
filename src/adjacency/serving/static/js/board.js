// The board: a grid of square buttons with coordinates, pieces drawn as SVG
// (X a cross, O a ring: they differ by shape as well as colour), hover and focus
// previews of the squares a move would convert, highlights and animations.
// Keyboard: arrow keys move between squares, Enter or Space plays. Drawn from X's side
// (a1 at the bottom left), or turned half a turn for O's side (`setup(rows, cols, true)`:
// a1 at the top right); the arrow keys follow what is drawn.

import { t } from "./i18n.js";

const FILES = "abcdefgh";
const SVG_NS = "http://www.w3.org/2000/svg";

export function pieceSvg(color, extraClass = "") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", `piece ${extraClass}`.trim());
  svg.setAttribute("aria-hidden", "true");
  if (color === "x") {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", "M24 24 L76 76 M76 24 L24 76");
    path.setAttribute("class", "x-mark");
    svg.appendChild(path);
  } else {
    const circle = document.createElementNS(SVG_NS, "circle");
    circle.setAttribute("cx", "50");
    circle.setAttribute("cy", "50");
    circle.setAttribute("r", "30");
    circle.setAttribute("class", "o-mark");
    svg.appendChild(circle);
  }
  return svg;
}

export function squareName(index, cols) {
  return `${FILES[index % cols]}${Math.floor(index / cols) + 1}`;
}

export class Board {
  /** `onRender()`, when given, runs after every `render`: a page's own marks on the
   * squares (a premove, a selection) drawn over each new position. */
  constructor(element, { onActivate, onRender = null }) {
    this.el = element;
    this.onActivate = onActivate;
    this.onRender = onRender;
    this.rows = 0;
    this.cols = 0;
    this.squares = new Map(); // name -> button
    this.cells = ""; // current board string
    this.preview = null; // name -> [flips] for the live position, or null
    this.mover = "x";
    this.interactive = false;
    this.focusName = null;
    this.hovered = null;
    this.turned = false;
  }

  /** Build an empty board of `rows` x `cols`, from O's side when `turned`. */
  setup(rows, cols, turned = false) {
    if (rows === this.rows && cols === this.cols && turned === this.turned) return;
    this.rows = rows;
    this.cols = cols;
    this.turned = turned;
    const ranks = [...Array(rows).keys()];
    const files = [...Array(cols).keys()];
    if (!turned) ranks.reverse();
    else files.reverse();
    this.squares.clear();
    this.el.replaceChildren();
    this.el.style.setProperty("--rows", rows);
    this.el.style.setProperty("--cols", cols);
    for (const rank of ranks) {
      const label = document.createElement("div");
      label.className = "coord rank";
      label.textContent = String(rank + 1);
      label.setAttribute("aria-hidden", "true");
      this.el.appendChild(label);
      for (const file of files) {
        const index = rank * cols + file;
        const name = squareName(index, cols);
        const sq = document.createElement("button");
        sq.type = "button";
        sq.className = (rank + file) % 2 ? "sq alt" : "sq";
        sq.dataset.square = name;
        sq.tabIndex = -1;
        sq.addEventListener("click", () => this.activate(name));
        sq.addEventListener("mouseenter", () => this.showPreview(name));
        sq.addEventListener("mouseleave", () => this.clearPreview());
        sq.addEventListener("focus", () => {
          this.focusName = name;
          this.showPreview(name);
        });
        sq.addEventListener("blur", () => this.clearPreview());
        sq.addEventListener("keydown", (event) => this.onKey(event, rank, file));
        this.squares.set(name, sq);
        this.el.appendChild(sq);
      }
    }
    const corner = document.createElement("div");
    corner.setAttribute("aria-hidden", "true");
    this.el.appendChild(corner);
    for (const file of files) {
      const label = document.createElement("div");
      label.className = "coord file";
      label.textContent = FILES[file];
      label.setAttribute("aria-hidden", "true");
      this.el.appendChild(label);
    }
    this.cells = "";
    this.focusName = null;
  }

  /** Draw a position. `view` = {cells, preview, mover, interactive, last, flipped, animate,
   * hint, previous}: `previous` is the square of the move before the last, marked apart
   * from the last move's so that both stay in view (your move, then the reply). */
  render(view) {
    const { cells, last, flipped = [], animate = false, hint = null, previous = null } = view;
    this.preview = view.preview;
    this.mover = view.mover;
    this.interactive = view.interactive;
    this.el.classList.toggle("locked", !view.interactive);
    this.el.dataset.mover = view.mover;
    const flippedSet = new Set(flipped);
    for (let i = 0; i < cells.length; i++) {
      const name = squareName(i, this.cols);
      const sq = this.squares.get(name);
      const piece = cells[i];
      if (piece !== this.cells[i]) {
        sq.replaceChildren();
        if (piece !== ".") sq.appendChild(pieceSvg(piece));
      }
      sq.classList.toggle("filled", piece !== ".");
      sq.classList.toggle("last", name === last);
      sq.classList.toggle("prev", name === previous && name !== last);
      sq.classList.toggle("flipped", flippedSet.has(name));
      sq.classList.toggle("hint", name === hint);
      sq.classList.remove("anim-place", "anim-flip");
      const owner = piece === "x" ? "X" : piece === "o" ? "O" : t("board.empty");
      let label = `${name}, ${owner}`;
      if (name === last) label += `, ${t("board.last")}`;
      else if (name === previous) label += `, ${t("board.previous")}`;
      else if (flippedSet.has(name)) label += `, ${t("board.converted")}`;
      sq.setAttribute("aria-label", label);
    }
    if (animate) {
      // Restart the animations on the next frame so they play again for every move.
      requestAnimationFrame(() => {
        if (last && this.squares.has(last)) this.squares.get(last).classList.add("anim-place");
        for (const name of flipped) this.squares.get(name)?.classList.add("anim-flip");
      });
    }
    this.cells = cells;
    this.ensureTabStop();
    if (this.hovered) this.showPreview(this.hovered);
    if (this.onRender) this.onRender();
  }

  ensureTabStop() {
    const name = this.focusName && this.squares.has(this.focusName) ? this.focusName : null;
    const target = name || [...this.squares.keys()].find((n, i) => this.cells[this.indexOf(n)] === ".") || "a1";
    for (const [n, sq] of this.squares) sq.tabIndex = n === target ? 0 : -1;
  }

  indexOf(name) {
    const file = FILES.indexOf(name[0]);
    const rank = Number(name.slice(1)) - 1;
    return rank * this.cols + file;
  }

  isEmpty(name) {
    return this.cells[this.indexOf(name)] === ".";
  }

  activate(name) {
    this.onActivate(name);
  }

  showPreview(name) {
    this.clearPreview(false);
    this.hovered = name;
    if (!this.interactive || !this.preview || !this.isEmpty(name)) return;
    const flips = this.preview[name] || [];
    const sq = this.squares.get(name);
    sq.appendChild(pieceSvg(this.mover, "ghost"));
    for (const f of flips) this.squares.get(f)?.classList.add("will-flip");
  }

  clearPreview(forget = true) {
    if (forget) this.hovered = null;
    for (const sq of this.el.querySelectorAll(".ghost")) sq.remove();
    for (const sq of this.el.querySelectorAll(".will-flip")) sq.classList.remove("will-flip");
  }

  shake(name) {
    const sq = this.squares.get(name);
    if (!sq) return;
    sq.classList.remove("shake");
    void sq.offsetWidth;
    sq.classList.add("shake");
  }

  onKey(event, rank, file) {
    const moves = { ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in moves) {
      event.preventDefault();
      event.stopPropagation();
      const turn = this.turned ? -1 : 1;
      const [dr, df] = moves[event.key].map((step) => step * turn);
      const r = Math.min(this.rows - 1, Math.max(0, rank + dr));
      const f = Math.min(this.cols - 1, Math.max(0, file + df));
      const name = squareName(r * this.cols + f, this.cols);
      this.focusSquare(name);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      this.activate(squareName(rank * this.cols + file, this.cols));
    }
  }

  focusSquare(name) {
    const sq = this.squares.get(name);
    if (!sq) return;
    for (const other of this.squares.values()) other.tabIndex = -1;
    sq.tabIndex = 0;
    this.focusName = name;
    sq.focus();
  }
}
