import {
  closeSync,
  existsSync,
  fdatasync,
  mkdirSync,
  openSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import nodePath from "node:path";
import type { AgentDefinition } from "@climpt/model";
import { readRegularFileSync } from "@climpt/registry-schema";
import { MAX_JOURNAL_BYTES } from "../journal-read.ts";

// Reading a journal lives in journal-read.ts; kept reachable from here, where it used to be.
export { readJournal } from "../journal-read.ts";

import { RUNNER_CODES } from "../codes.ts";
import type { RunEvent } from "../run-event.ts";
import { RunnerError } from "../runner-error.ts";
import type { JournalSink } from "./journal-sink.ts";

/**
 * The append-only journal of one run, one JSON event per line, with group commit.
 *
 * `append` writes the line to the file at once (one `write`, no `fsync`): the events are in the
 * file in order, and a crash of the process (`kill -9`) loses none of them; only a crash of the
 * machine can lose what was not yet flushed. `flush` makes everything appended so far durable
 * with one `fdatasync` run on libuv's thread pool, off the main thread. At most one flush is in
 * flight per file; callers that ask while one runs share the next one, so a burst of waiters
 * costs two flushes at most, and concurrent runs (one file each) flush in parallel, where the
 * filesystem commits them together. The runner calls `flush` only where resume depends on it
 * (see `RunEventStream.durable`), not per event. With `fsync: false` nothing is ever flushed:
 * the journal then survives a crash of the process but not of the machine.
 */
export class JournalWriter implements JournalSink {
  private fd: number | undefined;
  /** Lines written to the file. */
  private written = 0;
  /** Lines known to be on disk. */
  private synced = 0;
  /** The flush in flight, if any. */
  private inFlight: Promise<void> | undefined;

  constructor(
    readonly path: string,
    private readonly fsync: boolean = true,
  ) {
    const directory = nodePath.dirname(path);
    mkdirSync(directory, { recursive: true });
    // The journal usually lives inside the repository the agent works on. Its folder ignores
    // itself, so a git-clean validator (`git status --porcelain`) never sees it.
    const ignore = nodePath.join(directory, ".gitignore");
    if (!existsSync(ignore)) writeFileSync(ignore, "*\n");
    // "a": append-only; an existing journal (resume) keeps every line it has.
    this.fd = openSync(path, "a");
  }

  append(event: RunEvent): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${JSON.stringify(event)}\n`);
    this.written += 1;
  }

  /** Resolves once every line appended before the call is on disk. */
  async flush(): Promise<void> {
    if (!this.fsync) return;
    const target = this.written;
    while (this.synced < target && this.fd !== undefined) {
      this.inFlight ??= this.startFlush(this.fd);
      await this.inFlight;
    }
  }

  private startFlush(fd: number): Promise<void> {
    const covers = this.written;
    return new Promise<void>((resolve, reject) => {
      fdatasync(fd, (error) => {
        this.inFlight = undefined;
        if (error !== null) {
          reject(error);
          return;
        }
        this.synced = Math.max(this.synced, covers);
        resolve();
      });
    });
  }

  close(): void {
    const fd = this.fd;
    if (fd === undefined) return;
    this.fd = undefined;
    // Never close under a flush in flight: the descriptor number could be reused meanwhile.
    if (this.inFlight === undefined) closeSync(fd);
    else
      void this.inFlight.then(
        () => closeSync(fd),
        () => closeSync(fd),
      );
  }
}

/**
 * Makes a journal end at a line boundary before a resumed run appends to it. A crash in the
 * middle of a write leaves a last line without its newline; appending after it would glue the
 * next event onto it, and that line, no longer the last, would make every later read fail
 * (RUN-JOURNAL-002). A cut-off line is dropped (`readJournal` ignores it already); a complete
 * one only lacks its newline, which is added.
 */
export function endJournalAtLineBoundary(journalPath: string): void {
  // Read as `readJournal` reads it: a FIFO or device here is refused, never waited on.
  const read = readRegularFileSync(journalPath, { maxBytes: MAX_JOURNAL_BYTES });
  if (!read.ok) {
    throw new RunnerError({
      code: RUNNER_CODES.journalUnreadable,
      message: `Cannot read the journal ${journalPath}: it ${read.detail}.`,
      file: journalPath,
      hint: "A journal is a regular file the runner appends to; restore it, or start a new run.",
    });
  }
  const text = read.bytes.toString("utf8");
  if (text === "" || text.endsWith("\n")) return;
  const lastBreak = text.lastIndexOf("\n");
  try {
    JSON.parse(text.slice(lastBreak + 1));
    writeFileSync(journalPath, "\n", { flag: "a" });
  } catch {
    truncateSync(journalPath, Buffer.byteLength(text.slice(0, lastBreak + 1), "utf8"));
  }
}

/** `<cwd>/<agent.logging.directory>`, or `journalDir` when given. */
export function journalDirectory(options: {
  readonly cwd: string;
  readonly agent: AgentDefinition;
  readonly journalDir?: string;
}): string {
  return nodePath.resolve(options.cwd, options.journalDir ?? options.agent.logging.directory);
}

export function journalPath(options: {
  readonly cwd: string;
  readonly agent: AgentDefinition;
  readonly runId: string;
  readonly journalDir?: string;
}): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(options.runId)) {
    throw new RunnerError({
      code: RUNNER_CODES.badRunId,
      message: `"${options.runId}" is not a run id.`,
      hint: "A run id is the journal's file name without .jsonl, as printed at the end of a run.",
    });
  }
  return nodePath.join(journalDirectory(options), `${options.runId}.jsonl`);
}
