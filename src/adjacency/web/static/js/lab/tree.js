// The game tree of a lab search (GET /api/lab/tree) drawn as SVG: expandable nodes
// (click), zoom (wheel, buttons) and pan (drag), the principal line highlighted, the
// moves a cut removed shown greyed under the node that cut them, and step mode, which
// replays the search's own visiting order (enter, cut, leave) one event at a time.

import { t } from "../i18n.js";
import { svg as el } from "../dom.js";

const SLOT = 56; // horizontal space per leaf
const LEVEL = 86; // vertical space per ply
const MAX_VISIBLE = 2500; // nodes drawn at most (expand stops before this)
const MAX_PRUNED = 6; // greyed moves drawn per cut
const FALLBACK = { w: 400, h: 300 }; // first view when the box is not laid out (hidden)


const inf = (v, sign) => (v === null ? (sign < 0 ? "−∞" : "+∞") : (v > 0 ? `+${v}` : String(v)));
const val = (v) => (v === null ? "?" : v > 0 ? `+${v}` : String(v));

export class TreeView {
  constructor(container, { onHover }) {
    this.container = container;
    this.onHover = onHover;
    this.data = null;
    this.expanded = new Set();
    this.step = null; // null: the whole search; else events shown so far
    this.view = null; // viewBox {x, y, w, h}
    this.bindPanZoom();
  }

  load(data) {
    this.data = data;
    this.expanded = new Set([0]);
    this.step = null;
    this.view = null;
    this.pv = new Set();
    let node = data.nodes[0];
    while (node && node.best !== null) {
      this.pv.add(node.id);
      const next = node.children.map((c) => data.nodes[c]).find((c) => c.move === node.best);
      if (!next) break;
      node = next;
    }
    if (node) this.pv.add(node.id);
    this.render();
  }

  // ------------------------------------------------------------ expansion
  toggle(id) {
    if (this.expanded.has(id)) this.expanded.delete(id);
    else this.expanded.add(id);
    this.render();
  }

  // Expand level by level (breadth first) down to `depth`, stopping before more than
  // MAX_VISIBLE nodes would be drawn: only nodes whose children were counted open, so
  // the drawn tree never exceeds the cap, and a cut tree shows every level it reached.
  expandTo(depth) {
    const nodes = this.data.nodes;
    const expanded = new Set();
    const queue = [0];
    let count = 1;
    let truncated = false;
    for (let i = 0; i < queue.length; i++) {
      const node = nodes[queue[i]];
      if (node.ply >= depth || !node.children.length) continue;
      if (count + node.children.length > MAX_VISIBLE) {
        truncated = true;
        break;
      }
      count += node.children.length;
      expanded.add(node.id);
      queue.push(...node.children);
    }
    this.expanded = expanded;
    this.truncated = truncated;
    this.view = null;
    this.render();
    return count;
  }

  collapse() {
    this.expanded = new Set([0]);
    this.view = null;
    this.render();
  }

  // ------------------------------------------------------------ step mode
  startSteps() {
    this.step = 0;
    this.expanded = new Set([0]);
    this.view = null;
    this.render();
    return this.describeStep();
  }

  advance(count = 1) {
    if (this.step === null) this.step = 0;
    this.step = Math.min(this.data.events.length, this.step + count);
    for (const [kind, id] of this.data.events.slice(0, this.step)) {
      if (kind === 0) this.expanded.add(this.data.nodes[id].parent);
    }
    this.render();
    return this.describeStep();
  }

  stateAt() {
    const entered = new Set();
    const left = new Set();
    const cut = new Set();
    let current = null;
    for (const [kind, id] of this.data.events.slice(0, this.step)) {
      if (kind === 0) { entered.add(id); current = id; }
      else if (kind === 1) { cut.add(id); current = id; }
      else { left.add(id); current = this.data.nodes[id].parent >= 0 ? this.data.nodes[id].parent : id; }
    }
    return { entered, left, cut, current };
  }

  describeStep() {
    const events = this.data.events;
    if (this.step === 0) return t("lab.step.start", { count: events.length });
    const [kind, id] = events[this.step - 1];
    const n = this.data.nodes[id];
    const where = n.move ? `${this.path(id).join(" ")}` : t("lab.the-root");
    const text = kind === 0
      ? t("lab.step.enter", { where, window: `[${inf(n.alpha, -1)}, ${inf(n.beta, 1)}]` })
      : kind === 1
        ? t("lab.step.cut", { where, moves: n.pruned.join(" ") })
        : t("lab.step.leave", { where, value: `${val(n.value)}${n.bound !== "exact" ? ` (${t(`lab.bound.${n.bound}`)})` : ""}` });
    return t("lab.step.of", { step: this.step, count: events.length, text });
  }

  path(id) {
    const moves = [];
    let node = this.data.nodes[id];
    while (node.parent >= 0) {
      moves.unshift(node.move);
      node = this.data.nodes[node.parent];
    }
    return moves;
  }

  // ------------------------------------------------------------ drawing
  visibleChildren(node, state) {
    if (!this.expanded.has(node.id)) return [];
    return node.children.filter((c) => !state || state.entered.has(c));
  }

  render() {
    const data = this.data;
    if (!data) return;
    const state = this.step === null ? null : this.stateAt();
    const items = []; // {id, x, y, kind: node|pruned, move, parent}
    let column = 0;
    const place = (node) => {
      const kids = this.visibleChildren(node, state);
      const showCut = node.pruned.length && this.expanded.has(node.id) && (!state || state.cut.has(node.id));
      const pruned = showCut ? node.pruned.slice(0, MAX_PRUNED) : [];
      const xs = kids.map((c) => place(data.nodes[c]));
      for (const move of pruned) {
        items.push({ kind: "pruned", x: column, y: node.ply + 1, move, parent: node.id });
        xs.push(column);
        column += 1;
      }
      let x;
      if (!xs.length) { x = column; column += 1; } else x = (xs[0] + xs[xs.length - 1]) / 2;
      items.push({ kind: "node", id: node.id, x, y: node.ply });
      return x;
    };
    place(data.nodes[0]);
    const pos = new Map(items.filter((i) => i.kind === "node").map((i) => [i.id, i]));
    const width = Math.max(1, column) * SLOT + 40;
    const depth = Math.max(...items.map((i) => i.y)) + 1;
    const height = depth * LEVEL + 40;
    this.extent = { w: width, h: height };
    // The first view draws one layout unit per CSS pixel, so the text is as large as the
    // stylesheet says (11 px) on a phone as on a laptop: the root's moves centred under
    // it, the rest reached by panning; Fit shows the whole tree instead.
    if (!this.view) {
      const w = this.container.clientWidth || FALLBACK.w;
      const h = this.container.clientHeight || FALLBACK.h;
      const rootX = 20 + pos.get(0).x * SLOT + SLOT / 2;
      const x = width <= w ? (width - w) / 2 : Math.max(0, Math.min(rootX - w / 2, width - w));
      this.view = { x, y: 0, w, h };
    }
    const svg = el("svg", { viewBox: `${this.view.x} ${this.view.y} ${this.view.w} ${this.view.h}`,
      preserveAspectRatio: "xMinYMin meet", "aria-label": t("lab.tree.label") });
    const X = (x) => 20 + x * SLOT + SLOT / 2;
    const Y = (y) => 30 + y * LEVEL;
    const showPv = !state || state.left.has(0);
    for (const item of items) {
      const parentId = item.kind === "node" ? data.nodes[item.id].parent : item.parent;
      if (parentId < 0) continue;
      const p = pos.get(parentId);
      const onPv = item.kind === "node" && showPv && this.pv.has(item.id) && this.pv.has(parentId);
      svg.appendChild(el("line", { x1: X(p.x), y1: Y(p.y) + 14, x2: X(item.x), y2: Y(item.y) - 22,
        class: `edge${onPv ? " pv" : ""}${item.kind === "pruned" ? " pruned" : ""}` }));
    }
    for (const item of items) {
      const x = X(item.x);
      const y = Y(item.y);
      const g = el("g", { transform: `translate(${x},${y})` });
      if (item.kind === "pruned") {
        const parent = data.nodes[item.parent];
        g.setAttribute("class", "node pruned");
        g.setAttribute("data-pruned", item.move);
        g.appendChild(el("rect", { x: -20, y: -12, width: 40, height: 24, rx: parent.ply % 2 ? 2 : 12 }));
        g.appendChild(el("text", { y: -16 }, item.move));
        g.appendChild(el("text", { y: 4 }, t("lab.cut")));
        const bound = parent.ply % 2 === 0 ? `≥ β = ${inf(parent.beta, 1)}` : `≤ α = ${inf(parent.alpha, -1)}`;
        g.appendChild(el("title", {}, t("lab.tree.tip.pruned", { move: item.move, parent: parent.move || t("lab.the-root"),
          value: val(parent.value), bound })));
        g.addEventListener("mouseenter", () => this.onHover([...this.path(item.parent), item.move]));
        svg.appendChild(g);
        continue;
      }
      const node = data.nodes[item.id];
      const left = !state || state.left.has(node.id);
      const cls = ["node"];
      if (showPv && this.pv.has(node.id)) cls.push("pv");
      if (state && state.current === node.id) cls.push("current");
      if (!left) cls.push("open");
      g.setAttribute("class", cls.join(" "));
      g.setAttribute("data-node-id", node.id);
      g.setAttribute("data-ply", node.ply);
      // MAX nodes (root mover to move) square, MIN nodes round
      g.appendChild(el("rect", { x: -22, y: -14, width: 44, height: 28, rx: node.ply % 2 ? 12 : 2 }));
      if (node.move) g.appendChild(el("text", { y: -18 }, node.move));
      g.appendChild(el("text", { y: 4, "font-weight": 600 }, left ? val(node.value) : "…"));
      if (data.algorithm === "alphabeta" && node.ply > 0) {
        g.appendChild(el("text", { y: 25, class: "window" }, `[${inf(node.alpha, -1)},${inf(node.beta, 1)}]`));
      }
      const hidden = node.children.length - this.visibleChildren(node, state).length;
      if (node.leaves) g.appendChild(el("text", { y: 36, class: "more" }, `${node.leaves}▾ ${node.best}`));
      else if (hidden > 0 && !this.expanded.has(node.id)) g.appendChild(el("text", { y: 36, class: "more" }, `+${node.children.length}`));
      const bound = node.bound && node.bound !== "exact" ? ` (${t(`lab.bound.${node.bound}`)})` : "";
      const tip = [`${this.path(node.id).join(" ") || t("lab.the-root")}: ${val(node.value)}${bound}`,
        t(`lab.how.${node.how || "open"}`), t("lab.tree.tip.depth", { depth: node.depth })];
      if (node.leaves) tip.push(t("lab.tree.tip.leaves", { count: node.leaves, best: node.best }));
      if (node.pruned.length) tip.push(t("lab.tree.tip.cut", { moves: node.pruned.join(" ") }));
      g.appendChild(el("title", {}, tip.join("; ")));
      g.addEventListener("click", (event) => { event.stopPropagation(); if (node.children.length) this.toggle(node.id); });
      g.addEventListener("mouseenter", () => this.onHover(this.path(node.id)));
      svg.appendChild(g);
    }
    this.container.replaceChildren(svg);
    this.svg = svg;
    this.visibleCount = pos.size;
  }

  // ------------------------------------------------------------ zoom and pan
  zoom(factor, cx = null, cy = null) {
    if (!this.view) return;
    const v = this.view;
    const px = cx === null ? v.x + v.w / 2 : cx;
    const py = cy === null ? v.y + v.h / 2 : cy;
    v.x = px - (px - v.x) * factor;
    v.y = py - (py - v.y) * factor;
    v.w *= factor;
    v.h *= factor;
    this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  // The whole tree drawn in the box (its text smaller when the tree is wide: zoom in or
  // Collapse to read it again).
  fit() {
    if (!this.svg) return;
    this.view = { x: 0, y: 0, w: this.extent.w, h: this.extent.h };
    this.svg.setAttribute("viewBox", `0 0 ${this.extent.w} ${this.extent.h}`);
  }

  bindPanZoom() {
    let drag = null;
    this.container.addEventListener("wheel", (event) => {
      if (!this.svg) return;
      event.preventDefault();
      const box = this.svg.getBoundingClientRect();
      const v = this.view;
      const cx = v.x + ((event.clientX - box.left) / box.width) * v.w;
      const cy = v.y + ((event.clientY - box.top) / box.height) * v.h;
      this.zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
    }, { passive: false });
    this.container.addEventListener("pointerdown", (event) => {
      if (!this.svg) return;
      drag = { x: event.clientX, y: event.clientY, view: { ...this.view } };
    });
    window.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const box = this.svg.getBoundingClientRect();
      this.view.x = drag.view.x - ((event.clientX - drag.x) / box.width) * drag.view.w;
      this.view.y = drag.view.y - ((event.clientY - drag.y) / box.height) * drag.view.h;
      this.svg.setAttribute("viewBox", `${this.view.x} ${this.view.y} ${this.view.w} ${this.view.h}`);
    });
    window.addEventListener("pointerup", () => { drag = null; });
  }
}
