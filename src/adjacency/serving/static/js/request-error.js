// @ts-check
// The error a page's request throws when the server refuses it: the message to show,
// with the HTTP status and the server's error code for the callers that act on them
// (401: sign in again; 409: the game moved on).

/**
 * @param {string} message
 * @param {number} status
 * @param {string | null} [code]
 * @returns {Error & {status: number, code: string | null}}
 */
export function requestError(message, status, code = null) {
  return Object.assign(new Error(message), { status, code });
}
