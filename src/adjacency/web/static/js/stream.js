// Server-sent events over fetch: unlike EventSource it reads the server's error message
// (400, 429) and stops cleanly with an AbortController (closing the stream stops the
// server's work).

import { errorText, t } from "./i18n.js";
import { requestError } from "./request-error.js";

export async function streamEvents(url, onEvent, signal) {
  let response;
  try {
    response = await fetch(url, { signal, headers: { Accept: "text/event-stream" } });
  } catch (err) {
    if (signal && signal.aborted) return;
    throw new Error(t("error.unreachable"));
  }
  if (!response.ok) {
    let body = null;
    try { body = await response.json(); } catch (err) { /* not JSON */ }
    throw requestError(errorText(body, response.statusText), response.status, body && body.code);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = "message";
        let data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event: ")) event = line.slice(7);
          else if (line.startsWith("data: ")) data += line.slice(6);
        }
        if (data) onEvent(event, JSON.parse(data));
      }
    }
  } catch (err) {
    if (!(signal && signal.aborted)) throw err;
  }
}
