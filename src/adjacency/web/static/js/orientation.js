// Which colour's side of the board is drawn at the bottom, with that colour's bar.
// By default the seat this browser plays: the one seat it holds (O at the bottom for the
// O player on another device), else the one person's side it holds in a game against a
// bot, else X (watchers, bot games, two people at one device). The flip button turns
// that; a flip is remembered per game in this browser (localStorage).

const KEY = "adjacency.flip.";

function seatColor(game) {
  const s = game.state;
  const seats = game.viewer.seats;
  if (seats.length === 1) return seats[0];
  const people = ["x", "o"].filter((c) => s[c].kind === "human" && seats.includes(c));
  return people.length === 1 ? people[0] : "x";
}

export function isFlipped(gameId) {
  try { return localStorage.getItem(KEY + gameId) === "1"; } catch (err) { return false; }
}

export function toggleFlip(gameId) {
  const flipped = !isFlipped(gameId);
  try {
    if (flipped) localStorage.setItem(KEY + gameId, "1");
    else localStorage.removeItem(KEY + gameId);
  } catch (err) { /* private mode: the flip lasts until the page reloads */ }
}

// The colour drawn at the bottom of the board for the game shown now.
export function bottomColor(game) {
  if (!game.state) return "x";
  const seat = seatColor(game);
  return isFlipped(game.state.id) ? (seat === "x" ? "o" : "x") : seat;
}

// The bar ("#bar-bottom" or "#bar-top") showing `color` when `bottom` is at the bottom.
export function barOf(color, bottom) {
  return color === bottom ? "#bar-bottom" : "#bar-top";
}
