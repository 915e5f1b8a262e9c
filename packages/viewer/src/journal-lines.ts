import { MAX_JOURNAL_DEPTH, MAX_JOURNAL_LINE_CHARS, parseJournal } from "@climpt/protocol";

/** The events of a journal's text, and the lines that were left out. */
export interface ParsedLines {
  readonly events: unknown[];
  /**
   * 1-based line numbers of lines that are not events (RUN-JOURNAL-002: not JSON, a torn last
   * line, not an object, a known event without the fields readers rely on).
   */
  readonly skippedLines: number[];
  /**
   * 1-based line numbers of lines refused unparsed: longer than `MAX_LINE_CHARS` or nested
   * deeper than `MAX_JOURNAL_DEPTH` (RUN-JOURNAL-004).
   */
  readonly refusedLines: number[];
}

/** The longest line shown: the protocol's `MAX_JOURNAL_LINE_CHARS`. */
export const MAX_LINE_CHARS: number = MAX_JOURNAL_LINE_CHARS;

/**
 * Parses JSON lines for showing, with @climpt/protocol's `parseJournal` (the reader `climpt runs`,
 * `climpt show` and resume use, so a line is an event for all of them or for none): every bad
 * line is left out and its number reported, a torn last line included — a viewer says what it
 * does not show.
 */
export function parseJournalLines(text: string, firstLineNumber = 1): ParsedLines {
  const read = parseJournal(text, "journal", { firstLineNumber, lastLineMayBeTorn: false });
  const skippedLines: number[] = [];
  const refusedLines: number[] = [];
  for (const problem of read.problems) {
    const line = Number(problem.path?.replace(/^line /, ""));
    (problem.code === "RUN-JOURNAL-004" ? refusedLines : skippedLines).push(line);
  }
  return { events: read.events, skippedLines, refusedLines };
}

/** A notice about skipped and refused lines, or none. */
export function skippedLinesNotice(
  file: string,
  skipped: readonly number[],
  refused: readonly number[] = [],
): string[] {
  const notices: string[] = [];
  if (skipped.length > 0) {
    notices.push(
      `${skipped.length} line${skipped.length === 1 ? "" : "s"} of ${file} did not parse and ${skipped.length === 1 ? "is" : "are"} not shown (line ${lineList(skipped)}).`,
    );
  }
  if (refused.length > 0) {
    notices.push(
      `RUN-JOURNAL-004: ${refused.length} line${refused.length === 1 ? "" : "s"} of ${file} ${refused.length === 1 ? "is" : "are"} longer than ${MAX_LINE_CHARS} characters or nested more than ${MAX_JOURNAL_DEPTH} levels deep and ${refused.length === 1 ? "is" : "are"} not shown (line ${lineList(refused)}).`,
    );
  }
  return notices;
}

function lineList(lines: readonly number[]): string {
  return `${lines.slice(0, 5).join(", ")}${lines.length > 5 ? ", …" : ""}`;
}
