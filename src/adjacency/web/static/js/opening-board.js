// Run by the play page at the start of its <main>, before the board and panels are parsed
// (a classic script, so nothing after it is drawn before it has run): a page opened at a
// position (`?fen=`) is laid out as the analysis board from its first frame, the board
// pinned and the game's own panels gone, with the side column kept unseen until main.js
// has drawn the position. Laid out as the play page first, the analysis panel's opening
// shifted the moves and actions down (a layout shift of 0.04 to 0.1).
(() => {
  if (!new URLSearchParams(window.location.search).has("fen")) return;
  const main = document.currentScript && document.currentScript.parentElement;
  if (main) main.classList.add("opening-board", "board-only", "board-pinned");
})();
