// Announcements for screen readers: one polite live region (#announcer) that says every
// move ("O played g3, converted g4 and h3"), the result, and a clock falling under
// LOW_SECONDS. Sighted players see the same on the board, the bars and the result card.

import { label } from "./format.js";
import { listText, t } from "./i18n.js";

export const LOW_SECONDS = 10;
const warned = new Set(); // "game/ply/colour": each low-clock warning is said once

export function announce(text) {
  const region = document.querySelector("#announcer");
  // A new node each time, so the same words twice in a row are read twice.
  const line = document.createElement("p");
  line.textContent = text;
  region.replaceChildren(line);
}

// "O played g3, converted g4 and h3." (or "X played c3." when nothing converts).
export function moveText(move) {
  const side = move.color.toUpperCase();
  return move.flips.length ? t("announce.move.converted", { side, square: move.square, converted: listText(move.flips) })
    : t("announce.move", { side, square: move.square });
}

// Say once per move that the running clock of `color` fell under LOW_SECONDS.
export function warnLowClock(state, color, left) {
  const key = `${state.id}/${state.moves.length}/${color}`;
  if (warned.has(key)) return;
  warned.add(key);
  announce(t("announce.low-clock", { player: label(state, color), count: Math.ceil(left) }));
}
