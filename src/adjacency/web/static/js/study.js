// The analysis board as a study tool (docs/web.md, "Variations and study"):
// * a tree of variations grown from any position of the shown game: the game's moves are
//   its game line, a different move starts a variation (selectable, deletable, promotable,
//   walked with the arrow keys);
// * the engine's lines played into the tree;
// * the evaluation bar (the shown position's value from X's side: exact where the solver
//   proved it, else the engine's estimate);
// * a new game from any position of the tree against a bot level;
// * the tree as a record with variations (export and import);
// * "learn from your mistakes" after a review;
// * the analysis board without a game: a tree of its own grown from the editor's position
//   (Study.openBoard), its moves played on the board or from the engine's lines.
// The server owns the rules: every variation move is played by POST /api/analysis/line.

import { api } from "./api.js";
import { decimal, t } from "./i18n.js";
import { levelName } from "./levels.js";
import { $ } from "./dom.js";
import { parseFen } from "./lab/position.js";
import { annotate } from "./shapes.js";
import { evenHorizon } from "./graph.js";

let lastId = 0;

// A position's text (adjacency.core.Position.fen): ranks from the top, runs of empty
// squares as digits, then the side to move and the plies left.
export function fenOf(rows, cols, cells, turn, plies) {
  const ranks = [];
  for (let r = rows - 1; r >= 0; r -= 1) {
    let text = "";
    let run = 0;
    for (let f = 0; f < cols; f += 1) {
      const cell = cells[r * cols + f];
      if (cell === ".") run += 1;
      else {
        if (run) text += String(run);
        run = 0;
        text += cell;
      }
    }
    if (run) text += String(run);
    ranks.push(text);
  }
  return `${ranks.join("/")} ${turn} ${plies}`;
}

function newNode(parent, fields) {
  lastId += 1;
  return { id: lastId, parent, children: [], game: false, ...fields };
}

// The tree of one game: `root` is its start; each node {id, square, color, flips, cells,
// turn, plies, fen, ply, parent, children, game}, `game` true on the game's own moves.
export class VariationTree {
  constructor() {
    this.id = null;
    this.root = null;
    this.current = null; // a variation's node shown now; null: the game's shown ply
  }

  // Follow the game's state: its moves stay the game line, the variations stay in place.
  sync(s) {
    if (this.id !== s.id || !this.root || this.root.cells !== s.boards[0]) {
      this.id = s.id;
      this.current = null;
      this.root = newNode(null, { square: null, ply: 0, game: true });
    }
    this.rows = s.rows;
    this.cols = s.cols;
    let node = this.root;
    const fill = (n, ply) => {
      n.cells = s.boards[ply];
      n.turn = ply < s.moves.length ? s.moves[ply].color : s.turn;
      n.plies = s.plies_left + (s.moves.length - ply);
      n.fen = fenOf(s.rows, s.cols, n.cells, n.turn, n.plies);
      n.game = true;
    };
    fill(node, 0);
    for (let i = 0; i < s.moves.length; i += 1) {
      const move = s.moves[i];
      let child = node.children.find((c) => c.square === move.square);
      if (!child) {
        child = newNode(node, { square: move.square, ply: i + 1 });
        // The game's move leads unless a variation was promoted over the game line.
        if (node.children.some((c) => c.game)) node.children.push(child);
        else node.children.unshift(child);
      }
      child.color = move.color;
      child.flips = move.flips;
      fill(child, i + 1);
      node = child;
    }
    // After an undo (or a takeback) the moves taken back go, with the variations under them.
    node.children = node.children.filter((c) => !c.game);
    this.gameEnd = node;
    if (this.current && !this.contains(this.current)) this.current = null;
  }

  // A tree of its own from `start` ({rows, cols, cells, turn, plies, fen}): no game line,
  // every move a variation's (the analysis board without a game).
  startAt(start) {
    this.id = null;
    this.rows = start.rows;
    this.cols = start.cols;
    this.root = newNode(null, {
      square: null, ply: 0, cells: start.cells, turn: start.turn, plies: start.plies, fen: start.fen,
    });
    this.current = this.root;
    this.gameEnd = this.root;
  }

  contains(node) {
    let n = node;
    while (n.parent) n = n.parent;
    return n === this.root;
  }

  gameNode(ply) {
    let node = this.root;
    for (let i = 0; i < ply && node; i += 1) node = node.children.find((c) => c.game);
    return node || this.root;
  }

  get hasVariations() {
    const walk = (n) => n.children.some((c) => !c.game || walk(c));
    return Boolean(this.root) && walk(this.root);
  }

  // Add `positions` (POST /api/analysis/line's answer) as a line under `node`; the node reached.
  grow(node, positions) {
    let at = node;
    for (const p of positions) {
      let child = at.children.find((c) => c.square === p.move);
      if (!child) {
        child = newNode(at, {
          square: p.move, color: p.color, flips: p.flips, cells: p.cells, turn: p.turn,
          plies: p.plies, fen: p.fen, ply: at.ply + 1,
        });
        at.children.push(child);
      }
      at = child;
    }
    return at;
  }

  // Delete a variation's node and its moves (never the game's own moves).
  remove(node) {
    if (!node || node.game || !node.parent) return null;
    node.parent.children = node.parent.children.filter((c) => c !== node);
    return node.parent;
  }

  // Promote the variation holding `node`: it becomes the first line where it branches.
  promote(node) {
    let n = node;
    while (n.parent && n.parent.children[0] === n) n = n.parent;
    if (!n.parent) return false;
    n.parent.children = [n, ...n.parent.children.filter((c) => c !== n)];
    return true;
  }

  // Make the line through `node` the main line: promoted at every branching up to the
  // start (each promotion reaches the next branching above, so this ends at the root).
  promoteToMain(node) {
    let moved = false;
    while (this.promote(node)) moved = true;
    return moved;
  }

  // The tree as the API's flat moves (FlatMove: each with the index of the move it
  // follows, -1 from the start): one JSON level whatever the lines' length.
  flat() {
    const moves = [];
    const stack = this.root.children.map((n) => [n, -1]).reverse();
    while (stack.length) {
      const [node, parent] = stack.pop();
      moves.push({ square: node.square, parent });
      const index = moves.length - 1;
      for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push([node.children[i], index]);
    }
    return moves;
  }

  // Every line from the root to a leaf, as squares (to replay an imported tree).
  leaves() {
    const lines = [];
    const walk = (nodes, path) => {
      for (const n of nodes) {
        if (n.children.length) walk(n.children, [...path, n.square]);
        else lines.push([...path, n.square]);
      }
    };
    walk(this.root.children, []);
    return lines;
  }
}

// ---------------------------------------------------------------- evaluation bar

const SPAN = 16; // the bar is full at a margin of this many squares

// The shown position's value from X's side: {value, exact, depth} or null.
export function renderEvalBar(value) {
  const bar = $("#evalbar");
  const text = $("#evalbar-text");
  if (!bar) return;
  bar.hidden = text.hidden = value === null;
  if (value === null) return;
  const v = value.value;
  const share = Math.max(0, Math.min(1, 0.5 + v / (2 * SPAN)));
  bar.style.setProperty("--x-share", String(share));
  const number = Number.isInteger(v) ? String(Math.abs(v)) : decimal(Math.abs(v), 1);
  const signed = v > 0 ? `+${number}` : v < 0 ? `−${number}` : "0";
  const shown = value.exact ? t("evalbar.exact", { value: `=${signed}` })
    : value.depth ? t("evalbar.estimated", { value: signed, depth: value.depth })
      : t("evalbar.estimated.search", { value: signed });
  const ahead = v > 0 ? t("evalbar.ahead", { side: "X", count: number }) : v < 0 ? t("evalbar.ahead", { side: "O", count: number }) : t("evalbar.even");
  text.textContent = `${t("evalbar.label")}: ${shown} · ${ahead}`;
  bar.dataset.value = String(v);
  bar.dataset.exact = String(Boolean(value.exact));
  bar.classList.toggle("exact", Boolean(value.exact));
  bar.setAttribute("aria-label", `${t("evalbar.label")}: ${shown}, ${ahead}`);
}

// ---------------------------------------------------------------- move list

function moveButton(node, review, onPick, current) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.node = String(node.id);
  if (node.game) b.dataset.ply = String(node.ply);
  else b.classList.add("variation-move");
  b.innerHTML = `<span class="dot ${node.color}"></span><span class="sqname"></span> <span class="gain"></span>`;
  b.querySelector(".sqname").textContent = node.square;
  const count = node.flips ? node.flips.length : 0;
  b.querySelector(".gain").textContent = count ? `+${count}` : "";
  const shown = `${node.square}${count ? ` +${count}` : ""}`;
  const round = Math.floor((node.ply - 1) / 2) + 1;
  b.setAttribute("aria-label", t(node.game ? "moves.move" : "variation.move",
    { shown, round, side: node.color.toUpperCase(), count }));
  if (node === current) {
    b.classList.add("current");
    b.setAttribute("aria-current", "step");
  }
  if (review) review(b, node);
  b.addEventListener("click", () => onPick(node));
  return b;
}

// The variations branching at `parent` (its children after the first), as nested lines:
// each a run of moves, with the variations of its own moves inside it.
function variationsBlock(parent, onPick, current) {
  const box = document.createElement("div");
  box.className = "variations";
  for (const start of parent.children.slice(1)) {
    const line = document.createElement("div");
    line.className = "variation-line";
    line.setAttribute("role", "group");
    line.setAttribute("aria-label", t("variation.label", { square: start.square }));
    let node = start;
    let numbered = true; // a line, and its moves after a nested variation, restate the number
    while (node) {
      const ply = node.ply - 1;
      const number = ply % 2 === 0 ? `${ply / 2 + 1}.` : numbered ? `${(ply - 1) / 2 + 1}…` : "";
      if (number) {
        const num = document.createElement("span");
        num.className = "vnum";
        num.textContent = number;
        line.appendChild(num);
      }
      line.appendChild(moveButton(node, null, onPick, current));
      numbered = false;
      if (node !== start && node.parent.children.length > 1) {
        line.appendChild(variationsBlock(node.parent, onPick, current));
        numbered = true;
      }
      node = node.children[0];
    }
    box.appendChild(line);
  }
  return box;
}

// The move list of the tree: the main line two plies a row (as the game's list), each
// branching followed by its variations as nested lines (lichess style).
export function renderTreeMoves(tree, current, review, onPick) {
  const list = $("#moves");
  list.replaceChildren();
  let row = null;
  let node = tree.root.children[0];
  let currentButton = null;
  while (node) {
    const ply = node.ply - 1;
    if (ply % 2 === 0 || !row) {
      row = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = `${Math.floor(ply / 2) + 1}.`;
      row.appendChild(num);
      if (ply % 2 === 1) { // the round's first ply is above, before the variations
        const skip = document.createElement("span");
        skip.className = "vskip";
        skip.textContent = "…";
        row.appendChild(skip);
      }
      list.appendChild(row);
    }
    const b = moveButton(node, review, onPick, current);
    if (node === current) currentButton = b;
    row.appendChild(b);
    if (node.parent.children.length > 1) {
      const li = document.createElement("li");
      li.className = "variations-row";
      li.appendChild(variationsBlock(node.parent, onPick, current));
      list.appendChild(li);
      row = null;
    }
    node = node.children[0];
  }
  return currentButton || list.querySelector("button.current");
}

// ---------------------------------------------------------------- continue against a bot

export function fillLevels(select, config) {
  select.replaceChildren();
  for (const level of config.levels || []) {
    const option = document.createElement("option");
    option.value = String(level.number);
    option.textContent = `${level.number} · ${levelName(level.name)}`;
    select.appendChild(option);
  }
  if (select.options.length > 1) select.value = select.options[Math.min(2, select.options.length - 1)].value;
}

// The new game's settings: the person plays the side to move of `node`.
export function continueSettings(tree, node, level) {
  const you = node.turn;
  const bot = { kind: "bot", level: Number(level) };
  const person = { kind: "human" };
  return {
    x: you === "x" ? person : bot,
    o: you === "o" ? person : bot,
    rows: tree.rows,
    cols: tree.cols,
    start: node.fen,
  };
}

// ---------------------------------------------------------------- the controller

// The page's study tools over the shown game. `deps`: {game (LiveGame), board, panel
// (AnalysisPanel), render(), notice(text), analysing() (the panel follows the game),
// openGame(id), onLearning() (learning started or closed: the layout follows)}.
export class Study {
  constructor({ game, board, panel, render, notice, analysing, openGame, onLearning }) {
    this.game = game;
    this.board = board;
    this.panel = panel;
    this.render = render;
    this.notice = notice;
    this.analysing = analysing;
    this.openGame = openGame;
    this.onLearning = onLearning;
    this.tree = new VariationTree();
    this.boardTree = null; // the analysis board's own tree (no game line), while it is shown
    this.learning = null; // {items, index, found, solved, shown, finished}
  }

  // The analysis board's tree while it is shown (openBoard), else null.
  get free() {
    return this.boardTree;
  }

  // The tree the page shows: the analysis board's, else the game's.
  get active() {
    return this.boardTree || this.tree;
  }

  // Show the analysis board on `start` (the editor's position, with its `fen`): moves
  // played from it make a tree of its own, whether or not a game is open.
  openBoard(start) {
    const tree = new VariationTree();
    tree.startAt(start);
    this.boardTree = tree;
    this.render();
  }

  closeBoard() {
    this.boardTree = null;
  }

  // Whether learning waits for a move (not ended: then the board is the study's again).
  get quizzing() {
    return Boolean(this.learning && !this.learning.finished);
  }

  sync() {
    if (this.game.state) this.tree.sync(this.game.state);
  }

  // The node of the shown position: a variation's, or the game's shown ply.
  shown() {
    if (this.boardTree) return this.boardTree.current || this.boardTree.root;
    return this.tree.current || this.tree.gameNode(this.game.shownPly);
  }

  // Whether a click on the board is a variation's move (not the game's): on a variation,
  // in a finished game, or at an earlier position of a game the panel analyses.
  wants() {
    if (this.boardTree) return true;
    const s = this.game.state;
    if (!s) return false;
    return Boolean(this.learning || this.tree.current || s.status === "over" || (!this.game.live && this.analysing()));
  }

  async play(square) {
    if (this.quizzing) return this.tryMove(square);
    const node = this.shown();
    const existing = node.children.find((c) => c.square === square);
    if (existing) return this.select(existing);
    if (node.plies === 0) {
      this.notice(t("notice.over"));
      return null;
    }
    if (!this.board.isEmpty(square)) {
      const owner = this.board.cells[this.board.indexOf(square)].toUpperCase();
      this.notice(t("notice.taken", { square, side: owner }));
      this.board.shake(square);
      return null;
    }
    return this.playLine(node, [square], true);
  }

  // Play `moves` from `node` into the tree; show the first new move (or the last, `last`).
  // `moves` played from `node` into the tree; then shown: the line's first move, its last
  // (`last`), or `node` still (`stay`: a line only added).
  async playLine(node, moves, last = false, stay = false) {
    try {
      const { positions } = await api.line({ fen: node.fen, moves });
      const tree = this.active;
      if (!tree.contains(node)) return null;
      const end = tree.grow(node, positions);
      let first = end;
      while (first.parent !== node) first = first.parent;
      this.notice("");
      return this.select(stay ? node : last ? end : first);
    } catch (err) {
      this.notice(err.message);
      return null;
    }
  }

  // An engine line of the panel (analysed at `fen`): into the tree from the shown position.
  playEngineLine(fen, moves) {
    const node = this.shown();
    if (node.fen !== fen) return null;
    return this.playLine(node, moves, moves.length > 1);
  }

  select(node) {
    if (!node) return null;
    if (this.boardTree) {
      if (!this.boardTree.contains(node)) return null;
      this.boardTree.current = node;
      this.render();
    } else if (node.game) {
      this.tree.current = null;
      this.game.navigate(node.ply);
    } else {
      this.tree.current = node;
      this.render();
    }
    return node;
  }

  // The arrow keys: back and forward along the shown line, up and down between the
  // variations at the nearest branching.
  step(delta) {
    const node = this.shown();
    if (delta < 0) return this.select(node.parent);
    return this.select(node.children[0]);
  }

  // The start, or the end of the shown line's first continuations (Home and End).
  first() {
    return this.select(this.active.root);
  }

  last() {
    let node = this.shown();
    while (node.children.length) node = node.children[0];
    return this.select(node);
  }

  switchLine(delta) {
    let n = this.shown();
    while (n.parent && n.parent.children.length < 2) n = n.parent;
    if (!n.parent) return null;
    const siblings = n.parent.children;
    return this.select(siblings[siblings.indexOf(n) + delta]);
  }

  remove() {
    const tree = this.active;
    const parent = tree.remove(tree.current);
    if (parent) this.select(parent);
  }

  promote() {
    if (this.active.promote(this.shown())) this.render();
  }

  promoteToMain() {
    if (this.active.promoteToMain(this.shown())) this.render();
  }

  // The shown position's value for the evaluation bar: the panel's (when it analyses
  // this position), else the review's of a game move; null when neither has one.
  value() {
    return this.valueAt(this.shown());
  }

  // The value of `node`'s position as the page shows it ({value (X's view), exact, depth}):
  // the analysis's latest of that position, else the review's of a game move, else null.
  // The evaluation bar and the graph's curve both read it, so they show the same numbers.
  valueAt(node) {
    const analysed = this.panel.valueOf(node.fen);
    if (analysed) return analysed;
    const reviewed = node.game && this.game.review && this.game.review[node.ply];
    if (reviewed) return { value: reviewed.value, exact: reviewed.exact, depth: reviewed.depth };
    return null;
  }

  // The graph's one evaluation curve ([{ply, value, exact}]): each game ply's valueAt, else
  // the moving bot's own evaluation where its search ended on an even ply of the game.
  gameValues() {
    const s = this.game.state;
    if (!s) return [];
    const values = [];
    let node = this.tree.root;
    for (const move of s.moves) {
      node = node && node.children.find((c) => c.game);
      const shown = node ? this.valueAt(node) : null;
      if (shown) values.push({ ply: move.number, value: shown.value, exact: shown.exact });
      else if (evenHorizon(move)) values.push({ ply: move.number, value: move.eval, exact: false });
    }
    return values;
  }

  // The tree as a record with its variations (a download).
  async exportRecord() {
    const free = this.boardTree;
    const s = this.game.state;
    try {
      const { record } = await api.treeRecord(free ? { start: free.root.fen, nodes: free.flat() }
        : { game: s.id, nodes: this.tree.flat() });
      // The arrows and circles drawn on its positions go into the record's comments.
      const start = free ? parseFen(free.root.fen)
        : { rows: s.rows, cols: s.cols, cells: s.boards[0].split(""), turn: s.first };
      const text = annotate(record, start);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      link.download = free ? "adjacency-analysis.txt" : `adjacency-${s.id}-variations.txt`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (err) {
      this.notice(err.message);
    }
  }

  // After a record was loaded as the shown game: its variations into the tree.
  async importVariations(text) {
    const { tree } = await api.readTree(text);
    const s = this.game.state;
    this.tree.sync(s);
    const lines = [];
    const walk = (nodes, path) => {
      for (const n of nodes) {
        if (n.children.length) walk(n.children, [...path, n.square]);
        else lines.push([...path, n.square]);
      }
    };
    walk(tree, []);
    for (const line of lines) {
      const { positions } = await api.line({ fen: this.tree.root.fen, moves: line });
      this.tree.grow(this.tree.root, positions);
    }
    // The record's order of lines: each node's children as the record has them.
    const order = (nodes, at) => {
      at.children.sort((a, b) => nodes.findIndex((n) => n.square === a.square) - nodes.findIndex((n) => n.square === b.square));
      for (const n of nodes) {
        const child = at.children.find((c) => c.square === n.square);
        if (child) order(n.children, child);
      }
    };
    order(tree, this.tree.root);
    this.render();
    return lines.length;
  }

  // A new game from the shown position against the bot `level`; the person plays the
  // side to move.
  async continueAgainst(level) {
    const node = this.shown();
    if (node.plies === 0) {
      this.notice(t("notice.over"));
      return;
    }
    try {
      const state = await api.create(continueSettings(this.active, node, level));
      await this.openGame(state.id);
    } catch (err) {
      this.notice(err.message);
    }
  }

  // ------------------------------------------------------------ learn from your mistakes

  // The mistakes and blunders of the player this browser is (both sides when it holds
  // both seats or none), from the review.
  mistakes() {
    const review = this.game.review || {};
    const seats = this.game.viewer.seats.length === 1 ? this.game.viewer.seats : ["x", "o"];
    return Object.values(review)
      .filter((r) => (r.mark === "mistake" || r.mark === "blunder") && seats.includes(r.mover))
      .sort((a, b) => a.ply - b.ply);
  }

  startLearning() {
    const items = this.mistakes();
    if (!items.length) {
      this.notice(t("learn.none"));
      return;
    }
    this.panel.close(); // the engine's lines would give the answers away
    this.learning = { items, index: 0, found: 0, solved: false, shown: false };
    $("#learn").hidden = false;
    this.showMistake();
    if (this.onLearning) this.onLearning();
  }

  stopLearning() {
    this.learning = null;
    $("#learn").hidden = true;
    if (this.onLearning) this.onLearning();
    this.render();
  }

  showMistake() {
    const l = this.learning;
    const item = l.items[l.index];
    l.solved = false;
    l.shown = false;
    const s = this.game.state;
    const played = s.moves[item.ply - 1];
    this.select(this.tree.gameNode(item.ply - 1));
    $("#learn-progress").textContent = t("learn.progress", { index: l.index + 1, total: l.items.length });
    $("#learn-text").textContent = t("learn.prompt", {
      round: Math.floor((item.ply - 1) / 2) + 1,
      side: item.mover.toUpperCase(),
      square: played.square,
      mark: t(`review.${item.mark}`),
    });
    $("#learn-text").className = "learn-text";
    this.learnButtons();
  }

  learnButtons() {
    const l = this.learning;
    $("#learn-next").hidden = !(l.solved || l.shown);
    $("#learn-skip").hidden = l.solved || l.shown;
    $("#learn-show").hidden = l.solved || l.shown;
    $("#learn-retry").hidden = l.solved;
  }

  async tryMove(square) {
    const l = this.learning;
    const item = l.items[l.index];
    const node = this.tree.gameNode(item.ply - 1);
    if (l.solved) return null;
    if (this.shown() !== node) this.select(node);
    if (!this.board.isEmpty(square)) {
      this.board.shake(square);
      return null;
    }
    const text = $("#learn-text");
    text.textContent = t("learn.checking", { square });
    try {
      const judged = await api.judge(this.game.state.id, item.ply - 1, square);
      if (this.learning !== l) return null;
      const loss = formatLoss(judged.loss);
      if (judged.accepted) {
        l.solved = true;
        if (!l.shown) l.found += 1;
        // A move that loses nothing is a best move: said so, not "loses 0 against the best".
        text.textContent = judged.loss > 0 ? t("learn.good", { square, loss, best: judged.best || square })
          : t("learn.best-found", { square });
        text.className = "learn-text good";
        await this.playLine(node, [square]);
      } else {
        text.textContent = t("learn.bad", { square, loss });
        text.className = "learn-text bad";
        this.board.shake(square);
      }
      text.dataset.accepted = String(judged.accepted);
    } catch (err) {
      text.textContent = err.message;
    }
    this.learnButtons();
    return null;
  }

  retry() {
    if (!this.learning) return;
    this.showMistake();
  }

  reveal() {
    const l = this.learning;
    const item = l.items[l.index];
    l.shown = true;
    $("#learn-text").textContent = t("learn.best", { best: item.best || "?" });
    $("#learn-text").className = "learn-text";
    if (item.best) this.playLine(this.tree.gameNode(item.ply - 1), [item.best]);
    this.learnButtons();
  }

  next() {
    const l = this.learning;
    l.index += 1;
    if (l.index < l.items.length) {
      this.showMistake();
      return;
    }
    $("#learn-progress").textContent = "";
    $("#learn-text").textContent = t("learn.done", { found: l.found, total: l.items.length });
    $("#learn-text").className = "learn-text";
    for (const id of ["#learn-next", "#learn-skip", "#learn-show", "#learn-retry"]) $(id).hidden = true;
    // Ended: the panel stays with the count until Close, and the board is the study's
    // again (a click plays a variation, as after a review).
    this.learning = { ...l, solved: true, finished: true };
  }
}

function formatLoss(loss) {
  const rounded = Math.round(loss * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : decimal(rounded, 1);
}
