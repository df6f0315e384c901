// The search lab page (/lab?fen=...): one position, six panels fed by /api/lab/*.
// Each request is aborted when a new one for the same panel starts or the page goes
// away (the server then cancels the search).

import { boardSvg, parseFen, playLine } from "./position.js";
import { lineChart, table } from "./charts.js";
import { TreeView } from "./tree.js";
import { decimal, errorText, t } from "../i18n.js";
import { $, $$ } from "../dom.js";

const START = "6oo/6oo/8/8/8/8/xx6/xx6 x 56";
const controllers = {};
let fen = START;
let root = parseFen(START);

async function fetchLab(panel, path, params) {
  controllers[panel]?.abort();
  const controller = new AbortController();
  controllers[panel] = controller;
  const query = new URLSearchParams({ fen, ...params });
  $("#lab-busy").textContent = t("lab.searching");
  $("#lab-error").textContent = "";
  try {
    const response = await fetch(`/api/lab/${path}?${query}`, { signal: controller.signal });
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new Error(errorText(data, response.statusText));
    return data;
  } catch (err) {
    if (err.name !== "AbortError") $("#lab-error").textContent = err.message;
    return null;
  } finally {
    if (controllers[panel] === controller) $("#lab-busy").textContent = "";
  }
}

function showBoard(position, options = {}, caption = "") {
  $("#lab-board").replaceChildren(boardSvg(position, options));
  $("#lab-board-caption").textContent = caption;
}

function showRoot() {
  showBoard(root, {}, t("lab.root", { side: root.turn.toUpperCase(), count: root.plies }));
}

function formValues(form) {
  const values = {};
  for (const input of form.elements) {
    if (!input.name) continue;
    values[input.name] = input.type === "checkbox" ? String(input.checked) : input.value;
  }
  return values;
}

// ------------------------------------------------------------------ tree

const tree = new TreeView($("#tree-view"), {
  onHover: (moves) => {
    const position = playLine(root, moves);
    showBoard(position, { mark: moves[moves.length - 1] || null },
      moves.length ? t("lab.after", { moves: moves.join(" ") }) : t("lab.the-root"));
  },
});
$("#tree-view").addEventListener("mouseleave", showRoot);

async function searchTree() {
  const values = formValues($("#tree-form"));
  const data = await fetchLab("tree", "tree", values);
  if (!data) return;
  tree.load(data);
  const cap = data.complete ? "" : ` ${t("lab.tree.cap", { cap: data.node_cap })}`;
  $("#tree-summary").textContent =
    t("lab.tree.summary", { algorithm: data.algorithm, depth: data.depth, nodes: data.nodes.length, positions: data.search_nodes,
      total: data.total_nodes, ms: decimal(data.seconds * 1000, 1) }) +
    (data.complete ? ` ${t("lab.tree.value", { value: `${data.value > 0 ? "+" : ""}${data.value}`, line: data.pv.join(" ") })}` : "") + cap;
  $("#tree-step-text").textContent = "";
}

function fillDepths() {
  const most = root.rows * root.cols > 36 ? 4 : 6;
  for (const select of $$("select[name=depth]")) {
    const keep = select.value || "3";
    select.replaceChildren(...Array.from({ length: most }, (_, i) => {
      const option = document.createElement("option");
      option.value = option.textContent = String(i + 1);
      return option;
    }));
    select.value = Number(keep) <= most ? keep : "3";
  }
}

// ------------------------------------------------------------------ counts

async function counts() {
  const data = await fetchLab("counts", "compare", formValues($("#counts-form")));
  if (!data) return;
  const names = Object.fromEntries(["minimax", "reading", "alphabeta", "ordered", "table", "bulk"]
    .map((technique) => [technique, t(`lab.technique.${technique}`)]));
  const view = $("#counts-view");
  // "nodes at depth N": the search at the full depth (what a textbook implementation
  // counts); "all iterations": iterative deepening's depths 1..N together.
  view.replaceChildren(table(
    [t("lab.col.technique"), t("lab.col.nodes-depth", { depth: data.depth }), t("lab.col.nodes-deepening"),
      t("lab.col.ms"), t("lab.col.value"), t("lab.col.move"), t("lab.col.saved-previous"), t("lab.col.saved-minimax")],
    data.rows.map((r) => [names[r.technique], r.nodes, r.complete ? r.total_nodes : `> ${r.total_nodes} (${t("lab.cap")})`,
      decimal(r.seconds * 1000, 1), r.value, r.move, r.saved_vs_previous, r.saved_vs_minimax]),
  ));
  const chart = document.createElement("div");
  chart.className = "chart";
  const counted = data.rows.map((r, i) => [i, r]).filter(([, r]) => r.nodes !== null);
  chart.appendChild(lineChart([{ name: t("lab.col.nodes-depth", { depth: data.depth }), colour: "#1565c0",
    points: counted.map(([i, r]) => [i + 1, Math.max(1, r.nodes), { title: `${names[r.technique]}: ${r.nodes}` }]) }],
  { logY: true, xLabel: t("lab.counts.x"), yLabel: t("lab.col.nodes"),
    title: t("lab.counts.title", { depth: data.depth }) }));
  view.appendChild(chart);
}

// ------------------------------------------------------------------ depth vs cost

async function depthCost() {
  const data = await fetchLab("depth", "deepening", formValues($("#depth-form")));
  if (!data) return;
  const colours = ["#1565c0", "#c62828"];
  const view = $("#depth-view");
  const chart = document.createElement("div");
  chart.className = "chart";
  chart.appendChild(lineChart(data.runs.map((run, i) => ({ name: run.searcher, colour: colours[i],
    points: run.iterations.map((it) => [it.depth, Math.max(it.seconds, 1e-4), { title: t("lab.depth.point", { depth: it.depth, seconds: decimal(it.seconds, 3) }) }]) })),
  { logY: true, xLabel: t("lab.col.depth"), yLabel: t("lab.col.seconds"), hmarks: [[data.budget, t("lab.depth.limit", { seconds: data.budget })]],
    title: t("lab.depth.title") }));
  view.replaceChildren(chart);
  for (const run of data.runs) {
    const heading = document.createElement("h3");
    heading.textContent = t("lab.depth.heading", { searcher: run.searcher, seconds: data.budget,
      depth: run.limit_depth === null ? t("lab.depth.none") : t("thinking.depth", { depth: run.limit_depth }) });
    view.appendChild(heading);
    view.appendChild(table(["lab.col.depth", "lab.col.iteration-nodes", "lab.col.total-nodes", "lab.col.seconds", "lab.col.branching", "lab.col.value", "lab.col.line"].map((key) => t(key)),
      run.iterations.map((it) => [it.depth, it.nodes, it.total_nodes, decimal(it.seconds, 3),
        it.branching === null ? null : decimal(it.branching, 1), it.value, it.pv.join(" ")]), heading.textContent));
  }
}

// ------------------------------------------------------------------ climb

async function climb() {
  const data = await fetchLab("climb", "climb", formValues($("#climb-form")));
  if (!data) return;
  const view = $("#climb-view");
  const points = data.steps.filter((s) => s.chosen_value !== null).map((s) => [s.index, s.chosen_value, {
    hollow: s.kind === "sideways" || s.kind === "reject",
    title: `${s.index}: ${t(`lab.climb.kind.${s.kind}`)} ${s.chosen} (${s.chosen_value})` }]);
  const restarts = data.steps.filter((s, i) => s.kind === "start" && i > 0).map((s) => [s.index, t("lab.climb.restart")]);
  const series = [{ name: t("lab.climb.value"), colour: "#1565c0", points }];
  const temps = data.steps.filter((s) => s.temperature !== null).map((s) => [s.index, s.temperature]);
  const chart = document.createElement("div");
  chart.className = "chart";
  chart.appendChild(lineChart(series, { xLabel: t("lab.climb.step"), yLabel: t("lab.climb.objective"), vmarks: restarts,
    title: t("lab.run.title", { spec: data.spec, seed: data.seed, move: data.move }) }));
  if (temps.length) {
    chart.appendChild(lineChart([{ name: t("lab.climb.temperature"), colour: "#c62828", points: temps }],
      { xLabel: t("lab.climb.step"), yLabel: "T", title: t("lab.climb.temperature.title") }));
  }
  const kinds = {};
  for (const s of data.steps) kinds[s.kind] = (kinds[s.kind] || 0) + 1;
  const summary = document.createElement("p");
  summary.textContent = t("lab.climb.summary", { count: data.steps.length,
    dropped: data.dropped ? ` ${t("lab.climb.dropped", { count: data.dropped })}` : "",
    kinds: Object.entries(kinds).map(([k, n]) => `${n} ${t(`lab.climb.kind.${k}`)}`).join(", "), restarts: data.restarts });
  view.replaceChildren(summary, chart);
  showBoard(root, { heat: data.heat, mark: data.move }, t("lab.climb.caption", { spec: data.spec, move: data.move }));
}

// ------------------------------------------------------------------ genetic

async function evolve() {
  const data = await fetchLab("ga", "evolution", formValues($("#ga-form")));
  if (!data) return;
  const view = $("#ga-view");
  const gens = data.generations;
  const chart = document.createElement("div");
  chart.className = "chart";
  chart.appendChild(lineChart([
    { name: t("lab.ga.best"), colour: "#c62828", points: gens.map((g) => [g.generation, g.best]) },
    { name: t("lab.ga.mean"), colour: "#1565c0", points: gens.map((g) => [g.generation, g.mean]) },
  ], { xLabel: t("lab.ga.generation"), yLabel: t("lab.ga.fitness"), title: t("lab.ga.fitness.title", { spec: data.spec, seed: data.seed }) }));
  chart.appendChild(lineChart([
    { name: t("lab.ga.diversity"), colour: "#2e7d32", points: gens.map((g) => [g.generation, g.diversity]) },
    { name: t("lab.ga.distinct"), colour: "#6a1b9a", points: gens.map((g) => [g.generation, g.distinct]), dashed: true },
  ], { xLabel: t("lab.ga.generation"), yLabel: t("lab.ga.share"), title: t("lab.ga.diversity.title") }));
  const summary = document.createElement("p");
  summary.textContent = t("lab.ga.summary", { seed: data.seed, chromosome: data.chromosome.join(" "), move: data.move });
  view.replaceChildren(summary, chart);
  const labels = {};
  data.chromosome.forEach((m, i) => { if (!(m in labels)) labels[m] = String(i + 1); });
  showBoard(root, { labels, mark: data.move }, t("lab.ga.caption"));
}

// ------------------------------------------------------------------ engine

async function engine() {
  const data = await fetchLab("engine", "engine", formValues($("#engine-form")));
  if (!data) return;
  const view = $("#engine-view");
  const percent = (part, whole) => (part === null || !whole ? "" : `${decimal((100 * part) / whole, 1)}%`);
  view.replaceChildren(table(["lab.col.depth", "lab.col.value", "lab.col.nodes", "lab.col.seconds", "lab.col.line", "lab.col.exact", "lab.col.table-hits", "lab.col.solver-nodes"].map((key) => t(key)),
    data.iterations.map((it) => [it.depth, it.value, it.nodes, decimal(it.seconds, 3), it.line.join(" "),
      it.exact ? t("lab.yes") : "", percent(it.tt_hits, it.tt_probes), percent(it.solver_nodes, it.nodes)])));
  const note = document.createElement("p");
  note.className = "muted";
  const rates = {
    hits: percent(data.table_hit_rate, 1) || t("lab.unknown"),
    share: percent(data.solver_share, 1) || t("lab.unknown"),
  };
  note.textContent = `${t("lab.engine.plays", { move: data.move })} ${t(data.exact ? "lab.engine.exact" : "lab.engine.inexact")} ${t("lab.engine.rates", rates)}`;
  view.appendChild(note);
  if (data.moves.length) {
    view.appendChild(table(["lab.col.move", "lab.col.exact-value", "lab.col.choice"].map((key) => t(key)),
      data.moves.map((m) => [m.move, m.value, m.move === data.move ? "◀" : ""])));
    const heat = {};
    for (const m of data.moves) if (m.value !== null) heat[m.move] = m.value;
    showBoard(root, { heat, mark: data.move }, t("lab.engine.caption"));
  }
}

// ------------------------------------------------------------------ wiring

const RUN = { tree: searchTree, counts, depth: depthCost, climb, ga: evolve, engine };

// The tabs follow the ARIA tab pattern: only the selected tab is in the Tab order
// (tabindex 0, the others -1); the arrow keys move to the previous or next tab (wrapping),
// Home and End to the first and last, selecting it and showing its panel.
function selectTab(name, focus = false) {
  for (const button of $$(".lab-tabs [role=tab]")) {
    const on = button.dataset.tab === name;
    button.setAttribute("aria-selected", String(on));
    button.tabIndex = on ? 0 : -1;
    if (on && focus) button.focus();
    $(`#panel-${button.dataset.tab}`).hidden = !on;
  }
  showRoot();
}

function tabKey(event) {
  const tabs = $$(".lab-tabs [role=tab]");
  const at = tabs.indexOf(event.target);
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
  if (at < 0 || to === undefined) return;
  event.preventDefault();
  selectTab(tabs[(to + tabs.length) % tabs.length].dataset.tab, true);
}

function load(text) {
  try {
    root = parseFen(text);
    if (!root.cols || !["x", "o"].includes(root.turn) || Number.isNaN(root.plies)) throw new Error();
  } catch (err) {
    $("#lab-error").textContent = t("lab.bad-fen", { text });
    return;
  }
  fen = text.trim();
  $("#lab-fen").value = fen;
  fillDepths();
  showRoot();
  $("#tree-view").replaceChildren();
  for (const id of ["#counts-view", "#depth-view", "#climb-view", "#ga-view", "#engine-view"]) $(id).replaceChildren();
  $("#tree-summary").textContent = t("lab.tree.press");
}

function wire() {
  for (const button of $$(".lab-tabs [role=tab]")) {
    button.addEventListener("click", () => selectTab(button.dataset.tab));
  }
  $(".lab-tabs").addEventListener("keydown", tabKey);
  for (const [name, run] of Object.entries(RUN)) {
    const form = $(`#${name}-form`);
    form.addEventListener("submit", (event) => { event.preventDefault(); run(); });
  }
  $("#lab-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("#lab-fen").value;
    history.replaceState(null, "", `/lab?fen=${encodeURIComponent(text.trim())}`);
    load(text);
  });
  const needTree = (fn) => () => { if (tree.data) fn(); };
  $("#tree-expand").addEventListener("click", needTree(() => {
    const depth = tree.data.depth;
    const shown = tree.expandTo(depth);
    $("#tree-step-text").textContent = tree.truncated
      ? t("lab.tree.truncated", { count: shown }) : t("lab.tree.expanded", { depth, count: shown });
  }));
  $("#tree-collapse").addEventListener("click", needTree(() => {
    tree.collapse();
    $("#tree-step-text").textContent = ""; // the expansion's count no longer holds
  }));
  $("#tree-zoom-in").addEventListener("click", needTree(() => tree.zoom(1 / 1.25)));
  $("#tree-zoom-out").addEventListener("click", needTree(() => tree.zoom(1.25)));
  $("#tree-fit").addEventListener("click", needTree(() => tree.fit()));
  $("#tree-step-reset").addEventListener("click", needTree(() => { $("#tree-step-text").textContent = tree.startSteps(); }));
  $("#tree-step").addEventListener("click", needTree(() => { $("#tree-step-text").textContent = tree.advance(1); }));
  $("#tree-step-10").addEventListener("click", needTree(() => { $("#tree-step-text").textContent = tree.advance(10); }));
  window.addEventListener("pagehide", () => { for (const c of Object.values(controllers)) c.abort(); });
}

wire();
load(new URLSearchParams(window.location.search).get("fen") || START);
