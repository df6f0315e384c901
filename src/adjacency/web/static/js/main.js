// The game page: connects the board, panels and dialogs to the API and its event stream.
// The server owns the game; the page shows the state it pushes and sends the person's
// actions. Navigation (first/back/forward/last) only changes what is shown.

import { api } from "./api.js";
import { Board, pieceSvg } from "./board.js";
import { drawGraph } from "./graph.js";
import { NewGameDialog } from "./newgame.js";

const $ = (selector) => document.querySelector(selector);
const LAST_GAME_KEY = "adjacency.lastGame";

const app = {
  config: null,
  state: null,
  viewPly: null, // null: follow the live game
  source: null,
  hint: null, // {square, flips, plies}
  thinking: null, // {info, since}
  shownResultFor: null,
  resync: false,
  hintPending: false,
  newGame: null,
  noticeTimer: null,
};

const board = new Board($("#board"), { onActivate: onSquare });

// ------------------------------------------------------------------ helpers

function notice(text, { sticky = false } = {}) {
  const node = $("#notice");
  node.textContent = text;
  clearTimeout(app.noticeTimer);
  if (!sticky && text) app.noticeTimer = setTimeout(() => { node.textContent = ""; }, 6000);
}

function player(color) {
  return app.state[color];
}

function label(color) {
  return `${color.toUpperCase()} (${player(color).name})`;
}

function livePly() {
  return app.state.moves.length;
}

function shownPly() {
  return app.viewPly === null ? livePly() : app.viewPly;
}

function countCells(cells) {
  let x = 0;
  let o = 0;
  for (const c of cells) {
    if (c === "x") x++;
    else if (c === "o") o++;
  }
  return [x, o];
}

function formatEval(score) {
  if (score === null || score === undefined) return "";
  const side = score > 0 ? "X" : score < 0 ? "O" : "even";
  return side === "even" ? "even" : `${side} +${Math.abs(score).toFixed(1)}`;
}

// ---------------------------------------------------------------- game flow

async function openGame(id, { viewPly = null } = {}) {
  const state = await api.load(id);
  app.state = null;
  app.viewPly = viewPly;
  app.hint = null;
  app.thinking = null;
  app.shownResultFor = state.status === "over" ? state.id : null;
  applyState(state, { animate: false });
  try { localStorage.setItem(LAST_GAME_KEY, id); } catch (err) { /* ignore */ }
  const url = new URL(window.location.href);
  url.searchParams.set("game", id);
  history.replaceState(null, "", url);
  connect(id);
}

function connect(id) {
  if (app.source) app.source.close();
  const source = new EventSource(api.eventsUrl(id));
  app.source = source;
  source.addEventListener("state", (event) => {
    if (app.source !== source) return;
    const state = JSON.parse(event.data);
    if (app.resync) {
      // After a reconnection (the server may have restarted) trust the server's state.
      app.resync = false;
      app.state = null;
      applyState(state, { animate: false });
      return;
    }
    applyState(state);
  });
  source.addEventListener("thinking", (event) => {
    if (app.source !== source) return;
    const info = JSON.parse(event.data);
    app.thinking = { info, since: performance.now() - info.elapsed * 1000 };
    renderThinking();
  });
  source.addEventListener("open", () => {
    if ($("#notice").dataset.lost) {
      delete $("#notice").dataset.lost;
      notice("");
    }
  });
  source.addEventListener("error", () => {
    app.resync = true;
    if (source.readyState !== EventSource.CLOSED) {
      $("#notice").dataset.lost = "1";
      notice("Connection to the server lost; reconnecting…", { sticky: true });
    }
  });
}

function applyState(state, { animate = true } = {}) {
  const old = app.state;
  if (old && old.id === state.id && state.version < old.version) return; // stale
  if (old && old.id === state.id && state.version === old.version) return; // duplicate
  const sameGame = old && old.id === state.id;
  const grew = sameGame && state.moves.length === old.moves.length + 1;
  app.state = state;
  if (!sameGame || state.moves.length !== old.moves.length) app.hint = null;
  if (app.viewPly !== null && app.viewPly > state.moves.length) app.viewPly = null;
  if (state.thinking) {
    if (!app.thinking || app.thinking.info.color !== state.thinking.color) {
      app.thinking = { info: state.thinking, since: performance.now() - state.thinking.elapsed * 1000 };
    }
  } else {
    app.thinking = null;
  }
  render({ animate: animate && grew && app.viewPly === null });
  if (state.status === "over" && app.shownResultFor !== state.id) {
    app.shownResultFor = state.id;
    if (sameGame) setTimeout(showResult, 450);
  }
}

async function act(action, button) {
  if (button) button.disabled = true;
  try {
    const result = await action();
    if (result && result.id && result.boards) applyState(result);
    return result;
  } catch (err) {
    notice(err.message);
    return null;
  } finally {
    if (button) render();
  }
}

function onSquare(name) {
  const s = app.state;
  if (!s) return;
  if (app.viewPly !== null) {
    notice("You are looking at an earlier position. Press End or “Back to game” to return.");
    board.shake(name);
    return;
  }
  if (s.status === "over") {
    notice("The game is over. Start a new game or a rematch.");
    return;
  }
  if (!s.human_to_move) {
    const mover = label(s.turn);
    notice(app.thinking
      ? `Please wait: ${mover} is thinking. “Move now” makes it play at once.`
      : `It is ${mover}'s turn, not yours.`);
    board.shake(name);
    return;
  }
  if (!board.isEmpty(name)) {
    const owner = board.cells[board.indexOf(name)].toUpperCase();
    notice(`${name} is already taken by ${owner}: place your piece on an empty square.`);
    board.shake(name);
    return;
  }
  notice("");
  act(() => api.play(s.id, name));
}

// ------------------------------------------------------------------- render

function render({ animate = false } = {}) {
  const s = app.state;
  if (!s) return;
  const ply = shownPly();
  const live = app.viewPly === null;
  board.setup(s.rows, s.cols);
  const cells = s.boards[ply];
  const move = ply > 0 ? s.moves[ply - 1] : null;
  board.render({
    cells,
    preview: live ? s.preview : null,
    mover: s.turn,
    interactive: live && s.human_to_move,
    last: move ? move.square : null,
    flipped: move ? move.flips : [],
    animate,
    hint: live && app.hint && app.hint.plies === s.moves.length ? app.hint.square : null,
  });
  renderBars(cells, ply);
  renderStatus();
  renderThinking();
  renderControls();
  renderMoves(ply);
  drawGraph($("#graph"), s, ply, (p) => navigate(p));
  const banner = $("#history-banner");
  banner.hidden = live;
  $("#status").hidden = !live;
  if (!live) $("#history-text").textContent = `Viewing position after ${ply} of ${s.moves.length} moves`;
  $("#btn-save").href = api.recordUrl(s.id);
  $("#btn-save").setAttribute("download", `adjacency-${s.id}.txt`);
  document.title = s.status === "over" ? `Adjacency · ${s.message}` : `Adjacency · ${s.turn.toUpperCase()} to move`;
}

function renderBars(cells, ply) {
  const s = app.state;
  const [x, o] = countCells(cells);
  const moverAtPly = ply < s.boards.length - 1 ? s.moves[ply].color : s.turn;
  const over = ply === s.moves.length && s.status === "over";
  for (const [id, color, score] of [["#bar-bottom", "x", x], ["#bar-top", "o", o]]) {
    const bar = $(id);
    const p = player(color);
    const toMove = !over && moverAtPly === color;
    bar.className = `player-bar side-${color}${toMove ? " to-move" : ""}`;
    const kind = p.kind === "bot" ? (p.level_name ? `Bot · level ${p.level} ${p.level_name}` : `Bot · ${p.spec}`) : "Person";
    bar.replaceChildren();
    const icon = pieceSvg(color, "piece-icon");
    const who = document.createElement("div");
    who.className = "who";
    who.innerHTML = `<div class="name"></div><div class="kind"></div>`;
    who.querySelector(".name").textContent = p.name;
    who.querySelector(".kind").textContent = kind;
    bar.append(icon, who);
    if (toMove) {
      const tag = document.createElement("span");
      tag.className = "turn-tag";
      tag.textContent = app.thinking && app.thinking.info.color === color && ply === s.moves.length ? "thinking" : "to move";
      bar.appendChild(tag);
    }
    const sc = document.createElement("div");
    sc.className = "score";
    sc.textContent = String(score);
    sc.setAttribute("aria-label", `${color.toUpperCase()} has ${score} squares`);
    bar.appendChild(sc);
  }
}

function renderStatus() {
  const s = app.state;
  let text = s.message;
  if (s.status === "playing") {
    text += ` · ${s.rounds_left} of ${s.rounds} round${s.rounds === 1 ? "" : "s"} left`;
  }
  if (app.hint && app.hint.plies === s.moves.length && app.viewPly === null) {
    const flips = app.hint.flips.length ? `converts ${app.hint.flips.join(", ")}` : "converts nothing";
    const score = app.hint.score === null || app.hint.score === undefined ? ""
      : ` ${app.hint.bot} rates it ${app.hint.score >= 0 ? "+" : "−"}${Math.abs(app.hint.score).toFixed(1)} for you.`;
    text = `Hint: ${app.hint.square} (${flips}).${score}`;
  }
  $("#status").textContent = text;
}

function renderThinking() {
  const panel = $("#thinking");
  const t = app.thinking;
  if (!t || !app.state || app.state.status !== "playing") {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const info = t.info;
  $("#thinking-who").textContent = `${label(info.color)} is thinking…`;
  const elapsed = Math.max(0, (performance.now() - t.since) / 1000);
  const limit = Math.min(app.state.time, player(info.color).time_cap || Infinity);
  const parts = [`${elapsed.toFixed(1)} s / ${limit} s`];
  if (info.depth !== null && info.depth !== undefined) parts.push(`depth ${info.depth}`);
  if (info.score !== null && info.score !== undefined) parts.push(`eval ${formatEval(info.score)}`);
  const details = $("#thinking-details");
  details.replaceChildren();
  parts.forEach((part, i) => {
    const span = document.createElement("span");
    span.className = "part";
    span.textContent = i ? ` · ${part}` : part;
    details.appendChild(span);
  });
  $("#thinking-pv").textContent = info.pv && info.pv.length ? `best line: ${info.pv.slice(0, 5).join(" ")}` : "";
}

function renderControls() {
  const s = app.state;
  const botGame = s.mode === "bot-bot";
  const playing = s.status === "playing";
  $("#human-actions").hidden = botGame;
  $("#bot-actions").hidden = !botGame;
  $("#btn-undo").disabled = !s.can_undo;
  $("#btn-hint").disabled = !(playing && s.human_to_move && app.viewPly === null) || app.hintPending;
  $("#btn-move-now").disabled = !app.thinking;
  const pp = $("#btn-play-pause");
  const icon = s.paused ? "M7 5l12 7-12 7z" : "M8 5v14M16 5v14";
  pp.innerHTML = `<svg class="ico${s.paused ? "" : " line"}" viewBox="0 0 24 24" aria-hidden="true">` +
    `<path d="${icon}"/></svg> ${s.paused ? "Play" : "Pause"}`;
  pp.disabled = !playing;
  $("#btn-step").disabled = !playing || !s.paused;
  const speed = $("#speed");
  const value = String(s.delay);
  if (![...speed.options].some((o) => o.value === value)) speed.appendChild(new Option(`${value} s`, value));
  speed.value = value;
  const ply = shownPly();
  $("#nav-first").disabled = ply === 0;
  $("#nav-back").disabled = ply === 0;
  $("#nav-forward").disabled = ply >= s.moves.length;
  $("#nav-last").disabled = ply >= s.moves.length;
  $("#nav-pos").textContent = `${ply} / ${s.moves.length}`;
}

function renderMoves(ply) {
  const s = app.state;
  const list = $("#moves");
  list.replaceChildren();
  if (!s.moves.length) {
    const li = document.createElement("li");
    li.innerHTML = `<span class="empty">No moves yet.</span>`;
    list.appendChild(li);
    return;
  }
  let current = null;
  for (let i = 0; i < s.moves.length; i += 2) {
    const li = document.createElement("li");
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${i / 2 + 1}.`;
    li.appendChild(num);
    for (const j of [i, i + 1]) {
      const m = s.moves[j];
      if (!m) break;
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.ply = String(j + 1);
      b.innerHTML = `<span class="dot ${m.color}"></span><span class="sqname"></span><span class="gain"></span>`;
      b.querySelector(".sqname").textContent = m.square;
      b.querySelector(".gain").textContent = m.flips.length ? `+${m.flips.length}` : "";
      b.setAttribute("aria-label", `move ${j + 1}: ${m.color.toUpperCase()} ${m.square}, converts ${m.flips.length}`);
      if (j + 1 === ply) {
        b.classList.add("current");
        b.setAttribute("aria-current", "step");
        current = b;
      }
      b.addEventListener("click", () => navigate(j + 1));
      li.appendChild(b);
    }
    list.appendChild(li);
  }
  if (current) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 28) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  } else if (ply === 0) {
    list.scrollTop = 0;
  }
}

function navigate(ply) {
  const s = app.state;
  if (!s) return;
  const clamped = Math.max(0, Math.min(s.moves.length, ply));
  app.viewPly = clamped === s.moves.length ? null : clamped;
  render();
}

// ------------------------------------------------------------------ dialogs

function showResult() {
  const s = app.state;
  if (!s || s.status !== "over") return;
  const dialog = $("#dlg-result");
  const [x, o] = s.score;
  const humans = ["x", "o"].filter((c) => player(c).kind === "human");
  let title;
  if (s.result === "draw") title = "Draw";
  else if (s.result === null) title = "Game stopped";
  else if (s.mode === "human-bot") title = humans.includes(s.result) ? "You win!" : "You lost";
  else title = `${player(s.result).name} wins`;
  $("#result-title").textContent = title;
  const detail = s.termination !== "normal" && s.termination_detail ? ` ${s.termination_detail}` : "";
  $("#result-text").textContent = `${label("x")} ${x} – ${o} ${label("o")}.${s.termination !== "normal" ? ` Ended by ${s.termination}.` : ""}${detail}`;
  const badge = $("#result-badge");
  badge.replaceChildren();
  if (s.result === "x" || s.result === "o") badge.appendChild(pieceSvg(s.result));
  else badge.append(pieceSvg("x", "half"), pieceSvg("o", "half"));
  if (!dialog.open) dialog.showModal();
  $("#result-rematch").focus();
}

async function showGames() {
  const dialog = $("#dlg-games");
  const box = $("#games-list");
  box.textContent = "Loading…";
  if (!dialog.open) dialog.showModal();
  let games;
  try {
    games = await api.games();
  } catch (err) {
    box.textContent = err.message;
    return;
  }
  if (!games.length) {
    box.innerHTML = `<p class="none">No saved games yet.</p>`;
    return;
  }
  const table = document.createElement("table");
  table.innerHTML = "<thead><tr><th>X</th><th>O</th><th>Size · rounds</th><th>Plies</th><th>Result</th><th>Played</th><th></th></tr></thead>";
  const body = document.createElement("tbody");
  for (const g of games) {
    const tr = document.createElement("tr");
    const result = g.status === "playing" ? "in progress"
      : g.result === "x" ? `X wins ${g.score.join("–")}` : g.result === "o" ? `O wins ${g.score.join("–")}`
        : g.result === "draw" ? `draw ${g.score.join("–")}` : "stopped";
    const date = new Date(g.updated * 1000);
    const today = date.toDateString() === new Date().toDateString();
    const when = today
      ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
      : date.toLocaleDateString([], { month: "short", day: "numeric" });
    const cells = [[g.x, "name"], [g.o, "name"], [`${g.rows}×${g.cols} · ${g.rounds}`, "nowrap"],
      [String(g.plies), ""], [result, "nowrap"], [when, "nowrap"]];
    for (const [text, cls] of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      if (cls === "name") td.title = text;
      tr.appendChild(td);
    }
    const td = document.createElement("td");
    td.className = "act";
    const open = document.createElement("button");
    open.type = "button";
    open.className = "btn small";
    open.textContent = g.status === "playing" ? "Resume" : "Replay";
    open.addEventListener("click", async () => {
      dialog.close();
      try {
        await openGame(g.id, { viewPly: g.status === "playing" ? null : 0 });
      } catch (err) {
        notice(err.message);
      }
    });
    const del = document.createElement("button");
    del.type = "button";
    del.className = "btn small";
    del.textContent = "Delete";
    del.setAttribute("aria-label", `Delete game ${g.x} vs ${g.o}`);
    del.addEventListener("click", async () => {
      try {
        await api.remove(g.id);
        if (app.state && app.state.id === g.id) notice("That game was deleted.");
        showGames();
      } catch (err) {
        notice(err.message);
      }
    });
    td.append(open, del);
    tr.appendChild(td);
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.replaceChildren(table);
}

async function loadFile(file) {
  if (!file) return;
  if (file.size > app.config.max_record_chars * 4) {
    notice(`That file is too large (${file.size} bytes) to be a game record.`);
    return;
  }
  const text = await file.text();
  if (text.length > app.config.max_record_chars) {
    notice(`That file is too large (${text.length} characters); records have at most ${app.config.max_record_chars}.`);
    return;
  }
  try {
    const state = await api.importRecord(text);
    await openGame(state.id, { viewPly: state.moves.length ? 0 : null });
    notice(`Loaded “${file.name}”: use → or the move list to replay it.`);
  } catch (err) {
    notice(`Could not load “${file.name}”: ${err.message}`);
  }
}

// ----------------------------------------------------------------- wiring

async function startGame(settings) {
  const state = await api.create(settings);
  await openGame(state.id);
}

function wire() {
  $("#btn-new").addEventListener("click", () => app.newGame.open());
  $("#btn-games").addEventListener("click", showGames);
  $("#games-close").addEventListener("click", () => $("#dlg-games").close());
  $("#btn-load").addEventListener("click", () => $("#file-load").click());
  $("#file-load").addEventListener("change", (event) => {
    loadFile(event.target.files[0]);
    event.target.value = "";
  });
  $("#btn-undo").addEventListener("click", (e) => act(() => api.undo(app.state.id), e.currentTarget));
  $("#btn-hint").addEventListener("click", requestHint);
  $("#btn-move-now").addEventListener("click", (e) => act(() => api.moveNow(app.state.id), e.currentTarget));
  $("#btn-play-pause").addEventListener("click", (e) => act(
    () => api.control(app.state.id, { action: app.state.paused ? "resume" : "pause" }), e.currentTarget));
  $("#btn-step").addEventListener("click", (e) => act(() => api.control(app.state.id, { action: "step" }), e.currentTarget));
  $("#speed").addEventListener("change", (e) => act(() => api.control(app.state.id, { delay: Number(e.target.value) })));
  $("#btn-rematch").addEventListener("click", rematch);
  $("#btn-live").addEventListener("click", () => navigate(Infinity));
  $("#nav-first").addEventListener("click", () => navigate(0));
  $("#nav-back").addEventListener("click", () => navigate(shownPly() - 1));
  $("#nav-forward").addEventListener("click", () => navigate(shownPly() + 1));
  $("#nav-last").addEventListener("click", () => navigate(Infinity));
  $("#result-review").addEventListener("click", () => $("#dlg-result").close());
  $("#result-new").addEventListener("click", () => { $("#dlg-result").close(); app.newGame.open(); });
  $("#result-rematch").addEventListener("click", () => { $("#dlg-result").close(); rematch(); });
  document.addEventListener("keydown", onKey);
  window.addEventListener("pagehide", () => { if (app.source) app.source.close(); });
  setInterval(() => { if (app.thinking) renderThinking(); }, 100);
}

async function requestHint() {
  const s = app.state;
  if (!s || !s.human_to_move) return;
  app.hintPending = true;
  $("#btn-hint").disabled = true;
  $("#status").textContent = "Looking for a good move…";
  try {
    const hint = await api.hint(s.id);
    app.hint = { ...hint, plies: s.moves.length };
  } catch (err) {
    notice(err.message);
  } finally {
    app.hintPending = false;
    render();
  }
}

async function rematch() {
  if (!app.state) return;
  try {
    const state = await api.rematch(app.state.id);
    await openGame(state.id);
  } catch (err) {
    notice(err.message);
  }
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea")) return;
  const s = app.state;
  const key = event.key;
  const handlers = {
    ArrowLeft: () => navigate(shownPly() - 1),
    ArrowRight: () => navigate(shownPly() + 1),
    Home: () => navigate(0),
    End: () => navigate(Infinity),
    n: () => app.newGame.open(),
    u: () => s && s.can_undo && act(() => api.undo(s.id)),
    h: () => requestHint(),
    m: () => app.thinking && act(() => api.moveNow(s.id)),
    " ": () => s && s.mode === "bot-bot" && s.status === "playing" &&
      act(() => api.control(s.id, { action: s.paused ? "resume" : "pause" })),
  };
  if (key === " " && target.closest && target.closest("button, a")) return;
  if (!(key in handlers) || (!s && key !== "n")) return;
  event.preventDefault();
  handlers[key]();
}

async function init() {
  try {
    app.config = await api.config();
  } catch (err) {
    notice(err.message, { sticky: true });
    return;
  }
  app.newGame = new NewGameDialog($("#dlg-new"), app.config, startGame);
  wire();
  const params = new URLSearchParams(window.location.search);
  const wanted = params.get("game");
  if (wanted) {
    try {
      await openGame(wanted);
      return;
    } catch (err) {
      notice(`${err.message}. Start a new game or open one from Games.`);
    }
  } else {
    let last = null;
    try { last = localStorage.getItem(LAST_GAME_KEY); } catch (err) { last = null; }
    if (last) {
      try {
        const games = await api.games();
        if (games.some((g) => g.id === last)) {
          await openGame(last);
          return;
        }
      } catch (err) {
        notice(err.message);
      }
    }
  }
  showEmptyBoard();
  app.newGame.open();
}

function showEmptyBoard() {
  // Before any game: the 8x8 start position as a backdrop (X bottom-left, O top-right).
  const cells = Array.from({ length: 64 }, (_, i) => {
    const rank = Math.floor(i / 8);
    const file = i % 8;
    if (rank < 2 && file < 2) return "x";
    if (rank > 5 && file > 5) return "o";
    return ".";
  }).join("");
  board.setup(8, 8);
  board.render({ cells, preview: null, mover: "x", interactive: false, last: null });
  for (const [id, color] of [["#bar-bottom", "x"], ["#bar-top", "o"]]) {
    const bar = $(id);
    bar.className = `player-bar side-${color}`;
    bar.replaceChildren(pieceSvg(color, "piece-icon"));
    const who = document.createElement("div");
    who.className = "who";
    who.innerHTML = `<div class="name">${color.toUpperCase()}</div><div class="kind">press New game to start</div>`;
    const score = document.createElement("div");
    score.className = "score";
    score.textContent = "4";
    bar.append(who, score);
  }
}

init();
