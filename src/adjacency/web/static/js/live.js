// The live game shown on the page: the server's latest state, what the person is
// looking at (a past ply, or the live position), the bot's thinking and a hint.
// The server owns the game; this object only follows its event stream. What changed
// (a move played, moves taken back, the game over) it learns from the stream's
// happenings (`moved`, `took_back`, `ended`), each sent just before the state they
// lead to; only a state with none told (the first one shown, one after a reconnection)
// is compared with the last.

import { api } from "./api.js";
import { guessState } from "./guess.js";
import { errorText } from "./i18n.js";
import { shownName } from "./levels.js";
import { markLost, notice } from "./notice.js";

const LAST_GAME_KEY = "adjacency.lastGame";

export class LiveGame {
  // onMove(move, state): the live game grew by `move` (not on opening or undo).
  // onRematch(id): the shown game's rematch was made while it was shown (by either player).
  constructor({ onChange, onOver, onThinking, onOpen = () => {}, onMove = (_move, _state) => {}, onRematch = (_rematch) => {} }) {
    this.onOpen = onOpen;
    this.onMove = onMove;
    this.onRematch = onRematch;
    this.state = null;
    this.viewer = { seats: [], owner: false, invite: false }; // what this browser may do
    this.viewPly = null; // null: follow the live game
    this.thinking = null; // {info, since}
    this.hint = null; // {square, flips, score, bot, plies}
    this.review = null; // ply -> {value, mark, best, loss, exact} from a game review
    this.hintPending = false;
    this.reviewProgress = null; // {done, total} while a review runs
    this.source = null;
    this.resync = false;
    this.shownResultFor = null;
    this.guessed = null; // {square, color, base, receivedAt}: this browser's move drawn, not yet the server's
    this.happened = []; // the happenings told of the state to come: [{name, version, ...data}]
    this.onChange = onChange;
    this.onOver = onOver;
    this.onThinking = onThinking;
  }

  get live() {
    return this.viewPly === null;
  }

  // Whether this browser may move now: a person is to move and this browser holds that seat.
  get canMove() {
    const s = this.state;
    return Boolean(s && s.human_to_move && this.viewer.seats.includes(s.turn));
  }

  get watching() {
    return this.viewer.seats.length === 0;
  }

  get shownPly() {
    return this.viewPly === null ? this.state.moves.length : this.viewPly;
  }

  async open(id, { viewPly = null } = {}) {
    this.onOpen();
    await LiveGame.claimFromLink(id);
    const state = await api.load(id);
    this.viewer = await api.me(id);
    this.state = null;
    this.guessed = null;
    this.viewPly = viewPly;
    this.hint = null;
    this.review = null;
    this.thinking = null;
    this.shownResultFor = state.status === "over" ? state.id : null;
    this.apply(state, { animate: false });
    try { localStorage.setItem(LAST_GAME_KEY, id); } catch (err) { /* private mode */ }
    const url = new URL(window.location.href);
    url.searchParams.set("game", id);
    history.replaceState(null, "", url);
    this.connect(id);
  }

  // A seat link is /?game=ID#seat=TOKEN: the fragment never reaches the server. Claim the
  // seat once (the token goes in a header), then drop the token from the address bar.
  static async claimFromLink(id) {
    const match = /(?:^#|&)seat=([A-Za-z0-9_-]+)/.exec(window.location.hash);
    if (!match) return;
    const url = new URL(window.location.href);
    url.hash = "";
    history.replaceState(null, "", url);
    await api.claim(id, match[1]);
  }

  static lastGame() {
    try { return localStorage.getItem(LAST_GAME_KEY); } catch (err) { return null; }
  }

  connect(id) {
    if (this.source) this.source.close();
    const source = new EventSource(api.eventsUrl(id));
    this.source = source;
    for (const name of ["moved", "took_back", "ended"]) {
      source.addEventListener(name, (event) => {
        if (this.source !== source) return;
        this.happened.push({ name, ...JSON.parse(event.data) });
      });
    }
    source.addEventListener("state", (event) => {
      if (this.source !== source) return;
      const state = JSON.parse(event.data);
      const happened = this.happened.filter((h) => h.version === state.version);
      this.happened = [];
      if (this.resync) {
        // After a reconnection (the server may have restarted) trust the server's state.
        this.resync = false;
        this.state = null;
        this.apply(state, { animate: false });
        return;
      }
      this.apply(state, { happened });
    });
    source.addEventListener("thinking", (event) => {
      if (this.source !== source) return;
      const info = JSON.parse(event.data);
      this.thinking = { info, since: performance.now() - info.elapsed * 1000 };
      this.onThinking();
    });
    source.addEventListener("closed", (event) => {
      // The game was deleted (or the server stops): the stream's last event; no reconnecting.
      if (this.source !== source) return;
      source.close();
      const closed = JSON.parse(event.data);
      notice(errorText({ code: closed.code, detail: closed.reason }, closed.reason), { sticky: true });
    });
    source.addEventListener("open", () => markLost(false));
    source.addEventListener("error", () => {
      this.resync = true;
      if (source.readyState !== EventSource.CLOSED) markLost(true);
    });
  }

  close() {
    if (this.source) this.source.close();
  }

  // Your move at once (guess.js): this browser's move on `square` drawn (and announced)
  // before the server answers. Until the server's state with that move arrives, newer
  // states without it are kept aside (the guess stays drawn); one that went another way
  // (the game ended, another move was played) replaces the guess. The guessed move, or
  // null when `square` is no move of the live position this browser may play now.
  guess(square) {
    const s = this.state;
    if (!s || this.guessed || !this.live || !this.canMove) return null;
    const now = performance.now();
    const left = (color) => {
      const clock = s.clock;
      return clock.running === color ? Math.max(0, clock[color] - (now - this.receivedAt) / 1000) : clock[color];
    };
    const guessed = guessState(s, square, left);
    if (!guessed) return null;
    this.guessed = { square, color: s.turn, base: s, receivedAt: this.receivedAt };
    this.state = guessed;
    this.receivedAt = now;
    this.hint = null;
    this.thinking = null;
    const move = guessed.moves[guessed.moves.length - 1];
    this.onChange({ animate: true, own: true });
    this.onMove(move, guessed);
    return move;
  }

  // The server refused the guessed move on `square` (or could not be reached): the last
  // state the server sent is shown again, the move taken back. Whether one was taken back.
  takeBack(square) {
    const g = this.guessed;
    if (!g || g.square !== square) return false;
    this.guessed = null;
    this.state = g.base;
    this.receivedAt = g.receivedAt;
    this.onChange({ animate: false });
    return true;
  }

  // The server's `state`; `happened`: the happenings the stream told of it (what
  // changed since the last state), or null where none were told (then the two states
  // are compared).
  apply(state, { animate = true, happened = null } = {}) {
    const g = this.guessed;
    let guessKept = false; // the server played this browser's guessed move, already shown
    if (g && this.state && this.state.id === state.id) {
      if (state.version <= g.base.version) return; // stale or duplicate
      const move = state.moves[g.base.moves.length];
      if (!move && state.status === "playing") { // newer, without the move yet: kept aside
        this.guessed = { ...g, base: state, receivedAt: performance.now() };
        return;
      }
      this.guessed = null;
      if (!move || move.square !== g.square || move.color !== g.color) {
        this.state = g.base; // the server went another way: its state follows the last one it sent
        animate = false;
      } else {
        guessKept = true;
      }
    }
    const old = this.state;
    if (old && old.id === state.id && state.version <= old.version) return; // stale or duplicate
    const sameGame = old && old.id === state.id;
    const told = sameGame && happened !== null && happened.length > 0;
    const said = (name) => happened.some((h) => h.name === name);
    const grew = told
      ? said("moved") && !guessKept
      : sameGame && state.moves.length === old.moves.length + 1;
    const undone = told ? said("took_back") : sameGame && state.moves.length < old.moves.length;
    const seats = this.viewer.seats;
    for (const color of ["x", "o"]) {
      const own = seats.length === 1 && seats[0] === color;
      state[color] = { ...state[color], name: shownName(state[color], color, own) };
    }
    this.state = state;
    this.receivedAt = performance.now(); // the clocks in the state are as of now
    if (!sameGame || state.moves.length !== old.moves.length) this.hint = null;
    if (undone) this.review = null;
    if (this.viewPly !== null && this.viewPly > state.moves.length) this.viewPly = null;
    if (state.thinking) {
      if (!this.thinking || this.thinking.info.color !== state.thinking.color) {
        this.thinking = { info: state.thinking, since: performance.now() - state.thinking.elapsed * 1000 };
      }
    } else {
      this.thinking = null;
    }
    this.onChange({ animate: animate && grew && this.viewPly === null });
    if (grew) this.onMove(state.moves[state.moves.length - 1], state);
    if (sameGame && state.rematch && !old.rematch) this.onRematch(state.rematch);
    const over = state.status === "over" && (!told || said("ended"));
    if (over && this.shownResultFor !== state.id) {
      this.shownResultFor = state.id;
      if (sameGame) this.onOver();
    }
  }

  // The position shown now, as the analysis editor describes positions.
  shownPosition() {
    const s = this.state;
    const ply = this.shownPly;
    return {
      rows: s.rows,
      cols: s.cols,
      cells: s.boards[ply],
      turn: ply < s.moves.length ? s.moves[ply].color : s.turn,
      plies: s.plies_left + (s.moves.length - ply),
    };
  }

  navigate(ply) {
    if (!this.state) return;
    const clamped = Math.max(0, Math.min(this.state.moves.length, ply));
    this.viewPly = clamped === this.state.moves.length ? null : clamped;
    this.onChange({ animate: false });
  }
}
