// The puzzle page (/puzzles, /puzzles/<id>): one position, "find the best move". Each move
// is judged by the server (/api/puzzles/<id>/attempt), which keeps the solution until the
// puzzle is solved or given up: after a correct move the opponent's reply is played
// (animated) and the line goes on; after a wrong one the refutation is shown, and Retry
// goes back to the position before it. The board is the game page's (board.js: clicks,
// arrow keys and Enter); the rules for drawing a move are the lab's (position.js).
// A miss (a wrong move, a hint, the solution) stays visible with its rating change when
// the puzzle is then solved. The theme picker asks the next puzzle of one theme; the
// streak takes each next puzzle at least STREAK_STEP above the last one's rating (the
// nearest there, else the hardest left) until a miss ends it; as lichess's Puzzle Streak,
// it is unrated (its tries are recorded, never rated) and has one skip, spent by Next
// before the puzzle is solved (a puzzle passed without ending the streak; once spent,
// Next waits for the solve);
// the length picker asks for lines of that many moves, at any rating; the phase picker for
// positions of one phase of the game (endgame, middle game); the pickers combine, and a
// streak keeps to them. The timed mode (lichess's Puzzle Storm) gives TIMED_SECONDS to
// solve as many puzzles as one can, climbing as a streak does: a solved puzzle brings the
// next at once, a miss costs MISS_SECONDS and moves on, and nothing is skipped (Next waits
// for the next puzzle to come by itself); a combo of solves earns seconds back. The
// player's clock stands while the page has the turn (a move judged, the reply drawn, the
// next puzzle shown and loaded: tally.js's RunClock). Either run ends on its end screen
// (run.js), its bests kept by this browser (localStorage); the pickers wait while a run is
// on. "Your tries" lists the puzzles this browser tried, the latest first.

import { request } from "../api.js";
import { Board } from "../board.js";
import { lang, listText, t, translate } from "../i18n.js";
import { flips, parseFen, play, squareIndex, squareName } from "../lab/position.js";
import { $, setText } from "../dom.js";
import { Run, bests, clockText } from "./run.js";

const REPLY_DELAY = 450; // ms before the opponent's reply is drawn: the move is seen first
const SHOW_STEP = 650; // ms between the moves of a shown solution
const TIMED_SECONDS = 180;
const MISS_SECONDS = 10;
const NEXT_DELAY = 700; // ms the timed mode shows a solved or missed puzzle before the next

const state = {
  puzzle: null, // the server's PuzzleView
  line: [], // the moves played from the puzzle's position
  positions: [], // positions[i]: after line[:i]
  phase: "loading", // play | wait | wrong | solved | shown | loading
  hintLevel: 0,
  hint: [], // squares of the hinted region
  hintMove: null,
  missed: false, // a wrong move, a hint or the solution on this puzzle (this page)
  erred: false, // a wrong move on this puzzle (a hint alone is no mistake: said apart)
  firstRatings: null, // the rated first try's change, kept when a retry is not rated
  theme: "",
  length: "", // solver moves of the next puzzles ("": any)
  stage: "", // the phase of the game of the next puzzles (the API's `phase`; "": any)
  misses: null, // the missed puzzles' ids left to replay, else null
  run: null, // the streak or timed run on (run.js's Run: its mode, clock and tally), else null
  timer: null, // the timed run's ticker
};

const board = new Board($("#board"), { onActivate: (name) => onSquare(name) });

function current() {
  return state.positions[state.positions.length - 1];
}

function sideName(turn) {
  return turn.toUpperCase();
}

function previewOf(position) {
  const preview = {};
  position.cells.forEach((piece, index) => {
    if (piece === ".") {
      const name = squareName(index, position.cols);
      preview[name] = flips(position, name);
    }
  });
  return preview;
}

function draw(animate = false) {
  const position = current();
  const count = state.line.length;
  const last = count ? state.line[count - 1] : null;
  const before = count ? state.positions[count - 1] : null;
  board.render({
    cells: position.cells.join(""),
    preview: previewOf(position),
    mover: position.turn,
    interactive: state.phase === "play",
    last,
    previous: count > 1 ? state.line[count - 2] : null,
    flipped: last ? flips(before, last) : [],
    animate,
    hint: state.hintMove,
  });
  const region = new Set(state.hint);
  for (const [name, square] of board.squares) square.classList.toggle("region", region.has(name));
}

// The prompt (a live region) and the feedback, each written only when its words change:
// a screen reader hears each once.
function say(prompt, feedback = "", tone = "") {
  setText($("#prompt"), prompt);
  const box = $("#feedback");
  setText(box, feedback);
  box.dataset.tone = tone;
}

// What Next does now: "next" (a new puzzle), "skip" (a streak's one skip, spent on an
// unsolved puzzle) or "none" (not offered: a timed run's next puzzle comes by itself, and
// a streak whose skip is spent waits for the solve).
function passing() {
  const run = state.run;
  if (!run) return "next";
  if (run.mode === "timed") return "none";
  return run.pass(state.phase === "solved");
}

function buttons() {
  const over = ["solved", "shown"].includes(state.phase);
  $("#btn-hint").disabled = state.phase !== "play" || state.hintLevel >= 2;
  $("#btn-solution").disabled = over || state.phase === "loading";
  $("#btn-retry").hidden = state.phase !== "wrong";
  const pass = passing();
  const nextButton = $("#btn-next");
  nextButton.disabled = pass === "none" || (pass === "skip" && state.phase !== "play");
  nextButton.dataset.pass = pass;
  setText(nextButton, t(pass === "skip" ? "puzzle.next.skip" : "puzzle.next"));
  const title = { skip: "puzzle.skip.title", none: state.run && state.run.mode === "streak" ? "puzzle.next.used.title" : "puzzle.next.timed.title" }[pass];
  if (title) nextButton.title = t(title);
  else nextButton.removeAttribute("title");
  for (const picker of ["#theme", "#length", "#phase"]) $(picker).disabled = state.run !== null;
  // The run's clock runs only while the board waits for the player.
  if (state.run) {
    if (state.phase === "play") state.run.clock.run(Date.now());
    else state.run.clock.stand(Date.now());
  }
}

// The puzzle on the board as a run keeps it: its id and its rating when it was shown.
function shownPuzzle() {
  return { id: state.puzzle.id, rating: state.puzzle.rating.rating };
}

// A try's body: a streak's tries are never rated (the API's `rated`).
function tried(body = {}) {
  return state.run && state.run.mode === "streak" ? { ...body, rated: false } : body;
}

// A rating as lichess shows it: whole, without grouping ("1500").
function rounded(value) {
  return String(Math.round(value));
}

function signed(change) {
  const whole = Math.round(change);
  if (whole === 0) return "±0";
  return (whole > 0 ? "+" : "−") + String(Math.abs(whole));
}

function showRatings(player, puzzle, ratings = null) {
  $("#player-rating").textContent = rounded(player.rating);
  $("#puzzle-rating").textContent = rounded(puzzle.rating);
  /** @type {[string, number][]} */
  const changes = [["#player-change", ratings && ratings.player_after.rating - ratings.player_before.rating],
    ["#puzzle-change", ratings && ratings.puzzle_after.rating - ratings.puzzle_before.rating]];
  for (const [id, change] of changes) {
    const node = $(id);
    node.textContent = ratings && ratings.rated ? `(${signed(change)})` : "";
    node.dataset.sign = ratings && ratings.rated ? String(Math.sign(Math.round(change))) : "0";
  }
}

function rated(ratings) {
  if (!ratings) return;
  if (ratings.rated) state.firstRatings = ratings;
  const kept = !ratings.rated && ratings.unrated === "tried" && state.firstRatings;
  if (kept) {
    // A retry after a rated miss: the miss's change stays on the page, and the note says so.
    const first = state.firstRatings;
    showRatings(first.player_after, first.puzzle_after, first);
    $("#rated-note").textContent = t("puzzle.unrated-after-miss");
  } else {
    showRatings(ratings.player_after, ratings.puzzle_after, ratings);
    $("#rated-note").textContent = ratings.rated ? "" : t(UNRATED[ratings.unrated] || "puzzle.unrated");
  }
  loadHistory();
}

// A miss (a wrong move, a hint, the solution) ends a streak, on its end screen. In a
// timed run a puzzle's first miss costs MISS_SECONDS; a wrong move or the solution
// (`advance`) moves on to the next puzzle, a hint does not.
function miss(advance = true) {
  const run = state.run;
  const wrong = state.phase === "wrong";
  if (run && run.mode === "timed") {
    if (!state.missed) {
      run.clock.add(-MISS_SECONDS * 1000);
      tickTimed();
    }
    if (advance) {
      run.finished(shownPuzzle(), false, state.line, wrong);
      run.renderCombo();
      timedNext();
    }
  }
  if (advance) state.erred = true;
  state.missed = true;
  if (run && run.mode === "streak") {
    run.finished(shownPuzzle(), false, state.line, wrong);
    endRun("missed");
  }
}

// The timed run's line: the time left and the puzzles solved; at 0:00 the run ends.
function tickTimed() {
  const run = state.run;
  if (!run || run.mode !== "timed") return;
  const left = run.clock.left(Date.now());
  if (left === 0) {
    endRun("time");
    return;
  }
  const time = clockText(Math.ceil(left / 1000));
  $("#timed").textContent = t("puzzle.timed.on", { time, count: run.score });
}

// The streak's line: solved in a row, and whether its skip is left.
function streakLine(run) {
  $("#streak").textContent = t(run.skips ? "puzzle.streak.on" : "puzzle.streak.skipped", { count: run.score });
}

// The run on ends (`reason`: "time", "missed", "stopped"), kept among this browser's
// runs; its end screen is shown unless another run or the misses' replay replaces it.
function endRun(reason, show = true) {
  const run = state.run;
  if (!run) return;
  clearInterval(state.timer);
  state.timer = null;
  state.run = null;
  const best = run.end(reason, Date.now(), show);
  $(`#btn-${run.mode}`).setAttribute("aria-pressed", "false");
  if (run.mode === "timed") {
    const words = reason === "time" ? "puzzle.timed.over" : "puzzle.timed.stopped";
    $("#timed").textContent = t(words, { count: run.score, best: best.all });
  } else {
    const words = reason === "missed" ? "puzzle.streak.over" : "puzzle.streak.stopped";
    $("#streak").textContent = t(words, { count: run.score });
  }
  buttons();
}

// Streak and Timed: pressed while their run is on, it stops (its end screen shown);
// otherwise a run of that mode starts with a fresh puzzle (ending the other mode's run).
function toggleRun(mode) {
  const same = state.run && state.run.mode === mode;
  if (state.run) endRun("stopped", same);
  if (same) return;
  state.misses = null;
  $("#misses").textContent = "";
  const run = new Run(mode, Date.now(), mode === "timed" ? TIMED_SECONDS : Infinity);
  run.clock.stand(Date.now()); // until its first puzzle is on the board
  state.run = run;
  $(`#btn-${mode}`).setAttribute("aria-pressed", "true");
  boardInView();
  if (mode === "timed") {
    state.timer = setInterval(tickTimed, 250);
    run.renderCombo();
    tickTimed();
  } else {
    streakLine(run);
  }
  buttons();
  load(null, true);
}

// A run is solved on the board: where its button lies below the board (a phone's one
// column), the board's area (the prompt, the run's clock and combo, the board) is
// scrolled back into view, whole.
function boardInView() {
  const area = $(".board-area").getBoundingClientRect();
  if (area.top < 0 || area.bottom > window.innerHeight) $(".board-area").scrollIntoView({ block: "start" });
}

// In the timed mode a finished puzzle (solved or missed) brings the next after a moment.
function timedNext() {
  const run = state.run;
  setTimeout(() => { if (state.run === run) load(); }, NEXT_DELAY);
}

// Replay misses: the puzzles this browser missed at its first try (a wrong move, a hint
// or the solution), of the chosen theme if one is, the latest first, one after another
// by Next; then the picks go on as before. A replay is a later try: never rated.
async function replayMisses() {
  let tries;
  try {
    tries = await request("GET", "/api/puzzles/history");
  } catch (err) {
    notice(err.message);
    return;
  }
  endRun("stopped", false);
  const ids = tries.filter((entry) => !entry.win && (!state.theme || entry.themes.includes(state.theme))).map((entry) => entry.id);
  state.misses = ids.length ? ids : null;
  if (!ids.length) {
    $("#misses").textContent = t("puzzle.misses.none");
    return;
  }
  nextMiss();
}

function nextMiss() {
  const id = state.misses.shift();
  $("#misses").textContent = t("puzzle.misses.on", { count: state.misses.length });
  if (!state.misses.length) state.misses = null;
  load(id);
}

// Next: a new puzzle; in a streak, before the solve, its one skip (then not offered); in
// a timed run not offered (the next puzzle comes by itself).
function next() {
  const pass = passing();
  if (pass === "none") return;
  if (pass === "skip") {
    if (state.phase !== "play" || !state.run.skip(shownPuzzle(), state.line)) return;
    streakLine(state.run);
  }
  if (state.misses) nextMiss();
  else {
    $("#misses").textContent = "";
    load();
  }
}


async function loadThemes() {
  let themes;
  let lengths;
  let phases;
  try {
    [themes, lengths, phases] = await Promise.all([request("GET", "/api/puzzles/themes"),
      request("GET", "/api/puzzles/lengths"), request("GET", "/api/puzzles/phases")]);
  } catch (err) {
    notice(err.message);
    return;
  }
  for (const { phase, puzzles } of phases) {
    const option = document.createElement("option");
    option.value = phase;
    option.textContent = t("puzzle.phase-count", { phase: t(`puzzle.phase.${phase}`), count: puzzles });
    $("#phase").appendChild(option);
  }
  for (const { moves, puzzles } of lengths) {
    const option = document.createElement("option");
    option.value = String(moves);
    option.textContent = t("puzzle.length-count", { count: moves, puzzles });
    $("#length").appendChild(option);
  }
  const select = $("#theme");
  for (const { theme, puzzles } of themes) {
    const option = document.createElement("option");
    option.value = theme;
    option.textContent = t("puzzle.theme-count", { theme: t(`puzzle.theme.${theme}`), count: puzzles });
    select.appendChild(option);
  }
}

async function loadHistory() {
  let tries;
  try {
    tries = await request("GET", "/api/puzzles/history");
  } catch (err) {
    return; // the list stays as it was; the puzzle itself is unaffected
  }
  const list = $("#history");
  list.replaceChildren();
  for (const entry of tries.slice(0, 10)) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/puzzles/${encodeURIComponent(entry.id)}`;
    const result = entry.win ? "puzzle.history.won" : entry.solved ? "puzzle.history.later" : "puzzle.history.missed";
    // Named by its themes and the day it was first tried (its rating moves with every try).
    const themes = listText(entry.themes.map((name) => t(`puzzle.theme.${name}`)));
    const date = new Date(entry.first * 1000).toLocaleDateString(lang, { day: "numeric", month: "short" });
    link.textContent = t("puzzle.history.item", { themes, date, result: t(result) });
    link.dataset.id = entry.id;
    link.dataset.result = entry.win ? "won" : entry.solved ? "later" : "missed";
    item.appendChild(link);
    list.appendChild(item);
  }
  $("#history-empty").hidden = tries.length > 0;
  list.dataset.count = String(tries.length);
  loadDashboard();
}

// The dashboard: the server's charts of this browser's first tries per theme, phase and
// length, and of its rating after each rated attempt (SVGs whose names carry their
// catalogue keys, worded here in the page's language).
async function loadDashboard() {
  const box = $("#dashboard");
  const period = $("#dashboard-period").value;
  for (const place of box.querySelectorAll("[data-by]")) {
    try {
      const response = await fetch(`/api/puzzles/dashboard.svg?by=${place.dataset.by}&period=${encodeURIComponent(period)}`);
      if (!response.ok) continue;
      place.innerHTML = await response.text();
      translate(place);
    } catch (err) {
      // that chart stays as it was
    }
  }
  try {
    const response = await fetch("/api/puzzles/rating.svg");
    if (response.ok) {
      const place = $("#rating-chart");
      place.innerHTML = await response.text();
      translate(place);
      // the attempts' days, as the history names them, in the page's language
      for (const mark of place.querySelectorAll(".rating-date[data-at]")) {
        mark.textContent = new Date(Number(mark.dataset.at) * 1000).toLocaleDateString(lang, { day: "numeric", month: "short" });
      }
      const drawn = Number(place.querySelector("svg")?.dataset.points || 0) > 0;
      place.hidden = !drawn;
      $("#rating-title").hidden = !drawn;
    }
  } catch (err) {
    // the rating chart stays as it was
  }
  renderVerdict(box);
  // A period without first tries says so, its picker kept; no first try at all: no dashboard.
  const any = Boolean(box.querySelector(".theme-row"));
  $("#dashboard-none").hidden = any;
  box.closest("section").hidden = !any && period === "all";
}

// The themes played above the player's rating (strengths, the best first) and below it
// (improvement areas, the worst first), at most three of each, as lichess's dashboard
// names them: from the theme chart's performances and the rating the page shows.
function renderVerdict(box) {
  const rating = Number($("#player-rating").textContent);
  const rows = [...box.querySelectorAll("[data-by=theme] .theme-row")]
    .map((row) => ({ theme: row.dataset.theme, performance: Number(row.dataset.performance) }));
  const named = (list) => (list.length ? listText(list.slice(0, 3).map((row) => t(`puzzle.theme.${row.theme}`))) : t("puzzle.verdict.none"));
  const strong = rows.filter((row) => row.performance > rating).sort((a, b) => b.performance - a.performance);
  const weak = rows.filter((row) => row.performance < rating).sort((a, b) => a.performance - b.performance);
  $("#dashboard-strengths").textContent = named(strong);
  $("#dashboard-improve").textContent = named(weak);
  $("#dashboard-verdict").hidden = !rows.length || !Number.isFinite(rating);
}

// Why an attempt moved no rating (the API's ratings.unrated), as the note's words.
const UNRATED = {
  tried: "puzzle.unrated",
  new_player: "puzzle.unrated_new_player",
  shown_here: "puzzle.unrated_shown_here",
  shown_elsewhere: "puzzle.unrated_shown_elsewhere",
  puzzle_busy: "puzzle.unrated_puzzle_busy",
  streak: "puzzle.unrated_streak",
};

function showEnd(solution, themes) {
  $("#line").hidden = false;
  $("#line").textContent = t("puzzle.line", { line: solution.join(" ") });
  $("#themes").hidden = !themes.length;
  $("#themes").textContent = t("puzzle.themes", { themes: listText(themes.map((name) => t(`puzzle.theme.${name}`))) });
  // The analysis board of the play page at the puzzle's position, its solution the line
  // to step along (main.js reads ?fen= and ?line=).
  const analyse = $("#btn-analyse");
  const line = solution.length ? `&line=${encodeURIComponent(solution.join(","))}` : "";
  analyse.href = `/?fen=${encodeURIComponent(state.puzzle.position)}${line}&from=puzzle`;
  analyse.hidden = false;
}

function prompt() {
  const solver = sideName(parseFen(state.puzzle.position).turn);
  return t("puzzle.your-turn", { side: solver });
}

function notice(message) {
  $("#notice").textContent = message;
}

async function onSquare(name) {
  if (state.phase !== "play") return;
  const position = current();
  if (position.cells[squareIndex(name, position.cols)] !== ".") {
    board.shake(name);
    return;
  }
  notice("");
  state.line.push(name);
  state.positions.push(play(position, name));
  state.phase = "wait";
  state.hint = [];
  state.hintMove = null;
  draw(true);
  buttons();
  let answer;
  try {
    answer = await request("POST", `/api/puzzles/${encodeURIComponent(state.puzzle.id)}/attempt`,
      tried({ moves: state.line }));
  } catch (err) {
    state.line.pop();
    state.positions.pop();
    state.phase = "play";
    draw();
    buttons();
    notice(err.message);
    return;
  }
  if (answer.outcome === "wrong") {
    state.phase = "wrong";
    miss();
    if (answer.reply) {
      await pause(REPLY_DELAY);
      state.line.push(answer.reply);
      state.positions.push(play(current(), answer.reply));
    }
    draw(true);
    say(prompt(), answer.reply ? t("puzzle.wrong", { move: name, reply: answer.reply })
      : t("puzzle.wrong-end", { move: name }), "bad");
    rated(answer.ratings);
  } else if (answer.outcome === "correct") {
    say(prompt(), t("puzzle.correct", { move: name }), "good");
    await pause(REPLY_DELAY);
    state.line.push(answer.reply);
    state.positions.push(play(current(), answer.reply));
    state.phase = "play";
    draw(true);
    const replier = sideName(current().turn === "x" ? "o" : "x");
    say(prompt(), t("puzzle.correct-reply", { move: name, side: replier, reply: answer.reply }), "good");
  } else {
    state.phase = "solved";
    draw();
    const words = state.erred ? "puzzle.solved-after-miss" : state.missed ? "puzzle.solved-after-hint" : "puzzle.solved";
    say(t("puzzle.solved-title"), t(words), "good");
    const run = state.run;
    if (run) {
      const bonus = run.finished(shownPuzzle(), !state.missed, state.line, false);
      if (run.mode === "streak") streakLine(run);
      else {
        run.clock.add(bonus * 1000);
        run.renderCombo();
        tickTimed();
        timedNext();
      }
    }
    rated(answer.ratings);
    showEnd(answer.solution, answer.themes);
  }
  buttons();
  if (state.phase !== "play") $(state.phase === "wrong" ? "#btn-retry" : "#btn-next").focus();
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function retry() {
  // Back to the position before the wrong move (and its refutation).
  const keep = state.line.length % 2 ? state.line.length - 1 : state.line.length - 2;
  state.line = state.line.slice(0, keep);
  state.positions = state.positions.slice(0, keep + 1);
  state.phase = "play";
  draw();
  buttons();
  say(prompt(), t("puzzle.try-again"));
  board.focusSquare(board.focusName || "a1");
}

async function hint() {
  if (state.phase !== "play") return;
  const level = state.hintLevel + 1;
  try {
    const answer = await request("POST", `/api/puzzles/${encodeURIComponent(state.puzzle.id)}/hint`,
      tried({ moves: state.line, level }));
    state.hintLevel = level;
    miss(false);
    state.hint = answer.region;
    state.hintMove = answer.move;
    draw();
    say(prompt(), answer.move ? t("puzzle.hint-move", { move: answer.move }) : t("puzzle.hint-region"));
    rated(answer.ratings);
  } catch (err) {
    notice(err.message);
  }
  buttons();
}

async function showSolution() {
  let answer;
  try {
    answer = await request("POST", `/api/puzzles/${encodeURIComponent(state.puzzle.id)}/solution`,
      tried());
  } catch (err) {
    notice(err.message);
    return;
  }
  state.phase = "shown";
  miss();
  state.hint = [];
  state.hintMove = null;
  rated(answer.ratings);
  showEnd(answer.solution, answer.themes);
  buttons();
  say(t("puzzle.solution-title"), t("puzzle.line", { line: answer.solution.join(" ") }));
  const start = parseFen(state.puzzle.position);
  state.line = [];
  state.positions = [start];
  draw();
  const id = state.puzzle.id;
  for (const move of answer.solution) {
    await pause(SHOW_STEP);
    if (!state.puzzle || state.puzzle.id !== id) return; // the next puzzle came meanwhile
    state.line.push(move);
    state.positions.push(play(current(), move));
    draw(true);
  }
}

// The next puzzle (or puzzle `id`): of the chosen theme, length and phase; in a streak,
// rated just above the last one (`fresh`: the streak's first, near the player's rating). Only the latest call
// shows its answer: a picker changed twice quickly must not end on the first choice's puzzle.
let loads = 0;
const STREAK_STEP = 50; // a streak's climb per solved puzzle, in rating points (it crept by ~8)
async function load(id = null, fresh = false) {
  const ticket = ++loads;
  notice("");
  const query = new URLSearchParams();
  if (state.puzzle) query.set("skip", state.puzzle.id);
  if (state.theme) query.set("theme", state.theme);
  if (state.length) query.set("moves", state.length);
  if (state.stage) query.set("phase", state.stage);
  if (state.run && state.puzzle && !fresh) query.set("above", String(state.puzzle.rating.rating + STREAK_STEP));
  let puzzle;
  try {
    puzzle = await request("GET", id ? `/api/puzzles/${encodeURIComponent(id)}` : `/api/puzzles/next?${query}`);
  } catch (err) {
    if (ticket !== loads) return;
    if (state.run && !id) endRun("stopped"); // no next puzzle: the run ends here
    if (!state.puzzle) {
      state.phase = "loading"; // nothing on the page: only Next (to try again) works
      buttons();
      say(t("puzzle.none"));
    }
    notice(err.message);
    return;
  }
  if (ticket !== loads) return; // a later choice asked again meanwhile
  Object.assign(state, { puzzle, line: [], positions: [parseFen(puzzle.position)], phase: "play",
    hintLevel: 0, hint: [], hintMove: null, missed: false, erred: false, firstRatings: null });
  history.replaceState(null, "", `/puzzles/${encodeURIComponent(puzzle.id)}`);
  board.setup(puzzle.rows, puzzle.cols, puzzle.turn === "o");
  draw();
  buttons();
  say(prompt(), t("puzzle.moves", { count: puzzle.moves }));
  showRatings(puzzle.player, puzzle.rating);
  $("#rated-note").textContent = puzzle.tried ? t("puzzle.unrated") : "";
  $("#line").hidden = true;
  $("#themes").hidden = true;
  $("#btn-analyse").hidden = true;
}

$("#btn-hint").addEventListener("click", hint);
$("#btn-solution").addEventListener("click", showSolution);
$("#btn-retry").addEventListener("click", retry);
$("#btn-next").addEventListener("click", next);
$("#btn-misses").addEventListener("click", replayMisses);
$("#btn-streak").addEventListener("click", () => toggleRun("streak"));
$("#dashboard-period").addEventListener("change", loadDashboard);
$("#btn-timed").addEventListener("click", () => toggleRun("timed"));
$("#run-close").addEventListener("click", () => $("#dlg-run").close());
$("#run-again").addEventListener("click", () => { $("#dlg-run").close(); toggleRun($("#dlg-run").dataset.mode); });
const timedBest = bests("timed", Date.now()).all;
$("#timed").textContent = timedBest ? t("puzzle.timed.best", { best: timedBest }) : "";
$("#length").addEventListener("change", () => {
  state.length = $("#length").value;
  load();
});
$("#phase").addEventListener("change", () => {
  state.stage = $("#phase").value;
  load();
});
$("#theme").addEventListener("change", () => {
  state.theme = $("#theme").value;
  load();
});
loadThemes();
loadHistory();

const match = window.location.pathname.match(/^\/puzzles\/([\w-]{1,32})$/);
load(match ? decodeURIComponent(match[1]) : null);
