import { Worker } from "node:worker_threads";

/**
 * Regular expressions a model or a user writes (a search pattern, a `matches:` check) and the ones
 * globs become can backtrack for minutes on a short line (`^(a+)+$`, nested `{a,a}` braces). JavaScript
 * has no linear-time engine on Node 20, so matching runs in a worker thread with a deadline: the
 * event loop stays free, and at the deadline (or on abort) the worker is terminated, which stops
 * even a regular expression in the middle of backtracking.
 */

/** Keep the items (paths) that a regular expression matches. */
export interface FilterJob {
  readonly kind: "filter";
  readonly source: string;
  readonly flags: string;
  readonly items: readonly string[];
}

/** Search files line by line. */
export interface GrepJob {
  readonly kind: "grep";
  readonly source: string;
  readonly flags: string;
  readonly files: readonly string[];
  /** Stop at the first matching line of a file (files_with_matches). */
  readonly firstOnly: boolean;
  /** Keep the text of at most this many matching lines in all (content mode). */
  readonly maxLines: number;
  readonly maxLineChars: number;
  readonly maxFileBytes: number;
}

/** Per file: "large", "skip" (unreadable, binary, not a file), or its matches. */
export type GrepFileResult =
  | "large"
  | "skip"
  | { readonly count: number; readonly lines: readonly (readonly [number, string])[] };

export type PatternJob = FilterJob | GrepJob;

export type PatternOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly reason: "timeout" | "aborted" | "error";
      readonly message: string;
    };

/** The worker's code: plain JavaScript, so it runs the same from sources and from the bundle. */
const WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const job = workerData;
const regex = new RegExp(job.source, job.flags);
function capLine(line, max) {
  return line.length <= max ? line : line.slice(0, max) + "… [line cut at " + max + " characters]";
}
if (job.kind === "filter") {
  const kept = [];
  for (let i = 0; i < job.items.length; i++) if (regex.test(job.items[i])) kept.push(i);
  parentPort.postMessage(kept);
} else {
  const results = [];
  let kept = 0;
  for (const file of job.files) {
    let buffer;
    try {
      const stats = fs.statSync(file);
      if (!stats.isFile()) { results.push("skip"); continue; }
      if (stats.size > job.maxFileBytes) { results.push("large"); continue; }
      const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
      try { buffer = fs.readFileSync(fd); } finally { fs.closeSync(fd); }
    } catch { results.push("skip"); continue; }
    if (buffer.subarray(0, 8192).includes(0)) { results.push("skip"); continue; }
    const lines = buffer.toString("utf8").split(/\\r?\\n/);
    let count = 0;
    const shown = [];
    for (let index = 0; index < lines.length; index++) {
      if (!regex.test(lines[index])) continue;
      count++;
      if (job.firstOnly) break;
      if (kept < job.maxLines) { shown.push([index + 1, capLine(lines[index], job.maxLineChars)]); kept++; }
    }
    results.push({ count, lines: shown });
  }
  parentPort.postMessage(results);
}
`;

/** Runs a job in a fresh worker; resolves with its result, or why there is none. */
export function runPatternJob(
  job: FilterJob,
  options: JobOptions,
): Promise<PatternOutcome<number[]>>;
export function runPatternJob(
  job: GrepJob,
  options: JobOptions,
): Promise<PatternOutcome<GrepFileResult[]>>;
export function runPatternJob(
  job: PatternJob,
  options: JobOptions,
): Promise<PatternOutcome<unknown>> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ ok: false, reason: "aborted", message: "the call was aborted." });
      return;
    }
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: job });
    let settled = false;
    const finish = (outcome: PatternOutcome<unknown>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          reason: "timeout",
          message: `matching took longer than ${options.timeoutMs} ms and was stopped.`,
        }),
      options.timeoutMs,
    );
    const onAbort = (): void =>
      finish({ ok: false, reason: "aborted", message: "the call was aborted." });
    options.signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (value: unknown) => finish({ ok: true, value }));
    worker.once("error", (error) =>
      finish({ ok: false, reason: "error", message: (error as Error).message }),
    );
    worker.once("exit", () =>
      finish({ ok: false, reason: "error", message: "the matching worker stopped." }),
    );
  });
}

export interface JobOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}
