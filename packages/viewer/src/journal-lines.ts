import { nestingOf } from "@climpt/model";
import { MAX_JSON_DEPTH } from "@climpt/registry-schema";

/** The events of a journal's text, and the lines that were not JSON objects. */
export interface ParsedLines {
  readonly events: unknown[];
  /** 1-based line numbers of lines that did not parse (a torn last line, an edit). */
  readonly skippedLines: number[];
  /**
   * 1-based line numbers of lines refused unparsed: longer than `MAX_LINE_CHARS` or nested
   * deeper than `MAX_JSON_DEPTH` (RUN-JOURNAL-004, as the runner refuses them).
   */
  readonly refusedLines: number[];
}

/** The longest line shown: the runner's `MAX_JOURNAL_LINE_CHARS`. */
export const MAX_LINE_CHARS = 32 * 1024 * 1024;

/**
 * Parses JSON lines for showing, not for resuming: unlike the runner's `readJournal`, a bad line
 * anywhere is skipped and reported instead of failing, because a viewer must show what it can of
 * a journal that was cut off or edited.
 */
export function parseJournalLines(text: string, firstLineNumber = 1): ParsedLines {
  const events: unknown[] = [];
  const skippedLines: number[] = [];
  const refusedLines: number[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    if (line === "") continue;
    // JSON.parse builds any depth; the page's every walk after it (scrubbing, the client's
    // rendering) is recursive, and a line nested 100,000 levels deep overflowed the stack.
    if (line.length > MAX_LINE_CHARS || nestingOf(line) > MAX_JSON_DEPTH) {
      refusedLines.push(firstLineNumber + index);
      continue;
    }
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) events.push(value);
      else skippedLines.push(firstLineNumber + index);
    } catch {
      skippedLines.push(firstLineNumber + index);
    }
  }
  return { events, skippedLines, refusedLines };
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
      `RUN-JOURNAL-004: ${refused.length} line${refused.length === 1 ? "" : "s"} of ${file} ${refused.length === 1 ? "is" : "are"} longer than ${MAX_LINE_CHARS} characters or nested more than ${MAX_JSON_DEPTH} levels deep and ${refused.length === 1 ? "is" : "are"} not shown (line ${lineList(refused)}).`,
    );
  }
  return notices;
}

function lineList(lines: readonly number[]): string {
  return `${lines.slice(0, 5).join(", ")}${lines.length > 5 ? ", …" : ""}`;
}
