// Arrows and circles drawn on the board, as on lichess, to think with: a right-button
// drag from one square to another draws an arrow, a right click on a square a circle;
// on a touch screen a long press then a slide does the same (a press without a slide:
// a circle). By keyboard, on a focused square: "c" draws a circle, "r" starts an arrow
// and "r" on another square ends it. Drawing a shape that is there removes it. Shapes
// belong to the position shown (its squares' contents and size): another position shows
// its own, and the earlier ones come back with their position. They are drawn in an SVG
// laid over the board (no pointer events), and said in words to screen readers; the
// record exported with variations writes them in comments, as lichess's do (annotate),
// and a record loaded shows the shapes its comments hold on their positions again
// (restoreShapes).

import { listText, t } from "./i18n.js";
import { play } from "./lab/position.js";

let drawnShapes = null; // the page's Shapes (one board a page), for annotate()
const TOKEN = /\{[^}]*\}|[()]|[^\s(){}]+|\S/g;
const NUMBER = /^\d+\.(\.\.)?$/;
const RESULTS = new Set(["1-0", "0-1", "1/2-1/2", "*"]);

function positionKey(rows, cols, cells) {
  return `${rows}x${cols}:${cells}`;
}

// The comment that writes a position's shapes as lichess's records do: [%csl Ga1,Gb2]
// for circles and [%cal Ga1b2,...] for arrows (G: green), or "" when it has none.
function shapesComment(shapes) {
  if (!shapes || !shapes.size) return "";
  const circles = [...shapes.values()].filter((s) => s.kind === "circle").map((s) => `G${s.from}`);
  const arrows = [...shapes.values()].filter((s) => s.kind === "arrow").map((s) => `G${s.from}${s.to}`);
  const parts = [circles.length ? `[%csl ${circles.join(",")}]` : "", arrows.length ? `[%cal ${arrows.join(",")}]` : ""];
  return `{${parts.join("")}}`;
}

// The positions a record's move text walks through, from `start` ({rows, cols, cells,
// turn}): for each of `tokens` the position shown after it (a move's: the one it
// reaches; a comment's, a number's, a result's: the one before it; a variation's "("
// goes back to before the move it replaces, its ")" returns to where it began).
function walk(tokens, start) {
  const shown = [];
  let current = start;
  let before = null;
  const stack = [];
  for (const token of tokens) {
    if (token.startsWith("{") || NUMBER.test(token) || RESULTS.has(token)) {
      // nothing moves
    } else if (token === "(") {
      stack.push([current, before]);
      current = before;
      before = null;
    } else if (token === ")") {
      [current, before] = stack.length ? stack.pop() : [current, before];
    } else {
      before = current;
      current = play(current, token);
    }
    shown.push(current);
  }
  return shown;
}

// The record `text` (the text format, its move text after the tags) with the shapes
// drawn on each of its positions written in a comment after the move that reaches it
// (those of `start`, the record's first position, before its first move). The record
// reader keeps the moves and ignores such comments; readShapes reads them back.
// `start`: {rows, cols, cells, turn}.
export function annotate(text, start) {
  if (!drawnShapes || !drawnShapes.byPosition.size) return text;
  const split = text.search(/\n\s*\n/);
  if (split < 0) return text;
  const head = text.slice(0, split);
  const body = text.slice(split).trim();
  const shapesOf = (position) => drawnShapes.byPosition.get(
    positionKey(position.rows, position.cols, position.cells.join("")));
  const tokens = body.match(TOKEN) || [];
  const shown = walk(tokens, start);
  const out = [];
  const first = shapesComment(shapesOf(start));
  if (first) out.push(first);
  tokens.forEach((token, i) => {
    out.push(token);
    if (token.startsWith("{") || NUMBER.test(token) || RESULTS.has(token) || token === "(" || token === ")") return;
    const comment = shapesComment(shapesOf(shown[i]));
    if (comment) out.push(comment);
  });
  return `${head}\n\n${out.join(" ")}\n`;
}

// The move text of a record's first game in the text format: its lines after its tags
// (a tag line starts with "[" but not "[%"), up to the next game's tags.
function moveText(text) {
  const body = [];
  let tagsSeen = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const tag = line.startsWith("[") && !line.startsWith("[%");
    if (tag && body.length) break;
    if (tag) tagsSeen = true;
    else if (line && tagsSeen) body.push(line);
  }
  return body.join(" ");
}

const CIRCLES = /\[%csl\s+([^\]]*)\]/g;
const ARROWS = /\[%cal\s+([^\]]*)\]/g;
const MARK = /^[GRYB]([a-h])(\d{1,2})(?:([a-h])(\d{1,2}))?$/;

// The shapes one comment holds on a board of `rows` x `cols` ([%csl Ga1,...] circles,
// [%cal Ga1b2,...] arrows; any of lichess's colours read, drawn in ours), as a Map
// (shape key -> shape) like a drawn position's; marks naming no square of the board, or
// malformed, are left out.
function commentShapes(comment, rows, cols) {
  const shapes = new Map();
  const square = (file, rank) => {
    const r = Number(rank);
    return file.charCodeAt(0) - 97 < cols && r >= 1 && r <= rows ? `${file}${r}` : null;
  };
  for (const [pattern, kind] of [[CIRCLES, "circle"], [ARROWS, "arrow"]]) {
    for (const found of comment.matchAll(pattern)) {
      for (const mark of found[1].split(",")) {
        const m = MARK.exec(mark.trim());
        if (!m || (kind === "circle") !== (m[3] === undefined)) continue;
        const from = square(m[1], m[2]);
        const to = kind === "arrow" ? square(m[3], m[4]) : null;
        if (!from || (kind === "arrow" && (!to || to === from))) continue;
        if (kind === "arrow") shapes.set(`${from}-${to}`, { kind, from, to });
        else shapes.set(from, { kind, from });
      }
    }
  }
  return shapes;
}

// The shapes written in a record's comments (text format; annotate writes them), by
// position: Map(position key -> Map(shape key -> shape)) of the positions whose comments
// hold any, each the union of its comments' (a position reached twice may have two).
// `start`: the record's first position {rows, cols, cells, turn}.
export function readShapes(text, start) {
  const found = new Map();
  if (text.trimStart().startsWith("{")) return found; // the JSON format keeps no shapes
  const tokens = moveText(text).match(TOKEN) || [];
  const shown = walk(tokens, start);
  tokens.forEach((token, i) => {
    if (!token.startsWith("{")) return;
    const shapes = commentShapes(token, start.rows, start.cols);
    if (!shapes.size) return;
    const position = shown[i];
    const key = positionKey(position.rows, position.cols, position.cells.join(""));
    found.set(key, new Map([...(found.get(key) || new Map()), ...shapes]));
  });
  return found;
}

// Show again the shapes of a record just loaded (`text`, from `start`): each position
// whose comments hold shapes shows exactly those; the others keep what they had.
export function restoreShapes(text, start) {
  if (!drawnShapes) return;
  for (const [key, shapes] of readShapes(text, start)) drawnShapes.byPosition.set(key, shapes);
  drawnShapes.onChange();
  drawnShapes.draw();
}

// Milliseconds a touch must rest on a square before it draws (exported for the tests,
// which advance the page's clock by it).
export const LONG_PRESS = 450;
const SVG = "http://www.w3.org/2000/svg";

// Whether any position of the page holds a shape (the record then has something to
// keep even without a variation: the page offers its export).
export function hasShapes() {
  if (!drawnShapes) return false;
  for (const shapes of drawnShapes.byPosition.values()) if (shapes.size) return true;
  return false;
}

export class Shapes {
  // `onChange` is told after a shape is drawn or taken away, or a record's come back.
  constructor(board, frame, onChange = () => {}) {
    this.board = board;
    this.frame = frame;
    this.onChange = onChange;
    this.byPosition = new Map(); // position key -> Map(shape key -> shape)
    this.start = null; // the square a right drag or a long press began on
    this.pending = null; // the keyboard arrow's first square
    this.press = null; // a touch's timer and square
    this.swallow = 0; // time until which the board's click is not a move (after a touch drawing)
    drawnShapes = this;
    this.svg = document.createElementNS(SVG, "svg");
    this.svg.classList.add("shapes");
    this.svg.setAttribute("aria-hidden", "true");
    this.svg.innerHTML = '<defs><marker id="shape-head" viewBox="0 0 10 10" refX="5" refY="5" '
      + 'markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z"/></marker></defs>';
    this.words = document.createElement("p");
    this.words.className = "sr-only";
    this.words.id = "shapes-words";
    this.words.setAttribute("aria-live", "polite");
    frame.append(this.svg, this.words);
    const el = board.el;
    el.addEventListener("contextmenu", (event) => {
      if (event.target.closest("[data-square]")) event.preventDefault();
    });
    el.addEventListener("pointerdown", (event) => this.down(event));
    window.addEventListener("pointerup", (event) => this.up(event));
    window.addEventListener("pointercancel", () => {
      this.cancelPress();
      this.start = null;
      this.mark(null);
    });
    // Once a long press began a drawing, the finger's slide draws instead of scrolling.
    el.addEventListener("touchmove", (event) => {
      if (this.start && event.cancelable) event.preventDefault();
    }, { passive: false });
    el.addEventListener("click", (event) => {
      if (Date.now() < this.swallow) event.stopPropagation();
    }, true);
    el.addEventListener("keydown", (event) => this.onKey(event));
    new MutationObserver(() => this.schedule()).observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
    new ResizeObserver(() => this.schedule()).observe(el);
  }

  shapes() {
    return this.byPosition.get(this.positionKey()) || new Map();
  }

  positionKey() {
    return positionKey(this.board.rows, this.board.cols, this.board.cells);
  }

  // Draw (or take away, when it is there) a circle on `from` (`to` null or the same) or an
  // arrow from `from` to `to`.
  toggle(from, to = null) {
    const shape = to && to !== from ? { kind: "arrow", from, to } : { kind: "circle", from };
    const id = shape.kind === "arrow" ? `${from}-${to}` : from;
    const key = this.positionKey();
    const shapes = this.byPosition.get(key) || new Map();
    if (shapes.has(id)) shapes.delete(id);
    else shapes.set(id, shape);
    this.byPosition.set(key, shapes);
    this.draw();
    this.onChange();
  }

  squareAt(event) {
    const found = document.elementFromPoint(event.clientX, event.clientY);
    /** @type {HTMLElement | null} */
    const square = found && found.closest("#board [data-square]");
    return square ? square.dataset.square : null;
  }

  down(event) {
    const square = event.target.closest("[data-square]");
    if (!square) return;
    if (event.pointerType === "mouse" && event.button === 2) {
      this.start = square.dataset.square;
      this.mark(this.start);
    } else if (event.pointerType === "touch") {
      this.cancelPress();
      const name = square.dataset.square;
      this.press = {
        square: name,
        timer: setTimeout(() => {
          this.start = name;
          this.mark(name);
        }, LONG_PRESS),
      };
    }
  }

  // Outline the square a drawing began on until it ends (on a touch screen the sign that
  // the long press was recognised and a slide now draws an arrow); null: none.
  mark(name) {
    for (const old of this.board.el.querySelectorAll(".shape-start")) old.classList.remove("shape-start");
    if (name) this.board.squares.get(name)?.classList.add("shape-start");
  }

  up(event) {
    const touch = event.pointerType === "touch";
    if (touch) this.cancelPress();
    if (!this.start || (!touch && event.button !== 2)) return;
    const from = this.start;
    this.start = null;
    this.mark(null);
    const to = this.squareAt(event);
    if (!to) return;
    if (touch) this.swallow = Date.now() + 600;
    this.toggle(from, to);
  }

  cancelPress() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const square = event.target.closest && event.target.closest("[data-square]");
    if (!square) return;
    const name = square.dataset.square;
    if (event.key === "c") {
      this.toggle(name);
    } else if (event.key === "r") {
      if (this.pending === null) {
        this.pending = name;
        this.words.textContent = t("shapes.arrow-from", { square: name });
        return;
      }
      const from = this.pending;
      this.pending = null;
      if (from !== name) this.toggle(from, name);
      else this.draw();
    } else {
      return;
    }
    event.preventDefault();
  }

  schedule() {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.draw();
    });
  }

  // The centre of `name` in the frame's coordinates, and a square's size.
  centre(name, origin) {
    const square = this.board.squares.get(name);
    if (!square) return null;
    const box = square.getBoundingClientRect();
    return { x: box.left - origin.left + box.width / 2, y: box.top - origin.top + box.height / 2, size: box.width };
  }

  draw() {
    const origin = this.frame.getBoundingClientRect();
    this.svg.setAttribute("width", String(origin.width));
    this.svg.setAttribute("height", String(origin.height));
    this.svg.setAttribute("viewBox", `0 0 ${origin.width} ${origin.height}`);
    for (const old of this.svg.querySelectorAll(".shape")) old.remove();
    const said = [];
    for (const shape of this.shapes().values()) {
      const a = this.centre(shape.from, origin);
      const b = shape.kind === "arrow" ? this.centre(shape.to, origin) : null;
      if (!a || (shape.kind === "arrow" && !b)) continue;
      let node;
      if (shape.kind === "circle") {
        node = document.createElementNS(SVG, "circle");
        node.setAttribute("cx", String(a.x));
        node.setAttribute("cy", String(a.y));
        node.setAttribute("r", String(a.size * 0.42));
        node.setAttribute("stroke-width", String(Math.max(2, a.size * 0.08)));
        said.push(t("shapes.circle", { square: shape.from }));
      } else {
        // The line stops short of the target's centre, so the head ends inside the square.
        const length = Math.hypot(b.x - a.x, b.y - a.y);
        const cut = Math.min(a.size * 0.3, length / 2);
        node = document.createElementNS(SVG, "line");
        node.setAttribute("x1", String(a.x));
        node.setAttribute("y1", String(a.y));
        node.setAttribute("x2", String(b.x - ((b.x - a.x) * cut) / length));
        node.setAttribute("y2", String(b.y - ((b.y - a.y) * cut) / length));
        node.setAttribute("stroke-width", String(Math.max(3, a.size * 0.16)));
        node.setAttribute("marker-end", "url(#shape-head)");
        node.dataset.to = shape.to;
        said.push(t("shapes.arrow", { from: shape.from, to: shape.to }));
      }
      node.classList.add("shape", shape.kind);
      node.dataset.from = shape.from;
      this.svg.appendChild(node);
    }
    const words = said.length ? t("shapes.drawn", { shapes: listText(said) }) : "";
    if (this.pending === null && this.words.textContent !== words) this.words.textContent = words;
  }
}
