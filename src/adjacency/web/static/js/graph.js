// The evaluation graph: the square difference X−O after every ply (solid, shaded
// towards the side ahead) and one evaluation curve (the values the evaluation bar shows,
// from X's view), drawn as inline SVG. Clicking picks a ply.

import { svg, svgIn } from "./dom.js";
import { t } from "./i18n.js";


// Where a bot's own evaluation may join the curve: its search ended on an even ply of the
// game (the ply before its move plus its depth), the horizon the analysis and the review
// use; a search ending with the other side to move rates the position two to three
// squares apart, which drew the curve as a sawtooth.
export function evenHorizon(move) {
  return typeof move.eval === "number" && typeof move.depth === "number" && (move.number - 1 + move.depth) % 2 === 0;
}

// `values` ([{ply, value, exact}], X's view): the one evaluation curve, the numbers the
// evaluation bar shows at each ply. `review` (optional): ply -> {value, mark, exact} from a
// game review; its marked moves are coloured dots on the curve, solid where the solver
// proved the mark, hollow where a search estimated it.
export function drawGraph(container, state, viewPly, onPick, review = null, values = []) {
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
  const curve = [...values].sort((a, b) => a.ply - b.ply);
  const at = new Map(curve.map((v) => [v.ply, v.value]));
  let span = 4;
  for (const d of diffs) span = Math.max(span, Math.abs(d));
  for (const v of curve) span = Math.max(span, Math.abs(v.value));
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
  if (curve.length) {
    const line = curve.map((v, i) => `${i ? "L" : "M"}${x(v.ply).toFixed(1)},${y(v.value).toFixed(1)}`).join(" ");
    svgIn(chart, "path", { d: line, class: "eval-line" });
    for (const v of curve) {
      const dot = svgIn(chart, "circle", { cx: x(v.ply), cy: y(v.value), r: 2.2, class: "eval-dot" });
      dot.setAttribute("data-ply", String(v.ply));
      dot.setAttribute("data-value", String(v.value));
    }
  }
  for (const r of review ? Object.values(review) : []) {
    if (!r.mark) continue;
    const value = at.has(r.ply) ? at.get(r.ply) : r.value;
    const dot = svgIn(chart, "circle", { cx: x(r.ply), cy: y(value), r: 3.6, class: `mark-dot ${r.mark}${r.exact ? "" : " estimated"}` });
    dot.setAttribute("data-ply", String(r.ply));
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
