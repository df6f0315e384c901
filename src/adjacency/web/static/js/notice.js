// The notice line under the board: short messages that fade, or sticky ones. A fading
// notice is about the state it was shown in (a click on a taken square, a wait for the
// bot): it goes when that state changes (noticeState), at the latest after FADE_MS.

import { t } from "./i18n.js";

const node = () => document.querySelector("#notice");
const FADE_MS = 6000;
let timer = null;
let state = null; // the key of the state the page shows now (noticeState)
let shownFor = null; // the key of the state the fading notice was shown in

export function notice(text, { sticky = false } = {}) {
  const el = node();
  el.textContent = text;
  clearTimeout(timer);
  shownFor = sticky || !text ? null : state;
  if (!sticky && text) timer = setTimeout(() => { el.textContent = ""; shownFor = null; }, FADE_MS);
}

// The page shows the state `key` (a game, its version and the shown ply): a fading
// notice shown in another state is gone.
export function noticeState(key) {
  state = key;
  if (shownFor !== null && shownFor !== key && !node().dataset.lost) notice("");
}

export function markLost(lost) {
  const el = node();
  if (lost) {
    el.dataset.lost = "1";
    notice(t("notice.lost"), { sticky: true });
  } else if (el.dataset.lost) {
    delete el.dataset.lost;
    notice("");
  }
}
