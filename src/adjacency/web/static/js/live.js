// The live game shown on the page: the server's latest state, what the person is
// looking at (a past ply, or the live position), the bot's thinking and a hint.
// The server owns the game; this object only follows its event stream.

import { api } from "./api.js";
import { markLost } from "./notice.js";

const LAST_GAME_KEY = "adjacency.lastGame";

export class LiveGame {
  constructor({ onChange, onOver, onThinking }) {
    this.state = null;
    this.viewPly = null; // null: follow the live game
    this.thinking = null; // {info, since}
    this.hint = null; // {square, flips, score, bot, plies}
    this.hintPending = false;
    this.source = null;
    this.resync = false;
    this.shownResultFor = null;
    this.onChange = onChange;
    this.onOver = onOver;
    this.onThinking = onThinking;
  }

  get live() {
    return this.viewPly === null;
  }

  get shownPly() {
    return this.viewPly === null ? this.state.moves.length : this.viewPly;
  }

  async open(id, { viewPly = null } = {}) {
    const state = await api.load(id);
    this.state = null;
    this.viewPly = viewPly;
    this.hint = null;
    this.thinking = null;
    this.shownResultFor = state.status === "over" ? state.id : null;
    this.apply(state, { animate: false });
    try { localStorage.setItem(LAST_GAME_KEY, id); } catch (err) { /* private mode */ }
    const url = new URL(window.location.href);
    url.searchParams.set("game", id);
    history.replaceState(null, "", url);
    this.connect(id);
  }

  static lastGame() {
    try { return localStorage.getItem(LAST_GAME_KEY); } catch (err) { return null; }
  }

  connect(id) {
    if (this.source) this.source.close();
    const source = new EventSource(api.eventsUrl(id));
    this.source = source;
    source.addEventListener("state", (event) => {
      if (this.source !== source) return;
      const state = JSON.parse(event.data);
      if (this.resync) {
        // After a reconnection (the server may have restarted) trust the server's state.
        this.resync = false;
        this.state = null;
        this.apply(state, { animate: false });
        return;
      }
      this.apply(state);
    });
    source.addEventListener("thinking", (event) => {
      if (this.source !== source) return;
      const info = JSON.parse(event.data);
      this.thinking = { info, since: performance.now() - info.elapsed * 1000 };
      this.onThinking();
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

  apply(state, { animate = true } = {}) {
    const old = this.state;
    if (old && old.id === state.id && state.version <= old.version) return; // stale or duplicate
    const sameGame = old && old.id === state.id;
    const grew = sameGame && state.moves.length === old.moves.length + 1;
    this.state = state;
    if (!sameGame || state.moves.length !== old.moves.length) this.hint = null;
    if (this.viewPly !== null && this.viewPly > state.moves.length) this.viewPly = null;
    if (state.thinking) {
      if (!this.thinking || this.thinking.info.color !== state.thinking.color) {
        this.thinking = { info: state.thinking, since: performance.now() - state.thinking.elapsed * 1000 };
      }
    } else {
      this.thinking = null;
    }
    this.onChange({ animate: animate && grew && this.viewPly === null });
    if (state.status === "over" && this.shownResultFor !== state.id) {
      this.shownResultFor = state.id;
      if (sameGame) this.onOver();
    }
  }

  navigate(ply) {
    if (!this.state) return;
    const clamped = Math.max(0, Math.min(this.state.moves.length, ply));
    this.viewPly = clamped === this.state.moves.length ? null : clamped;
    this.onChange({ animate: false });
  }
}
