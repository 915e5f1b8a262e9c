import { nestingOf, type Problem } from "@climpt/model";
import { MAX_JSON_DEPTH, readRegularFileSync } from "@climpt/registry-schema";
import type { RunEvent } from "./run-event.ts";
import { RunnerError } from "./runner-error.ts";

/**
 * The longest journal line read. The runner's own lines stay far below it (a tool result is
 * capped at 50 KB, a model reply at its max_tokens); a longer one was written by something else.
 */
export const MAX_JOURNAL_LINE_CHARS = 32 * 1024 * 1024;

/**
 * The largest journal read at all: about what one JavaScript string can hold. A journal is read
 * whole, and a larger file would fail half-way through decoding instead of with a message.
 */
export const MAX_JOURNAL_BYTES = 512 * 1024 * 1024;

/**
 * How deep a journal line may nest: the limit a definition file has (`MAX_JSON_DEPTH`). The
 * deepest part of a line the runner writes is a step's output, which its schema bounds far below
 * this. JSON.parse builds any depth without complaint, but every reader after it is recursive
 * (printing `--json`, scrubbing, the viewer's page, resume's fold): a line nested 100,000 levels
 * deep overflowed the stack of `climpt show`.
 */
export const MAX_JOURNAL_DEPTH = MAX_JSON_DEPTH;

/** A journal's readable events, and a coded problem for each line that was left out. */
export interface JournalInspection {
  readonly events: RunEvent[];
  /** RUN-JOURNAL-002 (not a JSON event) and RUN-JOURNAL-004 (too long or too deep), by line. */
  readonly problems: readonly Problem[];
}

/**
 * The events of a journal, and a problem for each line that is not one: for showing a journal
 * (`climpt show`, `climpt runs`), where the rest is still worth reading. A last line cut off by a
 * crash is dropped without a problem (it is the only line that can be incomplete). Throws
 * RUN-JOURNAL-001 when the file cannot be read at all (missing, a FIFO or device, too large).
 */
export function inspectJournal(journalPath: string): JournalInspection {
  const text = readJournalText(journalPath);
  const lines = text.split("\n");
  let last = lines.length - 1;
  while (last >= 0 && (lines[last] as string).trim() === "") last--;
  const events: RunEvent[] = [];
  const problems: Problem[] = [];
  for (let index = 0; index <= last; index += 1) {
    const line = lines[index] as string;
    if (line.trim() === "") continue;
    const read = readLine(line, index + 1, journalPath);
    if (read.ok) events.push(read.event);
    // A torn last line (not JSON) is what a crash leaves; any other refusal is reported.
    else if (!(index === last && read.torn === true)) problems.push(read.problem);
  }
  return { events, problems };
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

type LineRead =
  | { readonly ok: true; readonly event: RunEvent }
  | { readonly ok: false; readonly problem: Problem; readonly torn?: boolean };

/** One line: checked for length and nesting before it is parsed, then parsed. */
function readLine(line: string, lineNumber: number, file: string): LineRead {
  const where = { severity: "error" as const, file, path: `line ${lineNumber}` };
  if (line.length > MAX_JOURNAL_LINE_CHARS) {
    return {
      ok: false,
      problem: {
        ...where,
        code: "RUN-JOURNAL-004",
        message: `Line ${lineNumber} of the journal ${file} is ${line.length} characters long, more than the ${MAX_JOURNAL_LINE_CHARS} a journal line may have; it is not read.`,
        hint: "The runner never writes such a line: the journal was edited or written by something else. Remove the line, or start a new run.",
      },
    };
  }
  if (nestingOf(line) > MAX_JOURNAL_DEPTH) {
    return {
      ok: false,
      problem: {
        ...where,
        code: "RUN-JOURNAL-004",
        message: `Line ${lineNumber} of the journal ${file} nests values more than ${MAX_JOURNAL_DEPTH} levels deep; it is not read.`,
        hint: "The runner never writes such a line: the journal was edited or written by something else. Remove the line, or start a new run.",
      },
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, torn: true, problem: notAnEvent(lineNumber, file, "is not valid JSON") };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problem: notAnEvent(lineNumber, file, "is not a JSON object") };
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") {
    return { ok: false, problem: notAnEvent(lineNumber, file, "has no event type") };
  }
  const shape = Object.hasOwn(EVENT_SHAPES, type) ? EVENT_SHAPES[type] : undefined;
  if (shape !== undefined && !shape(value as Record<string, unknown>)) {
    return {
      ok: false,
      problem: notAnEvent(lineNumber, file, `is not a ${type} event as the runner writes it`),
    };
  }
  return { ok: true, event: value as RunEvent };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The fields of the events a reader of a whole journal relies on (the summary of `climpt runs`
 * and `climpt show`, resume's fold): a line of one of these types without them is refused like
 * a line that is not JSON, instead of failing whoever reads it later.
 */
const EVENT_SHAPES: Readonly<Record<string, (event: Record<string, unknown>) => boolean>> = {
  run_start: (event) =>
    typeof event.runId === "string" &&
    typeof event.agent === "string" &&
    typeof event.time === "string",
  step_end: (event) => isObject(event.history) && isObject(event.routerState),
  model_response: (event) => isObject(event.totals),
  step_failed: (event) => isObject(event.error),
  run_end: (event) =>
    isObject(event.result) &&
    typeof event.result.success === "boolean" &&
    isObject(event.result.usage),
};

function notAnEvent(lineNumber: number, file: string, what: string): Problem {
  return {
    code: "RUN-JOURNAL-002",
    severity: "error",
    message: `Line ${lineNumber} of the journal ${file} ${what}.`,
    file,
    path: `line ${lineNumber}`,
    hint: "The journal was edited or corrupted; restore it, or start a new run.",
  };
}
