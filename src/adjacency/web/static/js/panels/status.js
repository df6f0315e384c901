// The status line (whose turn, rounds left, the hint, or a running review's progress)
// and the history banner: the game's shown ply, or the variation shown with the moves
// that lead to it from the game line (its "Back to game" leaves either). Only a
// browser that may move now is told to click: watchers and a player waiting for the
// other device read whose move it is. The status is a live region: it is written only
// when its words change (once a move), never rewritten with the same words.

import { describe, label } from "../format.js";
import { decimal, t } from "../i18n.js";
import { $, setText } from "../dom.js";

// A variation node's moves from where it leaves the game line, and that point's ply.
function variationPath(node) {
  const squares = [];
  let at = node;
  while (at && !at.game) {
    squares.unshift(at.square);
    at = at.parent;
  }
  return { ply: at ? at.ply : 0, squares };
}

export function renderStatus(game, variation = null) {
  const s = game.state;
  let text = describe(s);
  if (s.status === "playing" && s.human_to_move && !game.canMove) text = t("status.to-move", { player: label(s, s.turn) });
  if (s.status === "playing") {
    text += ` · ${t("status.rounds-left", { left: s.rounds_left, count: s.rounds })}`;
  }
  const hint = game.hint;
  if (hint && hint.plies === s.moves.length && game.live) {
    const flips = hint.flips.length ? t("hint.converts", { squares: hint.flips.join(", ") }) : t("hint.converts-nothing");
    const score = hint.score === null || hint.score === undefined ? ""
      : ` ${t("hint.rates", { bot: hint.bot, score: `${hint.score >= 0 ? "+" : "−"}${decimal(Math.abs(hint.score), 1)}` })}`;
    text = `${t("hint.text", { square: hint.square, flips })}${score}`;
  }
  const review = game.reviewProgress;
  if (review && s.status === "over") {
    text = `${t("status.reviewing")} ${t("review.progress.text", { done: review.done, total: review.total })}`;
  }
  if (game.watching && s.status === "playing") text = `${t("status.watching")} · ${text}`;
  else if (game.viewer.invite && s.status === "playing" && s.human_to_move) {
    text = `${game.canMove ? t("status.your-move") : t("status.waiting-for", { name: s[s.turn].name })} · ${text}`;
  }
  setText($("#status"), text);
  $("#status").hidden = !game.live;
  $("#history-banner").hidden = game.live && !variation;
  if (variation) {
    const { ply, squares } = variationPath(variation);
    $("#history-text").textContent = t("status.variation", { ply, count: s.moves.length, moves: squares.join(" ") });
  } else if (!game.live) {
    $("#history-text").textContent = t("status.viewing", { ply: game.shownPly, count: s.moves.length });
  }
}
