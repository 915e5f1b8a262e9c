import { describe, expect, it } from "vitest";
import { MAX_JOURNAL_DEPTH, MAX_JOURNAL_LINE_CHARS, parseJournal } from "./journal-parse.ts";

const start = JSON.stringify({ type: "run_start", runId: "r", time: "t", seq: 1, agent: "a" });
const note = JSON.stringify({ type: "notice", runId: "r", time: "t", seq: 2, message: "m" });

describe("parseJournal", () => {
  it("reads every event line and drops a last line a crash cut off without a problem", () => {
    const read = parseJournal(`${start}\n${note}\n{"type":"no`, "j.jsonl");
    expect(read.events.map((event) => event.type)).toEqual(["run_start", "notice"]);
    expect(read.problems).toEqual([]);
  });

  it("reports a cut-off last line when the reader says none can be torn", () => {
    const read = parseJournal(`${start}\n{"type":"no`, "j.jsonl", {
      firstLineNumber: 7,
      lastLineMayBeTorn: false,
    });
    expect(read.problems.map((problem) => [problem.code, problem.path])).toEqual([
      ["RUN-JOURNAL-002", "line 8"],
    ]);
  });

  it("refuses a line that is not an event, or a known event without the fields readers use (RUN-JOURNAL-002)", () => {
    const read = parseJournal(
      [start, "[1]", "{}", '{"type":"run_end","result":{}}', note].join("\n"),
      "j.jsonl",
    );
    expect(read.problems.map((problem) => [problem.code, problem.path])).toEqual([
      ["RUN-JOURNAL-002", "line 2"],
      ["RUN-JOURNAL-002", "line 3"],
      ["RUN-JOURNAL-002", "line 4"],
    ]);
    expect(read.events).toHaveLength(2);
  });

  it("refuses a line nested too deep or too long before parsing it (RUN-JOURNAL-004)", () => {
    const deep = `${"[".repeat(MAX_JOURNAL_DEPTH + 1)}${"]".repeat(MAX_JOURNAL_DEPTH + 1)}`;
    const long = `{"type":"notice","message":"${"x".repeat(MAX_JOURNAL_LINE_CHARS)}"}`;
    const read = parseJournal([start, deep, long, note].join("\n"), "j.jsonl");
    expect(read.problems.map((problem) => [problem.code, problem.path])).toEqual([
      ["RUN-JOURNAL-004", "line 2"],
      ["RUN-JOURNAL-004", "line 3"],
    ]);
    expect(read.events).toHaveLength(2);
  });
});
