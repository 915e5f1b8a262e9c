/**
 * Waiting for something another process or a server does: poll a condition until it holds. Tests
 * use these instead of fixed sleeps, so a busy machine makes a wait longer, never wrong. Every wait
 * has a bound; it only detects a hang (a process never reaped, a request never sent), so it is
 * generous, and a test file's own hang limit may come first.
 */

/** How long a wait polls before it gives up, when the caller names no bound. */
export const DEFAULT_WAIT_LIMIT_MS = 120_000;

export interface WaitOptions {
  /** What is awaited, named in the error when the wait gives up. */
  readonly what?: string;
  /** How long to poll before giving up (DEFAULT_WAIT_LIMIT_MS). */
  readonly limitMs?: number;
  /** The pause between polls (20 ms). */
  readonly intervalMs?: number;
  /**
   * Says why the awaited thing can no longer happen (a process exited, a run ended), or undefined
   * while it still can: the wait then fails at once instead of at its bound.
   */
  readonly failed?: () => string | undefined;
}

type Condition = () => boolean | Promise<boolean>;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `condition` until it holds or `limitMs` passes; returns whether it held. For a test that
 * asserts the outcome itself (`expect(await waitUntil(…)).toBe(true)`).
 */
export async function waitUntil(
  condition: Condition,
  limitMs: number = DEFAULT_WAIT_LIMIT_MS,
  intervalMs = 20,
): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await pause(intervalMs);
  }
  return await condition();
}

/** Polls `condition` until it holds; throws, naming `what`, when the bound passes or `failed` says so. */
export async function waitFor(condition: Condition, options: WaitOptions = {}): Promise<void> {
  const { what = "the condition", limitMs = DEFAULT_WAIT_LIMIT_MS, intervalMs = 20 } = options;
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    const reason = options.failed?.();
    if (reason !== undefined) throw new Error(`gave up waiting for ${what}: ${reason}`);
    if (Date.now() > deadline) {
      throw new Error(`waited ${Math.round(limitMs / 1000)} s for ${what}; it never came`);
    }
    await pause(intervalMs);
  }
}
