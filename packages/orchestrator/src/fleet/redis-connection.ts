import { ClimptError } from "@climpt/model";
import type { Redis } from "ioredis";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import { loadFleetModules } from "./fleet-modules.ts";

/** The BullMQ queue of issue jobs. */
export const DEFAULT_QUEUE_NAME = "climpt-issues";
/** Prefix of the orchestrator's own keys (state, locks, limiter, repository slots). */
export const KEY_PREFIX = "climpt";

/** Checks a `--queue` URL: `redis://` or `rediss://`, with a host. */
export function parseQueueUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badUrl(text);
  }
  if ((url.protocol !== "redis:" && url.protocol !== "rediss:") || url.hostname === "")
    throw badUrl(text);
  return url;
}

function badUrl(text: string): ClimptError {
  return new ClimptError({
    code: C.queueBadUrl,
    message: `"${text}" is not a Redis URL.`,
    hint: "Write --queue redis://HOST:PORT (rediss:// for TLS; redis://:PASSWORD@HOST:PORT/DB with a password or database).",
  });
}

/** The URL without its password, for messages. */
export function safeUrl(url: URL): string {
  const copy = new URL(url.toString());
  copy.password = "";
  copy.username = "";
  return copy.toString();
}

/** What BullMQ is given to make its own connections (blocking commands need no retry limit). */
export function bullConnection(url: URL): { url: string; maxRetriesPerRequest: null } {
  return { url: url.toString(), maxRetriesPerRequest: null };
}

/**
 * A connected client for the orchestrator's own keys, or a coded error when Redis cannot be
 * reached within `timeoutMs` (ioredis would otherwise retry forever and every call would hang).
 */
export async function connectRedis(url: URL, timeoutMs = 5_000): Promise<Redis> {
  const { Redis } = await loadFleetModules();
  const client = new Redis(url.toString(), {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 3,
    enableOfflineQueue: true,
  });
  client.on("error", () => {
    // Reported through the failing command or the connect below; an unhandled 'error' event
    // would crash the process.
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return client;
  } catch (error) {
    client.disconnect();
    throw new ClimptError({
      code: C.queueUnreachable,
      message: `Redis at ${safeUrl(url)} cannot be reached: ${(error as Error).message}.`,
      hint: "Start Redis there (redis-server), or fix --queue.",
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}
