import { type JournalInspection, MAX_JOURNAL_BYTES, parseJournal } from "@climpt/protocol";
import { readRegularFileSync } from "@climpt/registry-schema";
import type { RunEvent } from "./run-event.ts";
import { RunnerError } from "./runner-error.ts";

// What a journal line is (its length, nesting and shape) is decided by @climpt/protocol's
// `parseJournal`, the one reader every tool shares; this file adds the reading of the file.
export {
  type JournalInspection,
  MAX_JOURNAL_BYTES,
  MAX_JOURNAL_DEPTH,
  MAX_JOURNAL_LINE_CHARS,
} from "@climpt/protocol";

/**
 * The events of a journal, and a problem for each line that is not one: for showing a journal
 * (`climpt show`, `climpt runs`), where the rest is still worth reading. A last line cut off by a
 * crash is dropped without a problem (it is the only line that can be incomplete). Throws
 * RUN-JOURNAL-001 when the file cannot be read at all (missing, a FIFO or device, too large).
 */
export function inspectJournal(journalPath: string): JournalInspection {
  return parseJournal(readJournalText(journalPath), journalPath);
}

/**
 * The events of a journal, for resuming from it: any line that is not an event, other than a last
 * line cut off by a crash, is a coded error, because resuming from a journal with a hole would
 * silently repeat or skip work.
 */
export function readJournal(journalPath: string): RunEvent[] {
  const { events, problems } = inspectJournal(journalPath);
  const first = problems[0];
  if (first !== undefined) {
    throw new RunnerError({
      code: first.code,
      message: first.message,
      file: journalPath,
      ...(first.path === undefined ? {} : { path: first.path }),
      ...(first.hint === undefined ? {} : { hint: first.hint }),
    });
  }
  return events;
}

function readJournalText(journalPath: string): string {
  const read = readRegularFileSync(journalPath, { maxBytes: MAX_JOURNAL_BYTES });
  if (read.ok) return read.bytes.toString("utf8");
  throw new RunnerError({
    code: "RUN-JOURNAL-001",
    message: `Cannot read the journal ${journalPath}: it ${read.detail}.`,
    file: journalPath,
    hint:
      read.reason === "missing"
        ? "Check the run id (it is the journal's file name) and the agent's logging.directory."
        : "A journal is a regular file the runner appends to; restore it, or start a new run.",
  });
}
