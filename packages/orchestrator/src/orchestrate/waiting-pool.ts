import { sleep } from "./issue-run.ts";
import type { IssueResult } from "./issue-types.ts";

/**
 * Runs `work` over `items` with at most `concurrency` at once, results in item order, like a
 * plain pool — except that an item whose result is `waiting` (a `checks` phase whose pull
 * request's checks are pending) is worked on again after its `retryAfterMs`, WITHOUT holding a
 * slot meanwhile: other issues run while CI does. Each wait is bounded by the phase's timeout (the
 * issue is blocked then), so this ends. A stop (`signal`) ends the waits: the item keeps its
 * `waiting` result, and its record keeps the wait for the next batch.
 */
export async function runPoolWithWaits<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<IssueResult>,
  signal?: AbortSignal,
): Promise<IssueResult[]> {
  let free = Math.max(1, concurrency);
  const queue: (() => void)[] = [];
  const acquire = (): Promise<void> => {
    if (free > 0) {
      free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => queue.push(resolve));
  };
  const release = (): void => {
    const next = queue.shift();
    if (next === undefined) free += 1;
    else next();
  };
  // Items acquire in order, so the first ones (the prioritized order) start first.
  return Promise.all(
    items.map(async (item) => {
      let earlier: IssueResult | null = null;
      for (;;) {
        await acquire();
        let result: IssueResult;
        try {
          result = together(earlier, await work(item));
        } finally {
          release();
        }
        earlier = result;
        if (result.status !== "waiting" || signal?.aborted) return result;
        await sleep(result.retryAfterMs ?? 1_000, signal);
        if (signal?.aborted) return result;
      }
    }),
  );
}

/** One issue's result over several passes: what each pass did, the last pass's status. */
function together(earlier: IssueResult | null, later: IssueResult): IssueResult {
  if (earlier === null) return later;
  const landed = [...(earlier.landed ?? []), ...(later.landed ?? [])];
  return {
    ...later,
    closed: earlier.closed || later.closed,
    transitions: [...earlier.transitions, ...later.transitions],
    runs: [...earlier.runs, ...later.runs],
    resumed: [...earlier.resumed, ...later.resumed],
    ...(landed.length === 0 ? {} : { landed }),
  };
}
