import {
  closeSync,
  existsSync,
  fdatasync,
  mkdirSync,
  openSync,
  readFileSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import nodePath from "node:path";
import type { AgentDefinition } from "@climpt/model";
import type { JournalSink } from "./journal-store.ts";
import type { RunEvent } from "./run-event.ts";
import { RunnerError } from "./runner-error.ts";

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
 * The events of a journal. A last line cut off by a crash is dropped (it is the only line that
 * can be incomplete); any other unreadable line is a coded error, because resuming from a
 * journal with a hole would silently repeat or skip work.
 */
export function readJournal(journalPath: string): RunEvent[] {
  let text: string;
  try {
    text = readFileSync(journalPath, "utf8");
  } catch (error) {
    throw new RunnerError({
      code: "RUN-JOURNAL-001",
      message: `Cannot read the journal ${journalPath}: ${(error as Error).message}.`,
      file: journalPath,
      hint: "Check the run id (it is the journal's file name) and the agent's logging.directory.",
      cause: error,
    });
  }
  const lines = text.split("\n");
  const events: RunEvent[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (line.trim() === "") continue;
    try {
      events.push(JSON.parse(line) as RunEvent);
    } catch (error) {
      const isLast = lines.slice(index + 1).every((rest) => rest.trim() === "");
      if (isLast) break;
      throw new RunnerError({
        code: "RUN-JOURNAL-002",
        message: `Line ${index + 1} of the journal ${journalPath} is not valid JSON.`,
        file: journalPath,
        path: `line ${index + 1}`,
        hint: "The journal was edited or corrupted; restore it, or start a new run.",
        cause: error,
      });
    }
  }
  return events;
}

/**
 * Makes a journal end at a line boundary before a resumed run appends to it. A crash in the
 * middle of a write leaves a last line without its newline; appending after it would glue the
 * next event onto it, and that line, no longer the last, would make every later read fail
 * (RUN-JOURNAL-002). A cut-off line is dropped (`readJournal` ignores it already); a complete
 * one only lacks its newline, which is added.
 */
export function endJournalAtLineBoundary(journalPath: string): void {
  const text = readFileSync(journalPath, "utf8");
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
      code: "RUN-JOURNAL-003",
      message: `"${options.runId}" is not a run id.`,
      hint: "A run id is the journal's file name without .jsonl, as printed at the end of a run.",
    });
  }
  return nodePath.join(journalDirectory(options), `${options.runId}.jsonl`);
}
