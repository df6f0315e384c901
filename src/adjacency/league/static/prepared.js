// A view the server is still preparing, asked for again politely. The server answers a
// code view whose digest is being made at once with 503 and the code being_prepared
// (never by making the view in the request); the page asks again after the server's
// Retry-After, else after FIRST ms doubling each time, each wait at most MOST ms, at
// most TRIES asks in all, and says "being prepared" meanwhile. Pure: the asking, the
// saying and the sleeping are passed in (the page's fetch and timers; a test's own).

export const FIRST = 1000;
export const MOST = 10000;
export const TRIES = 40;

// The milliseconds a Retry-After header value asks for (delay-seconds or an HTTP date,
// read against `now`, epoch ms), or null for none or one unreadable.
export function retryAfter(value, now) {
  if (value == null || String(value).trim() === "") return null;
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

// The wait before ask number `asked + 1`, `asked` asks answered "being prepared" so far:
// the server's Retry-After where it gave one, else FIRST doubling; never over MOST.
export function waitBefore(asked, header, now) {
  const own = FIRST * 2 ** Math.max(0, asked - 1);
  const server = retryAfter(header, now);
  return Math.min(MOST, server ?? own);
}

// Whether `response` (a fetch Response) is the server's "being prepared"; its body read
// from a clone, so the caller may still read it. The body: the parsed JSON (or null).
export async function beingPrepared(response) {
  if (response.status !== 503) return null;
  const body = await response.clone().json().catch(() => null);
  return body && body.code === "being_prepared" ? body : null;
}

// `ask()` (a promise of a fetch Response) until it is not "being prepared", or TRIES asks
// were; the last response either way (the caller reads it as any answer: a 503 after the
// last ask is its error). Each "being prepared" calls `preparing(body)` before the wait.
/**
 * @param {() => Promise<Response>} ask
 * @param {{preparing?: (body: any) => void, sleep?: (ms: number) => Promise<void>,
 *   now?: () => number, tries?: number}} [options]
 * @returns {Promise<Response>}
 */
export async function whenPrepared(ask, options = {}) {
  const {
    preparing = () => {},
    sleep = (ms) => new Promise((done) => setTimeout(done, ms)),
    now = () => Date.now(),
    tries = TRIES,
  } = options;
  let response = await ask();
  for (let asked = 1; asked < tries; asked++) {
    const body = await beingPrepared(response);
    if (!body) return response;
    preparing(body);
    await sleep(waitBefore(asked, response.headers.get("Retry-After"), now()));
    response = await ask();
  }
  return response;
}
