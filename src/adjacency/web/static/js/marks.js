// A page's own mark on one square of the board, over what the board draws: a class on
// the square (style: touch.css), a faint piece of the side that would play there, and a
// word added to the square's accessible name ("e4, empty, premove"), so a screen reader
// hears what a sighted player sees. The board rewrites its squares' names on every
// render (board.js), so a mark is drawn again after each one (Board's onRender).

import { pieceSvg } from "./board.js";

// Draw `kind` (a class name) on square `name` for `color` with `word`, or on no square
// when `name` is null; the mark of that kind anywhere else goes. Drawing it twice is
// drawing it once.
export function drawMark(board, kind, name, color, word) {
  for (const sq of board.el.querySelectorAll(`.sq.${kind}`)) {
    if (sq.dataset.square === name) continue;
    sq.classList.remove(kind);
    for (const piece of sq.querySelectorAll(`.mark-${kind}`)) piece.remove();
    const label = sq.getAttribute("aria-label") || "";
    if (label.endsWith(`, ${word}`)) sq.setAttribute("aria-label", label.slice(0, -word.length - 2));
  }
  const sq = name ? board.squares.get(name) : null;
  if (!sq) return;
  sq.classList.add(kind);
  if (!sq.querySelector(`.mark-${kind}`) && !sq.classList.contains("filled")) {
    sq.appendChild(pieceSvg(color, `mark-${kind}`));
  }
  const label = sq.getAttribute("aria-label") || "";
  if (!label.endsWith(`, ${word}`)) sq.setAttribute("aria-label", `${label}, ${word}`);
}

// Draw `kind` on the square of `entry` ({id, square, color}: a game's id, or null) while
// the board shows the live position of that game (`state`, the game's latest), on no
// square otherwise (an earlier ply, a variation, another game).
export function markLive(board, state, kind, entry, word) {
  const shown = entry && state && state.id === entry.id && board.cells === state.boards[state.moves.length];
  drawMark(board, kind, shown ? entry.square : null, entry ? entry.color : "x", word);
}

// Call `cancel()` on Escape while `active()`, unless a dialog is open (Escape closes it)
// or another handler took the key.
export function onEscape(active, cancel) {
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented || !active()) return;
    if (document.querySelector("dialog[open]")) return;
    event.preventDefault();
    cancel();
  });
}
