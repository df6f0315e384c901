// Sounds, generated with WebAudio (no files): a soft click for a move, a rising run of
// notes when pieces convert (one note a piece, at most six), and a tick a second while
// your own clock is low. On by default unless the system asks for reduced motion; the
// toggle's choice is remembered by the browser (localStorage).
//
// The audio context is made while the page is idle after it loads, not at the first
// move: making one starts the browser's audio service, which holds the page for 150-500
// ms (measured in Chromium), and the first move would be drawn that much later than the
// rest. Made before any gesture it waits suspended; the first sound resumes it.

const KEY = "adjacency.sound";
let context = null;

export function soundOn() {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch (err) { /* private mode */ }
  if (stored) return stored === "on";
  return !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (err) { /* private mode */ }
}

function audio(resume = true) {
  if (!context) {
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (resume && context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Make the audio context now, if sound is on, so the first sound costs no more than
 * the rest (a later move's click resumes it). */
export function warmSound() {
  if (soundOn()) audio(false);
}

// One note: `frequency` Hz from `delay` s on, fading out over `length` s.
function note(ctx, frequency, delay, length, type = "sine", volume = 0.12) {
  const start = ctx.currentTime + delay;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, start);
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length);
}

export function moveSound(converted) {
  if (!soundOn()) return;
  if (!context) {
    // A move before the idle time came (a busy machine): the context is made after the
    // frame that paints the move, never before it.
    requestAnimationFrame(() => setTimeout(() => playMove(converted)));
    return;
  }
  playMove(converted);
}

function playMove(converted) {
  const ctx = audio();
  if (!ctx) return;
  note(ctx, 330, 0, 0.09, "triangle", 0.18);
  for (let i = 0; i < Math.min(converted, 6); i++) note(ctx, 523 * 1.12 ** i, 0.08 + i * 0.06, 0.12);
}

export function tickSound() {
  if (!soundOn()) return;
  const ctx = audio();
  if (ctx) note(ctx, 1200, 0, 0.03, "square", 0.05);
}

// Off the first move's path: once the page has loaded and is idle.
const idle = window.requestIdleCallback || ((run) => setTimeout(run, 200));
if (document.readyState === "complete") idle(warmSound, { timeout: 2000 });
else window.addEventListener("load", () => idle(warmSound, { timeout: 2000 }), { once: true });
