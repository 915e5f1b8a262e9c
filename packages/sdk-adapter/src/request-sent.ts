import { subscribe, unsubscribe } from "node:diagnostics_channel";

/**
 * Node's built-in `fetch` (undici) publishes on this channel once a request's body is written
 * to the socket: from then on the process only waits for the reply.
 */
const BODY_SENT = "undici:request:bodySent";

interface UndiciRequestMessage {
  readonly request?: { readonly method?: unknown; readonly path?: unknown };
}

function isMessagesPost(message: unknown): boolean {
  const request = (message as UndiciRequestMessage | null)?.request;
  return (
    request?.method === "POST" &&
    typeof request.path === "string" &&
    request.path.split("?")[0]?.endsWith("/messages") === true
  );
}

/**
 * Calls `onSent` once, on the next turn of the event loop after a Messages API request has been
 * written out, and returns the function that stops watching. Another request of this process
 * (a concurrent run) may be the one seen: `onSent` must be harmless to call early. A `fetch`
 * that is not Node's own publishes nothing, and `onSent` is never called.
 */
export function watchRequestSent(onSent: () => void): () => void {
  let watching = true;
  const stop = (): void => {
    if (!watching) return;
    watching = false;
    unsubscribe(BODY_SENT, listener);
  };
  function listener(message: unknown): void {
    if (!isMessagesPost(message)) return;
    stop();
    // The publisher is undici's write path: run the caller's work after it, not inside it.
    setImmediate(onSent);
  }
  subscribe(BODY_SENT, listener);
  return stop;
}
