// One live or finished league game on the project's board view (/static/js/board.js,
// a file shared with the web game from adjacency/serving/static), refreshed by polling;
// the person's page makes it playable. A page with a #stepper (the watch page) steps
// through the moves (buttons, the moves list, keys ← → Home End); the positions come
// from the server (/api/league/games/ID/positions), so the page needs no rules.
import { Board } from "/static/js/board.js";
import { decimal, detailText, t } from "/static/js/i18n.js";
import { cellsOfFen, el, getJson, resultText, seconds, termination } from "./league.js";

// A player's name, colour and rating: "alice (X) · 1523".
function playerText(name, side, rating) {
  const base = `${name} (${side})`;
  return rating == null ? base : `${base} · ${t("watch.rating", { rating: String(Math.round(rating)) })}`;
}

// How a finished game ended: "alice wins by time forfeit", "Draw by the score".
function endText(state) {
  if (state.status === "aborted") return t("league.game.aborted");
  const how = termination(state.termination || "normal");
  if (state.result === "draw") return t("watch.drawn", { how });
  const name = state.result === "x" ? state.x : state.o;
  return t("watch.won", { name, side: state.result.toUpperCase(), how });
}

export class GameView {
  constructor(root, { onMove = null, me = null, onRender = (_state) => {} } = {}) {
    this.root = root;
    this.onRender = onRender; // called after each render (the person's page shows its buttons)
    this.me = me; // the colour this page plays, or null to watch
    this.onMove = onMove;
    this.board = new Board(root.querySelector("#board"), { onActivate: (sq) => this.activate(sq) });
    this.state = null;
    this.shown = null; // the ply shown when stepping back; null follows the game
    this.fens = []; // the positions fetched for stepping, the opening's first
    this.stepper = root.querySelector("#stepper");
    if (this.stepper) this.wireSteps();
  }

  wireSteps() {
    const buttons = { "step-first": () => 0, "step-prev": (p) => p - 1, "step-next": (p) => p + 1, "step-last": () => Infinity };
    for (const [id, to] of Object.entries(buttons)) {
      this.root.querySelector(`#${id}`).addEventListener("click", () => this.step(to(this.ply())));
    }
    const keys = { ArrowLeft: (p) => p - 1, ArrowRight: (p) => p + 1, Home: () => 0, End: () => Infinity };
    this.root.addEventListener("keydown", (event) => {
      const to = keys[event.key];
      if (!to || !this.state || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.target instanceof Element && event.target.closest("input, select, textarea, .board")) return; // their own keys
      event.preventDefault();
      this.step(to(this.ply()));
    });
    this.root.querySelector("#moves").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-ply]");
      if (button) this.step(Number(button.dataset.ply));
    });
  }

  // The ply shown: the moves played before the position on the board.
  ply() {
    const count = this.state ? this.state.moves.length : 0;
    return this.shown == null ? count : Math.min(this.shown, count);
  }

  async step(ply) {
    const count = this.state.moves.length;
    const target = Math.max(0, Math.min(ply, count));
    this.shown = target >= count ? null : target;
    if (this.shown != null && this.fens.length <= this.shown) {
      try {
        this.fens = (await getJson(`/api/league/games/${this.state.id}/positions`)).fens;
      } catch (error) {
        this.shown = null;
        this.root.querySelector("#status").textContent = error.message;
      }
    }
    this.draw();
  }

  activate(square) {
    if (this.onMove && this.state && this.state.status === "playing" && this.state.turn === this.me) {
      this.onMove(square);
    }
  }

  render(state) {
    // A game never goes back: an answer that left the server before the one drawn (a poll
    // overtaken by a move's reply) is dropped, so the board is not reopened on an old turn.
    if (this.state && this.state.id === state.id && state.moves.length < this.state.moves.length) return;
    if (this.state && this.state.id !== state.id) { this.fens = []; this.shown = null; }
    this.state = state;
    this.draw();
    this.onRender(state);
  }

  draw() {
    const state = this.state;
    const ply = this.ply();
    const atEnd = ply === state.moves.length;
    this.board.setup(state.rows, state.cols, this.me === "o"); // a player sees their own side at the bottom
    const fen = atEnd ? state.fen : this.fens[ply];
    const cells = cellsOfFen(fen);
    const playable = atEnd && Boolean(this.onMove) && state.status === "playing" && state.turn === this.me;
    this.board.render({
      cells,
      preview: null,
      mover: (atEnd ? state.turn : fen.split(" ")[1]) || "x",
      interactive: playable,
      last: ply ? state.moves[ply - 1] : null,
    });
    const ratings = state.ratings || {};
    this.root.querySelector("#players").textContent =
      `${playerText(state.x, "X", ratings.x)} – ${playerText(state.o, "O", ratings.o)}`;
    this.root.querySelector("#record").href = `/api/league/games/${state.id}/record`;
    for (const side of ["x", "o"]) {
      let text = `${side.toUpperCase()} ${seconds(state.clock?.[side])}`;
      if (!state.clock && state.used) text = `${side.toUpperCase()} ${t("watch.used", { seconds: decimal(state.used[side], 1) })}`;
      this.root.querySelector(`#clock-${side}`).textContent = text;
    }
    const count = (ch) => [...cells].filter((c) => c === ch).length;
    let status = `${resultText(state)} · X ${count("x")} – O ${count("o")}`;
    if (state.status === "playing") status += ` · ${state.turn === this.me ? t("watch.your-move") : t("title.to-move", { side: state.turn.toUpperCase() })}`;
    if (state.detail) status += ` · ${detailText(state)}`;
    const line = this.root.querySelector("#status");
    line.textContent = status;
    line.dataset.status = state.status;
    const result = this.root.querySelector("#result");
    if (result) {
      result.hidden = state.status === "playing";
      result.textContent = state.status === "playing" ? "" : endText(state);
    }
    this.drawMoves(ply);
  }

  // One item per round (X's move and O's answer), numbered as the records number them;
  // on the watch page each move is a button that shows the position after it.
  drawMoves(ply) {
    const moves = this.state.moves;
    const rounds = [];
    for (let i = 0; i < moves.length; i += 2) {
      const pair = moves.slice(i, i + 2);
      if (!this.stepper) { rounds.push(el("li", {}, pair.join(" "))); continue; }
      const buttons = pair.map((square, k) => {
        const after = i + k + 1;
        const attrs = { type: "button", class: "move", "data-ply": String(after) };
        if (after === ply) attrs["aria-current"] = "step";
        return el("button", attrs, square);
      });
      rounds.push(el("li", {}, ...buttons.flatMap((b, k) => (k ? [" ", b] : [b]))));
    }
    this.root.querySelector("#moves").replaceChildren(...rounds);
    if (!this.stepper) return;
    const count = moves.length;
    this.root.querySelector("#ply").textContent = t("watch.ply", { ply, count });
    this.root.querySelector("#step-first").disabled = ply === 0;
    this.root.querySelector("#step-prev").disabled = ply === 0;
    this.root.querySelector("#step-next").disabled = ply === count;
    this.root.querySelector("#step-last").disabled = ply === count;
  }

  async follow(id, every = 500) {
    for (;;) {
      try {
        const state = await getJson(`/api/league/games/${id}`);
        this.render(state);
        if (state.status !== "playing") return state;
      } catch (error) {
        this.root.querySelector("#status").textContent = error.message;
      }
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  }
}
