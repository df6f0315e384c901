// The evaluation graph: the square difference X−O after every ply (solid, shaded
// towards the side ahead) and the bots' own evaluations where they report one
// (dashed), drawn as inline SVG. Clicking picks a ply.

import { svg, svgIn } from "./dom.js";
import { t } from "./i18n.js";


// `review` (optional): ply -> {value, mark, exact} from a game review (X's view, exact where
// the solver reached); drawn as its own line with the marked moves as coloured dots, solid
// where the solver proved the mark, hollow where a search estimated it.
export function drawGraph(container, state, viewPly, onPick, review = null) {
  const width = Math.max(240, Math.round(container.clientWidth || 320));
  const height = 150;
  const pad = { left: 26, right: 8, top: 10, bottom: 18 };
  // The x axis grows with the game (at least 16 plies, or the whole game if shorter).
  const fullLength = Math.max(state.moves.length + state.plies_left, 1);
  const totalPlies = Math.max(state.moves.length, Math.min(fullLength, 16));
  const diffs = state.boards.map((cells) => {
    let d = 0;
    for (const c of cells) d += c === "x" ? 1 : c === "o" ? -1 : 0;
    return d;
  });
  const evals = state.moves.map((m, i) => (m.eval === null || m.eval === undefined ? null : [i + 1, m.eval]))
    .filter(Boolean);
  let span = 4;
  for (const d of diffs) span = Math.max(span, Math.abs(d));
  for (const [, e] of evals) span = Math.max(span, Math.abs(e));
  const reviewed = review ? Object.values(review).sort((a, b) => a.ply - b.ply) : [];
  for (const r of reviewed) span = Math.max(span, Math.abs(r.value));
  span = Math.ceil(span / 2) * 2;
  const x = (ply) => pad.left + (ply / totalPlies) * (width - pad.left - pad.right);
  const y = (v) => pad.top + ((span - v) / (2 * span)) * (height - pad.top - pad.bottom);

  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": t("graph.label", { side: diffs[diffs.length - 1] >= 0 ? "X" : "O", count: Math.abs(diffs[diffs.length - 1]) }),
  });
  svgIn(chart, "line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "zero" });
  svgIn(chart, "line", { x1: pad.left, x2: pad.left, y1: pad.top, y2: height - pad.bottom, class: "axis" });
  for (const v of [span, 0, -span]) {
    const tick = svgIn(chart, "text", { x: pad.left - 4, y: y(v) + 3, "text-anchor": "end" });
    tick.textContent = v > 0 ? `+${v}` : String(v);
  }
  const tx = svgIn(chart, "text", { x: pad.left + 5, y: pad.top + 8 });
  tx.textContent = t("graph.ahead", { side: "X" });
  const to = svgIn(chart, "text", { x: pad.left + 5, y: height - pad.bottom - 3 });
  to.textContent = t("graph.ahead", { side: "O" });
  const tEnd = svgIn(chart, "text", { x: width - pad.right, y: height - 4, "text-anchor": "end" });
  // The shown ply (the cursor), as the move counter says it, of the whole game's plies.
  tEnd.textContent = t("graph.ply", { ply: viewPly, count: fullLength });

  if (diffs.length > 1) {
    const points = diffs.map((d, i) => [x(i), y(d)]);
    const line = points.map(([px, py], i) => `${i ? "L" : "M"}${px.toFixed(1)},${py.toFixed(1)}`).join(" ");
    const last = points[points.length - 1];
    const area = `${line} L${last[0].toFixed(1)},${y(0)} L${x(0)},${y(0)} Z`;
    const clipTop = svgIn(chart, "clipPath", { id: "clip-x" });
    svgIn(clipTop, "rect", { x: 0, y: 0, width, height: y(0) });
    const clipBottom = svgIn(chart, "clipPath", { id: "clip-o" });
    svgIn(clipBottom, "rect", { x: 0, y: y(0), width, height: height - y(0) });
    svgIn(chart, "path", { d: area, class: "area-x", "clip-path": "url(#clip-x)" });
    svgIn(chart, "path", { d: area, class: "area-o", "clip-path": "url(#clip-o)" });
    svgIn(chart, "path", { d: line, class: "score-line" });
  }
  if (evals.length) {
    const line = evals.map(([ply, e], i) => `${i ? "L" : "M"}${x(ply).toFixed(1)},${y(e).toFixed(1)}`).join(" ");
    svgIn(chart, "path", { d: line, class: "eval-line" });
    for (const [ply, e] of evals) svgIn(chart, "circle", { cx: x(ply), cy: y(e), r: 2.2, class: "eval-dot" });
  }
  if (reviewed.length) {
    const line = reviewed.map((r, i) => `${i ? "L" : "M"}${x(r.ply).toFixed(1)},${y(r.value).toFixed(1)}`).join(" ");
    svgIn(chart, "path", { d: line, class: "review-line" });
    for (const r of reviewed) {
      if (!r.mark) continue;
      const dot = svgIn(chart, "circle", { cx: x(r.ply), cy: y(r.value), r: 3.6, class: `mark-dot ${r.mark}${r.exact ? "" : " estimated"}` });
      dot.setAttribute("data-ply", String(r.ply));
    }
  }
  svgIn(chart, "line", { x1: x(viewPly), x2: x(viewPly), y1: pad.top, y2: height - pad.bottom, class: "cursor" });

  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * width;
    const ply = Math.round(((px - pad.left) / (width - pad.left - pad.right)) * totalPlies);
    onPick(Math.max(0, Math.min(state.moves.length, ply)));
  });
  container.replaceChildren(chart);
}
