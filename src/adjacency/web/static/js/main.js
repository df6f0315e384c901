// The game page: connects the board, panels and dialogs to the API and its event stream.
// The server owns the game; the page shows the state it pushes and sends the person's
// actions. Navigation (first/back/forward/last) only changes what is shown.
// Each panel renders itself from the LiveGame (live.js); this module wires them up.

import { announce, LOW_SECONDS, moveText, warnLowClock } from "./announce.js";
import { api } from "./api.js";
import { Board } from "./board.js";
import { showGames } from "./dialogs/games.js";
import { showResult } from "./dialogs/result.js";
import { rememberInvite, showShare } from "./dialogs/share.js";
import { countCells, describe, label } from "./format.js";
import { shownName } from "./levels.js";
import { errorText, t } from "./i18n.js";
import { drawGraph } from "./graph.js";
import { renderReviewSummary, showReviewProgress } from "./panels/review.js";
import { openLab } from "./lablink.js";
import { LiveGame } from "./live.js";
import { NewGameDialog } from "./newgame.js";
import { notice, noticeState } from "./notice.js";
import { bottomColor, isFlipped, toggleFlip } from "./orientation.js";
import { Editor } from "./editor.js";
import { AnalysisPanel } from "./panels/analysis.js";
import { streamEvents } from "./stream.js";
import { renderBars, renderEmptyBars, renderPositionBars } from "./panels/bars.js";
import { clockLeft, renderClocks } from "./panels/clocks.js";
import { renderControls, renderNoGame } from "./panels/controls.js";
import { markReviewed, renderMoves } from "./panels/moves.js";
import { offerSide, offerText, renderOffer } from "./panels/offer.js";
import { watchMoreBelow } from "./panels/more.js";
import { MoveConfirm } from "./confirm-move.js";
import { Premove } from "./premove.js";
import { renderStatus } from "./panels/status.js";
import { renderThinking } from "./panels/thinking.js";
import { giveUp } from "./resign.js";
import { moveSound, setSound, soundOn, tickSound } from "./sound.js";
import { hasShapes, restoreShapes, Shapes } from "./shapes.js";
import { themePicker } from "./theme.js";
import { animates, animationPicker } from "./motion.js";
import { fillLevels, renderEvalBar, renderTreeMoves, Study } from "./study.js";
import { parseFen } from "./lab/position.js";
import { $ } from "./dom.js";

const board = new Board($("#board"), {
  onActivate: (name) => (editor && editor.active ? editor.paint(name) : onSquare(name)),
  onRender: () => { premove.paint(); confirmMove.paint(); },
});
new Shapes(board, $(".board-frame"), () => renderStudy()); // arrows and circles, per position shown
const game = new LiveGame({
  onChange: (options) => { render(options); premove.settle(); confirmMove.settle(); },
  onOver: () => {
    const s = game.state;
    announce(spoken.version === s.version ? `${spoken.text} ${describe(s)}` : describe(s));
    setTimeout(() => showResult(game.state, game.viewer), 450);
  },
  onMove: (move, state) => {
    spoken = { version: state.version, text: moveText(move) };
    announce(spoken.text);
    moveSound(move.flips.length);
    if (game.canMove && move.color !== state.turn) notifyTurn(move, state);
  },
  onRematch: (id) => followRematch(id),
  onThinking: () => renderThinking(game),
  onOpen: () => {
    if (editor && editor.active) closeEditor();
    if (reviewing) reviewing.abort();
    if (analysing === "game" || analysing === "board") panel.close();
    if (study.learning) study.stopLearning();
    study.closeBoard(); // the game opened is shown, not the analysis board
  },
});
// Clocked play on a phone: one premove on the opponent's turn, and the optional
// confirmation of your own move by a second tap.
const premove = new Premove({ game, board, play: (square) => playOwn(square) });
const confirmMove = new MoveConfirm({ game, board, play: (square) => onSquare(square) });
let spoken = { version: null, text: "" }; // the last move announced, with its state's version
let lastTick = null; // the whole second of the last low-time tick
let config = null;
let newGame = null;
let editor = null;
let analysing = null; // "game": the panel follows the shown ply; "board": the analysis
// board's shown position; "editor"; null: closed
let reviewing = null; // the AbortController of a running review
let reviewSummary = null; // {id, summary} of the last finished review
const panel = new AnalysisPanel({
  onStateChange: () => {
    if (!panel.open) analysing = null;
    pinBoard();
  },
  onLine: (fen, moves) => study.playEngineLine(fen, moves),
  onValue: () => { renderStudy(); drawEvaluation(); },
});
// The analysis board's study tools (study.js): variations, the evaluation bar, a game
// from a position against a bot, the tree as a record, learning from mistakes.
const study = new Study({
  game,
  board,
  panel,
  render: () => render(),
  notice: (text) => notice(text),
  analysing: () => analysing === "game",
  openGame: (id) => game.open(id),
  onLearning: () => showLearning(),
});

// The layout's state for the stylesheet: "editing" hides what describes the game (its
// players, scores and the shown ply's banner) while the editor shows another position;
// "board-pinned" keeps the board in view on a phone while a panel below it is used (the
// editor, the analysis, learning from mistakes); "board-only" hides the game's own panels
// (its actions, graph, record) while the analysis board shows a position of its own.
function pinBoard() {
  const editing = Boolean(editor && editor.active);
  $("#main").classList.toggle("editing", editing);
  $("#main").classList.toggle("board-only", Boolean(study.free));
  $("#main").classList.toggle("board-pinned", editing || panel.open || Boolean(study.learning));
}

// Learning from mistakes started (or closed): the board is pinned, and its panel (which
// sits above the button that opened it) is scrolled into view: on a phone just under the
// pinned board, so the prompt and the board are both seen.
function showLearning() {
  pinBoard();
  const box = $("#learn");
  if (box.hidden) return;
  $("#learn-text").focus({ preventScroll: true }); // the prompt is read; the scroll is ours
  if (underPinnedBoard(box)) return; // one column: just under the pinned board
  const side = box.closest(".side");
  if (side && getComputedStyle(side).overflowY === "auto") {
    // A laptop's layout: the side column scrolls on its own and the board never moves.
    box.scrollIntoView({ block: "nearest" });
    return;
  }
  const { top, bottom } = box.getBoundingClientRect();
  // Two columns: the board's top in view when the whole panel stays so, else the least
  // scroll that shows the panel.
  const high = window.innerHeight;
  const toBoard = Math.floor($("#board").getBoundingClientRect().top - 8);
  if (top - toBoard >= 0 && bottom - toBoard <= high) window.scrollBy(0, toBoard);
  else if (top < 8) window.scrollBy(0, Math.floor(top - 8));
  else if (bottom > high) window.scrollBy(0, Math.ceil(Math.min(top - 8, bottom - high + 8)));
}

// On one column (a phone) the pinned board sticks to the top of the window: scroll `box` to
// just under it, so what the box shows is seen with the board (not hidden under it).
// Whether the board is pinned so.
function underPinnedBoard(box) {
  const area = $(".board-area");
  if (getComputedStyle(area).position !== "sticky") return false;
  // Once scrolled the board is stuck at the window's top: it then covers its own height.
  window.scrollBy(0, Math.floor(box.getBoundingClientRect().top - area.offsetHeight - 8));
  return true;
}

// With the board pinned (a phone), a control of the panel that gets the focus is brought
// out from under the board (WCAG 2.4.11: a focused control is not hidden by sticky content),
// after the browser's own scrolling to it.
function keepFocusInView(event) {
  const target = event.target;
  if (target !== document.activeElement) return; // the focus has moved on since
  if (!$("#main").classList.contains("board-pinned") || !target.closest || !target.closest(".side")) return;
  const area = $(".board-area");
  if (getComputedStyle(area).position !== "sticky") return; // two columns: nothing covers it
  const cover = area.getBoundingClientRect().bottom;
  const box = target.getBoundingClientRect();
  if (box.top < cover) window.scrollBy(0, box.top - cover - 8);
  else if (box.bottom > window.innerHeight) window.scrollBy(0, box.bottom - window.innerHeight + 8);
}

// Your move, then the reply: a move drawn with its animation holds the board until the
// animation has ended (animationend of every animated piece; a hidden page animates
// nothing, and a generous timer guards the rest), so a bot's reply 10 ms later never
// replaces it unseen.
// A move of this browser's own is drawn at once, even over the reply's animation.
// With reduced motion or the animation speed "none" (motion.js) nothing animates and
// nothing waits; at "fast" the animations (and so the wait) are shorter. The previous
// move keeps its own marker, so your move and the reply both stay in view.
const HOLD_MOST_MS = 3000; // a safety: six times the longest move animation (style.css: .5 s)
let drawn = { id: null, ply: null }; // the game and ply the board shows
let hold = null; // {timer, onEnd} while the drawn move animates

function endHold() {
  if (!hold) return;
  clearTimeout(hold.timer);
  $("#board").removeEventListener("animationend", hold.onEnd);
  hold = null;
}

function startHold(pieces) {
  let left = pieces;
  const mine = {
    timer: setTimeout(() => release(), HOLD_MOST_MS),
    onEnd: (event) => {
      if (event.animationName !== "place" && event.animationName !== "flip") return;
      left -= 1;
      if (left <= 0) release();
    },
  };
  function release() {
    if (hold !== mine) return;
    endHold();
    render({ released: true });
  }
  hold = mine;
  $("#board").addEventListener("animationend", mine.onEnd);
}

function drawBoard(s, ply, animate) {
  const live = game.live;
  board.setup(s.rows, s.cols, bottomColor(game) === "o");
  const move = ply > 0 ? s.moves[ply - 1] : null;
  const before = ply > 1 ? s.moves[ply - 2] : null;
  const hint = game.hint;
  board.render({
    cells: s.boards[ply],
    preview: live ? s.preview : null,
    mover: s.turn,
    interactive: live && game.canMove,
    last: move ? move.square : null,
    previous: before ? before.square : null,
    flipped: move ? move.flips : [],
    animate,
    hint: live && hint && hint.plies === s.moves.length ? hint.square : null,
  });
  drawn = { id: s.id, ply };
  if (animate) startHold(1 + (move ? move.flips.length : 0));
}

// `own`: the render of this browser's own move drawn before the server has it (live.js
// guess): the board is drawn at once and the panels (the move list, the graph, the
// bars...) only after the browser has painted it, so the click's frame holds just the
// board's change.
let panelsLater = 0; // the number of the latest deferred panels' render

function render({ animate = false, released = false, own: guessed = false } = {}) {
  if (editor && editor.active) return;
  $("#main").classList.toggle("board-only", Boolean(study.free));
  if (study.free) {
    renderBoardTree();
    return;
  }
  const s = game.state;
  if (!s) return;
  $("#main").classList.toggle("finished", s.status === "over"); // its list keeps five rows or more
  const ply = game.shownPly;
  noticeState(`${s.id}/${s.version}/${ply}`); // a notice about the state before is gone
  const live = game.live;
  const same = drawn.id === s.id;
  const next = live && same && ply === drawn.ply + 1;
  const own = next && game.viewer.seats.includes(s.moves[ply - 1].color); // never waits
  study.sync();
  const variation = study.tree.current;
  if (variation) {
    endHold();
    drawVariation(s, variation);
  } else if (!(hold && same && live && ply >= drawn.ply) || own) {
    endHold(); // another game, an undo or a step back: the board follows at once
    drawBoard(s, ply, next && (animate || released) && animates() && !document.hidden);
  }
  const turn = ++panelsLater;
  if (guessed) { // after the frame that paints the board: a task queued from its callback
    requestAnimationFrame(() => setTimeout(() => turn === panelsLater && renderPanels(s, ply, variation)));
    return;
  }
  renderPanels(s, ply, variation);
}

// Everything of the game's state but the board: bars, clocks, status, controls, offer,
// the move list, the study tools, the graph, the review, the title.
function renderPanels(s, ply, variation) {
  $("#btn-flip").setAttribute("aria-pressed", String(isFlipped(s.id)));
  const cells = variation ? variation.cells : s.boards[ply];
  renderBars(game, cells, ply);
  renderClocks(game);
  renderStatus(game, variation);
  renderThinking(game);
  renderControls(game);
  renderOffer(game);
  watchOffer();
  if (study.tree.hasVariations) {
    renderTreeMoves(study.tree, study.shown(), (b, node) => node.game && markReviewed(b, game.review && game.review[node.ply]), (node) => study.select(node));
  } else {
    renderMoves(game, (p) => { study.tree.current = null; game.navigate(p); });
  }
  renderStudy();
  drawEvaluation();
  renderReviewSummary($("#review-summary"), game.review && reviewSummary && reviewSummary.id === s.id ? reviewSummary.summary : null);
  $("#btn-review").disabled = s.status !== "over" || !s.moves.length || Boolean(reviewing) || aborted(s);
  if (analysing === "game") followShown();
  // "Your turn" for the one player this browser is; two people at one screen read the side.
  const yours = s.status === "playing" && game.canMove && game.viewer.seats.length === 1;
  const turn = yours ? t("title.your-turn") : t("title.to-move", { side: s.turn.toUpperCase() });
  document.title = `${s.status === "over" ? describe(s) : turn} · Adjacency`;
}

// An aborted game has no result and nothing to review.
function aborted(s) {
  return s.status === "over" && s.detail_code === "aborted";
}

// "Your turn" where the page is not looked at: a notification where the person allowed
// them (asked once, on their first move between devices), the tab title always.
function notifyTurn(move, state) {
  if (!document.hidden || typeof Notification === "undefined" || Notification.permission !== "granted") return;
  const other = shownName(state[move.color], move.color);
  try {
    new Notification(t("notify.your-turn", { name: other, square: move.square }), { tag: `adjacency-${state.id}` });
  } catch (err) { /* a browser that only notifies from a service worker: the title says it */ }
}

function askToNotify() {
  if (typeof Notification === "undefined" || Notification.permission !== "default") return;
  try { Notification.requestPermission(); } catch (err) { /* an old browser's callback form */ }
}

// A received offer is said aloud and brought into view (over the result card); an offer
// of yours that went away without being carried out was declined or withdrawn.
let seenOffer = { key: null, mine: false, plies: 0 };

function watchOffer() {
  const s = game.state;
  const text = offerText(game);
  const key = text && `${s.id}/${s.offer.kind}/${s.offer.by}`;
  if (key === seenOffer.key) return;
  const before = seenOffer;
  const mine = Boolean(text) && s.offer.by === offerSide(game);
  seenOffer = { key, mine, plies: s.moves.length };
  if (!text) {
    if (before.mine && before.key.startsWith(`${s.id}/`) && !s.rematch && s.moves.length >= before.plies) {
      notice(t("offer.declined"));
    }
    return;
  }
  announce(text);
  if (!mine && $("#dlg-result").open) { // the rematch asked over the result card: answer it
    $("#dlg-result").close();
    $("#offer-accept").focus();
  }
}

async function answerOffer(accept) {
  const s = game.state;
  if (!s || !s.offer) return;
  try {
    const state = await api.answer(s.id, accept);
    if (state.id !== s.id) await followRematch(state.id);
    else game.apply(state);
  } catch (err) {
    notice(err.message);
  }
}

// Both players' pages switch to the rematch once it is made (the state of the finished
// game names it); watchers stay on the finished game.
let following = null;

async function followRematch(id) {
  if (game.watching || following === id || (game.state && game.state.id === id)) return;
  following = id;
  try {
    await game.open(id);
  } catch (err) {
    notice(err.message);
  } finally {
    following = null;
  }
}

async function act(action, button) {
  if (button) button.disabled = true;
  try {
    const result = await action();
    if (result && result.id && result.boards) game.apply(result);
    return result;
  } catch (err) {
    notice(err.message);
    return null;
  } finally {
    if (button) render();
  }
}

function onSquare(name, { typed = false } = {}) {
  if (study.free) {
    study.play(name);
    return;
  }
  const s = game.state;
  if (!s) return;
  if (study.wants()) {
    study.play(name);
    return;
  }
  if (!game.live) {
    notice(t("notice.earlier"));
    board.shake(name);
    return;
  }
  if (s.status === "over") {
    notice(t("notice.over"));
    return;
  }
  if (premove.tap(name)) return;
  if (s.human_to_move && !game.canMove) {
    notice(game.watching
      ? t("notice.watching")
      : t("notice.wait-turn", { player: label(s, s.turn) }));
    board.shake(name);
    return;
  }
  if (!s.human_to_move) {
    const mover = label(s, s.turn);
    notice(game.thinking
      ? t("notice.thinking", { player: mover })
      : t("notice.not-yours", { player: mover }));
    board.shake(name);
    return;
  }
  if (game.guessed) return; // your move just made (two people at one screen) waits for the server
  if (!board.isEmpty(name)) {
    const owner = board.cells[board.indexOf(name)].toUpperCase();
    notice(t("notice.taken", { square: name, side: owner }));
    board.shake(name);
    return;
  }
  if (!typed && confirmMove.hold(name)) return;
  notice("");
  if (game.viewer.invite) askToNotify();
  playOwn(name);
}

// Your move at once: drawn (with its converted squares) the moment it is made, before
// the server answers (live.js guess); the server's state then follows, and a refusal
// (or no answer) takes the move back and says why. The reply animates as chosen.
async function playOwn(square) {
  const s = game.state;
  if (!s) return;
  const guessed = game.guess(square);
  try {
    const state = await api.play(s.id, square);
    game.apply(state);
  } catch (err) {
    // Taken back here, or already by the server's state that went another way.
    if (game.takeBack(square)) board.shake(square);
    notice(guessed ? t("notice.move-taken-back", { square, error: err.message }) : err.message);
  }
}

async function loadFile(file) {
  if (!file) return;
  const most = config.max_record_chars;
  if (file.size > most * 4) {
    notice(t("notice.file-bytes", { count: file.size }));
    return;
  }
  const text = await file.text();
  if (text.length > most) {
    notice(t("notice.file-chars", { count: text.length, most }));
    return;
  }
  try {
    const state = await api.importRecord(text);
    await game.open(state.id, { viewPly: state.moves.length ? 0 : null });
    if (/\(/.test(text) && !text.trimStart().startsWith("{")) await study.importVariations(text);
    // The arrows and circles its comments hold, back on their positions.
    restoreShapes(text, { rows: state.rows, cols: state.cols, cells: state.boards[0].split(""), turn: state.first });
    notice(t("notice.loaded", { file: file.name }));
  } catch (err) {
    notice(t("notice.load-failed", { file: file.name, error: err.message }));
  }
}

async function startGame(settings, { you }) {
  if (!settings.invite) {
    const state = await api.create(settings);
    await game.open(state.id);
    return;
  }
  const made = await api.invite(settings);
  const id = made.game.id;
  rememberInvite(id, made.tokens);
  await api.claim(id, made.tokens[you]); // the creator plays the side chosen as "You play"
  await game.open(id);
  showShare(game.state, game.viewer);
}

async function requestHint() {
  const s = game.state;
  if (!s || !s.human_to_move) return;
  game.hintPending = true;
  $("#btn-hint").disabled = true;
  $("#status").textContent = t("status.hinting");
  try {
    const hint = await api.hint(s.id);
    game.hint = { ...hint, plies: s.moves.length };
  } catch (err) {
    notice(err.message);
  } finally {
    game.hintPending = false;
    render();
  }
}

async function rematch() {
  if (!game.state || (game.watching && !game.viewer.owner)) return;
  try {
    // Between devices the other player is asked; the state answered is the rematch
    // itself when they had asked first.
    const between = offerSide(game);
    const state = between ? await api.offer(game.state.id, "rematch") : await api.rematch(game.state.id);
    if (state.id === game.state.id) game.apply(state);
    else await followRematch(state.id);
  } catch (err) {
    notice(err.message);
  }
}

// Turn the board (F or its button); a keyboard player on the board stays on the same
// square (the board is built again, turned).
function flip() {
  if (!game.state || (editor && editor.active) || study.free) return;
  const focused = board.el.contains(document.activeElement) ? board.focusName : null;
  endHold();
  toggleFlip(game.state.id);
  render();
  if (focused) board.focusSquare(focused);
}

// A running clock under LOW_SECONDS: announced once, and a tick a second on your own clock.
function watchLowClock() {
  const s = game.state;
  const color = s.clock.running;
  const left = clockLeft(game, color);
  if (s.status !== "playing" || left === null || left >= LOW_SECONDS) return;
  warnLowClock(s, color, left);
  const second = Math.ceil(left);
  if (game.viewer.seats.includes(color) && s[color].kind === "human" && second !== lastTick) {
    lastTick = second;
    tickSound();
  }
}

function renderSound() {
  $("#btn-sound").setAttribute("aria-pressed", String(soundOn()));
}

// A typed move ("g3", Enter): checked for a square of this board, then played as a click.
function typedMove(event) {
  event.preventDefault();
  const s = game.state;
  const input = $("#move-input");
  const text = input.value.trim().toLowerCase();
  if (!s || !text) return;
  const files = "abcdefgh".slice(0, s.cols);
  const match = /^([a-h])([1-8])$/.exec(text);
  if (!match || !files.includes(match[1]) || Number(match[2]) > s.rows) {
    notice(t("notice.typed", { text: input.value.trim(), last: files[files.length - 1], rows: s.rows }));
    return;
  }
  input.value = "";
  onSquare(text, { typed: true });
}

function togglePause() {
  const s = game.state;
  return api.control(s.id, { action: s.paused ? "resume" : "pause" });
}

// ----------------------------------------------------------------- analysis

let shownFen = { key: null, fen: null };

async function followShown() {
  const variation = study.shown();
  if (variation.fen && study.tree.current) {
    shownFen = { key: variation.fen, fen: variation.fen };
    panel.show(t("analysis.variation", { square: variation.square }));
    panel.follow(variation.fen);
    return;
  }
  const position = game.shownPosition();
  const key = JSON.stringify(position);
  if (shownFen.key === key) {
    if (shownFen.fen) panel.follow(shownFen.fen);
    return;
  }
  shownFen = { key, fen: null };
  try {
    const { rows, cols, cells, turn, plies } = position;
    const { fen, problem, code, params } = await api.checkPosition({ rows, cols, cells, turn, plies_left: plies });
    if (shownFen.key !== key) return;
    if (code === "no_plies_left") {
      panel.show(t("analysis.after", { ply: game.shownPly, count: game.state.moves.length }));
      panel.nothing(t("analysis.over"));
      return;
    }
    if (!fen) throw new Error(errorText({ code, params, detail: problem }, problem));
    shownFen.fen = fen;
    panel.show(t("analysis.after", { ply: game.shownPly, count: game.state.moves.length }));
    panel.follow(fen);
  } catch (err) {
    panel.stop();
    $("#analysis-exact").textContent = err.message;
    $("#analysis-lines").replaceChildren();
  }
}

// A variation's position on the board (not the game's: nothing is sent to the game).
function drawVariation(s, node) {
  board.setup(s.rows, s.cols, bottomColor(game) === "o");
  board.render({
    cells: node.cells,
    preview: null,
    mover: node.turn,
    interactive: false,
    last: node.square,
    previous: node.parent ? node.parent.square : null,
    flipped: node.flips || [],
    animate: false,
    hint: null,
  });
  drawn = { id: s.id, ply: null };
}

// The evaluation graph: the squares and the one curve of the values the bar shows.
function drawEvaluation() {
  if (!game.state) return;
  drawGraph($("#graph"), game.state, game.shownPly, (p) => game.navigate(p), game.review, study.gameValues());
}

// The study tools' parts of the page: the evaluation bar, the variation's buttons, the
// "play from here" and "learn" buttons.
function renderStudy() {
  const s = game.state;
  if (editor && editor.active) { // the editor's position: the panel's value of it
    renderEvalBar(panel.open && panel.result && panel.result.fen === panel.fen ? panel.result : null);
    return;
  }
  if (study.free) {
    renderEvalBar(panel.open ? study.value() : null);
    const node = study.shown();
    $("#study-bar").hidden = false;
    $("#btn-promote").hidden = $("#btn-main-line").hidden = $("#btn-delete-variation").hidden = !node.parent;
    $("#btn-learn").hidden = true;
    return;
  }
  if (!s) {
    renderEvalBar(null);
    return;
  }
  const shown = panel.open || Boolean(game.review) ? study.value() : null;
  renderEvalBar(shown);
  const variation = study.tree.current;
  // a variation, or a shape drawn on any position, is something the record can keep
  $("#study-bar").hidden = !study.tree.hasVariations && !hasShapes();
  $("#btn-promote").hidden = $("#btn-main-line").hidden = $("#btn-delete-variation").hidden = !variation;
  if (variation) { // the game's navigation walks the variation's line
    $("#nav-first").disabled = $("#nav-back").disabled = false;
    $("#nav-forward").disabled = !variation.children.length;
  }
  $("#btn-learn").hidden = !game.review || reviewing !== null || study.mistakes().length === 0;
}

function wireStudy(click) {
  fillLevels($("#continue-level"), config);
  click("#btn-continue", () => study.continueAgainst($("#continue-level").value));
  click("#btn-promote", () => study.promote());
  click("#btn-main-line", () => study.promoteToMain());
  click("#btn-delete-variation", () => study.remove());
  click("#btn-export-tree", () => study.exportRecord());
  click("#btn-learn", () => study.startLearning());
  click("#learn-retry", () => study.retry());
  click("#learn-show", () => study.reveal());
  click("#learn-skip", () => study.next());
  click("#learn-next", () => study.next());
  click("#learn-close", () => study.stopLearning());
}

// ----------------------------------------------------------------- the analysis board

// The editor's position analysed: the analysis board shows it, with a tree of its own
// (moves played on the board or from the engine's lines), whether or not a game is open.
function openBoard(fen) {
  rootTitle = "analysis.edited";
  const p = editor.position();
  editor.leave();
  analysing = "board";
  study.openBoard({ rows: p.rows, cols: p.cols, cells: p.cells, turn: p.turn, plies: p.plies_left, fen });
  pinBoard();
}

// The analysis board at a position's text from the page's address (/?fen=..., the
// puzzles' Analyse), checked by the server first: true when it is shown; a position the
// server refuses is said (by its code, in the page's language) and the page goes on.
// Its position is named a puzzle position when the address says it came from one
// (`from=puzzle`), else an edited one.
let rootTitle = "analysis.edited";
async function openBoardAt(text) {
  const from = new URLSearchParams(window.location.search).get("from");
  rootTitle = from === "puzzle" ? "analysis.puzzle" : "analysis.edited";
  try {
    const { rows, cols, cells: squares, turn, plies } = parseFen(text);
    const cells = squares.join("");
    const { fen, problem, code, params } = await api.checkPosition({ rows, cols, cells, turn, plies_left: plies });
    if (!fen) throw new Error(errorText({ code, params, detail: problem }, problem));
    showEmptyBoard();
    analysing = "board";
    study.openBoard({ rows, cols, cells, turn, plies, fen });
    render(); // the board drawn from its tree, the panel following its shown position
    pinBoard();
    $("#main").classList.remove("opening-board");
    await followLine(new URLSearchParams(window.location.search).get("line"));
    return true;
  } catch (err) {
    $("#main").classList.remove("opening-board");
    pinBoard();
    notice(err.message, { sticky: true });
    return false;
  }
}

// A line given with the position (`?line=c3,d4,...`: a puzzle's solution) grown into the
// board's tree as its main line, the start still shown, so → steps along it. The server
// checks the moves (a wrong one is refused in the page's words, the tree unchanged).
async function followLine(text) {
  if (!text) return;
  await study.playLine(study.shown(), text.split(",").slice(0, 64), false, true);
}

// Back to the game (or to the empty board without one).
function leaveBoard() {
  study.closeBoard();
  if (analysing === "board") panel.close();
  analysing = null;
  if (game.state) render();
  else showEmptyBoard();
}

function boardPosition() {
  const node = study.shown();
  return { rows: study.free.rows, cols: study.free.cols, cells: node.cells, turn: node.turn, plies: node.plies };
}

function navFirst() {
  if (study.free) return study.first();
  study.tree.current = null;
  game.navigate(0);
  return null;
}

function navLast() {
  if (study.free) return study.last();
  study.tree.current = null;
  game.navigate(Infinity);
  return null;
}

// The panel on the analysis board's shown position.
function followBoard() {
  const node = study.shown();
  panel.show(node.parent ? t("analysis.variation", { square: node.square }) : t(rootTitle));
  panel.follow(node.fen);
}

// The analysis board drawn: its shown position, the bars' counts, its tree as the move
// list, the controls of a game off (the panel's "Play from here" starts one).
function renderBoardTree() {
  const tree = study.free;
  const node = study.shown();
  endHold();
  noticeState(`board/${node.id}`);
  board.setup(tree.rows, tree.cols, false);
  board.render({
    cells: node.cells,
    preview: null,
    mover: node.turn,
    interactive: node.plies > 0,
    last: node.square,
    previous: node.parent ? node.parent.square : null,
    flipped: node.flips || [],
    animate: false,
    hint: null,
  });
  drawn = { id: null, ply: null };
  renderPositionBars(node.cells, node.plies > 0 ? node.turn : null);
  renderNoGame();
  const [x, o] = countCells(node.cells);
  $("#status").hidden = false;
  $("#status").textContent = node.plies > 0
    ? t("board.status", { side: node.turn.toUpperCase(), count: node.plies })
    : t("board.over", { x, o });
  $("#history-banner").hidden = false;
  $("#history-text").textContent = t("board.banner");
  $("#btn-live").hidden = !game.state;
  $("#btn-live").disabled = false;
  $("#btn-analyse").disabled = false;
  $("#nav-first").disabled = $("#nav-back").disabled = !node.parent;
  $("#nav-forward").disabled = $("#nav-last").disabled = !node.children.length;
  $("#nav-pos").textContent = "";
  $("#graph").replaceChildren();
  renderReviewSummary($("#review-summary"), null);
  renderTreeMoves(tree, node, null, (n) => study.select(n));
  renderStudy();
  if (analysing === "board") followBoard();
  document.title = `${t("board.title")} · Adjacency`;
}

function analyseShown() {
  if (study.free) {
    analysing = "board";
    followBoard();
    return;
  }
  if (!game.state) return;
  if (editor.active) closeEditor();
  analysing = "game";
  panel.show(t("analysis.title"));
  followShown();
  pinBoard();
  // On a phone the panel's lines come just under the pinned board; the focus moves to the
  // panel's title (the Analyse button, brought out from under the board, would push them up).
  underPinnedBoard($("#analysis"));
  $("#analysis-title").focus({ preventScroll: true });
}

function openEditor() {
  if (study.free) {
    const node = study.shown();
    editor.load({ rows: study.free.rows, cols: study.free.cols, cells: node.cells, turn: node.turn, plies: node.plies });
    study.closeBoard();
  } else if (game.state) editor.load(game.shownPosition());
  else editor.reset();
  panel.close();
  analysing = "editor";
  editor.enter();
  pinBoard();
}

function closeEditor() {
  editor.leave();
  pinBoard();
  if (analysing === "editor") panel.close();
  analysing = null;
  if (game.state) render();
  else showEmptyBoard();
}

async function reviewGame() {
  const s = game.state;
  if (!s || s.status !== "over" || reviewing) return;
  const controller = new AbortController();
  reviewing = controller;
  game.review = {};
  reviewSummary = null;
  const bar = $("#review-progress");
  game.reviewProgress = { done: 0, total: s.moves.length }; // the status line says it (status.js)
  showReviewProgress(bar, game.reviewProgress);
  render();
  try {
    await streamEvents(api.reviewUrl(s.id), (event, data) => {
      if (!game.state || game.state.id !== s.id) return;
      if (event === "progress") {
        game.reviewProgress = data;
        showReviewProgress(bar, data);
        renderStatus(game, study.tree.current);
      } else if (event === "summary") reviewSummary = { id: s.id, summary: data };
      if (event !== "move" && event !== "summary") return;
      if (event === "move") game.review[data.ply] = data;
      render();
    }, controller.signal);
    const marks = Object.values(game.review).filter((r) => r.mark).length;
    notice(marks ? t("review.done", { count: marks }) : t("review.done.none"));
  } catch (err) {
    notice(err.message);
  } finally {
    reviewing = null;
    game.reviewProgress = null;
    showReviewProgress(bar, null);
    render();
  }
}

function wire() {
  const click = (selector, handler) => $(selector).addEventListener("click", handler);
  click("#btn-new", () => newGame.open());
  click("#btn-games", () => showGames(game));
  click("#games-close", () => $("#dlg-games").close());
  click("#btn-load", () => $("#file-load").click());
  $("#file-load").addEventListener("change", (event) => {
    loadFile(event.target.files[0]);
    event.target.value = "";
  });
  click("#btn-undo", (e) => game.state && act(() => api.undo(game.state.id), e.currentTarget));
  click("#btn-takeback", (e) => game.state && act(() => api.offer(game.state.id, "takeback"), e.currentTarget));
  click("#offer-accept", () => answerOffer(true));
  click("#offer-decline", () => answerOffer(false));
  click("#offer-withdraw", () => answerOffer(false));
  click("#btn-hint", requestHint);
  click("#btn-resign", (e) => act(() => giveUp(game), e.currentTarget));
  click("#btn-abort", (e) => act(() => giveUp(game, { abort: true }), e.currentTarget));
  click("#btn-move-now", (e) => game.state && act(() => api.moveNow(game.state.id), e.currentTarget));
  click("#btn-play-pause", (e) => game.state && act(togglePause, e.currentTarget));
  click("#btn-step", (e) => game.state && act(() => api.control(game.state.id, { action: "step" }), e.currentTarget));
  $("#speed").addEventListener("change", (e) => game.state && act(() => api.control(game.state.id, { delay: Number(e.target.value) })));
  click("#btn-rematch", rematch);
  click("#btn-analyse", analyseShown);
  click("#btn-review", reviewGame);
  wireStudy(click);
  click("#btn-editor", openEditor);
  click("#btn-lab", () => openLab(api, editor.active ? editor.position() : study.free ? boardPosition()
    : game.state ? game.shownPosition() : null));
  click("#btn-share", () => game.state && showShare(game.state, game.viewer));
  click("#invite-close", () => $("#dlg-invite").close());
  click("#btn-live", () => {
    if (study.free) return leaveBoard();
    study.tree.current = null;
    game.navigate(Infinity);
    return null;
  });
  click("#btn-flip", flip);
  click("#btn-sound", () => { setSound(!soundOn()); renderSound(); });
  $("#move-form").addEventListener("submit", typedMove);
  click("#skip-board", (e) => {
    const square = $("#board .sq[tabindex='0']");
    if (!square) return;
    e.preventDefault();
    square.focus();
  });
  click("#nav-first", navFirst);
  click("#nav-back", () => study.step(-1));
  click("#nav-forward", () => study.step(1));
  click("#nav-last", navLast);
  click("#result-review", () => { $("#dlg-result").close(); reviewGame(); });
  click("#result-new", () => { $("#dlg-result").close(); newGame.open(); });
  click("#result-rematch", () => { $("#dlg-result").close(); rematch(); });
  document.addEventListener("keydown", onKey);
  document.addEventListener("focusin", (event) => requestAnimationFrame(() => keepFocusInView(event)));
  window.addEventListener("pagehide", () => game.close());
  setInterval(() => {
    if (game.thinking) renderThinking(game);
    if (game.state && game.state.clock && game.state.clock.running && !study.free) {
      renderClocks(game);
      watchLowClock();
    }
  }, 100);
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea")) return;
  const s = game.state;
  const key = event.key;
  const handlers = {
    ArrowLeft: () => study.step(-1),
    ArrowRight: () => study.step(1),
    ArrowUp: () => study.switchLine(-1),
    ArrowDown: () => study.switchLine(1),
    Home: navFirst,
    End: navLast,
    n: () => newGame.open(),
    u: () => s && !study.free && s.status !== "over" && (game.viewer.invite
      ? !$("#btn-takeback").disabled && act(() => api.offer(s.id, "takeback"))
      : s.can_undo && act(() => api.undo(s.id))),
    h: () => !study.free && requestHint(),
    a: () => analyseShown(),
    f: () => flip(),
    m: () => !study.free && game.thinking && act(() => api.moveNow(s.id)),
    " ": () => s && !study.free && s.mode === "bot-bot" && s.status === "playing" && act(togglePause),
  };
  if (key === " " && target.closest && target.closest("button, a")) return;
  const board = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "a", "n"];
  if (!(key in handlers) || (!s && !(study.free && board.includes(key)) && key !== "n")) return;
  event.preventDefault();
  handlers[key]();
}

function showEmptyBoard() {
  // Before any game: the 8x8 start position (from the server's rules) as a backdrop.
  $("#main").classList.remove("board-only");
  $("#btn-live").hidden = false;
  $("#history-banner").hidden = true;
  $("#status").textContent = "";
  const size = config.sizes.find((z) => z.rows === 8 && z.cols === 8) || config.sizes[config.sizes.length - 1];
  board.setup(size.rows, size.cols);
  board.render({ cells: size.start, preview: null, mover: "x", interactive: false, last: null });
  drawn = { id: null, ply: null };
  renderEmptyBars(size.start);
  renderNoGame();
}

async function init() {
  themePicker($("#theme"));
  animationPicker($("#animation"));
  watchMoreBelow($(".side"), $("#side-more"), $("#side-more-button"));
  try {
    config = await api.config();
  } catch (err) {
    $("#main").classList.remove("opening-board", "board-only", "board-pinned");
    notice(err.message, { sticky: true });
    return;
  }
  newGame = new NewGameDialog($("#dlg-new"), config, startGame);
  editor = new Editor(board, config, (fen) => openBoard(fen));
  editor.onClose = closeEditor;
  wire();
  renderSound();
  const address = new URLSearchParams(window.location.search);
  const position = address.get("fen");
  if (position && await openBoardAt(position)) return;
  const wanted = address.get("game");
  if (wanted) {
    try {
      await game.open(wanted);
      return;
    } catch (err) {
      // An unknown game in the page's words in every language (the server's English
      // detail is meant for its API's callers), one sentence whatever the error's end.
      const known = err.code === "game_not_found" ? t("error.game_not_found", { game: wanted.slice(0, 40) }) : err.message;
      notice(t("notice.open-failed", { error: /[.!?…]$/.test(known) ? known : `${known}.` }));
    }
  } else {
    const last = LiveGame.lastGame();
    if (last) {
      try {
        const games = await api.games();
        if (games.some((g) => g.id === last)) {
          await game.open(last);
          return;
        }
      } catch (err) {
        notice(err.message);
      }
    }
  }
  showEmptyBoard();
  newGame.open();
}

init();
