// Small SVG line charts for the lab (no library): linear or log y axis, several series,
// point markers, vertical and horizontal marks with labels.

import { lang, t } from "../i18n.js";
import { svg as el } from "../dom.js";



// Numbers as the page's language writes them ("0,25" in Indonesian), without grouping
// (node counts stay one word).
function number(v) {
  return v.toLocaleString(lang, { useGrouping: false, maximumFractionDigits: 6 });
}

function fmt(v) {
  if (Math.abs(v) >= 1000) return v.toExponential(0);
  return number(Number(v.toPrecision(3)));
}

// series: [{name, colour, points: [[x, y, {hollow, title}]...], dashed}]
// options: {logY, xLabel, yLabel, vmarks: [[x, label]], hmarks: [[y, label]], title}
// The drawing is as wide as the window allows (at most 640 units, at least 320), so its
// text is drawn near its own size: on a phone a 640-unit chart shrank it to 6 px.
export function lineChart(series, options = {}) {
  const W = Math.round(Math.min(640, Math.max(320, window.innerWidth - 40)));
  const H = 300;
  const L = 56;
  const R = 16;
  const T = 46; // the title's line, then the y axis's title's line, above the plot
  const B = 40;
  const logY = Boolean(options.logY);
  const fy = (v) => (logY ? Math.log10(Math.max(v, 1e-6)) : v);
  const pts = series.flatMap((s) => s.points);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": options.title || t("lab.chart") });
  if (options.title) svg.appendChild(el("text", { x: L, y: 16, "font-weight": 600 }, options.title));
  if (!pts.length) {
    svg.appendChild(el("text", { x: L, y: H / 2 }, t("lab.no-data")));
    return svg;
  }
  const hy = (options.hmarks || []).map((m) => fy(m[0]));
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => fy(p[1])).concat(hy);
  let x0 = Math.min(...xs);
  let x1 = Math.max(...xs);
  let y0 = Math.min(...ys);
  let y1 = Math.max(...ys);
  if (x1 === x0) x1 = x0 + 1;
  if (y1 === y0) { y0 -= 1; y1 += 1; }
  if (logY) { y0 = Math.floor(y0); y1 = Math.ceil(y1); }
  const sx = (v) => L + ((v - x0) / (x1 - x0)) * (W - L - R);
  const sy = (v) => H - B - ((fy(v) - y0) / (y1 - y0)) * (H - T - B);
  const syRaw = (v) => H - B - ((v - y0) / (y1 - y0)) * (H - T - B);
  svg.appendChild(el("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#333" }));
  svg.appendChild(el("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#333" }));
  const ticks = logY ? Array.from({ length: y1 - y0 + 1 }, (_, i) => y0 + i) : [y0, (y0 + y1) / 2, y1];
  for (const t of ticks) {
    const y = syRaw(t);
    svg.appendChild(el("line", { x1: L, y1: y, x2: W - R, y2: y, stroke: "#eee" }));
    svg.appendChild(el("text", { x: L - 4, y: y + 4, "text-anchor": "end" }, fmt(logY ? 10 ** t : t)));
  }
  const xticks = Number.isInteger(x0) && Number.isInteger(x1) && x1 - x0 <= 20
    ? Array.from({ length: x1 - x0 + 1 }, (_, i) => x0 + i) : [x0, x1];
  for (const t of xticks) {
    svg.appendChild(el("text", { x: sx(t), y: H - B + 17, "text-anchor": "middle" }, fmt(t)));
  }
  if (options.xLabel) svg.appendChild(el("text", { x: W - R, y: H - 6, "text-anchor": "end" }, options.xLabel));
  if (options.yLabel) svg.appendChild(el("text", { x: 4, y: T - 12 }, options.yLabel + (logY ? " (log)" : "")));
  for (const [x, label] of options.vmarks || []) {
    svg.appendChild(el("line", { x1: sx(x), y1: T, x2: sx(x), y2: H - B, stroke: "#888", "stroke-dasharray": "4 3" }));
    svg.appendChild(el("text", { x: sx(x) + 3, y: T + 10, fill: "#555", "font-size": 10 }, label));
  }
  for (const [y, label] of options.hmarks || []) {
    svg.appendChild(el("line", { x1: L, y1: sy(y), x2: W - R, y2: sy(y), stroke: "#c62828", "stroke-dasharray": "5 3" }));
    // at the left end of its line (the legend holds the right end), under the line when
    // the line is at the plot's top, where the y axis's title is
    const below = sy(y) < T + 14;
    svg.appendChild(el("text", { x: L + 4, y: below ? sy(y) + 14 : sy(y) - 4, fill: "#c62828" }, label));
  }
  series.forEach((s, i) => {
    if (s.points.length > 1) {
      svg.appendChild(el("polyline", {
        points: s.points.map((p) => `${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join(" "),
        fill: "none", stroke: s.colour, "stroke-width": 2,
        "stroke-dasharray": s.dashed ? "5 3" : "none",
      }));
    }
    if (s.points.length <= 300) {
      for (const p of s.points) {
        const extra = p[2] || {};
        const dot = el("circle", {
          cx: sx(p[0]).toFixed(1), cy: sy(p[1]).toFixed(1), r: 3.5,
          fill: extra.hollow ? "#fff" : s.colour, stroke: s.colour, "stroke-width": 1.5,
        });
        if (extra.title) dot.appendChild(el("title", {}, extra.title));
        svg.appendChild(dot);
      }
    }
    svg.appendChild(el("text", { x: W - R - 4, y: T + 14 * i + 4, fill: s.colour, "text-anchor": "end" }, s.name));
  });
  return svg;
}

// A table in a box of its own that scrolls sideways when the table is wider than the
// page (a phone): the page itself never does. The box is focusable and named (by
// `label`, else by its columns), so a keyboard can scroll it and a screen reader
// announces it; two tables of one panel need labels of their own.
export function table(head, rows, label = null) {
  const box = document.createElement("div");
  box.className = "table-scroll";
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", label || head.join(", "));
  box.appendChild(plainTable(head, rows));
  return box;
}

function plainTable(head, rows) {
  const t = document.createElement("table");
  t.className = "lab-table";
  const tr = document.createElement("tr");
  for (const h of head) {
    const th = document.createElement("th");
    th.textContent = h;
    tr.appendChild(th);
  }
  const thead = document.createElement("thead");
  thead.appendChild(tr);
  t.appendChild(thead);
  const body = document.createElement("tbody");
  for (const row of rows) {
    const r = document.createElement("tr");
    for (const c of row) {
      const td = document.createElement("td");
      td.textContent = c === null || c === undefined ? "–" : typeof c === "number" ? number(c) : String(c);
      r.appendChild(td);
    }
    body.appendChild(r);
  }
  t.appendChild(body);
  return t;
}
