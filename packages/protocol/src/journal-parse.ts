import { nestingOf, type Problem } from "@climpt/model";
import type { RunEvent } from "./run-event.ts";

/**
 * The longest journal line read. The runner's own lines stay far below it (a tool result is
 * capped at 50 KB, a model reply at its max_tokens); a longer one was written by something else.
 */
export const MAX_JOURNAL_LINE_CHARS: number = 32 * 1024 * 1024;

/**
 * The largest journal read at all: about what one JavaScript string can hold. A journal is read
 * whole, and a larger file would fail half-way through decoding instead of with a message.
 */
export const MAX_JOURNAL_BYTES: number = 512 * 1024 * 1024;

/**
 * How deep a journal line may nest: the limit a definition file has (`MAX_JSON_DEPTH` of
 * @climpt/registry-schema, the same number; the runner's tests hold the two together). The deepest
 * part of a line the runner writes is a step's output, which its schema bounds far below this.
 * JSON.parse builds any depth without complaint, but every reader after it is recursive (printing
 * `--json`, scrubbing, the viewer's page, resume's fold): a line nested 100,000 levels deep
 * overflowed the stack of `climpt show`.
 */
export const MAX_JOURNAL_DEPTH = 1_000;

/** A journal's readable events, and a coded problem for each line that was left out. */
export interface JournalInspection {
  readonly events: RunEvent[];
  /** RUN-JOURNAL-002 (not a JSON event) and RUN-JOURNAL-004 (too long or too deep), by line. */
  readonly problems: readonly Problem[];
}

export interface ParseJournalOptions {
  /** The 1-based number of the text's first line (a live reader reads a journal in pieces). */
  readonly firstLineNumber?: number;
  /**
   * Whether the text's last line may be one a crash cut off (true for a whole journal): such a
   * line (not JSON) is dropped without a problem. A live reader that keeps an unfinished line for
   * its next read passes only complete lines and false.
   */
  readonly lastLineMayBeTorn?: boolean;
}

/**
 * The events of a journal's text, and a coded problem for each line that is not one: every line
 * is checked for length and nesting before it is parsed (RUN-JOURNAL-004), then parsed and, for
 * the event types readers rely on, checked for the fields they read (RUN-JOURNAL-002). The one
 * place that decides what a journal line is; `file` only names it in the problems.
 */
export function parseJournal(
  text: string,
  file: string,
  options: ParseJournalOptions = {},
): JournalInspection {
  const first = options.firstLineNumber ?? 1;
  const lines = text.split("\n");
  let last = lines.length - 1;
  while (last >= 0 && (lines[last] as string).trim() === "") last--;
  const events: RunEvent[] = [];
  const problems: Problem[] = [];
  for (let index = 0; index <= last; index += 1) {
    const line = lines[index] as string;
    if (line.trim() === "") continue;
    const read = readLine(line, first + index, file);
    if (read.ok) events.push(read.event);
    // A torn last line (not JSON) is what a crash leaves; any other refusal is reported.
    else if (!(index === last && read.torn === true && options.lastLineMayBeTorn !== false))
      problems.push(read.problem);
  }
  return { events, problems };
}

type LineRead =
  | { readonly ok: true; readonly event: RunEvent }
  | { readonly ok: false; readonly problem: Problem; readonly torn?: boolean };

function readLine(line: string, lineNumber: number, file: string): LineRead {
  if (line.length > MAX_JOURNAL_LINE_CHARS) {
    return refused(
      lineNumber,
      file,
      `is ${line.length} characters long, more than the ${MAX_JOURNAL_LINE_CHARS} a journal line may have`,
    );
  }
  if (nestingOf(line) > MAX_JOURNAL_DEPTH) {
    return refused(lineNumber, file, `nests values more than ${MAX_JOURNAL_DEPTH} levels deep`);
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, torn: true, problem: notAnEvent(lineNumber, file, "is not valid JSON") };
  }
  if (!isObject(value)) {
    return { ok: false, problem: notAnEvent(lineNumber, file, "is not a JSON object") };
  }
  const type = value.type;
  if (typeof type !== "string") {
    return { ok: false, problem: notAnEvent(lineNumber, file, "has no event type") };
  }
  const shape = Object.hasOwn(EVENT_SHAPES, type) ? EVENT_SHAPES[type] : undefined;
  if (shape !== undefined && !shape(value)) {
    return {
      ok: false,
      problem: notAnEvent(lineNumber, file, `is not a ${type} event as the runner writes it`),
    };
  }
  return { ok: true, event: value as unknown as RunEvent };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The fields of the events a reader of a whole journal relies on (the run summary, resume's
 * fold): a line of one of these types without them is refused like a line that is not JSON,
 * instead of failing whoever reads it later.
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

function refused(lineNumber: number, file: string, what: string): LineRead {
  return {
    ok: false,
    problem: {
      code: "RUN-JOURNAL-004",
      severity: "error",
      message: `Line ${lineNumber} of the journal ${file} ${what}; it is not read.`,
      file,
      path: `line ${lineNumber}`,
      hint: "The runner never writes such a line: the journal was edited or written by something else. Remove the line, or start a new run.",
    },
  };
}

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
