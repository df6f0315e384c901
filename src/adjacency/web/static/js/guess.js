// Your move at once: the game's state as it will be once the server has this browser's
// move, worked out on the page by the rules (the piece on the empty square, the squares
// the server's own preview says it converts), so the move is drawn the moment it is made
// instead of a network round trip later. The server stays the judge: its next state
// replaces the guess, and a refusal brings back the state before it (live.js).
//
// Contract: guessState(state, square, clockNow) is the state after the side to move plays
// `square`, with the same version (so any newer state of the server's replaces it), no
// bot thinking yet, no server message (the page's own words describe it), the next side's
// preview by the same rules, and the clocks switched (the mover's time as of now plus the
// increment). Null when `square` is not a move of the state's live position.

import { countCells } from "./format.js";
import { flips, squareIndex, squareName } from "./lab/position.js";

const OTHER = { x: "o", o: "x" };

export function guessState(state, square, clockNow) {
  const s = state;
  if (s.status !== "playing" || !s.preview || !(square in s.preview)) return null;
  const plies = s.moves.length;
  const mover = s.turn;
  const next = OTHER[mover];
  const converted = s.preview[square];
  const cells = s.boards[plies].split("");
  for (const name of [square, ...converted]) cells[squareIndex(name, s.cols)] = mover;
  const pliesLeft = s.plies_left - 1;
  const position = { rows: s.rows, cols: s.cols, cells, turn: next, plies: pliesLeft };
  const preview = {};
  if (pliesLeft > 0) {
    cells.forEach((cell, index) => {
      if (cell !== ".") return;
      const name = squareName(index, s.cols);
      preview[name] = flips(position, name);
    });
  }
  const move = { number: plies + 1, color: mover, square, flips: [...converted], seconds: null, eval: null, depth: null };
  const [x, o] = countCells(cells);
  const clock = s.clock ? {
    ...s.clock,
    [mover]: clockNow(mover) + (s.clock.running ? s.clock.increment : 0),
    running: pliesLeft > 0 ? next : null,
  } : s.clock;
  return {
    ...s,
    moves: [...s.moves, move],
    boards: [...s.boards, cells.join("")],
    turn: next,
    plies_left: pliesLeft,
    rounds_left: Math.floor((pliesLeft + 1) / 2),
    score: [x, o],
    message: null,
    thinking: null,
    human_to_move: pliesLeft > 0 && s[next].kind === "human",
    can_undo: false,
    preview,
    clock,
  };
}
