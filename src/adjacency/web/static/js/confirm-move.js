// Move confirmation, a setting off by default (a box under the move box: the top bar
// is full on a phone) and remembered by the browser (localStorage). When on, a tap (or
// Enter) on an empty square on your turn selects it (marked on the board, with a bar
// under it naming the square) instead of playing; a second tap on it, or the bar's Play,
// plays it; a tap on another empty square moves the selection; Escape or the bar's
// Cancel clears it, and so does any change of the game (a move, another game). For a
// phone, where a slipped finger would otherwise play. A move typed in the move box is
// deliberate already and is not held.

import { announce } from "./announce.js";
import { t } from "./i18n.js";
import { markLive, onEscape } from "./marks.js";
import { $ } from "./dom.js";

const KEY = "adjacency.confirmMoves";

export function confirmOn() {
  try { return localStorage.getItem(KEY) === "on"; } catch (err) { return false; /* private mode */ }
}

function setConfirm(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (err) { /* private mode */ }
}

export class MoveConfirm {
  // `game`: the LiveGame; `board`: the Board; `play(square)`: the page's tap on a square,
  // called again for the confirmed one (which is then let through).
  constructor({ game, board, play }) {
    this.game = game;
    this.board = board;
    this.play = play;
    this.selected = null; // {id, plies, square, color}
    const toggle = $("#confirm-moves");
    toggle.checked = confirmOn();
    toggle.addEventListener("change", () => {
      setConfirm(toggle.checked);
      if (!toggle.checked) this.clear();
    });
    // The bar hides once used: the focus goes back to the square on the board.
    $("#confirm-move-play").addEventListener("click", () => this.fromBar((square) => this.play(square)));
    $("#confirm-move-cancel").addEventListener("click", () => this.fromBar(() => this.clear()));
    onEscape(() => Boolean(this.selected), () => this.clear());
  }

  // Your move on `name` (an empty square, on your turn): true when it is held for a
  // confirmation (selected now), false when it is to be played (the setting is off, or
  // this is the selected square's second tap).
  hold(name) {
    const s = this.game.state;
    if (!confirmOn() || !s) return false;
    const chosen = this.selected;
    if (chosen && chosen.id === s.id && chosen.plies === s.moves.length && chosen.square === name) {
      this.clear({ quiet: true });
      return false;
    }
    this.selected = { id: s.id, plies: s.moves.length, square: name, color: s.turn };
    this.show();
    announce(t("confirm.selected", { square: name }));
    return true;
  }

  fromBar(action) {
    if (!this.selected) return;
    const { square } = this.selected;
    this.board.focusSquare(square);
    action(square);
  }

  clear({ quiet = false } = {}) {
    if (!this.selected) return;
    const { square } = this.selected;
    this.selected = null;
    this.show();
    if (!quiet) announce(t("confirm.cleared", { square }));
  }

  // The game's state changed: a selection made in another state goes. The setting is
  // offered to a game's players (watchers and a page with no game have no move box).
  settle() {
    const chosen = this.selected;
    const s = this.game.state;
    $("#confirm-setting").hidden = !s || this.game.watching;
    if (!chosen) return;
    if (!s || s.id !== chosen.id || s.moves.length !== chosen.plies || !this.game.canMove) this.clear({ quiet: true });
  }

  // The mark on the selected square and the bar naming it.
  show() {
    const chosen = this.selected;
    const bar = $("#confirm-move");
    bar.hidden = !chosen;
    if (chosen) {
      $("#confirm-move-text").textContent = t("confirm.text", { square: chosen.square });
      $("#confirm-move-play").textContent = t("confirm.play", { square: chosen.square });
    }
    this.paint();
  }

  paint() {
    markLive(this.board, this.game.state, "selected", this.selected, t("confirm.mark"));
  }
}
