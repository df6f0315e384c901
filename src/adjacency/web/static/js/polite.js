// @ts-check
// A polite announcer for what updates often (the analysis panel's lines deepening): a
// screen reader is told only the parts of a summary that changed since it was last told,
// and at most once every GAP ms; what changes meanwhile waits, the latest kept, and is
// told when the gap has passed. Pure (its clock, timer and voice are passed in), so
// that it is tested without a browser (tests/web/js/).

export const GAP = 1000;

/**
 * The parts of `parts` that differ from `said` (both {name: text}), in `parts`' order;
 * empty texts are never said.
 * @param {Record<string, string>} said
 * @param {Record<string, string>} parts
 */
export function changedParts(said, parts) {
  return Object.entries(parts).filter(([name, text]) => text && said[name] !== text).map(([, text]) => text);
}

export class Polite {
  /**
   * @param {{say: (text: string) => void, now?: () => number,
   *   later?: (run: () => void, ms: number) => any, cancel?: (timer: any) => void,
   *   gap?: number, join?: string}} options
   */
  constructor({ say, now = () => Date.now(), later = (run, ms) => setTimeout(run, ms),
    cancel = (timer) => clearTimeout(timer), gap = GAP, join = " · " }) {
    this.say = say;
    this.now = now;
    this.later = later;
    this.cancel = cancel;
    this.gap = gap;
    this.join = join;
    /** @type {Record<string, string>} */
    this.said = {};
    /** @type {Record<string, string> | null} */
    this.pending = null;
    this.timer = null;
    /** @type {number | null} */
    this.saidAt = null;
  }

  /**
   * The summary now ({name: text}): its changed parts are said now, or once GAP ms have
   * passed since the last words (a later summary replacing this one meanwhile).
   * @param {Record<string, string>} parts
   */
  offer(parts) {
    this.pending = parts;
    if (this.timer !== null) return;
    const wait = this.saidAt === null ? 0 : this.saidAt + this.gap - this.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = this.later(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  flush() {
    const parts = this.pending;
    this.pending = null;
    if (!parts) return;
    const changed = changedParts(this.said, parts);
    this.said = { ...parts };
    if (!changed.length) return;
    this.saidAt = this.now();
    this.say(changed.join(this.join));
  }

  /** Another subject (a new position): nothing waiting is said, and every part is new. */
  reset() {
    if (this.timer !== null) this.cancel(this.timer);
    this.timer = null;
    this.pending = null;
    this.said = {};
  }
}
