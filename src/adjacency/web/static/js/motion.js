// The board's animation speed: "normal" (a placed piece grows in, converted ones turn
// over), "fast" (the same at about a third of the time) or "none" (a move, a bot's reply
// included, is drawn the moment it arrives). Picked in the top bar beside Sound and
// remembered by the browser (localStorage); a system that asks for reduced motion starts
// at "none". The choice sets data-animation on <html>, which style.css turns into the
// animations' durations; main.js asks animates() before it animates a move and waits
// for its end.

const KEY = "adjacency.animation";
const SPEEDS = ["normal", "fast", "none"];

export function animationSpeed() {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch (err) { /* private mode */ }
  if (SPEEDS.includes(stored)) return stored;
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "none" : "normal";
}

/** Whether a move is drawn with its animation now (never under reduced motion). */
export function animates() {
  return animationSpeed() !== "none" && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function apply(speed) {
  document.documentElement.dataset.animation = speed;
}

// Wire the <select> of the three speeds: it shows the saved one and saves a change.
export function animationPicker(select) {
  select.value = animationSpeed();
  select.addEventListener("change", () => {
    const speed = SPEEDS.includes(select.value) ? select.value : "normal";
    try { localStorage.setItem(KEY, speed); } catch (err) { /* private mode */ }
    apply(speed);
  });
}

apply(animationSpeed());
