// The clocks in the player bars. The server keeps the time; the page ticks a copy of the
// running clock down from the last state it received (display only). Each clock sits in
// its colour's bar (orientation.js says which bar that is).

import { decimal, t } from "../i18n.js";
import { barOf, bottomColor } from "../orientation.js";
import { $ } from "../dom.js";

export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return decimal(s, 1);
  const whole = Math.ceil(s);
  const m = Math.floor(whole / 60);
  const r = whole % 60;
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(r).padStart(2, "0")}`
    : `${m}:${String(r).padStart(2, "0")}`;
}

export function clockLeft(game, color) {
  const clock = game.state && game.state.clock;
  if (!clock) return null;
  let left = clock[color];
  if (clock.running === color && game.state.status === "playing") {
    left -= (performance.now() - game.receivedAt) / 1000;
  }
  return Math.max(0, left);
}

export function renderClocks(game) {
  const bottom = bottomColor(game);
  for (const color of ["x", "o"]) {
    const bar = $(barOf(color, bottom));
    let node = bar.querySelector(".clock");
    const left = clockLeft(game, color);
    if (left === null) {
      if (node) node.remove();
      continue;
    }
    if (!node) {
      node = document.createElement("div");
      node.className = "clock";
      node.setAttribute("role", "timer");
      bar.insertBefore(node, bar.querySelector(".score"));
    }
    const running = game.state.clock.running === color && game.state.status === "playing";
    node.textContent = formatClock(left);
    node.classList.toggle("running", running);
    node.classList.toggle("low", left < 10);
    node.setAttribute("aria-label", t("clock.label", { side: color.toUpperCase(), time: formatClock(left) }));
  }
}
