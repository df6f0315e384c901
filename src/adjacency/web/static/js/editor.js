// The position editor of the analysis board: place X, O or empty on any square, choose
// the side to move, the plies left and the board size, then analyse. The server checks
// the position (an impossible one is refused with a message saying why).

import { errorText, t } from "./i18n.js";
import { api } from "./api.js";
import { $ } from "./dom.js";

export class Editor {
  constructor(board, config, onAnalyse) {
    this.board = board;
    this.config = config;
    this.onAnalyse = onAnalyse;
    this.onClose = null; // set by the page: what closing the editor does
    this.active = false;
    const form = $("#editor-form");
    this.form = form;
    for (let n = config.min_side; n <= config.max_side; n++) {
      form.elements.rows.appendChild(new Option(String(n), String(n), n === 8, n === 8));
      form.elements.cols.appendChild(new Option(String(n), String(n), n === 8, n === 8));
    }
    form.elements.rows.addEventListener("change", () => this.reset());
    form.elements.cols.addEventListener("change", () => this.reset());
    $("#editor-start").addEventListener("click", () => this.reset());
    $("#editor-clear").addEventListener("click", () => this.clear());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.analyse();
    });
    $("#editor-close").addEventListener("click", () => this.onClose && this.onClose());
    this.reset();
  }

  size() {
    const rows = Number(this.form.elements.rows.value);
    const cols = Number(this.form.elements.cols.value);
    return this.config.sizes.find((z) => z.rows === rows && z.cols === cols);
  }

  // The start position of the chosen size, with all its plies left.
  reset() {
    const size = this.size();
    this.cells = size.start.split("");
    this.form.elements.plies.max = String(size.rows * size.cols);
    this.form.elements.plies.value = String(2 * size.max_rounds);
    this.error("");
    if (this.active) this.render();
  }

  clear() {
    this.cells = this.cells.map(() => ".");
    if (this.active) this.render();
  }

  // Show a position from a game (the shown ply) to edit further.
  load({ rows, cols, cells, turn, plies }) {
    this.form.elements.rows.value = String(rows);
    this.form.elements.cols.value = String(cols);
    this.cells = cells.split("");
    this.form.elements.plies.value = String(plies);
    for (const input of this.form.querySelectorAll("input[name=turn]")) input.checked = input.value === turn;
  }

  enter() {
    this.active = true;
    $("#editor").hidden = false;
    this.render();
  }

  leave() {
    this.active = false;
    $("#editor").hidden = true;
  }

  paint(name) {
    const index = this.board.indexOf(name);
    const tool = this.form.elements.paint.value;
    this.cells[index] = this.cells[index] === tool ? "." : tool;
    this.error("");
    this.render();
  }

  render() {
    const size = this.size();
    this.board.setup(size.rows, size.cols);
    this.board.render({ cells: this.cells.join(""), preview: null, mover: this.turn(), interactive: true, last: null });
    const x = this.cells.filter((c) => c === "x").length;
    const o = this.cells.filter((c) => c === "o").length;
    $("#editor-count").textContent = t("editor.count", { x, o, empty: this.cells.length - x - o });
  }

  turn() {
    return this.form.elements.turn.value;
  }

  position() {
    const size = this.size();
    return {
      rows: size.rows,
      cols: size.cols,
      cells: this.cells.join(""),
      turn: this.turn(),
      plies_left: Number(this.form.elements.plies.value),
    };
  }

  error(text) {
    $("#editor-error").textContent = text;
  }

  async analyse() {
    try {
      const { fen, problem, code, params } = await api.checkPosition(this.position());
      this.error(problem ? errorText({ code, params, detail: problem }, problem) : "");
      if (fen) this.onAnalyse(fen);
    } catch (err) {
      this.error(err.message);
    }
  }
}
