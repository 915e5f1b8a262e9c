import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MAX_JSON_DEPTH } from "@climpt/registry-schema";
import { afterAll, describe, expect, it } from "vitest";
import {
  inspectJournal,
  MAX_JOURNAL_DEPTH,
  MAX_JOURNAL_LINE_CHARS,
  readJournal,
} from "./journal-read.ts";
import { RunnerError } from "./runner-error.ts";

const dir = mkdtempSync(path.join(tmpdir(), "climpt-journal-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
function journal(lines: readonly string[]): string {
  const file = path.join(dir, `run-${++count}.jsonl`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const start = JSON.stringify({
  type: "run_start",
  runId: "r",
  agent: "a",
  time: "2026-11-28T00:00:00.000Z",
  seq: 1,
});
const end = JSON.stringify({
  type: "run_end",
  result: { success: true, usage: { inputTokens: 0 } },
  seq: 3,
});
/** An event whose `deep` field nests `levels` objects. */
const deepEvent = (levels: number): string =>
  `{"type":"note","seq":2,"deep":${'{"a":'.repeat(levels)}1${"}".repeat(levels)}}`;

function thrown(run: () => unknown): RunnerError {
  try {
    run();
  } catch (error) {
    if (error instanceof RunnerError) return error;
    throw error;
  }
  throw new Error("expected a RunnerError");
}

describe("reading a journal a model or a user could have written into", () => {
  it("leaves out a line nested 100,000 levels deep, coded, and keeps the rest", () => {
    const file = journal([start, deepEvent(100_000), end]);
    const { events, problems } = inspectJournal(file);
    expect(events.map((event) => event.type)).toEqual(["run_start", "run_end"]);
    expect(problems).toEqual([
      expect.objectContaining({ code: "RUN-JOURNAL-004", file, path: "line 2" }),
    ]);
    // What every reader after it does with an event: without the check, a stack overflow.
    expect(() => JSON.stringify(events)).not.toThrow();
  });

  it("accepts a line at the depth limit and refuses one level more", () => {
    // The event object itself is one level.
    const atLimit = inspectJournal(journal([start, deepEvent(MAX_JOURNAL_DEPTH - 1)]));
    expect(atLimit.problems).toEqual([]);
    const beyond = inspectJournal(journal([start, deepEvent(MAX_JOURNAL_DEPTH), end]));
    expect(beyond.problems.map((problem) => problem.code)).toEqual(["RUN-JOURNAL-004"]);
  });

  it("refuses a line too long to be the runner's, unparsed", () => {
    const long = `{"type":"note","text":"${"x".repeat(MAX_JOURNAL_LINE_CHARS)}"}`;
    const { problems } = inspectJournal(journal([start, long, end]));
    expect(problems[0]?.code).toBe("RUN-JOURNAL-004");
    expect(problems[0]?.message).toContain("characters long");
  });

  it("refuses a too-deep last line too (only a torn last line is what a crash leaves)", () => {
    const { problems } = inspectJournal(journal([start, deepEvent(100_000)]));
    expect(problems.map((problem) => problem.path)).toEqual(["line 2"]);
  });

  it("makes resuming from such a journal a coded error naming the file and line", () => {
    const file = journal([start, deepEvent(100_000), end]);
    const error = thrown(() => readJournal(file));
    expect(error.code).toBe("RUN-JOURNAL-004");
    expect(error.file).toBe(file);
    expect(error.path).toBe("line 2");
  });

  it("still drops a last line cut off by a crash without a word", () => {
    const file = journal([start, '{"type":"step_st']);
    expect(inspectJournal(file).problems).toEqual([]);
    expect(readJournal(file)).toHaveLength(1);
  });

  it("refuses a FIFO in place of the journal at once, instead of waiting for a writer", () => {
    const fifo = path.join(dir, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    const error = thrown(() => readJournal(fifo));
    expect(error.code).toBe("RUN-JOURNAL-001");
    expect(error.message).toContain("FIFO");
  });

  it("refuses a line of a known type without the fields readers rely on, and keeps the rest", () => {
    const file = journal([start, '{"type":"run_end","seq":3}', end]);
    const { events, problems } = inspectJournal(file);
    expect(problems).toEqual([
      expect.objectContaining({ code: "RUN-JOURNAL-002", path: "line 2" }),
    ]);
    expect(problems[0]?.message).toContain("is not a run_end event as the runner writes it");
    expect(events).toHaveLength(2);
  });
});

describe("the journal's nesting limit", () => {
  it("is a definition file's (the protocol states the number, the schema package owns it)", () => {
    expect(MAX_JOURNAL_DEPTH).toBe(MAX_JSON_DEPTH);
  });
});
