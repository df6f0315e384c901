// One live or finished league game on the project's board view (/static/js/board.js,
// a file shared with the web game from adjacency/serving/static), refreshed by polling;
// the person's page makes it playable.
import { Board } from "/static/js/board.js";
import { detailText, t } from "/static/js/i18n.js";
import { cellsOfFen, el, getJson, resultText, seconds } from "./league.js";

export class GameView {
  constructor(root, { onMove = null, me = null, onRender = () => {} } = {}) {
    this.root = root;
    this.onRender = onRender; // called after each render (the person's page shows its buttons)
    this.me = me; // the colour this page plays, or null to watch
    this.onMove = onMove;
    this.board = new Board(root.querySelector("#board"), { onActivate: (sq) => this.activate(sq) });
    this.state = null;
  }

  activate(square) {
    if (this.onMove && this.state && this.state.status === "playing" && this.state.turn === this.me) {
      this.onMove(square);
    }
  }

  render(state) {
    this.state = state;
    this.board.setup(state.rows, state.cols);
    const cells = cellsOfFen(state.fen);
    const playable = Boolean(this.onMove) && state.status === "playing" && state.turn === this.me;
    this.board.render({
      cells,
      preview: null,
      mover: state.turn || "x",
      interactive: playable,
      last: state.moves.length ? state.moves[state.moves.length - 1] : null,
    });
    this.root.querySelector("#players").textContent = `${state.x} (X) – ${state.o} (O)`;
    this.root.querySelector("#record").href = `/api/league/games/${state.id}/record`;
    this.root.querySelector("#clock-x").textContent = `X ${seconds(state.clock?.x)}`;
    this.root.querySelector("#clock-o").textContent = `O ${seconds(state.clock?.o)}`;
    const count = (ch) => [...cells].filter((c) => c === ch).length;
    let status = `${resultText(state)} · X ${count("x")} – O ${count("o")}`;
    if (state.status === "playing") status += ` · ${state.turn === this.me ? t("watch.your-move") : t("title.to-move", { side: state.turn.toUpperCase() })}`;
    if (state.detail) status += ` · ${detailText(state)}`;
    const line = this.root.querySelector("#status");
    line.textContent = status;
    line.dataset.status = state.status;
    // One item per round (X's move and O's answer), numbered as the records number them.
    const rounds = [];
    for (let i = 0; i < state.moves.length; i += 2) rounds.push(el("li", {}, state.moves.slice(i, i + 2).join(" ")));
    this.root.querySelector("#moves").replaceChildren(...rounds);
    this.onRender(state);
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
