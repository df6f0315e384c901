// The side column's sign that it scrolls. On a laptop the column scrolls on its own with
// the game's actions pinned to its bottom, so whatever grows above them (an offer, a
// wrapped row of buttons, learning from mistakes) pushes the evaluation graph under that
// row, where nothing showed it was cut. While more of the column lies below what is seen,
// a fade with an arrow sits on the actions' top edge; pressing it scrolls the column to
// its end, where the sign goes. Where the column does not scroll (a phone: the page
// scrolls) its scroll height equals its height and the sign never shows.

import { animates } from "../motion.js";

// A pixel of slack: fractional layouts leave a scroll range of under one pixel.
const SLACK = 1;

export function watchMoreBelow(column, sign, button) {
  let queued = false;
  const update = () => {
    queued = false;
    const below = column.scrollHeight - column.scrollTop - column.clientHeight;
    const hidden = !(below > SLACK);
    // Written only when it changes: setting `hidden` to true sets its attribute again,
    // a mutation this column's observer sees even with the same value, which would ask
    // for another frame, and so on at the frame rate while the page sits idle.
    if (sign.hidden !== hidden) sign.hidden = hidden;
  };
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(update);
  };
  column.addEventListener("scroll", soon, { passive: true });
  const sizes = new ResizeObserver(soon);
  sizes.observe(column);
  for (const panel of column.children) sizes.observe(panel);
  // A panel shown or hidden, or a list that grows inside one, changes what lies below.
  new MutationObserver(soon).observe(column, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"] });
  button.addEventListener("click", () => {
    column.scrollTo({ top: column.scrollHeight, behavior: animates() ? "smooth" : "auto" });
  });
  update();
}
