// Premove: in a clocked game, a tap on an empty square while the opponent is to move
// queues that square as this browser's next move, one at a time. The server knows
// nothing of it: when the opponent's move arrives the page sends the premove at once if
// its square is still empty, and drops it with a notice if the opponent took it. While
// one is queued, a tap anywhere on the board cancels it (so a second tap on the marked
// square undoes the first), and so does Escape; another game, an undo or the game's end
// drops it. Only clocked games have premoves: without a clock there is no hurry, and a
// tap during the opponent's turn says whose turn it is.

import { announce } from "./announce.js";
import { t } from "./i18n.js";
import { markLive, onEscape } from "./marks.js";
import { notice } from "./notice.js";

export class Premove {
  // `game`: the LiveGame; `board`: the Board; `play(square)`: sends this browser's move.
  constructor({ game, board, play }) {
    this.game = game;
    this.board = board;
    this.play = play;
    this.pending = null; // {id, plies, square, color}: the game, its moves when queued
    onEscape(() => Boolean(this.pending), () => this.cancel());
  }

  // Whether a tap now queues a premove: the live position of a clocked game in play, of
  // which this browser holds one seat, the other side to move.
  allowed() {
    const s = this.game.state;
    if (!s || s.status !== "playing" || !s.clock || !this.game.live) return false;
    const seats = this.game.viewer.seats;
    return seats.length === 1 && seats[0] !== s.turn;
  }

  // A tap on square `name` of the game's board: cancels the queued premove, or queues
  // one where allowed on an empty square. True when the tap was taken here.
  tap(name) {
    if (this.pending) {
      this.cancel();
      return true;
    }
    if (!this.allowed()) return false;
    const s = this.game.state;
    if (s.boards[s.moves.length][this.board.indexOf(name)] !== ".") return false;
    const color = this.game.viewer.seats[0];
    this.pending = { id: s.id, plies: s.moves.length, square: name, color };
    this.paint();
    announce(t("premove.queued", { square: name }));
    return true;
  }

  cancel() {
    if (!this.pending) return;
    const { square } = this.pending;
    this.pending = null;
    this.paint();
    announce(t("premove.cancelled", { square }));
  }

  // The game's state changed: once the opponent has moved, the premove is played (its
  // square still empty) or dropped with a notice; anything else than the opponent's one
  // move (another game, an undo, the end) drops it quietly.
  settle() {
    const p = this.pending;
    if (!p) return;
    const s = this.game.state;
    const waiting = s && s.id === p.id && s.status === "playing" && s.moves.length === p.plies;
    if (waiting && s.turn !== p.color) return;
    this.pending = null;
    this.paint();
    const answered = s && s.id === p.id && s.status === "playing" && s.moves.length === p.plies + 1;
    if (!answered || !this.game.canMove) return;
    const owner = s.boards[s.moves.length][this.board.indexOf(p.square)];
    if (owner === ".") this.play(p.square);
    else notice(t("premove.dropped", { square: p.square, side: owner.toUpperCase() }));
  }

  // The mark on the queued square while the board shows the game's live position.
  paint() {
    markLive(this.board, this.game.state, "premove", this.pending, t("premove.mark"));
  }
}
