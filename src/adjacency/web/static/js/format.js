// Small text helpers shared by the panels.

export function label(state, color) {
  return `${color.toUpperCase()} (${state[color].name})`;
}

export function countCells(cells) {
  let x = 0;
  let o = 0;
  for (const c of cells) {
    if (c === "x") x++;
    else if (c === "o") o++;
  }
  return [x, o];
}

export function formatEval(score) {
  if (score === null || score === undefined) return "";
  const side = score > 0 ? "X" : score < 0 ? "O" : "even";
  return side === "even" ? "even" : `${side} +${Math.abs(score).toFixed(1)}`;
}

// A number of squares for people: whole numbers as they are, others to one decimal
// (searches give fractional values: "3.4", never "3.375").
export function formatSquares(value) {
  const rounded = Math.round(value * 10) / 10;
  const text = Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
  return `${text} square${rounded === 1 ? "" : "s"}`;
}
