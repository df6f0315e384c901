// The status line (whose turn, rounds left, or the hint) and the history banner. Only a
// browser that may move now is told to click: watchers and a player waiting for the
// other device read whose move it is.

import { label } from "../format.js";

const $ = (selector) => document.querySelector(selector);

export function renderStatus(game) {
  const s = game.state;
  let text = s.message;
  if (s.status === "playing" && s.human_to_move && !game.canMove) text = `${label(s, s.turn)} to move.`;
  if (s.status === "playing") {
    text += ` · ${s.rounds_left} of ${s.rounds} round${s.rounds === 1 ? "" : "s"} left`;
  }
  const hint = game.hint;
  if (hint && hint.plies === s.moves.length && game.live) {
    const flips = hint.flips.length ? `converts ${hint.flips.join(", ")}` : "converts nothing";
    const score = hint.score === null || hint.score === undefined ? ""
      : ` ${hint.bot} rates it ${hint.score >= 0 ? "+" : "−"}${Math.abs(hint.score).toFixed(1)} for you.`;
    text = `Hint: ${hint.square} (${flips}).${score}`;
  }
  if (game.watching && s.status === "playing") text = `Watching · ${text}`;
  else if (game.viewer.invite && s.status === "playing" && s.human_to_move) {
    text = game.canMove ? `Your move · ${text}` : `Waiting for ${s[s.turn].name} · ${text}`;
  }
  $("#status").textContent = text;
  $("#status").hidden = !game.live;
  $("#history-banner").hidden = game.live;
  if (!game.live) $("#history-text").textContent = `Viewing position after ${game.shownPly} of ${s.moves.length} moves`;
}
